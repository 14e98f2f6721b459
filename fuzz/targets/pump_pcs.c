/* Fuzz target: the pull API pumped into the PC-list writers
 * (rvt_proto_decoder_pump_blocks, rvt_proto_decoder_pump_into; "pcs" and
 * "pcs-bin" through rvt_out_blocks, pc_list.c) against the event path
 * (the push decoder, one RVT_EV_INSN per instruction through
 * rvt_out_event), over a fixed program image from programs/.  Input:
 * byte 0 picks the protocol (bit 0: E-Trace or N-Trace) and a batch size
 * (1 + bits 1-4: the seeds' 0 and 1 give 1), then the image byte and setting bytes etrace_flow or
 * ntrace_flow read (not ntrace_flow's split byte: mkseed's flow seeds,
 * with that byte in front, fuzz/seeds.sh), then the stream.  Checked:
 * both writers' bytes are the same from the pump (its own batches of 256)
 * and from pump_into at the input's batch size, as from the event path,
 * when the event path ran under the work cap of fuzz_flow.h (then the
 * pump walks no further either).  Two pumps an input, not more: CI
 * fuzzes a target 15 s.
 * FUZZ_ARGS: -max_len=1024 */
#include "../fuzz_etrace.h"
#include "../fuzz_ntrace.h"
#include "../fuzz_flow.h"
#include "../fuzz_images.h"
#include "rvtrace/proto.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rvt_fuzz_load_images();
    return 0;
}

/* The two writers' outputs of one decode, each to a memory buffer. */
typedef struct pcl_outs {
    rvt_out *o[2];              /* pcs, pcs-bin */
    FILE *f[2];
    char *buf[2];
    size_t len[2];
    uint64_t insns, cap;        /* the pump's instructions, and where it stops */
    rvt_block room[16];         /* pump_into's array */
    size_t batch;
    rvt_fuzz_flow flow;         /* the event path's checks and work cap */
} pcl_outs;

static bool outs_open(pcl_outs *w, rvt_image *img)
{
    static const char *const names[2] = { "pcs", "pcs-bin" };
    bool ok = true;
    for (int k = 0; k < 2; k++) {
        w->f[k] = open_memstream(&w->buf[k], &w->len[k]);
        w->o[k] = w->f[k] ? rvt_out_open(rvt_out_find(names[k]), w->f[k], img) : NULL;
        ok = ok && w->o[k];
    }
    return ok;
}

/* Writes out and frees the writers; the bytes stay in buf. */
static void outs_close(pcl_outs *w)
{
    for (int k = 0; k < 2; k++) {
        rvt_out_free(w->o[k]);
        if (w->f[k])
            fclose(w->f[k]);
    }
}

static void outs_free(pcl_outs *w)
{
    for (int k = 0; k < 2; k++)
        free(w->buf[k]);
}

/* The event path: each event to both writers, under the work cap. */
static int on_push_event(void *ctx, const rvt_flow_event *ev)
{
    pcl_outs *w = ctx;
    int st = rvt_fuzz_flow_event(&w->flow, ev);
    for (int k = 0; !st && k < 2; k++)
        rvt_out_event(w->o[k], ev);
    return st;
}

/* The pump's events (no RVT_EV_INSN: blocks bring those). */
static int on_pump_event(void *ctx, const rvt_flow_event *ev)
{
    pcl_outs *w = ctx;
    RVT_FUZZ_ASSERT(ev->kind != RVT_EV_INSN);
    for (int k = 0; k < 2; k++)
        rvt_out_event(w->o[k], ev);
    return 0;
}

/* A batch to both writers; past the event path's instructions the pump
 * walks further than it did, which the comparison reports: stop there. */
static int on_pump_blocks(void *ctx, const rvt_block *b, size_t n)
{
    pcl_outs *w = ctx;
    RVT_FUZZ_ASSERT(n >= 1 && n <= (w->batch ? w->batch : 256));    /* the room's size */
    for (int k = 0; k < 2; k++) {
        size_t done = 0;
        RVT_FUZZ_ASSERT(rvt_out_blocks(w->o[k], b, n, &done) == 0 && done == n);
    }
    for (size_t i = 0; i < n; i++) {
        RVT_FUZZ_ASSERT(b[i].ninsn >= 1);
        w->insns += b[i].ninsn;
    }
    return w->insns > w->cap;
}

static rvt_block *pump_room(void *ctx, size_t *max)
{
    pcl_outs *w = ctx;
    *max = w->batch;
    return w->room;
}

/* A decoder of protocol cfg over mem, its events to fn(ctx) (NULL: none
 * made, out of memory under the fuzzer's limit, or settings refused). */
static rvt_proto_decoder *decoder(const rvt_proto_cfg *cfg, const rvt_mem *mem, rvt_flow_fn fn,
                                  void *ctx)
{
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(cfg, mem, fn, ctx, &st);
    RVT_FUZZ_ASSERT(d || st < 0);
    return d;
}

/* The event path's bytes into w: false when it did not finish under the
 * work cap (or could not run). */
static bool event_path(pcl_outs *w, const rvt_proto_cfg *cfg, const rvt_mem *mem, rvt_image *img,
                       const rvt_fuzz_in *in)
{
    w->flow = (rvt_fuzz_flow){ .len = in->n };
    rvt_proto_decoder *d = outs_open(w, img) ? decoder(cfg, mem, on_push_event, w) : NULL;
    bool ok = d != NULL;
    if (d) {
        int st = rvt_proto_decoder_run(d, in->p, in->n);
        rvt_fuzz_check_status(st);
        if (st == 0)
            rvt_fuzz_check_status(rvt_proto_decoder_finish(d));
        ok = st == 0 && !w->flow.stopped;
    }
    rvt_proto_decoder_free(d);
    outs_close(w);
    return ok;
}

/* The pump's bytes (batch 0: pump_blocks, else pump_into at that batch)
 * are want's; unchecked when a decoder or writer could not be made. */
static void check_pump(const pcl_outs *want, size_t batch, const rvt_proto_cfg *cfg, const rvt_mem *mem,
                       rvt_image *img, const rvt_fuzz_in *in)
{
    pcl_outs w = { .cap = want->flow.insns, .batch = batch };
    rvt_proto_decoder *d = outs_open(&w, img) ? decoder(cfg, mem, NULL, NULL) : NULL;
    int st = RVT_ERR_NOMEM;
    if (d && (st = rvt_proto_decoder_set_input(d, in->p, in->n)) == 0)
        st = batch ? rvt_proto_decoder_pump_into(d, on_pump_event, pump_room, on_pump_blocks, &w)
                   : rvt_proto_decoder_pump_blocks(d, on_pump_event, on_pump_blocks, &w);
    rvt_fuzz_check_status(st);
    rvt_proto_decoder_free(d);
    outs_close(&w);
    RVT_FUZZ_ASSERT(w.insns <= w.cap);     /* the pump walked no further */
    if (st == 0) {
        RVT_FUZZ_ASSERT(w.insns == want->flow.insns);
        for (int k = 0; k < 2; k++)
            RVT_FUZZ_ASSERT(w.len[k] == want->len[k] && !memcmp(w.buf[k], want->buf[k], w.len[k]));
    }
    outs_free(&w);
}

/* The protocol's settings as the flow targets read them, in cfg. */
static rvt_proto_cfg *settings(bool ntrace, rvt_fuzz_in *in, unsigned xlen)
{
    rvt_proto_cfg *cfg = rvt_proto_cfg_new(rvt_proto_find(ntrace ? "ntrace" : "etrace"));
    if (!cfg)
        return NULL;
    if (ntrace) {
        rvt_nt_cfg c;
        rvt_fuzz_nt_cfg(in, xlen, &c);
        *(rvt_nt_cfg *)rvt_proto_cfg_native(cfg) = c;
    } else {
        rvt_te_attrs a;
        rvt_fuzz_te_attrs(in, xlen, &a);
        *(rvt_te_attrs *)rvt_proto_cfg_native(cfg) = a;
    }
    return cfg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    uint8_t sel = rvt_fuzz_u8(&in);
    unsigned xlen;
    rvt_image *img = rvt_fuzz_pick_image(&in, &xlen);
    if (!img)
        return 0;
    rvt_proto_cfg *cfg = settings(sel & 1u, &in, xlen);
    rvt_mem *mem = rvt_mem_new();
    if (cfg && mem && rvt_mem_add_image(mem, NULL, img) == 0) {
        pcl_outs want = { 0 };
        if (event_path(&want, cfg, mem, img, &in)) {
            const size_t batches[] = { 0, 1 + ((sel >> 1) & 15u) };
            for (size_t i = 0; i < sizeof batches / sizeof batches[0]; i++)
                check_pump(&want, batches[i], cfg, mem, img, &in);
        }
        outs_free(&want);
    }
    rvt_mem_free(mem);
    rvt_proto_cfg_free(cfg);
    return 0;
}
