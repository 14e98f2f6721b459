/* Fuzz target: the N-Trace flow decoder (rvt_nt_decoder_*, rvt_nt_decode)
 * over a fixed program image from programs/.  Input: byte 0 picks the image
 * (fuzz_images.h), 5 setting bytes (fuzz_ntrace.h; xlen follows the image),
 * byte 6 splits the stream in two chunks anywhere (the decoder is fed
 * incrementally, as from a pipe: the split run must retire, read and
 * report as many instructions, messages and errors as the whole) and, by its low bit, picks INSN or BLOCK events (BLOCK
 * walks as COUNT does, and fuzz_flow.h checks each block retires at least
 * one half-word per instruction: a walk that does not move fails at once;
 * COUNT itself reports nothing, so the work cap could not stop legal
 * compression such as a huge I-CNT), then the MSEO bytes.  Checked:
 * fuzz_flow.h; and the pull API (next_blocks, with its copies of repeated
 * history and its runs of branches written in place, nt_dec.c; or
 * next_event with next_insn, by the same bit as the push run's events)
 * retires as many instructions as a push run over the whole stream, when
 * that run finished under the work cap (so the pull walks no further).
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

/* Instructions of a push run over the whole stream (BLOCK events, the
 * work cap of fuzz_flow.h); UINT64_MAX when the cap stopped it or the
 * decoder could not be made. */
static uint64_t retired_pushed(const rvt_nt_cfg *c, rvt_image *img, const rvt_fuzz_in *in,
                               rvt_nt_dec_stats *s)
{
    rvt_fuzz_flow f = { .len = in->n, .blocks = true };
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, rvt_fuzz_flow_event, &f,
                                           &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return UINT64_MAX;
    rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_BLOCK);
    rvt_fuzz_check_status(rvt_nt_decode(d, in->p, in->n));
    if (!f.stopped)
        rvt_fuzz_check_status(rvt_nt_decode_end(d));
    RVT_FUZZ_ASSERT(rvt_nt_decoder_stats(d, s) == 0);
    rvt_nt_decoder_free(d);
    return f.stopped ? UINT64_MAX : s->insns;
}

static int nt_next_blocks(void *d, rvt_block *out, size_t max)
{
    return rvt_nt_decoder_next_blocks(d, out, max);
}

/* Instructions from next_insn, taking the events next_event hands out
 * between them, until the input is used up or cap is passed (UINT64_MAX:
 * a call failed). */
static uint64_t retired_one_by_one(rvt_nt_decoder *d, uint64_t cap)
{
    uint64_t n = 0;
    rvt_flow_event ev;
    rvt_flow_insn fi;
    while (n <= cap) {
        int e = rvt_nt_decoder_next_event(d, &ev);
        if (e > 0)
            continue;
        int i = e < 0 ? e : rvt_nt_decoder_next_insn(d, &fi);
        rvt_fuzz_check_status(i);
        if (i < 0)
            return UINT64_MAX;
        if (i == 0)
            break;
        n++;
    }
    return n;
}

/* What a pull decoder over the whole stream retires: by blocks, or one
 * instruction at a time (UINT64_MAX: it failed, out of memory under the
 * fuzzer's limit).  The piece's own messages end at `owned`
 * (rvt_nt_decoder_set_input_piece: decode --jobs), where the open block
 * is sealed: a block split, no instruction lost or added. */
static uint64_t retired_by_pull(const rvt_nt_cfg *c, rvt_image *img, const rvt_fuzz_in *in,
                                bool blocks, uint64_t cap, uint64_t owned)
{
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    rvt_fuzz_check_status(st);
    if (!d)
        return UINT64_MAX;
    RVT_FUZZ_ASSERT(rvt_nt_decoder_set_input_piece(d, in->p, in->n, owned) == 0);
    uint64_t n = blocks ? rvt_fuzz_blocks_retired(d, nt_next_blocks, cap) : retired_one_by_one(d, cap);
    rvt_nt_decoder_free(d);
    return n;
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
    rvt_nt_dec_stats ws;
    uint64_t pushed = retired_pushed(&c, img, &in, &ws);
    /* two chunks cut anywhere decode as the whole stream (nt_chunk.c) */
    if (pushed != UINT64_MAX && !f.stopped)
        RVT_FUZZ_ASSERT(s.insns == pushed && s.messages == ws.messages && s.errors == ws.errors);
    if (pushed != UINT64_MAX) {
        uint64_t pulled = retired_by_pull(&c, img, &in, f.blocks, pushed, split);
        RVT_FUZZ_ASSERT(pulled == UINT64_MAX || pulled == pushed);
    }
    return 0;
}
