/* A part of a PC list into the caller's buffers (rvt_out_open_part_bufs,
 * include/rvtrace/out.h): the writer fills the buffer it was given and
 * hands that same buffer back, full, before it takes the next, and the
 * last one at rvt_out_free (end); the bytes handed back, in order, are
 * what a part to a FILE writes, and every pc is where the list's format
 * (docs/formats.md: 8 bytes each for pcs-bin, lowercase hex and '\n' for
 * pcs) puts it.  A part smaller than one buffer hands back one buffer,
 * at the end; one larger, several.  Too small a buffer and no first
 * buffer are refused. */
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "rvtrace/flow.h"
#include "rvtrace/out.h"

#define SIZE RVT_OUT_BUF_MIN
#define NBUF 64

/* The buffers handed out (each SIZE bytes, never reused) and what came
 * back. */
typedef struct pool {
    char *given[NBUF];
    size_t ngiven;
    char out[NBUF * SIZE];      /* the bytes handed back, in order */
    size_t nout;
    size_t swaps, ends;
    size_t wrong;               /* a buffer back that is not the last given, or a call after the end */
    bool none;                  /* give no first buffer */
} pool;

static char *swap(void *ctx, char *b, size_t n, bool end)
{
    pool *p = ctx;
    p->swaps++;
    if (p->ends)
        p->wrong++;
    if (b) {
        if (!p->ngiven || b != p->given[p->ngiven - 1] || n > SIZE || p->nout + n > sizeof p->out)
            p->wrong++;
        else
            memcpy(p->out + p->nout, b, n), p->nout += n;
    }
    if (end) {
        p->ends++;
        return NULL;
    }
    if (p->none || p->ngiven == NBUF)
        return NULL;
    char *nb = malloc(SIZE);
    memset(nb, 0x5a, SIZE);     /* not what a list writes */
    return p->given[p->ngiven++] = nb;
}

static void pool_free(pool *p)
{
    for (size_t i = 0; i < p->ngiven; i++)
        free(p->given[i]);
}

static uint64_t pc_of(size_t i)
{
    return 0x80000000u + 4 * i;
}

/* Instructions 0..n of the list, blocks of one, in batches of 100. */
static void feed(rvt_out *o, size_t n)
{
    rvt_block b[100];
    for (size_t at = 0; at < n; at += 100) {
        size_t m = n - at < 100 ? n - at : 100;
        for (size_t k = 0; k < m; k++)
            b[k] = (rvt_block){ .start_pc = pc_of(at + k), .end_pc = pc_of(at + k),
                                .next_pc = pc_of(at + k + 1), .ninsn = 1, .end = RVT_BLK_DISCON };
        CHECK_EQ(rvt_out_blocks(o, b, m, NULL), 0);
    }
}

/* The same part to a FILE: its bytes. */
static char *part_to_file(const char *writer, size_t n, size_t *len)
{
    char *bytes = NULL;
    FILE *f = open_memstream(&bytes, len);
    rvt_out *o = rvt_out_open_part(rvt_out_find(writer), f, NULL);
    CHECK(o != NULL);
    feed(o, n);
    rvt_out_free(o);
    fclose(f);
    return bytes;
}

/* pc i as the list writes it at p: the bytes it takes. */
static size_t want_pc(const char *writer, size_t i, char *p)
{
    uint64_t pc = pc_of(i);
    if (!strcmp(writer, "pcs"))
        return (size_t)sprintf(p, "%llx\n", (unsigned long long)pc);
    for (unsigned k = 0; k < 8; k++)
        p[k] = (char)(pc >> (8 * k));      /* little-endian, docs/formats.md */
    return 8;
}

/* A part of n instructions of writer into buffers: handed back whole and
 * in order, bufs of them. */
static void part(const char *writer, size_t n, size_t bufs)
{
    static pool p;
    memset(&p, 0, sizeof p);
    rvt_out_bufs to = { .swap = swap, .ctx = &p, .size = SIZE };
    rvt_out *o = rvt_out_open_part_bufs(rvt_out_find(writer), &to, NULL);
    CHECK(o != NULL);
    if (!o)
        return;
    CHECK_EQ(p.ngiven, 1);          /* the first buffer, at open */
    feed(o, n);
    CHECK_EQ(rvt_out_insns(o), n);
    rvt_out_free(o);
    CHECK_EQ(p.ends, 1);
    CHECK_EQ(p.wrong, 0);
    CHECK_EQ(p.ngiven, bufs);
    CHECK_EQ(p.swaps, bufs + 1);    /* bufs taken, the last handed back with end */
    size_t len, at = 0, bad = 0;
    char *file = part_to_file(writer, n, &len);
    CHECK_EQ(p.nout, len);
    CHECK(len == p.nout && !memcmp(file, p.out, len));
    char want[32];
    for (size_t i = 0; i < n && at < p.nout; i++) {
        size_t m = want_pc(writer, i, want);
        bad += at + m > p.nout || memcmp(p.out + at, want, m);
        at += m;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(at, p.nout);
    free(file);
    pool_free(&p);
}

static void refused(void)
{
    static pool p;
    memset(&p, 0, sizeof p);
    rvt_out_bufs to = { .swap = swap, .ctx = &p, .size = RVT_OUT_BUF_MIN - 1 };
    CHECK(rvt_out_open_part_bufs(rvt_out_find("pcs-bin"), &to, NULL) == NULL);
    CHECK_EQ(p.swaps, 0);
    to.size = SIZE;
    p.none = true;
    CHECK(rvt_out_open_part_bufs(rvt_out_find("pcs-bin"), &to, NULL) == NULL);
    CHECK_EQ(p.swaps, 1);
    CHECK(rvt_out_open_part_bufs(rvt_out_find("json"), &to, NULL) == NULL);   /* no open_part */
    pool_free(&p);
}

int main(void)
{
    /* The writer hands a buffer over before a block when fewer than a
     * block's most bytes (RVT_PCL_BYTES, 17 * 32 = 544) are left: past
     * 4096 - 544 = 3552 bytes.  pcs-bin, 8 bytes a pc: 445 pcs a buffer
     * (3560 bytes).  100 pcs: one buffer, handed back at the end. */
    part("pcs-bin", 100, 1);
    /* 10000 = 22 * 445 + 210: 23 buffers */
    part("pcs-bin", 10000, 23);
    /* pcs, "8000xxxx\n", 9 bytes a pc: 395 a buffer (3555 bytes);
     * 3000 = 7 * 395 + 235: 8 buffers */
    part("pcs", 10, 1);
    part("pcs", 3000, 8);
    refused();
    return TH_DONE();
}
