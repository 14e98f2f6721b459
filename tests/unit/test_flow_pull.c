/* The pull API (rvtrace/flow.h, issue #14): one stream decoded through
 * the push adapter, through next_block, through next_blocks and next_run in batches
 * (issue #18), through next_insn and through next_block (each with
 * next_event between) gives the same instructions and events, and the
 * E-Trace walk stops after the batch of blocks asked for (no queue of a
 * packet's blocks, issue #18: at most one instruction of a block not
 * asked for is walked ahead, 65 allowed), for
 * E-Trace and N-Trace over programs/ ELF files traced by the hart in process;
 * NULL arguments are refused; and the loss policy (src/flow/flow_state.h):
 * after a decode error nothing until one LOST right before the next sync,
 * counting the packets skipped (E-Trace, by hand from the packet list). */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/hart.h"
#include "rvtrace/image.h"
#include "test_hart_util.h"
#include "test_ntrace_util.h"

typedef struct bytes {
    uint8_t *b;
    size_t n, cap;
} bytes;

static int bytes_put(void *ctx, const uint8_t *b, size_t n)
{
    bytes *t = ctx;
    if (t->n + n > t->cap) {
        t->cap = (t->n + n) * 2 + 4096;
        t->b = realloc(t->b, t->cap);
        if (!t->b)
            return RVT_ERR_NOMEM;
    }
    memcpy(t->b + t->n, b, n);
    t->n += n;
    return 0;
}

/* Every event, in order (msg dropped: only valid during the callback). */
typedef struct evs {
    rvt_flow_event *e;
    size_t n, cap;
} evs;

static void evs_add(evs *v, const rvt_flow_event *ev)
{
    if (v->n == v->cap) {
        v->cap = v->cap * 2 + 4096;
        v->e = realloc(v->e, v->cap * sizeof *v->e);
    }
    v->e[v->n] = *ev;
    v->e[v->n++].msg = NULL;
}

static int evs_put(void *ctx, const rvt_flow_event *ev)
{
    evs_add(ctx, ev);
    return 0;
}

static void te_attrs(rvt_te_attrs *a, rvt_image *img)
{
    rvt_te_attrs_default(a);
    a->iaddress_width = rvt_image_xlen(img);
}

static void te_trace(const rvt_te_attrs *a, rvt_image *img, bytes *out, uint64_t max_instr)
{
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(a, bytes_put, out, &st);
    CHECK(e != NULL);
    rvt_irec_sink sink = rvt_te_encoder_sink(e);
    th_trace(img, &sink, max_instr);
    rvt_te_encoder_free(e);
}

static void nt_config(rvt_nt_cfg *c, rvt_image *img)
{
    rvt_nt_cfg_default(c);
    c->xlen = rvt_image_xlen(img);
}

static void nt_trace(const rvt_nt_cfg *c, rvt_image *img, bytes *out, uint64_t max_instr)
{
    int st = 0;
    rvt_nt_encoder *e = rvt_nt_encoder_new(c, bytes_put, out, &st);
    CHECK(e != NULL);
    rvt_irec_sink sink = rvt_nt_encoder_sink(e);
    th_trace(img, &sink, max_instr);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
}

/* The pull side of one decoder: function pointers over either protocol. */
typedef struct puller {
    void *d;
    int (*block)(void *d, rvt_block *b);
    int (*insn)(void *d, rvt_flow_insn *i);
    int (*event)(void *d, rvt_flow_event *e);
} puller;

static int te_blk(void *d, rvt_block *b) { return rvt_te_decoder_next_block(d, b); }
static int te_ins(void *d, rvt_flow_insn *i) { return rvt_te_decoder_next_insn(d, i); }
static int te_evt(void *d, rvt_flow_event *e) { return rvt_te_decoder_next_event(d, e); }
static uint64_t te_retired(void *d)
{
    rvt_te_dec_stats s;
    CHECK_EQ(rvt_te_decoder_stats(d, &s), 0);
    return s.instructions;
}
static int nt_blk(void *d, rvt_block *b) { return rvt_nt_decoder_next_block(d, b); }
static int nt_ins(void *d, rvt_flow_insn *i) { return rvt_nt_decoder_next_insn(d, i); }
static int nt_evt(void *d, rvt_flow_event *e) { return rvt_nt_decoder_next_event(d, e); }

/* next_blocks behind the next_block shape, so that the same checks run on
 * it: a batch of BATCH blocks fetched when the last one is used up (a
 * prime: batches end anywhere in a packet's blocks). */
#define BATCH 7
typedef struct batcher {
    void *d;
    int (*blocks)(void *d, rvt_block *b, size_t max);
    uint64_t (*retired)(void *d);   /* instructions the walk has retired
                                       (NULL: not checked) */
    rvt_block b[BATCH];
    int n, at;
    uint64_t got, ahead;            /* instructions got; the most the walk
                                       was ahead of them after a batch */
} batcher;

static int batch_blk(void *ctx, rvt_block *out)
{
    batcher *t = ctx;
    if (t->at == t->n) {
        t->n = t->blocks(t->d, t->b, BATCH);
        t->at = 0;
        CHECK(t->n <= BATCH);
        for (int i = 0; i < t->n; i++)
            t->got += t->b[i].ninsn;
        if (t->retired && t->n > 0) {
            uint64_t r = t->retired(t->d);
            CHECK(r >= t->got);
            t->ahead = r - t->got > t->ahead ? r - t->got : t->ahead;
        }
        if (t->n <= 0)
            return t->n;
    }
    *out = t->b[t->at++];
    return 1;
}

static int te_blks(void *d, rvt_block *b, size_t max) { return rvt_te_decoder_next_blocks(d, b, max); }
static int nt_blks(void *d, rvt_block *b, size_t max) { return rvt_nt_decoder_next_blocks(d, b, max); }
static int te_runs(void *d, rvt_block *b, size_t max) { return rvt_te_decoder_next_run(d, b, max); }
static int nt_runs(void *d, rvt_block *b, size_t max) { return rvt_nt_decoder_next_run(d, b, max); }

/* next_event until an instruction comes: the events before it. */
static void drain_events(puller *p, evs *out)
{
    rvt_flow_event ev;
    int st;
    while ((st = p->event(p->d, &ev)) > 0)
        evs_add(out, &ev);
    CHECK(st == 0);
}

/* next_insn with next_event drained before each: the push events again. */
static void pull_insns(puller *p, evs *out)
{
    for (;;) {
        drain_events(p, out);
        rvt_flow_insn in;
        int st = p->insn(p->d, &in);
        CHECK(st >= 0);
        if (st <= 0)
            break;
        rvt_flow_event ie = { .kind = RVT_EV_INSN, .pc = in.pc, .priv = in.priv, .src = in.src };
        evs_add(out, &ie);
    }
}

/* How far the E-Trace walk may run past a next_blocks batch: it stops
 * after the first block the caller did not ask for is opened (one
 * instruction, or a straight run of the block cache: 32 at most), and
 * only a packet that fails at its end opens one more, at its sync
 * address.  Without stopping, a whole packet's walk (up to 31 branches
 * and more with branch prediction) ran ahead into a queue. */
#define WALK_AHEAD_MAX (2 * 32 + 1)

/* A block's instructions, walked through the image, as RVT_EV_INSNs. */
static void add_block_insns(evs *out, const rvt_block *b, rvt_image *img)
{
    uint64_t pc = b->start_pc;
    for (uint64_t j = 0; j < b->ninsn; j++) {
        rvt_flow_event ie = { .kind = RVT_EV_INSN, .pc = pc, .priv = b->priv, .src = b->src };
        evs_add(out, &ie);
        const rvt_insn *i = rvt_image_insn(img, pc);
        pc += i ? i->len : 0;
    }
}

/* next_block with next_event drained before each, each block walked
 * through the image into its instructions: the push events again, in
 * order, with the events between blocks where they were. */
static void pull_blocks_events(puller *p, rvt_image *img, evs *out)
{
    rvt_block b;
    int st;
    for (drain_events(p, out); (st = p->block(p->d, &b)) > 0; drain_events(p, out))
        add_block_insns(out, &b, img);
    CHECK_EQ(st, 0);
}

/* next_run in batches of BATCH with next_event drained between them, each
 * block walked into its instructions: the push events again, none dropped
 * (the batch ends before an event); an empty batch with no event after
 * it is the end. */
static void pull_runs_events(puller *p, int (*run)(void *d, rvt_block *b, size_t max), rvt_image *img,
                             evs *out)
{
    rvt_block b[BATCH];
    for (;;) {
        size_t before = out->n;
        drain_events(p, out);
        int n = run(p->d, b, BATCH);
        CHECK(n >= 0 && n <= BATCH);
        if (n < 0)
            break;
        for (int i = 0; i < n; i++)
            add_block_insns(out, &b[i], img);
        if (n == 0) {
            drain_events(p, out);
            if (out->n == before)
                break;
        }
    }
}

static void same_events(const char *what, const evs *push, const evs *pull);

/* After next_blocks' last batch (it said the input is used up) the end is
 * still to be had: the events after a batch's last block, with no block
 * after them, stay for next_event (flow_pull.c begin; they were dropped
 * until 2026-11-27). */
static void ends_after_batches(const char *what, int (*evt)(void *d, rvt_flow_event *e), void *d)
{
    rvt_flow_event ev;
    bool end = false;
    int st;
    while ((st = evt(d, &ev)) > 0)
        end = ev.kind == RVT_EV_END;
    CHECK_EQ(st, 0);
    if (!end)
        TH_FAIL("%s: no RVT_EV_END after next_blocks' last batch", what);
    else
        th_passed++;
}

/* pull_blocks_events against the push run. */
static void same_blocks_events(const char *what, puller *p, rvt_image *img, const evs *push)
{
    evs blocked = { 0 };
    pull_blocks_events(p, img, &blocked);
    same_events(what, push, &blocked);
    free(blocked.e);
}

/* pull_runs_events against the push run. */
static void same_runs_events(const char *what, puller *p, int (*run)(void *d, rvt_block *b, size_t max),
                             rvt_image *img, const evs *push)
{
    evs runs = { 0 };
    pull_runs_events(p, run, img, &runs);
    same_events(what, push, &runs);
    free(runs.e);
}

/* The push run's instructions and events against next_insn's. */
static void same_events(const char *what, const evs *push, const evs *pull)
{
    size_t n = push->n < pull->n ? push->n : pull->n;
    for (size_t i = 0; i < n; i++) {
        const rvt_flow_event *a = &push->e[i], *b = &pull->e[i];
        /* the other events whole (an instruction's offset is its block's) */
        bool whole = a->kind == RVT_EV_INSN ||
                     (a->aux == b->aux && a->aux2 == b->aux2 && a->offset == b->offset &&
                      a->flags == b->flags);
        if (a->kind != b->kind || a->pc != b->pc || a->priv != b->priv || a->src != b->src ||
            !whole) {
            TH_FAIL("%s: event %zu: push kind %u pc %" PRIx64 ", next_insn kind %u pc %" PRIx64,
                    what, i, (unsigned)a->kind, a->pc, (unsigned)b->kind, b->pc);
            return;
        }
    }
    CHECK_EQ(push->n, pull->n);
}

/* next_block's blocks cover the push run's instructions in order: each
 * starts and ends where the push run says, runs straight (each
 * instruction but the last is followed by the next in memory) and its end
 * reason agrees with what came after it. */
static void same_blocks(const char *what, const evs *push, puller *p, rvt_image *img)
{
    size_t k = 0;       /* index of the next INSN event in push */
    size_t blocks = 0;
    rvt_block b;
    int st;
    while ((st = p->block(p->d, &b)) > 0) {
        blocks++;
        while (k < push->n && push->e[k].kind != RVT_EV_INSN)
            k++;
        if (k >= push->n || b.ninsn == 0 || b.start_pc != push->e[k].pc) {
            TH_FAIL("%s: block %zu at %" PRIx64 " is not where the push run goes", what, blocks,
                    b.start_pc);
            return;
        }
        uint64_t pc = b.start_pc;
        for (uint64_t j = 1; j < b.ninsn; j++) {
            const rvt_insn *i = rvt_image_insn(img, pc);
            k++;
            if (!i || k >= push->n || push->e[k].kind != RVT_EV_INSN || push->e[k].pc != pc + i->len) {
                TH_FAIL("%s: block %zu at %" PRIx64 ": instruction %" PRIu64 " differs", what, blocks,
                        b.start_pc, j);
                return;
            }
            pc += i->len;
        }
        if (pc != b.end_pc) {
            TH_FAIL("%s: block %zu ends at %" PRIx64 ", walked to %" PRIx64, what, blocks, b.end_pc, pc);
            return;
        }
        k++;
        const rvt_flow_event *after = k < push->n ? &push->e[k] : NULL;
        bool by_insn = after && after->kind == RVT_EV_INSN;
        bool insn_reason = b.end <= RVT_BLK_DISCON;
        if (by_insn != insn_reason || (by_insn && b.next_pc != after->pc)) {
            TH_FAIL("%s: block %zu at %" PRIx64 ": end reason %u does not fit what follows", what,
                    blocks, b.start_pc, (unsigned)b.end);
            return;
        }
        const rvt_insn *last = rvt_image_insn(img, b.end_pc);
        /* blocks are as long as they can be: one does not end on a plain
         * instruction that the next in memory follows, in its privilege
         * and source, with no event between (the N-Trace walk writes its
         * blocks into next_blocks' array itself and leaves such a block
         * open for the next run: RVT_IBLK_MAX cuts cache blocks) */
        if (by_insn && last && last->jclass == RVT_JC_NONE && last->op != RVT_OP_ECALL &&
            last->op != RVT_OP_EBREAK && last->op != RVT_OP_ILLEGAL &&
            after->pc == b.end_pc + last->len && after->priv == b.priv && after->src == b.src) {
            TH_FAIL("%s: block %zu at %" PRIx64 " ends on a plain instruction the next one follows",
                    what, blocks, b.start_pc);
            return;
        }
        if (b.end == RVT_BLK_BRANCH_NOT_TAKEN || b.end == RVT_BLK_BRANCH_TAKEN) {
            CHECK(last && last->jclass == RVT_JC_BRANCH);
            CHECK((b.next_pc == b.end_pc + last->len) == (b.end == RVT_BLK_BRANCH_NOT_TAKEN));
        }
    }
    CHECK_EQ(st, 0);
    while (k < push->n && push->e[k].kind != RVT_EV_INSN)
        k++;
    CHECK_EQ(k, push->n);
    /* (a damaged stream may have no instruction at all) */
    bool any = false;
    for (size_t i = 0; i < push->n && !any; i++)
        any = push->e[i].kind == RVT_EV_INSN;
    CHECK_EQ(blocks > 0, any);
}

static size_t insns(const evs *v)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += v->e[i].kind == RVT_EV_INSN;
    return n;
}

/* The decoder with instruction events off (rvt_te_decoder_set_events):
 * its other events, each with the instructions retired before it (the
 * decoder's stats when it came). */
typedef struct off_run {
    evs ev;
    rvt_te_decoder *d;
    uint64_t *before;
} off_run;

static int off_put(void *ctx, const rvt_flow_event *ev)
{
    off_run *r = ctx;
    rvt_te_dec_stats ds;
    rvt_te_decoder_stats(r->d, &ds);
    if (r->ev.n == r->ev.cap)
        r->before = realloc(r->before, (r->ev.cap * 2 + 4096) * sizeof *r->before);
    r->before[r->ev.n] = ds.instructions;
    evs_add(&r->ev, ev);
    return 0;
}

/* Events off gives push's other events, at the same points of the walk
 * (its runs of branches are walked without a step per instruction,
 * src/etrace/decoder.c branch_chain), and as many instructions. */
static void te_compare_events_off(const char *what, const rvt_te_attrs *a, rvt_image *img,
                                  const bytes *s, const evs *push)
{
    int st;
    off_run r = { 0 };
    r.d = rvt_te_decoder_new(a, img, off_put, &r, &st);
    CHECK(r.d != NULL);
    if (!r.d)
        return;
    rvt_te_decoder_set_events(r.d, false);
    CHECK_EQ(rvt_te_decoder_run(r.d, s->b, s->n), 0);
    evs others = { 0 };
    uint64_t retired = 0;
    size_t k = 0;
    for (size_t i = 0; i < push->n; i++) {
        if (push->e[i].kind == RVT_EV_INSN) {
            retired++;
            continue;
        }
        evs_add(&others, &push->e[i]);
        if (k < r.ev.n && r.before[k] != retired)
            TH_FAIL("%s, events off: event %zu (kind %u) after %" PRIu64 " instructions, push: %"
                    PRIu64, what, k, (unsigned)push->e[i].kind, r.before[k], retired);
        k++;
    }
    same_events(what, &others, &r.ev);
    rvt_te_dec_stats ds;
    rvt_te_decoder_stats(r.d, &ds);
    CHECK_EQ(ds.instructions, retired);
    rvt_te_decoder_free(r.d);
    free(others.e);
    free(r.ev.e);
    free(r.before);
}

/* Run mode (rvt_te_decoder_set_runs): each RVT_EV_INSN is aux
 * instructions from pc making aux2 half-words (0 with aux 1: code not
 * known); walked through the image they are push's instructions, each at
 * its own packet's offset, with the other events where they were. */
static void te_compare_runs(const char *what, const rvt_te_attrs *a, rvt_image *img, const bytes *s,
                            const evs *push)
{
    int st;
    evs runs = { 0 }, expanded = { 0 };
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, evs_put, &runs, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    rvt_te_decoder_set_runs(d, true);
    CHECK_EQ(rvt_te_decoder_run(d, s->b, s->n), 0);
    rvt_te_decoder_free(d);
    size_t longer = 0;
    for (size_t i = 0; i < runs.n; i++) {
        rvt_flow_event ev = runs.e[i];
        if (ev.kind != RVT_EV_INSN) {
            evs_add(&expanded, &ev);
            continue;
        }
        longer += ev.aux > 1;
        uint64_t pc = ev.pc, hw = 0;
        for (uint64_t k = 0; k < ev.aux; k++) {
            rvt_flow_event ie = { .kind = RVT_EV_INSN, .pc = pc, .priv = ev.priv, .src = ev.src,
                                  .offset = ev.offset };
            evs_add(&expanded, &ie);
            const rvt_insn *in = rvt_image_insn(img, pc);
            hw += in ? in->len / 2 : 0;
            pc += in ? in->len : 0;
        }
        if (hw != ev.aux2 && !(ev.aux == 1 && ev.aux2 == 0))
            TH_FAIL("%s, runs: event %zu: %" PRIu64 " half-words, aux2 %" PRIu64, what, i, hw, ev.aux2);
    }
    same_events(what, push, &expanded);
    for (size_t i = 0; i < push->n && i < expanded.n; i++)
        if (push->e[i].kind == RVT_EV_INSN && push->e[i].offset != expanded.e[i].offset) {
            TH_FAIL("%s, runs: instruction %zu at offset %" PRIu64 ", push %" PRIu64, what, i,
                    expanded.e[i].offset, push->e[i].offset);
            break;
        }
    CHECK(longer > 0 || insns(push) < 100);       /* runs were taken whole */
    free(runs.e);
    free(expanded.e);
}

/* One stream three ways: push, next_insn with next_event, next_block
 * (and events off). */
static void te_compare(const char *what, const void *cfg, rvt_image *img, const bytes *s,
                       size_t min_insns)
{
    const rvt_te_attrs *a = cfg;
    int st;
    evs push = { 0 }, pulled = { 0 };
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, evs_put, &push, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_te_decoder_run(d, s->b, s->n), 0);
    rvt_te_decoder_free(d);
    CHECK(insns(&push) >= min_insns);
    te_compare_events_off(what, a, img, s, &push);
    te_compare_runs(what, a, img, s, &push);

    d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    puller p = { d, te_blk, te_ins, te_evt };
    pull_insns(&p, &pulled);
    rvt_te_decoder_free(d);
    same_events(what, &push, &pulled);

    d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_blocks(what, &push, &p, img);
    rvt_te_decoder_free(d);

    d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_blocks_events(what, &p, img, &push);
    rvt_te_decoder_free(d);

    d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_runs_events(what, &p, te_runs, img, &push);
    rvt_te_decoder_free(d);

    d = rvt_te_decoder_new(a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
    batcher bt = { .d = d, .blocks = te_blks, .retired = te_retired };
    puller pb = { &bt, batch_blk, NULL, NULL };
    same_blocks(what, &push, &pb, img);
    if (bt.ahead > WALK_AHEAD_MAX)
        TH_FAIL("%s: the walk ran %" PRIu64 " instructions ahead of next_blocks", what, bt.ahead);
    ends_after_batches(what, te_evt, d);
    rvt_te_decoder_free(d);
    free(push.e);
    free(pulled.e);
}

static void nt_compare(const char *what, const void *cfg, rvt_image *img, const bytes *s,
                       size_t min_insns)
{
    const rvt_nt_cfg *c = cfg;
    int st;
    evs push = { 0 }, pulled = { 0 };
    rvt_nt_decoder *d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, evs_put, &push, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_nt_decode(d, s->b, s->n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
    CHECK(insns(&push) >= min_insns);

    d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s->b, s->n), 0);
    puller p = { d, nt_blk, nt_ins, nt_evt };
    pull_insns(&p, &pulled);
    rvt_nt_decoder_free(d);
    same_events(what, &push, &pulled);

    d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_blocks(what, &push, &p, img);
    rvt_nt_decoder_free(d);

    d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_blocks_events(what, &p, img, &push);
    rvt_nt_decoder_free(d);

    d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s->b, s->n), 0);
    p.d = d;
    same_runs_events(what, &p, nt_runs, img, &push);
    rvt_nt_decoder_free(d);

    d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(d, s->b, s->n), 0);
    batcher bt = { .d = d, .blocks = nt_blks };
    puller pb = { &bt, batch_blk, NULL, NULL };
    same_blocks(what, &push, &pb, img);
    ends_after_batches(what, nt_evt, d);
    rvt_nt_decoder_free(d);
    free(push.e);
    free(pulled.e);
}

/* Damage: bytes flipped a third in, a 24-byte hole in the middle, the
 * stream cut at three quarters (each where the stream is long enough). */
enum { DAMAGE_NONE, DAMAGE_FLIP, DAMAGE_HOLE, DAMAGE_CUT, NDAMAGE };
static const char *const damage_names[NDAMAGE] = { "clean", "flipped bytes", "hole", "cut" };

static bytes damaged(const bytes *s, int how)
{
    bytes t = { malloc(s->n + 1), s->n, s->n + 1 };
    memcpy(t.b, s->b, s->n);
    if (how == DAMAGE_FLIP && s->n > 16) {
        for (size_t i = s->n / 3; i < s->n / 3 + 3; i++)
            t.b[i] ^= 0x5a;
    } else if (how == DAMAGE_HOLE && s->n > 64) {
        memset(t.b + s->n / 2, 0, 24);
    } else if (how == DAMAGE_CUT) {
        t.n = s->n * 3 / 4;
    }
    return t;
}

/* Instructions per trace of the sweep, and the E-Trace modes (--te-opt
 * lists, one per mode and all of them) and N-Trace modes it runs. */
#define SWEEP_INSNS 60000
static const char *const te_modes[] = { "", "full-address", "implicit-except", "sijump",
                                        "implicit-return", "branch-prediction",
                                        "jump-target-cache", "all" };
typedef struct nt_mode {
    const char *name;
    unsigned inst_mode, implicit_return;
    bool seq_jump, repeat, all_jumps;
} nt_mode;
static const nt_mode nt_modes[] = {
    { "btm", RVT_NT_MODE_BTM, 0, false, false, false },
    { "btm+sj+ir+rpt", RVT_NT_MODE_BTM, 3, true, true, false },
    { "htm", RVT_NT_MODE_HTM, 0, false, false, false },
    { "htm+sj+ir+rpt", RVT_NT_MODE_HTM, 3, true, true, false },
    { "htm+ir1+all-jumps", RVT_NT_MODE_HTM, 1, false, true, true },
};

static void te_mode_attrs(rvt_te_attrs *a, rvt_image *img, const char *opts)
{
    te_attrs(a, img);
    CHECK_EQ(rvt_te_opts_parse(opts, &a->options), 0);
    if (a->options & RVT_TE_OPT_SIJUMP)
        a->sijump = 1;
    if (a->options & RVT_TE_OPT_IMPLICIT_RETURN)
        a->return_stack_size = 5;
    rvt_te_attrs_fill(a);
}

static void nt_mode_cfg(rvt_nt_cfg *c, rvt_image *img, const nt_mode *m)
{
    nt_config(c, img);
    c->inst_mode = m->inst_mode;
    c->implicit_return = m->implicit_return;
    c->return_depth = m->implicit_return ? 32 : 0;
    c->seq_jump = m->seq_jump;
    c->repeat_history = m->repeat;
    c->all_jumps = m->all_jumps;
    CHECK_EQ(rvt_nt_cfg_check(c), 0);
}

/* te_compare or nt_compare, cfg their attributes or settings. */
typedef void (*compare_fn)(const char *what, const void *cfg, rvt_image *img, const bytes *s,
                           size_t min_insns);

/* One stream compared clean and with each damage. */
static void each_damage(const char *what, compare_fn compare, const void *cfg, rvt_image *img,
                        const bytes *s)
{
    char full[600];
    for (int dmg = 0; dmg < NDAMAGE; dmg++) {
        bytes t = damaged(s, dmg);
        snprintf(full, sizeof full, "%s %s", what, damage_names[dmg]);
        compare(full, cfg, img, &t, dmg == DAMAGE_NONE ? 100 : 0);
        free(t.b);
    }
}

/* Every protocol mode over one program, clean and damaged (quick,
 * th_quick: the turn-th E-Trace and N-Trace mode, turn mod their count,
 * so that the programs take the modes in turn). */
static void sweep_program(const char *prog, size_t turn)
{
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    if (!img)
        return;
    char what[512];
    size_t n_te = sizeof te_modes / sizeof te_modes[0];
    size_t n_nt = sizeof nt_modes / sizeof nt_modes[0];
    for (size_t m = 0; m < n_te; m++) {
        if (th_quick() && m != turn % n_te)
            continue;
        rvt_te_attrs a;
        te_mode_attrs(&a, img, te_modes[m]);
        bytes s = { 0 };
        te_trace(&a, img, &s, SWEEP_INSNS);
        snprintf(what, sizeof what, "etrace %s te-opt '%s'", prog, te_modes[m]);
        each_damage(what, te_compare, &a, img, &s);
        free(s.b);
    }
    for (size_t m = 0; m < n_nt; m++) {
        if (th_quick() && m != turn % n_nt)
            continue;
        rvt_nt_cfg c;
        nt_mode_cfg(&c, img, &nt_modes[m]);
        bytes s = { 0 };
        nt_trace(&c, img, &s, SWEEP_INSNS);
        snprintf(what, sizeof what, "ntrace %s %s", prog, nt_modes[m].name);
        each_damage(what, nt_compare, &c, img, &s);
        free(s.b);
    }
    rvt_image_free(img);
}

/* The earlier programs at both protocols' default settings, longer traces. */
static void default_program(const char *prog)
{
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    if (!img)
        return;
    char what[128];
    rvt_te_attrs a;
    te_attrs(&a, img);
    bytes s = { 0 };
    te_trace(&a, img, &s, 300000);
    snprintf(what, sizeof what, "etrace %s", prog);
    te_compare(what, &a, img, &s, 1000);
    rvt_nt_cfg c;
    nt_config(&c, img);
    s.n = 0;
    nt_trace(&c, img, &s, 300000);
    snprintf(what, sizeof what, "ntrace %s", prog);
    nt_compare(what, &c, img, &s, 1000);
    free(s.b);
    rvt_image_free(img);
}

/* Every pull entry point, run/decode and the stats copies refuse NULL;
 * the pull calls refuse a decoder without input. */
static void null_arguments(void)
{
    rvt_image *img = th_program("sort");
    CHECK(img != NULL);
    rvt_te_attrs a;
    te_attrs(&a, img);
    rvt_block b;
    rvt_flow_insn in;
    rvt_flow_event ev;
    uint8_t byte = 0;
    int st;
    CHECK(rvt_te_decoder_new(NULL, img, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    rvt_te_decoder *te = rvt_te_decoder_new(&a, img, NULL, NULL, &st);
    CHECK_EQ(rvt_te_decoder_set_input(NULL, &byte, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_set_input(te, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_block(te, &b), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_blocks(te, &b, 1), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_blocks(NULL, &b, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_blocks(te, NULL, 1), RVT_ERR_INVAL);
    /* no input is said before a batch with no room (flow_pull.h) */
    CHECK_EQ(rvt_te_decoder_next_blocks(te, &b, 0), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_run(te, &b, 1), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_run(NULL, &b, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_run(te, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_insn(te, &in), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_event(te, &ev), RVT_ERR_STATE);
    CHECK_EQ(rvt_te_decoder_next_block(NULL, &b), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_block(te, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_insn(NULL, &in), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_insn(te, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_event(NULL, &ev), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_next_event(te, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_run(NULL, &byte, 1), RVT_ERR_INVAL);
    rvt_te_dec_stats ts;
    CHECK_EQ(rvt_te_decoder_stats(NULL, &ts), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_stats(te, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_decoder_stats(te, &ts), 0);
    CHECK_EQ(ts.packets, 0);
    CHECK_EQ(rvt_te_decoder_set_input(te, NULL, 0), 0);
    CHECK_EQ(rvt_te_decoder_set_input(te, NULL, 0), RVT_ERR_STATE);
    /* an empty stream: the end, nothing else */
    CHECK_EQ(rvt_te_decoder_next_event(te, &ev), 1);
    CHECK_EQ(ev.kind, RVT_EV_END);
    CHECK_EQ(ev.aux, RVT_END_INCOMPLETE);
    CHECK_EQ(rvt_te_decoder_next_block(te, &b), 0);
    CHECK_EQ(rvt_te_decoder_next_blocks(te, &b, 1), 0);
    CHECK_EQ(rvt_te_decoder_next_blocks(te, &b, 0), RVT_ERR_INVAL);   /* room for none */
    CHECK_EQ(rvt_te_decoder_next_insn(te, &in), 0);
    rvt_te_decoder_free(te);

    rvt_nt_cfg c;
    nt_config(&c, img);
    CHECK(rvt_nt_decoder_new(NULL, rvt_image_insn_cb, img, -1, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK(rvt_nt_decoder_new(&c, NULL, img, -1, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    rvt_nt_decoder *nt = rvt_nt_decoder_new(&c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK_EQ(rvt_nt_decoder_set_input(NULL, &byte, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_set_input(nt, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_block(nt, &b), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_blocks(nt, &b, 1), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_blocks(NULL, &b, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_blocks(nt, NULL, 1), RVT_ERR_INVAL);
    /* no input is said before a batch with no room (flow_pull.h) */
    CHECK_EQ(rvt_nt_decoder_next_blocks(nt, &b, 0), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_run(nt, &b, 1), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_run(NULL, &b, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_run(nt, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_insn(nt, &in), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_event(nt, &ev), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_block(NULL, &b), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_block(nt, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_insn(NULL, &in), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_insn(nt, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_event(NULL, &ev), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_next_event(nt, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decode(NULL, &byte, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decode(nt, &byte, 1), RVT_ERR_INVAL);      /* no callback at new */
    CHECK_EQ(rvt_nt_decode_end(NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decode_end(nt), RVT_ERR_INVAL);
    rvt_nt_dec_stats ns;
    CHECK_EQ(rvt_nt_decoder_stats(NULL, &ns), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_stats(nt, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_decoder_stats(nt, &ns), 0);
    CHECK_EQ(ns.messages, 0);
    CHECK_EQ(rvt_nt_decoder_set_input(nt, NULL, 0), 0);
    CHECK_EQ(rvt_nt_decoder_set_input(nt, NULL, 0), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decode(nt, &byte, 1), RVT_ERR_STATE);      /* pulled, not pushed */
    CHECK_EQ(rvt_nt_decode_end(nt), RVT_ERR_STATE);
    CHECK_EQ(rvt_nt_decoder_next_event(nt, &ev), 1);
    CHECK_EQ(ev.kind, RVT_EV_END);
    CHECK_EQ(ev.aux, RVT_END_INCOMPLETE);
    CHECK_EQ(rvt_nt_decoder_next_block(nt, &b), 0);
    rvt_nt_decoder_free(nt);
    rvt_image_free(img);
}

/* A clean E-Trace stream of sort (a sync every 2^12 half-words) as
 * packets, and a packet k mid-stream (format 1/2 with an address) with
 * more than two format 0-2 packets after it before the next format 3
 * sync packet `sync`. */
typedef struct te_packets {
    rvt_image *img;
    rvt_te_attrs a;
    rvt_te_pkt pk[4096];
    uint64_t off[4096];
    size_t n, k, sync;
} te_packets;

static size_t skipped_between(const te_packets *t, size_t i, size_t j);

static bool te_packets_load(te_packets *t)
{
    t->img = th_program("sort");
    CHECK(t->img != NULL);
    if (!t->img)
        return false;
    te_attrs(&t->a, t->img);
    t->a.resync_max = 8;
    bytes s = { 0 };
    te_trace(&t->a, t->img, &s, 300000);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &t->a, s.b, s.n);
    t->n = 0;
    while (t->n < 4096 && rvt_te_reader_next(&r, &t->pk[t->n], &t->off[t->n]) > 0)
        t->n++;
    free(s.b);
    for (t->k = t->n / 2; t->k < t->n; t->k++) {
        const rvt_te_pkt *p = &t->pk[t->k];
        if (!(p->format == 2 || (p->format == 1 && p->branches)))
            continue;
        t->sync = t->k + 1;
        while (t->sync < t->n && !(t->pk[t->sync].format == 3 && t->pk[t->sync].subformat <= 1))
            t->sync++;
        if (t->sync < t->n && skipped_between(t, t->k, t->sync) > 2)
            return true;
    }
    CHECK(!"no packet to damage");
    return false;
}

/* Format 0-2 packets strictly between packets i and j. */
static size_t skipped_between(const te_packets *t, size_t i, size_t j)
{
    size_t n = 0;
    for (size_t x = i + 1; x < j; x++)
        n += t->pk[x].format != 3;
    return n;
}

/* Events and the LOST's text (evs drops texts). */
typedef struct lost_ctx {
    evs ev;
    char why[256];
} lost_ctx;

static int lost_put(void *ctx, const rvt_flow_event *ev)
{
    lost_ctx *c = ctx;
    if (ev->kind == RVT_EV_LOST && ev->msg)
        snprintf(c->why, sizeof c->why, "%s", ev->msg);
    return evs_put(&c->ev, ev);
}

/* The events from packets 0..n with `extra` fed after packet k (if not
 * NULL). */
static void te_feed(te_packets *t, const rvt_te_pkt *extra, lost_ctx *c, size_t *at_k)
{
    int st;
    rvt_te_decoder *d = rvt_te_decoder_new(&t->a, t->img, lost_put, c, &st);
    for (size_t i = 0; i < t->n; i++) {
        if (i == t->k)
            *at_k = c->ev.n;
        rvt_te_decoder_packet(d, &t->pk[i], t->off[i]);
        if (i == t->k && extra)
            rvt_te_decoder_packet(d, extra, t->off[i]);
    }
    rvt_te_decoder_finish(d);
    rvt_te_decoder_free(d);
}

/* The one LOST after ev[i], right before the SYNC of packet `sync`. */
static void lost_at_sync(const te_packets *t, const evs *ev, size_t i, uint64_t skipped)
{
    size_t j = i;
    while (j < ev->n && ev->e[j].kind != RVT_EV_LOST) {
        CHECK(ev->e[j].kind != RVT_EV_INSN || j == i);
        j++;
    }
    CHECK(j + 1 < ev->n && ev->e[j + 1].kind == RVT_EV_SYNC);
    if (j + 1 >= ev->n)
        return;
    CHECK_EQ(ev->e[j].offset, t->off[t->sync]);
    CHECK_EQ(ev->e[j].pc, ev->e[j + 1].pc);
    CHECK_EQ(ev->e[j].aux, UINT64_MAX);
    CHECK_EQ(ev->e[j].aux2, skipped);
    CHECK(skipped > 0);
}

/* E-Trace loss, counted by hand from the packet list: packet k gets a
 * wrong address, so its walk (or the next packet's) fails: one ERROR at
 * that packet's offset, then nothing until the next format 3 sync packet,
 * right before whose SYNC one LOST says how many format 0-2 packets after
 * the failing one were skipped (aux2), instructions unknown (aux). */
static void te_loss(void)
{
    static te_packets t;
    if (!te_packets_load(&t))
        return;
    t.pk[t.k].address ^= 0x5555;
    lost_ctx c = { 0 };
    size_t at_k = 0;
    te_feed(&t, NULL, &c, &at_k);
    size_t i = at_k;
    while (i < c.ev.n && c.ev.e[i].kind != RVT_EV_ERROR)
        i++;
    CHECK(i < c.ev.n);
    if (i >= c.ev.n)
        return;
    /* the walk may go wrong only at a packet after k: count from there */
    size_t e = t.k;
    while (e < t.sync && t.off[e] != c.ev.e[i].offset)
        e++;
    CHECK(e < t.sync);
    lost_at_sync(&t, &c.ev, i + 1, skipped_between(&t, e, t.sync));
    free(c.ev.e);
    rvt_image_free(t.img);
}

/* An encoder's report of lost trace (6.5 qual_status trace_lost, in a
 * support packet after packet k) is a loss like a decode error: no event
 * there, one LOST with the encoder's reason right before the next sync,
 * counting the format 0-2 packets after the report. */
static void te_encoder_loss(void)
{
    static te_packets t;
    if (!te_packets_load(&t))
        return;
    CHECK(t.pk[0].format == 3 && t.pk[0].subformat == 3);
    rvt_te_pkt lost = t.pk[0];
    lost.qual_status = RVT_TE_QUAL_TRACE_LOST;
    lost_ctx c = { 0 };
    size_t at_k = 0;
    te_feed(&t, &lost, &c, &at_k);
    size_t i = at_k;
    while (i < c.ev.n && c.ev.e[i].kind == RVT_EV_INSN)
        i++;
    lost_at_sync(&t, &c.ev, i, skipped_between(&t, t.k, t.sync));
    CHECK(strstr(c.why, "trace_lost") != NULL);
    free(c.ev.e);
    rvt_image_free(t.img);
}

/* N-Trace loss: 40 zero bytes (a hole in the capture) a fifth into a
 * stream with periodic syncs: an ERROR, no instruction until one LOST
 * right before the SYNC where decoding resumes (same pc and offset), and
 * the instructions after it are the clean decode's last ones. */
static void nt_loss(void)
{
    rvt_image *img = th_program("sort");
    CHECK(img != NULL);
    if (!img)
        return;
    rvt_nt_cfg c;
    nt_config(&c, img);
    c.sync_mode = 1;        /* trTeInstSyncMode: every 2^(max+4) messages */
    c.sync_max = 0;
    bytes s = { 0 };
    nt_trace(&c, img, &s, 300000);
    size_t at = s.n / 5;
    memset(s.b + at, 0, 40);
    evs ev = { 0 };
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(&c, rvt_image_insn_cb, img, -1, evs_put, &ev, &st);
    CHECK_EQ(rvt_nt_decode(d, s.b, s.n), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    rvt_nt_decoder_free(d);
    size_t i = 0, losses = 0;
    while (i < ev.n && ev.e[i].kind != RVT_EV_ERROR)
        i++;
    CHECK(i < ev.n);
    for (size_t j = i; j < ev.n; j++) {
        if (ev.e[j].kind != RVT_EV_LOST)
            continue;
        losses++;
        CHECK(j + 1 < ev.n && ev.e[j + 1].kind == RVT_EV_SYNC);
        CHECK(j + 1 < ev.n && ev.e[j].pc == ev.e[j + 1].pc && ev.e[j].offset == ev.e[j + 1].offset);
        CHECK_EQ(ev.e[j].aux, UINT64_MAX);
    }
    CHECK_EQ(losses, 1);
    for (size_t j = i; j < ev.n && ev.e[j].kind != RVT_EV_LOST; j++)
        CHECK(ev.e[j].kind != RVT_EV_INSN && ev.e[j].kind != RVT_EV_SYNC);
    free(ev.e);
    free(s.b);
    rvt_image_free(img);
}

/* N-Trace by hand: what follows a stream's last block -- the end, or an
 * error and the end -- is still had after next_blocks' last batch
 * (flow_pull.c begin; until 2026-11-27 the call after the batch that
 * took the last block dropped it), as for test_etrace_follow_limit's
 * E-Trace sled.  Code: n nops (addi x0,x0,0) from NT_SLED, nothing after
 * them.  Stream: ProgTraceSync (TCODE 9, I-CNT 0) at the first nop, then
 * ProgTraceCorrelation (TCODE 33, EVCODE 0: the hart stopped; HTM: CDF 1
 * with an empty HIST 0x1, table 23) with I-CNT = icnt half-words.  8.4:
 * every 32-bit instruction retired counts 2, so I-CNT 2n retires the n
 * nops, one straight run, and the stream ends (RVT_EV_END right after the
 * block); I-CNT 2n + 2 asks for one instruction more, where there is no
 * code: an RVT_EV_ERROR at the correlation message's offset, then the
 * END. */
#define NT_SLED 0x1000u
#define NT_NOP 0x00000013u
#define NT_SLED_MAX 101     /* nops at the most (de20c32: an E-Trace sled of 101 failed) */
#define NT_BATCH_MAX 8

/* The stream; *corr: the correlation message's offset. */
static size_t nt_sled_stream(const rvt_nt_cfg *c, uint64_t icnt, uint8_t *buf, size_t cap,
                             uint64_t *corr)
{
    rvt_nt_msg m = { .tcode = RVT_NT_PROG_TRACE_SYNC };
    rvt_nt_set(&m, RVT_NT_F_SYNC, RVT_NT_SYNC_DEBUG_EXIT);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, NT_SLED >> 1);
    size_t n = msg_put(&m, c, buf, 0, cap);
    *corr = n;
    m = (rvt_nt_msg){ .tcode = RVT_NT_PROG_TRACE_CORRELATION };
    rvt_nt_set(&m, RVT_NT_F_EVCODE, RVT_NT_EV_DEBUG);
    rvt_nt_set(&m, RVT_NT_F_CDF, 1);
    rvt_nt_set(&m, RVT_NT_F_ICNT, icnt);
    rvt_nt_set(&m, RVT_NT_F_HIST, 1);
    return msg_put(&m, c, buf, n, cap);
}

/* The stream through next_blocks in batches of max: the blocks run
 * straight from NT_SLED over `insns` nops; after the last batch
 * next_event gives `errors` errors at corr, then the END. */
static void nt_sled_batches(const char *what, const rvt_nt_cfg *c, rvt_image *img,
                            const uint8_t *s, size_t len, size_t max, uint64_t insns,
                            uint64_t errors, uint64_t corr)
{
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(c, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_nt_decoder_set_input(d, s, len), 0);
    rvt_block b[NT_BATCH_MAX];
    uint64_t pc = NT_SLED, got = 0;
    int k;
    while ((k = rvt_nt_decoder_next_blocks(d, b, max)) > 0)
        for (int i = 0; i < k; i++) {
            CHECK_EQ(b[i].start_pc, pc);
            got += b[i].ninsn;
            pc = b[i].end_pc + 4;
        }
    CHECK_EQ(k, 0);
    CHECK_EQ(got, insns);
    rvt_flow_event ev;
    uint64_t errs = 0;
    bool end = false;
    while (!end && rvt_nt_decoder_next_event(d, &ev) > 0) {
        end = ev.kind == RVT_EV_END;
        if (ev.kind == RVT_EV_ERROR) {
            errs++;
            CHECK_EQ(ev.offset, corr);
        }
    }
    if (!end || errs != errors)
        TH_FAIL("%s, batches of %zu: %s, %" PRIu64 " errors after the last batch (want the end, %"
                PRIu64 ")", what, max, end ? "the end" : "no RVT_EV_END", errs, errors);
    else
        th_passed++;
    rvt_nt_decoder_free(d);
}

static void nt_sled_ends(void)
{
    static const uint64_t lens[] = { 1, 3, NT_SLED_MAX };
    static const size_t batches[] = { 1, 2, 3, 7, NT_BATCH_MAX };
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    CHECK_EQ(rvt_nt_cfg_check(&c), 0);
    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
        uint64_t n = lens[l];
        uint8_t code[4 * NT_SLED_MAX];
        for (uint64_t i = 0; i < 4 * n; i++)
            code[i] = (uint8_t)(NT_NOP >> 8 * (i % 4));
        rvt_image *img = rvt_image_new();
        CHECK_EQ(rvt_image_add_bytes(img, NT_SLED, code, 4 * n, "sled"), 0);
        char what[64];
        for (uint64_t over = 0; over <= 1; over++) {
            uint8_t s[2 * RVT_NT_MAX_MSG];
            uint64_t corr;
            size_t len = nt_sled_stream(&c, 2 * (n + over), s, sizeof s, &corr);
            snprintf(what, sizeof what, "ntrace sled of %" PRIu64 ", I-CNT %" PRIu64, n,
                     2 * (n + over));
            for (size_t k = 0; k < sizeof batches / sizeof batches[0]; k++)
                nt_sled_batches(what, &c, img, s, len, batches[k], n, over, corr);
        }
        rvt_image_free(img);
    }
}

/* Every ELF file in programs/, by name, in name order (the quick turns
 * the same everywhere). */
static void sweep_all(void)
{
    char dir[1024];
    const char *src = getenv("RVT_SRC");
    snprintf(dir, sizeof dir, "%s/programs", src ? src : ".");
    struct dirent **names;
    int k = scandir(dir, &names, NULL, alphasort);
    CHECK(k >= 0);
    size_t programs = 0;
    for (int i = 0; i < k; i++) {
        const char *name = names[i]->d_name;
        size_t n = strlen(name);
        if (n > 4 && !strcmp(name + n - 4, ".elf")) {
            char prog[256];
            snprintf(prog, sizeof prog, "%.*s", (int)(n - 4), name);
            sweep_program(prog, programs++);
        }
        free(names[i]);
    }
    if (k >= 0)
        free(names);
    CHECK(programs >= 30);
}

int main(void)
{
    static const char *progs[] = { "sort", "crc", "recurse", "fptr", "coswap", "ecall", "setjmp",
                                   "crc_rv32" };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        default_program(progs[i]);
    }
    sweep_all();
    null_arguments();
    nt_sled_ends();
    te_loss();
    te_encoder_loss();
    nt_loss();
    return TH_DONE();
}
