/* The end of an E-Trace stream (out.h RVT_EV_END): the decoder sends
 * exactly one end event however often the trace is ended
 * (rvt_te_decoder_run ends it itself), and flags a stream that stops
 * without the encoder's end marker -- the support packet with enable 0
 * and qual_status ended_rep (6.5, 6.5.1) -- as incomplete, with the offset
 * where its last complete packet ends.  rvt_te_decoder_run_to (a piece of
 * a stream, decode --jobs) ends nothing and stops before the first packet
 * that starts at or after its stop offset. */
#include "test_etrace_util.h"

/* support(enable=1), sync at leaf2 (0x50), support(enable=0, ended_rep):
 * the stream the encoder writes for one traced instruction. */
typedef struct stream {
    uint8_t b[64];
    size_t n;
    size_t off[3];          /* where each packet starts */
} stream;

static void put(stream *s, const rvt_te_attrs *a, const rvt_te_pkt *p, unsigned k)
{
    s->off[k] = s->n;
    int n = rvt_te_frame(a, p, s->b + s->n, sizeof s->b - s->n);
    CHECK(n > 0);
    if (n > 0)
        s->n += (size_t)n;
}

static void build(stream *s, const rvt_te_attrs *a)
{
    s->n = 0;
    rvt_te_pkt start = { .format = 3, .subformat = 3, .enable = 1 };
    rvt_te_pkt sync = { .format = 3, .subformat = 0, .branch = 1, .privilege = 3,
                        .address = (TE_BASE + 0x50) >> 1 };
    rvt_te_pkt end = { .format = 3, .subformat = 3, .enable = 0, .qual_status = RVT_TE_QUAL_ENDED_REP };
    put(s, a, &start, 0);
    put(s, a, &sync, 1);
    put(s, a, &end, 2);
}

static size_t count(const te_evs *e, unsigned kind)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++)
        n += e->ev[i].kind == kind;
    return n;
}

static const rvt_flow_event *last(const te_evs *e)
{
    return e->n ? &e->ev[e->n - 1] : NULL;
}

/* A decoder whose events go to e (emptied). */
static rvt_te_decoder *fresh(const rvt_te_attrs *a, rvt_image *img, te_evs *e)
{
    e->n = 0;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, te_evs_put, e, &st);
    CHECK(d != NULL);
    return d;
}

/* Decode len bytes of s, then end the trace once more. */
static void decode(const rvt_te_attrs *a, rvt_image *img, const stream *s, size_t len, te_evs *e)
{
    rvt_te_decoder *d = fresh(a, img, e);
    if (!d)
        return;
    CHECK_EQ(rvt_te_decoder_run(d, s->b, len), 0);
    CHECK_EQ(rvt_te_decoder_finish(d), 0);
    rvt_te_decoder_free(d);
}

static void check_end(const te_evs *e, bool complete, uint64_t offset, const char *what)
{
    const rvt_flow_event *ev = last(e);
    if (count(e, RVT_EV_END) != 1 || !ev || ev->kind != RVT_EV_END) {
        TH_FAIL("%s: %zu end events, want one, last", what, count(e, RVT_EV_END));
        return;
    }
    if (complete && ev->aux != 0)
        TH_FAIL("%s: complete stream flagged 0x%" PRIx64, what, ev->aux);
    if (!complete && (!(ev->aux & RVT_END_INCOMPLETE) || ev->offset != offset))
        TH_FAIL("%s: aux 0x%" PRIx64 " offset %" PRIu64 ", want incomplete at %" PRIu64, what, ev->aux,
                ev->offset, offset);
}

static uint64_t packets(const rvt_te_decoder *d)
{
    rvt_te_dec_stats ds;
    rvt_te_decoder_stats(d, &ds);
    return ds.packets;
}

/* run_to: stop at the sync's first byte (only the start packet read), one
 * byte into it (a packet that starts before stop is read whole), then the
 * rest with run: the whole stream's events, one end. */
static void check_run_to(const rvt_te_attrs *a, rvt_image *img, const stream *s, te_evs *e)
{
    rvt_te_decoder *d = fresh(a, img, e);
    if (!d)
        return;
    CHECK_EQ(rvt_te_decoder_run_to(d, s->b, s->n, s->off[1]), 0);
    CHECK_EQ(packets(d), 1);
    CHECK_EQ(e->n, 0);
    CHECK_EQ(rvt_te_decoder_run_to(d, s->b + s->off[1], s->n - s->off[1], 1), 0);
    CHECK_EQ(packets(d), 2);
    CHECK_EQ(count(e, RVT_EV_INSN), 1);        /* the sync's address */
    CHECK_EQ(count(e, RVT_EV_END), 0);
    CHECK_EQ(rvt_te_decoder_run(d, s->b + s->off[2], s->n - s->off[2]), 0);
    CHECK_EQ(packets(d), 3);
    check_end(e, true, 0, "run_to, then run");
    CHECK_EQ(rvt_te_decoder_run_to(NULL, s->b, s->n, 1), RVT_ERR_INVAL);
    rvt_te_decoder_free(d);
}

int main(void)
{
    rvt_image *img = te_image(te_prog, sizeof te_prog / 4);
    CHECK(img != NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    stream s;
    build(&s, &a);
    te_evs e = { 0 };

    decode(&a, img, &s, s.n, &e);
    check_end(&e, true, 0, "whole stream");
    CHECK_EQ(count(&e, RVT_EV_INSN), 1);
    CHECK_EQ(count(&e, RVT_EV_ERROR), 0);

    /* Without the end marker: every packet whole, the last ends at off[2]. */
    decode(&a, img, &s, s.off[2], &e);
    check_end(&e, false, s.off[2], "no end marker");
    CHECK_EQ(count(&e, RVT_EV_INSN), 1);
    CHECK_EQ(count(&e, RVT_EV_ERROR), 0);

    /* The marker cut after its header: an error, and the last complete
     * packet still ends at off[2]. */
    decode(&a, img, &s, s.off[2] + 1, &e);
    check_end(&e, false, s.off[2], "cut end marker");
    CHECK_EQ(count(&e, RVT_EV_ERROR), 1);

    /* The sync cut: nothing decoded, the start packet is complete. */
    decode(&a, img, &s, s.off[1] + 2, &e);
    check_end(&e, false, s.off[1], "cut sync");
    CHECK_EQ(count(&e, RVT_EV_INSN), 0);

    /* Empty: incomplete at 0. */
    decode(&a, img, &s, 0, &e);
    check_end(&e, false, 0, "empty");

    /* Fed packet by packet: finish ends it, a second call sends nothing. */
    e.n = 0;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(&a, img, te_evs_put, &e, &st);
    CHECK(d != NULL);
    if (d) {
        rvt_te_pkt p;
        CHECK_EQ(rvt_te_unpack(&a, s.b + 1, s.off[1] - 1, &p), 0);
        rvt_te_decoder_packet(d, &p, 0);
        CHECK_EQ(rvt_te_unpack(&a, s.b + s.off[1] + 1, s.off[2] - s.off[1] - 1, &p), 0);
        rvt_te_decoder_packet(d, &p, s.off[1]);
        rvt_te_decoder_finish(d);
        rvt_te_decoder_finish(d);
        check_end(&e, false, s.off[1], "packets, no end marker");
        rvt_te_decoder_free(d);
    }
    check_run_to(&a, img, &s, &e);
    free(e.ev);
    rvt_image_free(img);
    return TH_DONE();
}
