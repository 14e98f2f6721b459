/* The E-Trace decoder's walk limit (src/etrace/decoder.c TE_FOLLOW_LIMIT,
 * docs/etrace.md "Damaged streams"): a walk may follow 2^24 instructions
 * per branch outcome its packet gives, and one 2^24 more.  Brent's check
 * ends a walk that repeats a state, so only outcomes make a walk long,
 * and the stream may ask for up to 2^32 + 30 correct predictions in one
 * branch count (table 6.8): a delay loop of that many turns, which the
 * decoder follows whole.  Checked in every way the decoder is driven:
 * push with an event per instruction, push in run mode, push with events
 * off, pull a block batch at a time (the walk paused and resumed between
 * batches: the count is kept across them) and an instruction at a time
 * (next_insn).
 *
 * 1. A long loop.  The program (llvm-mc -triple=riscv64 -mattr=-c; as
 * test_etrace_refill_brent.c):
 *   00 A: bne a0,a1,L           0x00b51463
 *   04 J: j   A                 0xffdff06f
 *   08 L: j   L                 0x0000006f
 * With branch prediction (3.2.6) A's entry starts at 01: predicted not
 * taken.  The stream: a sync at J (format 3: J retired), then a branch
 * count (format 0, table 6.8) of C + 31 correct predictions and one that
 * failed; no more packets.  The count's walk: A J A J ... each correct
 * prediction retiring A and J, and it stops at its last branch (A, its
 * outcome pending, 11.1), so it follows 2 (C + 31) + 1 = 2C + 63
 * instructions, 2C + 64 with the sync's J.  Every step uses an outcome,
 * so Brent's check never fires.  C = 2^23: 2^24 + 64 in all, no error
 * (a limit of 2^24 per packet, as before, stopped it after 2^24 + 1 with
 * "reported address never reached": a valid stream, a delay loop of
 * 2^23 turns traced with the resync counter counting packets, decoded
 * wrong).
 *
 * 2. The limit.  A walk that uses no outcome and repeats no state: a sled
 * of 2^24 + 64 nops (addi x0,x0,0: 0x00000013) then L: j L, a sync at its
 * first nop and a format 2 packet (address only, table 6.11) naming a
 * nop further on.  At nop 2^24 - 64 the walk gets there, no error; at
 * nop 2^24 + 32 it stops after 2^24 instructions (2^24 + 1 with the
 * sync's) with one error "reported address never reached" at the format
 * 2 packet's offset.  Without the limit it would retire 2^24 + 33.
 *
 * Every loop below stops at 2^25 instructions (a failure), so a decoder
 * that walked on and on fails rather than hangs. */
#include "test_etrace_util.h"
#include "rvtrace/flow.h"

#define LIMIT (UINT64_C(1) << 24)
#define GUARD (UINT64_C(1) << 25)

static const uint32_t prog[] = { 0x00b51463, 0xffdff06f, 0x0000006f };
#define NOP 0x00000013u
#define SLED (LIMIT + 64)       /* nops, then j . */

typedef struct stream {
    uint8_t b[64];
    size_t n;
    uint64_t count_off;         /* the second packet's offset */
} stream;

static void put(stream *s, const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    int n = rvt_te_frame(a, p, s->b + s->n, sizeof s->b - s->n);
    CHECK(n > 0);
    if (n > 0)
        s->n += (size_t)n;
}

/* The sync at J, then a count of c + 31 correct predictions and one
 * failed (table 6.8 branch_count = c, branch_fmt 0: no address). */
static stream make_stream(const rvt_te_attrs *a, uint32_t c)
{
    stream s = { .n = 0 };
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .privilege = 3, .address = (TE_BASE + 4) >> 1 };
    put(&s, a, &sync);
    s.count_off = s.n;
    rvt_te_pkt count = { .format = 0, .subformat = 0, .branch_count = c, .branch_fmt = 0 };
    put(&s, a, &count);
    return s;
}

/* The sync at the sled's first nop, then a format 2 naming nop k (delta
 * address, 6.4: from the sync's, in units of 2^iaddress_lsb). */
static stream sled_stream(const rvt_te_attrs *a, uint64_t k)
{
    stream s = { .n = 0 };
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .privilege = 3, .address = TE_BASE >> 1 };
    put(&s, a, &sync);
    s.count_off = s.n;
    rvt_te_pkt addr = { .format = 2, .address = (4 * k) >> 1 };
    put(&s, a, &addr);
    return s;
}

/* What a decode gave: instructions, decode errors and the first one's
 * offset and text. */
typedef struct result {
    uint64_t insns, errors, err_off;
    char msg[64];
    bool runs;                  /* RVT_EV_INSN are runs (aux instructions) */
    bool ended;                 /* RVT_EV_END came */
} result;

static void note_event(result *r, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        r->insns += r->runs ? ev->aux : 1;
    r->ended |= ev->kind == RVT_EV_END;
    if (ev->kind == RVT_EV_ERROR && !r->errors++) {
        r->err_off = ev->offset;
        snprintf(r->msg, sizeof r->msg, "%s", ev->msg ? ev->msg : "");
    }
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    result *r = ctx;
    note_event(r, ev);
    return r->insns > GUARD;    /* walked on without the limit: stop */
}

typedef enum mode { PUSH, PUSH_RUNS, EVENTS_OFF, PULL_BLOCKS, PULL_ONE_BLOCK, PULL_INSNS } mode;
static const char *const mode_names[] = { "push", "runs", "events off", "next_blocks", "next_block",
                                          "next_insn" };

static rvt_te_decoder *new_decoder(const rvt_te_attrs *a, rvt_image *img, result *r, bool pull)
{
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, pull ? NULL : on_event, r, &st);
    CHECK(d != NULL);
    return d;
}

static void decode_push(rvt_te_decoder *d, const stream *s, mode m, result *r)
{
    r->runs = m == PUSH_RUNS;
    rvt_te_decoder_set_runs(d, m == PUSH_RUNS);
    rvt_te_decoder_set_events(d, m != EVENTS_OFF);
    CHECK_EQ(rvt_te_decoder_run(d, s->b, s->n), 0);
    if (m == EVENTS_OFF) {
        rvt_te_dec_stats ds;
        rvt_te_decoder_stats(d, &ds);
        r->insns = ds.instructions;
        CHECK_EQ(ds.errors, r->errors);
    }
}

/* The pending events, then the next blocks (or instruction): false at the
 * end of the input or past the guard. */
static bool pull_step(rvt_te_decoder *d, mode m, result *r)
{
    rvt_flow_event ev;
    while (rvt_te_decoder_next_event(d, &ev) > 0)
        note_event(r, &ev);
    rvt_block b[7];
    rvt_flow_insn in;
    int k;
    if (m == PULL_INSNS) {
        k = rvt_te_decoder_next_insn(d, &in);
        r->insns += k > 0;
    } else {
        k = m == PULL_ONE_BLOCK ? rvt_te_decoder_next_block(d, b) : rvt_te_decoder_next_blocks(d, b, 7);
        for (int i = 0; i < k; i++)
            r->insns += b[i].ninsn;
    }
    if (k < 0)
        TH_FAIL("%s: status %d", m == PULL_INSNS ? "next_insn" : "next_block(s)", k);
    if (k > 0 && r->insns <= GUARD)
        return true;
    while (k == 0 && rvt_te_decoder_next_event(d, &ev) > 0)    /* the END after the last */
        note_event(r, &ev);
    return false;
}

static result decode(const rvt_te_attrs *a, rvt_image *img, const stream *s, mode m)
{
    result r = { 0 };
    bool pull = m >= PULL_BLOCKS;
    rvt_te_decoder *d = new_decoder(a, img, &r, pull);
    if (!d)
        return r;
    if (!pull) {
        decode_push(d, s, m, &r);
    } else {
        CHECK_EQ(rvt_te_decoder_set_input(d, s->b, s->n), 0);
        while (pull_step(d, m, &r))
            ;
    }
    rvt_te_decoder_free(d);
    return r;
}

static void expect(const char *what, mode m, result r, uint64_t insns, uint64_t errors,
                   const stream *s)
{
    if (r.insns != insns || r.errors != errors || !r.ended ||
        (errors && (r.err_off != s->count_off || !strstr(r.msg, "never reached"))))
        TH_FAIL("%s, %s: %" PRIu64 " instructions, %" PRIu64 " errors (first at %" PRIu64
                ": \"%s\"); want %" PRIu64 ", %" PRIu64 " (at %" PRIu64 ", \"...never reached\")",
                mode_names[m], what, r.insns, r.errors, r.err_off, r.msg, insns, errors,
                s->count_off);
    else
        th_passed++;
}

/* 1: a loop of 2^23 turns, all of it */
static void check_loop(const rvt_te_attrs *a, rvt_image *img, mode m)
{
    stream loop = make_stream(a, 1u << 23);
    expect("a loop of 2^23 turns", m, decode(a, img, &loop, m), LIMIT + 64, 0, &loop);
}

/* 2: no outcome: under the limit to the end, over it stopped after 2^24.
 * Here next_blocks (batches of 7) gets the sled's one block with the
 * events after it still queued (the error, the end): until 2026-11-27 the
 * batch dropped them (flow_pull.c begin; every decode here must see
 * RVT_EV_END). */
static void check_sled(const rvt_te_attrs *a, rvt_image *img, mode m)
{
    stream under = sled_stream(a, LIMIT - 64);
    expect("a sled under the limit", m, decode(a, img, &under, m), LIMIT - 63, 0, &under);
    stream over = sled_stream(a, LIMIT + 32);
    expect("a sled over the limit", m, decode(a, img, &over, m), LIMIT + 1, 1, &over);
}

static rvt_image *sled_image(void)
{
    uint32_t *w = malloc((SLED + 1) * sizeof *w);
    CHECK(w != NULL);
    if (!w)
        return NULL;
    for (uint64_t i = 0; i < SLED; i++)
        w[i] = NOP;
    w[SLED] = 0x0000006f;       /* j . */
    rvt_image *img = te_image(w, SLED + 1);
    free(w);
    return img;
}

int main(void)
{
    rvt_image *img = te_image(prog, sizeof prog / 4), *sled = sled_image();
    CHECK(img != NULL && sled != NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.options |= RVT_TE_OPT_BRANCH_PRED;
    rvt_te_attrs_fill(&a);
    CHECK_EQ(rvt_te_attrs_check(&a), 0);
    for (mode m = PUSH; m <= PULL_INSNS; m++) {
        /* quick (th_quick): not the two modes whose walk another mode
         * takes -- run mode is push's walk with an event a straight run,
         * next_insn is next_block's walk handed out an instruction at a
         * time (flow_pull.c) */
        if (th_quick() && (m == PUSH_RUNS || m == PULL_INSNS))
            continue;
        check_loop(&a, img, m);
        check_sled(&a, sled, m);
    }
    rvt_image_free(img);
    rvt_image_free(sled);
    return TH_DONE();
}
