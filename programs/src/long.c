/* long: a long mixed workload (>= 200 million instructions) for
 * throughput measurements.  ITERS rounds of:
 *   - a sorted singly linked list: 48 insertions, a weighted traversal,
 *     in-place reversal, unlinking every third node
 *   - a 10x10 integer matrix product, checked against the identity
 *     sum(C) = sum_k colsum(A)[k] * rowsum(B)[k]
 *   - a tokenizer state machine (switch) over 96 generated characters
 *   - CRC-32 (table driven) over the product matrix
 * Everything folds into one 64-bit digest, compared with the value the
 * same source computes on the build host (cc -DLONG_HOST src/long.c). */
#ifdef LONG_HOST
#include <stdint.h>
#include <stdio.h>
#else
#include "rt.h"
#endif

#ifndef ITERS
#define ITERS 10000
#endif
/* digest for ITERS = 10000, from the host build */
#define WANT 0x64bc775c5a48ccc0ull

#define NODES 48
#define DIM 10
#define TEXT 96

struct node { uint32_t key; struct node *next; };

static struct node pool[NODES];
static uint32_t ma[DIM][DIM], mb[DIM][DIM], mc[DIM][DIM];
static uint32_t crc_table[256];
static char text[TEXT + 1];
static int bad;                         /* first failed internal check */

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static uint64_t list_round(uint32_t seed)
{
    struct node *head = 0;
    for (int i = 0; i < NODES; i++) {
        struct node *n = &pool[i], **pp = &head;
        n->key = lcg(&seed) & 0xffff;
        while (*pp && (*pp)->key < n->key)
            pp = &(*pp)->next;
        n->next = *pp;
        *pp = n;
    }
    uint64_t h = 0;
    uint32_t prev = 0;
    int count = 0;
    for (struct node *n = head; n; n = n->next, count++) {
        if (n->key < prev && !bad)
            bad = 1;
        prev = n->key;
        h = h * 31 + n->key;
    }
    struct node *rev = 0;
    while (head) {
        struct node *next = head->next;
        head->next = rev;
        rev = head;
        head = next;
    }
    int idx = 0;
    for (struct node **pp = &rev; *pp; idx++) {
        if (idx % 3 == 2)
            *pp = (*pp)->next;
        else
            pp = &(*pp)->next;
    }
    int left = 0;
    for (struct node *n = rev; n; n = n->next, left++)
        h ^= (uint64_t)n->key << (left & 31);
    if ((count != NODES || left != NODES - NODES / 3) && !bad)
        bad = 2;
    return h;
}

static uint64_t matrix_round(uint32_t seed)
{
    uint64_t colsum[DIM] = { 0 }, rowsum[DIM] = { 0 }, total = 0, want = 0;
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            ma[i][j] = lcg(&seed) & 0x3ff;
            mb[i][j] = lcg(&seed) & 0x3ff;
            colsum[j] += ma[i][j];
            rowsum[i] += mb[i][j];
        }
    for (int i = 0; i < DIM; i++)
        for (int j = 0; j < DIM; j++) {
            uint32_t acc = 0;
            for (int k = 0; k < DIM; k++)
                acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
            total += acc;
        }
    for (int k = 0; k < DIM; k++)
        want += colsum[k] * rowsum[k];
    if (total != want && !bad)
        bad = 3;
    return total;
}

/* tokens: identifiers [a-z]+, numbers [0-9]+, punctuation, spaces */
static uint64_t lex_round(uint32_t seed)
{
    static const char alphabet[] = "abz19 ,( )x0 q";
    for (int i = 0; i < TEXT; i++)
        text[i] = alphabet[lcg(&seed) % (sizeof alphabet - 1)];
    text[TEXT] = 0;
    enum { SPACE, IDENT, NUMBER } st = SPACE;
    uint64_t idents = 0, numbers = 0, punct = 0, value = 0;
    for (const char *p = text;; p++) {
        char c = *p;
        int cls = c >= 'a' && c <= 'z' ? 1 : c >= '0' && c <= '9' ? 2
                : c == ' ' || c == 0 ? 0 : 3;
        switch (st) {
        case IDENT:
            if (cls == 1)
                continue;
            break;
        case NUMBER:
            if (cls == 2) {
                value = value * 10 + (uint64_t)(c - '0');
                continue;
            }
            break;
        case SPACE:
            break;
        }
        if (!c)
            break;
        switch (cls) {
        case 1: st = IDENT; idents++; break;
        case 2: st = NUMBER; numbers++; value = value * 10 + (uint64_t)(c - '0');
            break;
        case 3: st = SPACE; punct++; break;
        default: st = SPACE; break;
        }
    }
    return idents | numbers << 16 | punct << 32 | (value & 0xffff) << 48;
}

static uint32_t crc_round(void)
{
    const uint8_t *p = (const uint8_t *)mc;
    uint32_t crc = 0xffffffffu;
    for (unsigned i = 0; i < sizeof mc; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static uint64_t run(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        crc_table[i] = c;
    }
    uint64_t digest = 0;
    for (uint32_t it = 0; it < ITERS; it++) {
        digest = digest * 0x100000001b3ull ^ list_round(it);
        digest = digest * 0x100000001b3ull ^ matrix_round(it * 7 + 1);
        digest = digest * 0x100000001b3ull ^ lex_round(it * 13 + 5);
        digest = digest * 0x100000001b3ull ^ crc_round();
    }
    return digest;
}

#ifdef LONG_HOST
int main(void)
{
    uint64_t d = run();
    printf("long: ITERS=%d digest=0x%llx bad=%d\n", ITERS,
           (unsigned long long)d, bad);
    return bad;
}
#else
int main(void)
{
    uint64_t d = run();
    int err = bad ? rt_expect((uint64_t)bad, 0, bad) : 0;
#if ITERS == 10000
    if (!err) err = rt_expect(d, WANT, 10);
#endif
    return rt_report("long", d, err);
}
#endif
