/* Fuzz target: the E-Trace flow decoder (rvt_te_decoder_*, E-Trace ch. 11)
 * over a fixed program image from programs/.  Input: byte 0 picks the image
 * (fuzz_images.h), 6 attribute bytes (fuzz_etrace.h; iaddress_width follows
 * the image), then a raw-container stream.  Checked: fuzz_flow.h.
 * FUZZ_ARGS: -max_len=1024 */
#include "../fuzz_etrace.h"
#include "../fuzz_flow.h"
#include "../fuzz_images.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rvt_fuzz_load_images();
    return 0;
}

/* Instructions the decoder retires with instruction events off (its runs
 * of branches: src/etrace/decoder.c branch_chain). */
static uint64_t retired_events_off(const rvt_te_attrs *a, rvt_image *img, const rvt_fuzz_in *in)
{
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return UINT64_MAX;
    rvt_te_decoder_set_events(d, false);
    rvt_fuzz_check_status(rvt_te_decoder_run(d, in->p, in->n));
    rvt_te_dec_stats s;
    RVT_FUZZ_ASSERT(rvt_te_decoder_stats(d, &s) == 0);
    rvt_te_decoder_free(d);
    return s.instructions;
}

static int te_next_blocks(void *d, rvt_block *out, size_t max)
{
    return rvt_te_decoder_next_blocks(d, out, max);
}

/* Instructions in the blocks next_blocks hands out (UINT64_MAX: it
 * failed, out of memory under the fuzzer's limit); with seam, the first
 * instruction is sealed (rvt_te_decoder_set_input_piece: decode --jobs),
 * which splits a block and loses or adds none. */
static uint64_t retired_in_blocks(const rvt_te_attrs *a, rvt_image *img, const rvt_fuzz_in *in,
                                  uint64_t cap, bool seam)
{
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return UINT64_MAX;
    RVT_FUZZ_ASSERT(rvt_te_decoder_set_input_piece(d, in->p, in->n, UINT64_MAX, seam) == 0);
    uint64_t n = rvt_fuzz_blocks_retired(d, te_next_blocks, cap);
    rvt_te_decoder_free(d);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    unsigned xlen;
    rvt_image *img = rvt_fuzz_pick_image(&in, &xlen);
    if (!img)
        return 0;
    rvt_te_attrs a;
    rvt_fuzz_te_attrs(&in, xlen, &a);
    rvt_fuzz_flow f = { .len = in.n };
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(&a, img, rvt_fuzz_flow_event, &f, &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return 0;
    /* run ends the trace itself (one RVT_EV_END); a second end is harmless */
    rvt_fuzz_check_status(rvt_te_decoder_run(d, in.p, in.n));
    RVT_FUZZ_ASSERT(f.ended == !f.stopped);
    if (f.ended) {
        f.ended = false;
        rvt_fuzz_check_status(rvt_te_decoder_finish(d));
        RVT_FUZZ_ASSERT(!f.ended);
    }
    rvt_te_dec_stats s;
    RVT_FUZZ_ASSERT(rvt_te_decoder_stats(d, &s) == 0);
    RVT_FUZZ_ASSERT(s.packets <= in.n);
    rvt_te_decoder_free(d);
    if (!f.stopped) {   /* the walk's other ways retire what the push run did */
        uint64_t off = retired_events_off(&a, img, &in);
        uint64_t blk = retired_in_blocks(&a, img, &in, s.instructions, false);
        uint64_t sealed = retired_in_blocks(&a, img, &in, s.instructions, true);
        RVT_FUZZ_ASSERT(off == UINT64_MAX || off == s.instructions);
        RVT_FUZZ_ASSERT(blk == UINT64_MAX || blk == s.instructions);
        RVT_FUZZ_ASSERT(sealed == UINT64_MAX || sealed == s.instructions);
    }
    return 0;
}
