/* The writers' batch loops take runs of blocks in one step (issue #17:
 * rvt_cs_blocks_stay for the stack writers, a block repeated at once
 * for the coverage writers); a run must stop where a block is another
 * hart's, runs in another privilege, leaves the function, or is another
 * block at the same start.  A hand-built batch over sum_to's loop in
 * cov.elf (programs/src/cov.c) with each of those inside it, then loops
 * of two blocks (which are no such run), given to every writer
 * with a batch entry three ways -- the batch to rvt_out_blocks, each
 * block to the block entry, each instruction as an event -- must give the
 * same bytes; and the counts, derived by hand below, must be in them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/flow.h"
#include "rvtrace/image.h"
#include "rvtrace/out.h"
#include "th_program.h"

/* sum_to (rvtrace disasm programs/cov.elf):
 *   92..a8  prologue, ends in j c4              9 instructions
 *   aa..d2  the loop body, ends in bge -> aa   14 instructions
 *   c4..d2  the loop test alone                 6 instructions
 * (aa..b4 4 instructions, b6..d2 10: the body split at b6); rt_puthex:
 *   3bc..3cc  6 instructions, ends in blez -> 412 (falls through to 3d0)
 *   3d0..3e0  6 instructions, ends in beqz -> 3bc */
#define F(x) (0x80000000ull + (x))
enum { BODY = 14 };

static rvt_block blk(uint64_t start, uint64_t end, uint64_t n, rvt_block_end how, uint64_t next,
                     uint8_t priv, uint16_t src)
{
    return (rvt_block){ .start_pc = start, .end_pc = end, .ninsn = n, .next_pc = next, .end = how,
                        .priv = priv, .src = src };
}

static size_t batch(rvt_block *b)
{
    size_t n = 0;
    b[n++] = blk(F(0x92), F(0xa8), 9, RVT_BLK_JUMP, F(0xc4), 3, 0);
    b[n++] = blk(F(0xc4), F(0xd2), 6, RVT_BLK_BRANCH_TAKEN, F(0xaa), 3, 0);
    for (int i = 0; i < 4; i++)     /* a run of one block repeated */
        b[n++] = blk(F(0xaa), F(0xd2), BODY, RVT_BLK_BRANCH_TAKEN, F(0xaa), 3, 0);
    b[n++] = blk(F(0xaa), F(0xd2), BODY, RVT_BLK_BRANCH_TAKEN, F(0xaa), 3, 1);   /* hart 1 */
    b[n++] = blk(F(0xaa), F(0xd2), BODY, RVT_BLK_BRANCH_TAKEN, F(0xaa), 3, 0);
    b[n++] = blk(F(0xaa), F(0xd2), BODY, RVT_BLK_BRANCH_TAKEN, F(0xaa), 1, 0);   /* S mode */
    b[n++] = blk(F(0xaa), F(0xd2), BODY, RVT_BLK_BRANCH_TAKEN, F(0xaa), 3, 0);
    for (int i = 0; i < 3; i++) {   /* a loop of two blocks, the first at the same start, shorter */
        b[n++] = blk(F(0xaa), F(0xb4), 4, RVT_BLK_DISCON, F(0xb6), 3, 0);
        b[n++] = blk(F(0xb6), F(0xd2), 10, i < 2 ? RVT_BLK_BRANCH_TAKEN : RVT_BLK_BRANCH_NOT_TAKEN,
                     i < 2 ? F(0xaa) : F(0xd6), 3, 0);
    }
    for (int i = 0; i < 3; i++) {   /* rt_puthex's loop of two blocks, each ending in a branch */
        b[n++] = blk(F(0x3bc), F(0x3cc), 6, RVT_BLK_BRANCH_NOT_TAKEN, F(0x3d0), 3, 0);
        b[n++] = blk(F(0x3d0), F(0x3e0), 6, RVT_BLK_BRANCH_TAKEN, F(0x3bc), 3, 0);
    }
    b[n++] = blk(F(0x3bc), F(0x3cc), 6, RVT_BLK_BRANCH_NOT_TAKEN, F(0x3d0), 3, 0);  /* half a round */
    return n;
}

typedef struct text {
    char *s;
    size_t n;
} text;

enum { BATCH, PER_BLOCK, PER_INSN };

/* The batch to writer w (way: BATCH, PER_BLOCK or PER_INSN) as text. */
static text write_way(const rvt_out_writer *w, rvt_image *img, int way)
{
    rvt_out_writer copy = *w;
    if (way != BATCH)
        copy.blocks = NULL;
    if (way == PER_INSN)
        copy.block = NULL;
    text t = { NULL, 0 };
    FILE *f = open_memstream(&t.s, &t.n);
    rvt_out *o = rvt_out_open(&copy, f, img);
    CHECK(o != NULL);
    rvt_block b[32];
    size_t n = batch(b), done = 0;
    CHECK_EQ(rvt_out_blocks(o, b, n, &done), 0);
    CHECK_EQ(done, n);
    CHECK_EQ(rvt_out_insns(o), 9 + 6 + 8 * BODY + 3 * (4 + 10) + 3 * (6 + 6) + 6);
    rvt_out_free(o);
    fclose(f);
    return t;
}

static bool has(const text *t, const char *s)
{
    return t->s && strstr(t->s, s) != NULL;
}

/* The line of t holding key (up to its newline), or "" */
static const char *line_with(const text *t, const char *key, char *buf, size_t n)
{
    const char *k = t->s ? strstr(t->s, key) : NULL;
    buf[0] = 0;
    if (!k)
        return buf;
    const char *a = k, *z = strchr(k, '\n');
    while (a > t->s && a[-1] != '\n')
        a--;
    size_t len = z ? (size_t)(z - a) : strlen(a);
    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), a);
    return buf;
}

/* The last number before `label` (which ends in a newline) on the line
 * of t that ends in it (the report's "Share Instructions Mode" rows), or
 * -1. */
static long long count_of(const text *t, const char *label)
{
    char line[256], *end;
    line_with(t, label, line, sizeof line);
    size_t len = strlen(line), cut = strlen(label) - 1;    /* label ends in the newline */
    line[len >= cut ? len - cut : 0] = 0;
    long long last = -1;
    for (char *p = line; *p; p++) {
        if (*p >= '0' && *p <= '9' && (p == line || p[-1] == ' ')) {
            long long v = strtoll(p, &end, 10);
            if (*end == ' ' || !*end)
                last = v;
            p = end - 1;
        }
    }
    return last;
}

/* Counts derived from the batch: the bge at d2 retired at the end of
 * the test block, the 8 bodies and the 3 second halves (1 + 8 + 3
 * times), taken after the test block, every body and the first two
 * second halves (each is followed by a block at aa: 11), its last
 * outcome unknown (rt_puthex follows); aa retired 8 + 3 times; the blez
 * at 3cc 4 times, not taken 3 (its last outcome unknown), the beqz at
 * 3e0 3 times, taken 3; 14 instructions in S mode and on hart 1 each,
 * 197 in M mode and on hart 0 (of 169 + 42);
 * sum_to line 21 is the loop's test (programs/src/cov.c). */
static void hand_counts(const char *name, const text *t)
{
    char line[256];
    if (!strcmp(name, "coverage-listing")) {
        line_with(t, "800000d2:", line, sizeof line);
        CHECK(strstr(line, " 12  bge") != NULL);
        CHECK(strstr(line, "taken 11, not taken 0") != NULL);
        line_with(t, "800000aa:", line, sizeof line);
        CHECK(strstr(line, " 11  lw") != NULL);
        line_with(t, "800003cc:", line, sizeof line);
        CHECK(strstr(line, " 4  blez") != NULL);
        CHECK(strstr(line, "taken 0, not taken 3") != NULL);
        line_with(t, "800003e0:", line, sizeof line);
        CHECK(strstr(line, " 3  beqz") != NULL);
        CHECK(strstr(line, "taken 3, not taken 0") != NULL);
    } else if (!strcmp(name, "lcov")) {
        CHECK(has(t, "BRDA:21,0,0,11\n"));
        CHECK(has(t, "BRDA:21,0,1,0\n"));
    } else if (!strcmp(name, "report")) {
        CHECK_EQ(count_of(t, "  S\n"), 14);
        CHECK_EQ(count_of(t, "  M\n"), 197);
        CHECK_EQ(count_of(t, "  0\n"), 197);
        CHECK_EQ(count_of(t, "  1\n"), 14);
    } else if (!strcmp(name, "folded")) {
        CHECK(has(t, "sum_to 169\n"));    /* both harts' stacks: the same */
        CHECK(has(t, "rt_puthex 42\n"));
    } else if (!strcmp(name, "timeline")) {
        /* hart 1's slice opens after the 9 + 6 + 4 * 14 instructions before */
        CHECK(has(t, "\"tid\":1,\"ts\":71,\"name\":\"sum_to\""));
    }
}

int main(void)
{
    rvt_image *img = th_program("cov");
    CHECK(img != NULL);
    if (!img)
        return TH_DONE();
    const rvt_out_writer *w;
    for (size_t i = 0; (w = rvt_out_writer_at(i)) != NULL; i++) {
        if (!w->blocks)
            continue;
        text t[3];
        for (int way = BATCH; way <= PER_INSN; way++)
            t[way] = write_way(w, img, way);
        for (int way = PER_BLOCK; way <= PER_INSN; way++) {
            if (t[way].n == t[BATCH].n && !memcmp(t[way].s, t[BATCH].s, t[BATCH].n))
                th_passed++;
            else
                TH_FAIL("%s: the batch wrote %zu bytes, %s %zu:\n%s\n--\n%s", w->name, t[BATCH].n,
                        way == PER_BLOCK ? "block by block" : "event by event", t[way].n,
                        t[BATCH].s, t[way].s);
        }
        hand_counts(w->name, &t[BATCH]);
        if (getenv("RVT_TEST_SHOW"))
            printf("== %s\n%s\n", w->name, t[BATCH].s);
        for (int way = BATCH; way <= PER_INSN; way++)
            free(t[way].s);
    }
    rvt_image_free(img);
    return TH_DONE();
}
