/* Fuzz target: the N-Trace flow decoder (rvt_nt_decoder_*, rvt_nt_decode)
 * over a fixed program image from programs/.  Input: byte 0 picks the image
 * (fuzz_images.h), 5 setting bytes (fuzz_ntrace.h; xlen follows the image),
 * byte 6 splits the stream in two chunks (the decoder is fed incrementally,
 * as from a pipe) and, by its low bit, picks INSN or BLOCK events (BLOCK
 * walks as COUNT does, and fuzz_flow.h checks each block retires at least
 * one half-word per instruction: a walk that does not move fails at once;
 * COUNT itself reports nothing, so the work cap could not stop legal
 * compression such as a huge I-CNT), then the MSEO bytes.  Checked:
 * fuzz_flow.h.
 * FUZZ_ARGS: -max_len=1024 */
#include "../fuzz_ntrace.h"
#include "../fuzz_flow.h"
#include "../fuzz_images.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rvt_fuzz_load_images();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    unsigned xlen;
    rvt_image *img = rvt_fuzz_pick_image(&in, &xlen);
    if (!img)
        return 0;
    rvt_nt_cfg c;
    rvt_fuzz_nt_cfg(&in, xlen, &c);
    size_t split = rvt_fuzz_u8(&in);
    unsigned mode = split & 1u ? RVT_NT_EVENTS_BLOCK : RVT_NT_EVENTS_INSN;
    split = in.n ? (split * in.n) / 255u : 0;
    rvt_fuzz_flow f = { .len = in.n, .blocks = mode == RVT_NT_EVENTS_BLOCK };
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(&c, rvt_image_insn_cb, img, -1, rvt_fuzz_flow_event, &f,
                                           &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return 0;
    rvt_nt_decoder_set_events(d, mode);
    rvt_fuzz_check_status(rvt_nt_decode(d, in.p, split));
    if (!f.stopped)     /* a new rvt_nt_decode call after a stop would go on */
        rvt_fuzz_check_status(rvt_nt_decode(d, in.p + split, in.n - split));
    rvt_fuzz_check_status(rvt_nt_decode_end(d));
    rvt_nt_dec_stats s;
    rvt_nt_decoder_stats(d, &s);
    RVT_FUZZ_ASSERT(s.messages <= in.n);
    rvt_nt_decoder_free(d);
    return 0;
}
