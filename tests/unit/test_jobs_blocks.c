/* decode --jobs with blocks (tools/rvtrace/jobs_piece.c pull_piece,
 * jobs_blocks.c; docs/parallel.md "Why the output is the same"): an
 * stream cut at index points, each piece decoded alone by a pull decoder
 * primed with the point's support packet / Ownership message
 * (rvt_proto_decoder_prime) and given its bytes
 * (rvt_proto_decoder_set_input_piece: E-Trace through the next piece's
 * sync packet, its first instruction sealed; N-Trace read on, its last
 * block sealed at the next piece's first message), the pieces' tapes
 * replayed in order and joined at the seams, gives one decoder's
 * rvt_proto_decoder_pump_blocks over the whole stream: the same blocks,
 * every field, and the same events, in the same order.  Streams of
 * programs/ traced by the hart in process with frequent syncs: E-Trace
 * delta addresses, every compressing mode, implicit return, and 2.0 with
 * context and time (events after the sync's instruction, which end its
 * block); N-Trace HTM, BTM with repeated history and sequential jumps,
 * HTM with implicit return; cut at every point, every third and every
 * seventh.  Every kind of seam must occur: E-Trace's block going on into
 * the next piece or ended by events at the sync, RVT_BLK_SEAM heads, and
 * N-Trace's sealed last blocks that go on.
 *
 * The PC lists (--pcs text and --pcs-bin) written by the pieces
 * themselves (jobs_pcl.h: each piece's part of each list over its own
 * blocks, no tape) put end to end are one list's bytes over the whole
 * stream: the head of an E-Trace piece (the sync's instruction, which the
 * piece before retired) written once, no seam dropped, one header. */
#include <stdlib.h>
#include <string.h>
#include "jobs_blocks.h"
#include "rvtrace/index.h"
#include "test_proto_util.h"

/* One decoding's output: blocks and events in order. */
typedef struct item {
    bool is_block;
    rvt_block b;
    rvt_flow_event ev;
    char *msg;
} item;

typedef struct seq {
    item *it;
    size_t n, cap;
} seq;

static item *seq_add(seq *s)
{
    if (s->n == s->cap) {
        s->cap = s->cap * 2 + 1024;
        s->it = realloc(s->it, s->cap * sizeof *s->it);
    }
    item *i = &s->it[s->n++];
    memset(i, 0, sizeof *i);
    return i;
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    item *i = seq_add(ctx);
    i->ev = *ev;
    i->ev.msg = NULL;
    i->msg = ev->msg ? strdup(ev->msg) : NULL;
    return 0;
}

static int on_blocks(void *ctx, const rvt_block *b, size_t n)
{
    seq *s = ctx;
    for (size_t k = 0; k < n; k++) {
        item *i = seq_add(s);
        i->is_block = true;
        i->b = b[k];
    }
    return 0;
}

static void seq_free(seq *s)
{
    for (size_t k = 0; k < s->n; k++)
        free(s->it[k].msg);
    free(s->it);
}

/* One decoder over the whole stream. */
static void whole(const th_proto_case *k, seq *out)
{
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k->cfg, k->mem, NULL, NULL, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_proto_decoder_set_input(d, k->s.b, k->s.n), 0);
    CHECK_EQ(rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, out), 0);
    rvt_proto_decoder_free(d);
}

/* A PC list of each kind, into memory. */
typedef struct lists {
    char *text, *bin;
    size_t ntext, nbin;
    FILE *ftext, *fbin;
    rvt_out *otext, *obin;      /* one writer each over the whole stream */
} lists;

static void lists_open(lists *l)
{
    *l = (lists){ 0 };
    l->ftext = open_memstream(&l->text, &l->ntext);
    l->fbin = open_memstream(&l->bin, &l->nbin);
}

static void lists_close(lists *l)
{
    rvt_out_free(l->otext);
    rvt_out_free(l->obin);
    fclose(l->ftext);
    fclose(l->fbin);
}

static int list_blocks(void *ctx, const rvt_block *b, size_t n)
{
    lists *l = ctx;
    CHECK_EQ(rvt_out_blocks(l->otext, b, n, NULL), 0);
    CHECK_EQ(rvt_out_blocks(l->obin, b, n, NULL), 0);
    return 0;
}

static int no_event(void *ctx, const rvt_flow_event *ev)
{
    (void)ctx;
    (void)ev;
    return 0;
}

/* One decoder's PC lists over the whole stream. */
static void whole_lists(const th_proto_case *k, lists *l)
{
    lists_open(l);
    l->otext = rvt_out_open(rvt_out_find("pcs"), l->ftext, k->img);
    l->obin = rvt_out_open(rvt_out_find("pcs-bin"), l->fbin, k->img);
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k->cfg, k->mem, NULL, NULL, &st);
    CHECK(d != NULL);
    if (d) {
        CHECK_EQ(rvt_proto_decoder_set_input(d, k->s.b, k->s.n), 0);
        CHECK_EQ(rvt_proto_decoder_pump_blocks(d, no_event, list_blocks, l), 0);
    }
    rvt_proto_decoder_free(d);
    lists_close(l);
}

typedef struct seams {
    size_t joined, ended_by_events, seam_heads;     /* E-Trace */
    size_t nt_seams;    /* N-Trace: a piece's last block sealed, RVT_BLK_SEAM */
    size_t points;      /* cuts tested */
} seams;

/* The pieces at every step-th point of idx (the first from byte 0), as
 * decode_jobs.c plans them: *n of them. */
static piece *plan(const th_proto_case *k, const rvt_index *idx, size_t step, size_t *np_out)
{
    size_t np = rvt_index_count(idx), n = 0;
    piece *p = calloc(np + 1, sizeof *p);
    p[n++] = (piece){ .state = RVT_INDEX_NONE, .tail = UINT64_MAX, .src = -1 };
    for (size_t i = 0; i < np; i += step) {
        const rvt_index_point *pt = rvt_index_at(idx, i);
        p[n - 1].to = pt->offset + pt->size;
        p[n++] = (piece){ .from = pt->offset, .rec = pt->offset + pt->size, .state = pt->state,
                          .tail = UINT64_MAX, .src = -1 };
    }
    p[n - 1].to = k->s.n;
    p[n - 1].last = true;
    *np_out = n;
    return p;
}

static bool is_te(const th_proto_case *k)
{
    return rvt_proto_name(rvt_proto_cfg_proto(k->cfg))[0] == 'e';
}

/* The pieces of plan(), decoded and replayed. */
static void pieces(const th_proto_case *k, const rvt_index *idx, size_t step, seq *out,
                   seams *sm)
{
    size_t n;
    piece *p = plan(k, idx, step, &n);
    bool te = is_te(k);
    jobs_cfg c = { .kind = te ? KIND_TE : KIND_NT, .native = rvt_proto_cfg_native_const(k->cfg), .mem = k->mem,
                   .src = -1, .buf = k->s.b, .len = k->s.n, .idx = idx, .jobs = 1,
                   .keep_insns = true, .runs = true, .cfg = k->cfg, .blocks = true,
                   .fn = on_event, .fn_blocks = on_blocks, .ctx = out };
    blk_replay r;
    blk_replay_init(&r, on_event, on_blocks, out);
    for (size_t i = 0; i < n; i++) {
        piece_decode(&c, &p[i]);
        CHECK_EQ(p[i].status, 0);
        CHECK(p[i].has_head == (te && i > 0));
        if (i > 0 && te) {
            sm->joined += r.held;
            sm->ended_by_events += !r.held;
            sm->seam_heads += p[i].head.end == RVT_BLK_SEAM;
        }
        sm->nt_seams += i > 0 && !te && r.held && r.b[r.n - 1].end == RVT_BLK_SEAM;
        sm->points += i > 0;
        CHECK_EQ(blk_replay_piece(&r, &p[i]), 0);
        ev_tape_free(&p[i].tape);
    }
    CHECK_EQ(blk_replay_finish(&r), 0);
    free(p);
}

/* The pieces of plan() with their PC lists written by themselves, one
 * after the other, each at the head when decoded (straight to the
 * files): the lists the parts write, the start of each written first as
 * decode does (rvt_out_open: the --pcs-bin header). */
static void pieces_lists(const th_proto_case *k, const rvt_index *idx, size_t step, lists *l)
{
    size_t n;
    piece *p = plan(k, idx, step, &n);
    lists_open(l);
    pcl_gate g;
    pcl_gate_init(&g);
    jobs_pcl pcl = { .n = 2, .w = { rvt_out_find("pcs"), rvt_out_find("pcs-bin") },
                     .f = { l->ftext, l->fbin }, .img = k->img, .gate = &g };
    l->otext = rvt_out_open(pcl.w[0], l->ftext, k->img);
    l->obin = rvt_out_open(pcl.w[1], l->fbin, k->img);
    jobs_cfg c = { .kind = is_te(k) ? KIND_TE : KIND_NT, .native = rvt_proto_cfg_native_const(k->cfg),
                   .mem = k->mem, .src = -1, .buf = k->s.b, .len = k->s.n, .idx = idx, .jobs = 1,
                   .keep_insns = true, .runs = true, .cfg = k->cfg, .blocks = true, .pcl = &pcl,
                   .fn = no_event, .fn_blocks = list_blocks, .ctx = l };
    for (size_t i = 0; i < n; i++) {
        p[i].at = i;
        pcl_gate_head(&g, i);
        piece_decode(&c, &p[i]);
        CHECK_EQ(p[i].status, 0);
        CHECK(p[i].pcl != NULL);
        if (p[i].pcl) {
            pcl_piece_drain(p[i].pcl);
            pcl_piece_free(p[i].pcl);
        }
        free(p[i].pcl);
        ev_tape_free(&p[i].tape);
    }
    pcl_gate_destroy(&g);
    lists_close(l);
    free(p);
}

/* The pieces' list the whole's, byte for byte. */
static void same_list(const char *what, const char *kind, const char *w, size_t nw, const char *p,
                      size_t np)
{
    size_t k = 0;
    while (k < nw && k < np && w[k] == p[k])
        k++;
    if (k < nw || k < np)
        TH_FAIL("%s: --%s of the pieces differs from the whole's at byte %zu of %zu/%zu", what,
                kind, k, nw, np);
    else
        th_passed++;
}

static bool same_block(const rvt_block *a, const rvt_block *b)
{
    return a->start_pc == b->start_pc && a->end_pc == b->end_pc && a->ninsn == b->ninsn &&
           a->next_pc == b->next_pc && a->context == b->context && a->offset == b->offset &&
           a->end == b->end && a->priv == b->priv && a->src == b->src;
}

static bool same_event(const item *a, const item *b)
{
    const rvt_flow_event *x = &a->ev, *y = &b->ev;
    return x->kind == y->kind && x->priv == y->priv && x->flags == y->flags && x->src == y->src &&
           x->pc == y->pc && x->aux == y->aux && x->aux2 == y->aux2 && x->offset == y->offset &&
           !a->msg == !b->msg && (!a->msg || !strcmp(a->msg, b->msg));
}

/* The first difference, if any, reported. */
static void same_seq(const char *what, const seq *w, const seq *p)
{
    size_t n = w->n < p->n ? w->n : p->n, k = 0;
    while (k < n && w->it[k].is_block == p->it[k].is_block &&
           (w->it[k].is_block ? same_block(&w->it[k].b, &p->it[k].b)
                              : same_event(&w->it[k], &p->it[k])))
        k++;
    if (k < n || w->n != p->n) {
        TH_FAIL("%s: pieces differ from the whole at item %zu of %zu/%zu", what, k, w->n, p->n);
        if (k < n && w->it[k].is_block && p->it[k].is_block)
            TH_FAIL("  whole [%#llx..%#llx] n %llu end %u next %#llx off %llu; pieces [%#llx..%#llx] n "
                    "%llu end %u next %#llx off %llu",
                    (unsigned long long)w->it[k].b.start_pc, (unsigned long long)w->it[k].b.end_pc,
                    (unsigned long long)w->it[k].b.ninsn, w->it[k].b.end,
                    (unsigned long long)w->it[k].b.next_pc, (unsigned long long)w->it[k].b.offset,
                    (unsigned long long)p->it[k].b.start_pc, (unsigned long long)p->it[k].b.end_pc,
                    (unsigned long long)p->it[k].b.ninsn, p->it[k].b.end,
                    (unsigned long long)p->it[k].b.next_pc, (unsigned long long)p->it[k].b.offset);
    } else {
        th_passed++;
    }
}

/* prog traced with the settings "name=value;..." and compared cut at
 * every, every third and every seventh point (quick, th_quick: the
 * turn-th of the three, turn mod 3, so that the streams take them in
 * turn). */
static void one_stream(const char *proto, const char *prog, const char *settings, size_t turn,
                       seams *sm)
{
    th_proto_case k = { .img = th_program(prog) };
    CHECK(k.img != NULL);
    if (!k.img)
        return;
    k.mem = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(k.mem, NULL, k.img), 0);
    k.cfg = th_proto_config(proto, k.img);
    char *set = strdup(settings), *save = NULL;
    for (char *kv = strtok_r(set, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        *eq = 0;
        CHECK_EQ(rvt_proto_cfg_set(k.cfg, kv, eq + 1), 0);
    }
    free(set);
    CHECK_EQ(rvt_proto_cfg_fill(k.cfg), 0);
    th_proto_stream(k.cfg, k.img, &k.s);
    rvt_index *idx = NULL;
    CHECK_EQ(rvt_index_build(k.cfg, k.s.b, k.s.n, 0, 0, &idx), 0);
    CHECK(idx != NULL);
    seq w = { 0 };
    whole(&k, &w);
    lists wl;
    whole_lists(&k, &wl);
    CHECK(wl.nbin > 8 && wl.ntext > 0);
    const size_t steps[] = { 1, 3, 7 };
    for (size_t i = 0; idx && i < sizeof steps / sizeof steps[0]; i++) {
        if (th_quick() && i != turn % (sizeof steps / sizeof steps[0]))
            continue;
        seq p = { 0 };
        pieces(&k, idx, steps[i], &p, sm);
        char what[300];
        snprintf(what, sizeof what, "%s [%s] every %zu of %zu points", prog, settings, steps[i],
                 rvt_index_count(idx));
        same_seq(what, &w, &p);
        seq_free(&p);
        lists pl;
        pieces_lists(&k, idx, steps[i], &pl);
        same_list(what, "pcs", wl.text, wl.ntext, pl.text, pl.ntext);
        same_list(what, "pcs-bin", wl.bin, wl.nbin, pl.bin, pl.nbin);
        free(pl.text);
        free(pl.bin);
    }
    free(wl.text);
    free(wl.bin);
    seq_free(&w);
    rvt_index_free(idx);
    th_proto_case_close(&k);
}

int main(void)
{
    seams sm = { 0 };
    const char *const progs[] = { "crc", "recurse", "ecall", "coswap" };
    const char *const te_modes[] = {
        "resync_max=2",
        "resync_max=2;options=sijump,implicit-return,branch-prediction,"
        "jump-target-cache;sijump=1;return_stack_size=5",
        "resync_max=3;options=implicit-return;return_stack_size=5",
        "resync_max=2;version=2.0;notime=0;time_width=32;nocontext=0",
    };
    /* table 32 trTeInstMode: 3 BTM, 6 HTM; sync every 2^(max+4) messages */
    const char *const nt_modes[] = {
        "trTeInstMode=6;trTeInstSyncMode=1;trTeInstSyncMax=0",
        "trTeInstMode=3;trTeInstSyncMode=1;trTeInstSyncMax=0;trTeInstEnRepeatedHistory=1;"
        "trTeInstEnSequentialJump=1",
        "trTeInstMode=6;trTeInstSyncMode=1;trTeInstSyncMax=0;trTeInstEnImplicitReturn=1;"
        "trTeInstImplicitReturnMode=3;trTeInstEnSequentialJump=1;trTeInstEnRepeatedHistory=1",
    };
    size_t turn = 0;
    for (size_t p = 0; p < sizeof progs / sizeof progs[0]; p++) {
        for (size_t m = 0; m < sizeof te_modes / sizeof te_modes[0]; m++)
            one_stream("etrace", progs[p], te_modes[m], turn++, &sm);
        for (size_t m = 0; m < sizeof nt_modes / sizeof nt_modes[0]; m++)
            one_stream("ntrace", progs[p], nt_modes[m], turn++, &sm);
    }
    /* the test reaches every kind of seam, at many cuts */
    CHECK(sm.joined > 0);
    CHECK(sm.ended_by_events > 0);
    CHECK(sm.seam_heads > 0);
    CHECK(sm.nt_seams > 0);
    CHECK(sm.points > 5000);
    return TH_DONE();
}
