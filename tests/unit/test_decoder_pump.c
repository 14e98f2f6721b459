/* rvt_proto_decoder_pump (proto.h, issue 18 "Output at the decoder's
 * speed"): the events and blocks it hands out, each block taken apart
 * into its instructions through the image, are exactly the events the
 * push decoder sends one per instruction -- the same kinds, pcs, values
 * and order, RVT_EV_END last -- for E-Trace and N-Trace streams of
 * programs with calls, traps, privilege changes and interrupts; a
 * callback's nonzero value stops it and comes back; NULL is refused.
 * rvt_proto_decoder_pump_blocks hands out the same blocks in batches
 * (none empty, more than one block a batch on the whole), with the same
 * stops and refusals; rvt_proto_decoder_pump_into the same blocks pulled
 * into the caller's arrays, of 1 to 7 blocks here (each batch in the
 * array given, none longer than it says), no array refused. */
#include <stdlib.h>
#include <string.h>
#include "test_proto_util.h"

typedef struct seq {
    rvt_flow_event *ev;
    size_t n, cap;
    const rvt_image *img;
    size_t blocks;
    size_t batches;             /* pump_blocks's calls of on_blocks */
} seq;

static void add(seq *s, const rvt_flow_event *ev)
{
    if (s->n == s->cap)
        s->ev = realloc(s->ev, (s->cap = s->cap ? 2 * s->cap : 4096) * sizeof *s->ev);
    s->ev[s->n] = *ev;
    s->ev[s->n].msg = NULL;         /* compared by kind and values */
    s->ev[s->n].offset = 0;         /* a block has its first instruction's */
    s->n++;
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    add(ctx, ev);
    return 0;
}

/* A block as the instructions in it: pcs walked by their lengths. */
static int on_block(void *ctx, const rvt_block *b)
{
    seq *s = ctx;
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = b->priv, .src = b->src, .pc = b->start_pc };
    s->blocks++;
    for (uint64_t k = 0; k < b->ninsn; k++) {
        if (k + 1 == b->ninsn)
            CHECK_EQ(ev.pc, b->end_pc);
        add(s, &ev);
        const rvt_insn *i = rvt_image_insn((rvt_image *)s->img, ev.pc);
        ev.pc += i ? i->len : 4;
    }
    return 0;
}

/* A batch: its blocks as on_block takes them, the batches counted. */
static int on_blocks(void *ctx, const rvt_block *b, size_t n)
{
    seq *s = ctx;
    CHECK(n > 0);
    s->batches++;
    for (size_t k = 0; k < n; k++)
        on_block(s, &b[k]);
    return 0;
}

/* pump_into's arrays: 1, 2, .. 7 blocks, one after the other, each
 * batch checked to be the one given and to fit. */
typedef struct rooms {
    seq *s;
    rvt_block arr[7];
    size_t max;
    unsigned bad;
} rooms;

static rvt_block *room(void *ctx, size_t *max)
{
    rooms *r = ctx;
    r->max = r->max % 7 + 1;
    *max = r->max;
    return r->arr;
}

static int room_event(void *ctx, const rvt_flow_event *ev)
{
    return on_event(((rooms *)ctx)->s, ev);
}

static int room_blocks(void *ctx, const rvt_block *b, size_t n)
{
    rooms *r = ctx;
    r->bad += b != r->arr || n > r->max;
    return on_blocks(r->s, b, n);
}

static rvt_block *no_room(void *ctx, size_t *max)
{
    (void)ctx;
    *max = 0;
    return NULL;
}

static bool same(const rvt_flow_event *a, const rvt_flow_event *b)
{
    return a->kind == b->kind && a->pc == b->pc && a->aux == b->aux && a->aux2 == b->aux2 &&
           a->priv == b->priv && a->src == b->src && a->flags == b->flags;
}

/* got has want's events, RVT_EV_END last. */
static void same_events(const char *proto, const char *prog, const seq *want, const seq *got)
{
    CHECK_EQ(got->n, want->n);
    size_t bad = 0, first = SIZE_MAX;
    for (size_t i = 0; i < want->n && i < got->n; i++)
        if (!same(&want->ev[i], &got->ev[i]) && bad++ == 0)
            first = i;
    CHECK_EQ(bad, 0);
    if (bad)
        printf("  %s %s: first difference at event %zu\n", proto, prog, first);
    CHECK(got->n && got->ev[got->n - 1].kind == RVT_EV_END);
}

static void pushed(const th_proto_case *k, seq *s)
{
    int st;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k->cfg, k->mem, on_event, s, &st);
    CHECK(d != NULL);
    CHECK_EQ(rvt_proto_decoder_run(d, k->s.b, k->s.n), 0);
    CHECK_EQ(rvt_proto_decoder_finish(d), 0);
    rvt_proto_decoder_free(d);
}

static rvt_proto_decoder *pulled(const th_proto_case *k)
{
    int st;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k->cfg, k->mem, NULL, NULL, &st);
    CHECK(d != NULL);
    CHECK_EQ(rvt_proto_decoder_set_input(d, k->s.b, k->s.n), 0);
    return d;
}

static int stop_at_third(void *ctx, const rvt_block *b)
{
    (void)b;
    return ++*(int *)ctx == 3 ? 42 : 0;
}

static int stop_at_second_batch(void *ctx, const rvt_block *b, size_t n)
{
    (void)b;
    (void)n;
    return ++*(int *)ctx == 2 ? 43 : 0;
}

static int no_event(void *ctx, const rvt_flow_event *ev)
{
    (void)ctx;
    (void)ev;
    return 0;
}

/* Both pumps stop at a callback's nonzero value and give it back, and
 * refuse a NULL decoder or callback. */
static void stops(const th_proto_case *k)
{
    int blocks = 0, batches = 0;
    rvt_proto_decoder *d = pulled(k), *e = pulled(k);
    CHECK_EQ(rvt_proto_decoder_pump(d, no_event, stop_at_third, &blocks), 42);
    CHECK_EQ(rvt_proto_decoder_pump_blocks(e, no_event, stop_at_second_batch, &batches), 43);
    CHECK_EQ(blocks, 3);
    CHECK_EQ(batches, 2);
    int refused = rvt_proto_decoder_pump(NULL, no_event, stop_at_third, &blocks) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump_blocks(NULL, no_event, stop_at_second_batch, &batches) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump(d, NULL, stop_at_third, &blocks) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump_blocks(e, NULL, stop_at_second_batch, &batches) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump(d, no_event, NULL, &blocks) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump_blocks(e, no_event, NULL, &batches) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump_into(e, no_event, no_room, stop_at_second_batch, &batches) == RVT_ERR_INVAL;
    refused += rvt_proto_decoder_pump_into(e, no_event, NULL, stop_at_second_batch, &batches) == RVT_ERR_INVAL;
    CHECK_EQ(refused, 8);
    rvt_proto_decoder_free(d);
    rvt_proto_decoder_free(e);
}

static void one(const char *proto, const char *prog)
{
    th_proto_case k;
    if (!th_proto_case_open(&k, proto, prog))
        return;
    seq want = { .img = k.img }, got = { .img = k.img };
    pushed(&k, &want);
    rvt_proto_decoder *d = pulled(&k);
    CHECK_EQ(rvt_proto_decoder_pump(d, on_event, on_block, &got), 0);
    CHECK_EQ(rvt_proto_decoder_pump(d, on_event, on_block, &got), 0);   /* used up: nothing more */
    rvt_proto_decoder_free(d);
    CHECK(want.n > 1000);
    CHECK(got.blocks > 100 && got.blocks < got.n / 2);
    CHECK_EQ(got.n, want.n);
    same_events(proto, prog, &want, &got);

    seq batched = { .img = k.img };
    d = pulled(&k);
    CHECK_EQ(rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, &batched), 0);
    CHECK_EQ(rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, &batched), 0);
    rvt_proto_decoder_free(d);
    CHECK_EQ(batched.blocks, got.blocks);
    CHECK(batched.batches > 0 && batched.batches < batched.blocks);
    same_events(proto, prog, &want, &batched);
    free(batched.ev);

    seq into = { .img = k.img };
    rooms r = { .s = &into };
    d = pulled(&k);
    CHECK_EQ(rvt_proto_decoder_pump_into(d, room_event, room, room_blocks, &r), 0);
    rvt_proto_decoder_free(d);
    CHECK_EQ(r.bad, 0);
    CHECK_EQ(into.blocks, got.blocks);
    CHECK(into.batches > into.blocks / 7);
    same_events(proto, prog, &want, &into);
    free(into.ev);

    stops(&k);
    free(want.ev);
    free(got.ev);
    th_proto_case_close(&k);
}

int main(void)
{
    static const char *const progs[] = { "sort", "privs", "ecall", "coswap", "timer", "farcall_rv32" };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        one("etrace", progs[i]);
        one("ntrace", progs[i]);
    }
    return TH_DONE();
}
