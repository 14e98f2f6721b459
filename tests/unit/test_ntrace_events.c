/* The decoder's event modes (rvt_nt_decoder_set_events): a real program
 * (programs/sort.elf on the reference hart) is encoded in memory and decoded
 * three ways.  INSN must equal the hart's retired PCs; BLOCK events,
 * expanded through the image, must give the same PCs; COUNT must send no
 * instruction events and count the same total.  A callback's stop value
 * ends decoding at that instruction. */
#include <stdio.h>
#include <stdlib.h>
#include "test_ntrace_util.h"
#include "rvtrace/hart.h"

typedef struct buf { uint8_t *b; size_t n, cap; } buf;
static int buf_put(void *ctx, const uint8_t *b, size_t n)
{
    buf *k = ctx;
    if (k->n + n > k->cap) {
        size_t cap = (k->cap + n) * 2;
        uint8_t *nb = realloc(k->b, cap);
        if (!nb) return RVT_ERR_NOMEM;
        k->b = nb;
        k->cap = cap;
    }
    memcpy(k->b + k->n, b, n);
    k->n += n;
    return 0;
}

typedef struct pclist { uint64_t *pc; size_t n, cap; uint64_t insn_events, errors; rvt_image *img; bool expand; } pclist;
static void pc_add(pclist *l, uint64_t pc)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4096;
        l->pc = realloc(l->pc, l->cap * sizeof *l->pc);
    }
    l->pc[l->n++] = pc;
}
static void on_pc(void *ctx, uint64_t pc, bool retired) { if (retired) pc_add(ctx, pc); }
static int on_ev(void *ctx, const rvt_flow_event *ev)
{
    pclist *l = ctx;
    if (ev->kind == RVT_EV_ERROR) l->errors++;
    if (ev->kind != RVT_EV_INSN) return 0;
    l->insn_events++;
    uint64_t pc = ev->pc, n = l->expand ? ev->aux : 1;
    for (uint64_t k = 0; k < n; k++) {
        pc_add(l, pc);
        const rvt_insn *i = rvt_image_insn(l->img, pc);
        if (!i) return 1;
        pc += i->len;
    }
    return 0;
}

/* A callback's nonzero return stops decoding at once, even inside a block. */
static int stop_at_1000(void *ctx, const rvt_flow_event *ev)
{
    uint64_t *n = ctx;
    return ev->kind == RVT_EV_INSN && ++*n == 1000 ? 7 : 0;
}

static void check_stop(rvt_image *img, const rvt_nt_cfg *cfg, const buf *s)
{
    int st;
    uint64_t n = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, stop_at_1000, &n, &st);
    CHECK_EQ(rvt_nt_decode(d, s->b, s->n), 7);
    CHECK_EQ(n, 1000);
    rvt_nt_decoder_free(d);
}

static void decode_mode(rvt_image *img, const rvt_nt_cfg *cfg, const buf *s, unsigned mode,
                        pclist *out, uint64_t *insns)
{
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, on_ev, out, &st);
    CHECK(d != NULL);
    if (!d) return;
    rvt_nt_decoder_set_events(d, mode);
    out->img = img;
    out->expand = mode == RVT_NT_EVENTS_BLOCK;
    CHECK_EQ(rvt_nt_decode(d, s->b, s->n), 0);
    rvt_nt_dec_stats ds;
    rvt_nt_decoder_stats(d, &ds);
    *insns = ds.insns;
    rvt_nt_decoder_free(d);
}

static void same(const pclist *a, const pclist *b)
{
    CHECK_EQ(a->n, b->n);
    size_t i = 0;
    while (i < a->n && i < b->n && a->pc[i] == b->pc[i]) i++;
    CHECK_EQ(i, a->n);
}

int main(void)
{
    const char *src = getenv("RVT_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/programs/sort.elf", src ? src : ".");
    rvt_image *img = rvt_image_new();
    if (rvt_image_load_elf(img, path) < 0) {
        rvt_image_free(img);
        puts("programs/sort.elf missing: nothing to check");
        return TH_DONE();
    }
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.implicit_return = 3;
    cfg.repeat_history = true;
    buf s = {0};
    int st;
    rvt_nt_encoder *e = rvt_nt_encoder_new(&cfg, buf_put, &s, &st);
    rvt_irec_sink sink = rvt_nt_encoder_sink(e);
    pclist hart = {0};
    rvt_hart_cfg hc;
    memset(&hc, 0, sizeof hc);
    hc.sink = &sink;
    hc.on_pc = on_pc;
    hc.pc_ctx = &hart;
    rvt_hart *h = rvt_hart_new(&hc, img, &st);
    CHECK(h != NULL);
    if (h) {
        CHECK_EQ(rvt_hart_run(h, 0), RVT_HART_EXITED);
        CHECK_EQ(rvt_hart_finish(h), 0);
        rvt_hart_free(h);
    }
    rvt_nt_encoder_free(e);
    CHECK(hart.n > 100000);

    pclist ins = {0}, blk = {0}, cnt = {0};
    uint64_t n_ins = 0, n_blk = 0, n_cnt = 0;
    decode_mode(img, &cfg, &s, RVT_NT_EVENTS_INSN, &ins, &n_ins);
    decode_mode(img, &cfg, &s, RVT_NT_EVENTS_BLOCK, &blk, &n_blk);
    decode_mode(img, &cfg, &s, RVT_NT_EVENTS_COUNT, &cnt, &n_cnt);
    same(&hart, &ins);
    same(&hart, &blk);
    CHECK_EQ(ins.errors + blk.errors + cnt.errors, 0);
    CHECK_EQ(n_ins, hart.n);
    CHECK_EQ(n_blk, hart.n);
    CHECK_EQ(n_cnt, hart.n);
    CHECK_EQ(cnt.insn_events, 0);
    /* blocks: several instructions per event on this code */
    CHECK(blk.insn_events * 2 < blk.n);
    check_stop(img, &cfg, &s);
    free(hart.pc); free(ins.pc); free(blk.pc); free(cnt.pc); free(s.b);
    rvt_image_free(img);
    return TH_DONE();
}
