/* Fuzz target: the .rvi ingress-record reader (rvt_rvi_reader_*, src/ingress)
 * and rvt_rvi_replay into a counting sink, and rvt_rvi_replay_steps with
 * runs handed over whole (the same count, the same status).  The input is
 * the .rvi file.
 * Records are pulled until the end or an error; each call must consume
 * input (the offset grows), offsets stay inside the file, and the number of
 * records is bounded by the file size.
 * FUZZ_ARGS: -max_len=8192 */
#include "../fuzz.h"
#include "rvtrace/ingress.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

typedef struct counter {
    uint64_t blocks, data;
    bool ended;
} counter;

static int count_put(void *ctx, const rvt_irec *recs, size_t n)
{
    counter *c = ctx;
    RVT_FUZZ_ASSERT(!c->ended);
    for (size_t i = 0; i < n; i++)
        RVT_FUZZ_ASSERT(recs[i].itype < 16);
    c->blocks += n;
    return 0;
}

static int count_data(void *ctx, const rvt_drec *recs, size_t n)
{
    counter *c = ctx;
    for (size_t i = 0; i < n; i++) {
        /* the reader lets through only consistent split phases (table 4.9) */
        const rvt_drec *d = &recs[i];
        RVT_FUZZ_ASSERT(!(d->flags & ~RVT_DREC_F_KNOWN));
        if (d->flags & RVT_DREC_F_RESPONSE)
            RVT_FUZZ_ASSERT(d->lresp == RVT_LRESP_OKAY || d->lresp == RVT_LRESP_ERROR);
        else
            RVT_FUZZ_ASSERT(d->lresp == 0);
    }
    c->data += n;
    return 0;
}

/* A run's steps: bits past the n-th are 0 (the reader refuses others). */
static int count_steps(void *ctx, const rvt_irec *prev, size_t n, const uint8_t *sizes)
{
    counter *c = ctx;
    RVT_FUZZ_ASSERT(!c->ended && n >= 1 && n <= 256 && prev->itype < 16);
    if (n % 8)
        RVT_FUZZ_ASSERT(!(sizes[n / 8] >> (n % 8)));
    c->blocks += n;
    return 0;
}

static int count_end(void *ctx)
{
    ((counter *)ctx)->ended = true;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = rvt_fuzz_file(data, size);
    rvt_fuzz_diag_ctx d = { .limit = size };
    int st = 0;
    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    rvt_fuzz_check_status(st);
    uint64_t records = 0;
    if (r) {
        rvt_rvi_reader_set_diag(r, rvt_fuzz_diag, &d);
        unsigned xlen = rvt_rvi_reader_xlen(r);
        RVT_FUZZ_ASSERT(xlen == 0 || xlen == 32 || xlen == 64);   /* 0 = unknown */
        uint64_t last = rvt_rvi_reader_offset(r);
        for (;;) {
            rvt_irec irec;
            rvt_drec drec;
            bool is_data = false;
            int rc = rvt_rvi_reader_next(r, &irec, &drec, &is_data);
            rvt_fuzz_check_status(rc);
            uint64_t off = rvt_rvi_reader_offset(r);
            RVT_FUZZ_ASSERT(off <= size);
            if (rc <= 0)
                break;
            /* no record without input: a version-2 run (3 to 34 bytes)
             * hands out up to 256 steps at its own offset, < 8 a byte */
            RVT_FUZZ_ASSERT(off >= last);
            last = off;
            RVT_FUZZ_ASSERT(++records <= 8 * (uint64_t)size);
        }
        rvt_rvi_reader_close(r);
    }
    counter c = { 0 };
    rvt_irec_sink sink = { &c, count_put, count_data, count_end };
    st = rvt_rvi_replay(path, &sink, rvt_fuzz_diag, &d);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(c.blocks + c.data <= 8 * (uint64_t)size);
    counter w = { 0 };
    rvt_irec_sink wsink = { &w, count_put, count_data, count_end };
    rvt_irec_steps steps = { &w, count_steps };
    int wst = rvt_rvi_replay_steps(path, &wsink, &steps, rvt_fuzz_diag, &d);
    RVT_FUZZ_ASSERT(wst == st && w.blocks == c.blocks && w.data == c.data && w.ended == c.ended);
    return 0;
}
