/* Decoders created through the protocol registry (rvtrace/proto.h, issue
 * #14): one E-Trace and one N-Trace stream of a programs/ ELF, traced by
 * the hart in process, decoded through rvt_proto_decoder_* (push, and pull
 * with next_insn) give the same instructions and events as the protocol's
 * own decoder; the generic controls (events, source, flush, stats) mean
 * the same for both; NULL arguments and calls out of turn are refused. */
#include <stdio.h>
#include <stdlib.h>
#include "rvtrace/hart.h"
#include "test_proto_util.h"

/* The protocol's own decoder, pushing into *out. */
static void direct(const char *proto, rvt_proto_cfg *c, rvt_image *img, const te_buf *s, te_evs *out)
{
    int st = 0;
    if (proto[0] == 'e') {
        rvt_te_decoder *d = rvt_te_decoder_new(rvt_proto_cfg_native(c), img, te_evs_put, out, &st);
        CHECK_EQ(rvt_te_decoder_run(d, s->b, s->n), 0);
        CHECK_EQ(rvt_te_decoder_finish(d), 0);
        rvt_te_decoder_free(d);
    } else {
        rvt_nt_decoder *d = rvt_nt_decoder_new(rvt_proto_cfg_native(c), rvt_image_insn_cb, img,
                                               -1, te_evs_put, out, &st);
        CHECK_EQ(rvt_nt_decode(d, s->b, s->n), 0);
        CHECK_EQ(rvt_nt_decode_end(d), 0);
        rvt_nt_decoder_free(d);
    }
}

/* next_insn with next_event drained before each: the push events again. */
static void pull(rvt_proto_decoder *d, te_evs *out)
{
    for (;;) {
        rvt_flow_event ev;
        int st;
        while ((st = rvt_proto_decoder_next_event(d, &ev)) > 0)
            te_evs_put(out, &ev);
        CHECK_EQ(st, 0);
        rvt_flow_insn in;
        st = rvt_proto_decoder_next_insn(d, &in);
        CHECK(st >= 0);
        if (st <= 0)
            break;
        rvt_flow_event ie = { .kind = RVT_EV_INSN, .pc = in.pc, .priv = in.priv, .src = in.src };
        te_evs_put(out, &ie);
    }
}

static size_t count_kind(const te_evs *v, unsigned kind)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++)
        n += v->ev[i].kind == kind;
    return n;
}

static void same(const char *what, const te_evs *want, const te_evs *got)
{
    CHECK_EQ(got->n, want->n);
    for (size_t i = 0; i < want->n && i < got->n; i++)
        if (want->ev[i].kind != got->ev[i].kind || want->ev[i].pc != got->ev[i].pc) {
            TH_FAIL("%s: event %zu: kind %u pc %llx, want kind %u pc %llx", what, i,
                    (unsigned)got->ev[i].kind, (unsigned long long)got->ev[i].pc,
                    (unsigned)want->ev[i].kind, (unsigned long long)want->ev[i].pc);
            return;
        }
}

/* A decoder of the stream with the generic controls (proto.h): src the
 * source to keep, events RVT_PROTO_EVENTS_*; its counters in *out, its
 * events in *evs. */
static void controlled(const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s, int src,
                       unsigned events, rvt_proto_dec_stats *out, te_evs *evs)
{
    int st = -1;
    rvt_proto_decoder *d = rvt_proto_decoder_new(c, m, te_evs_put, evs, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_proto_decoder_set_source(d, src), 0);
    CHECK_EQ(rvt_proto_decoder_set_events(d, events), 0);
    CHECK_EQ(rvt_proto_decoder_flush(d), 0);          /* nothing cached yet: harmless */
    CHECK_EQ(rvt_proto_decoder_run(d, s->b, s->n), 0);
    CHECK_EQ(rvt_proto_decoder_finish(d), 0);
    CHECK_EQ(rvt_proto_decoder_set_source(d, src), RVT_ERR_STATE);   /* too late */
    CHECK_EQ(rvt_proto_decoder_stats(d, out), 0);
    rvt_proto_decoder_free(d);
}

/* Counting mode sends no instruction but counts each one; every source
 * (-1) and the only source there is (SRC 0: the encoder writes no SRC
 * field, src_bits 0, so every message is source 0, N-Trace table 8) give
 * the same; another source keeps nothing (N-Trace), or is refused
 * (E-Trace streams name no source). */
static void controls(const char *proto, const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s,
                     const te_evs *want)
{
    rvt_proto_dec_stats all, counted, none;
    te_evs evs = { 0 }, cevs = { 0 }, nevs = { 0 };
    controlled(c, m, s, -1, RVT_PROTO_EVENTS_ALL, &all, &evs);
    same(proto, want, &evs);
    CHECK_EQ(all.instructions, count_kind(want, RVT_EV_INSN));
    CHECK(all.units > 0);
    CHECK_EQ(all.errors, 0);
    CHECK_EQ(all.wide_icnt, 0);
    controlled(c, m, s, proto[0] == 'n' ? 0 : -1, RVT_PROTO_EVENTS_COUNT, &counted, &cevs);
    CHECK_EQ(count_kind(&cevs, RVT_EV_INSN), 0);
    CHECK_EQ(count_kind(&cevs, RVT_EV_END), 1);
    CHECK_EQ(counted.instructions, all.instructions);
    CHECK_EQ(counted.units, all.units);
    if (proto[0] == 'n') {
        controlled(c, m, s, 1, RVT_PROTO_EVENTS_ALL, &none, &nevs);
        CHECK_EQ(none.units, 0);
        CHECK_EQ(none.instructions, 0);
    } else {
        int st = -1;
        rvt_proto_decoder *d = rvt_proto_decoder_new(c, m, te_evs_put, &nevs, &st);
        /* E-Trace: an encapsulated stream's srcID, up to 16 bits (2.1.2) */
        CHECK_EQ(rvt_proto_decoder_set_source(d, 0x10000), RVT_ERR_INVAL);
        CHECK_EQ(rvt_proto_decoder_set_source(d, 7), 0);
        rvt_proto_decoder_free(d);
    }
    free(evs.ev);
    free(cevs.ev);
    free(nevs.ev);
}

static void one_protocol(const char *proto, const char *prog)
{
    th_proto_case k;
    if (!th_proto_case_open(&k, proto, prog))
        return;
    rvt_image *img = k.img;
    rvt_mem *m = k.mem;
    rvt_proto_cfg *c = k.cfg;
    te_buf s = k.s;
    te_evs want = { 0 }, pushed = { 0 }, pulled = { 0 };
    direct(proto, c, img, &s, &want);
    CHECK(count_kind(&want, RVT_EV_INSN) > 1000);
    CHECK_EQ(count_kind(&want, RVT_EV_END), 1);

    int st = -1;
    rvt_proto_decoder *d = rvt_proto_decoder_new(c, m, te_evs_put, &pushed, &st);
    CHECK(d != NULL);
    CHECK_EQ(st, 0);
    CHECK_EQ(rvt_proto_decoder_run(d, s.b, s.n), 0);
    CHECK_EQ(rvt_proto_decoder_finish(d), 0);
    CHECK_EQ(rvt_proto_decoder_finish(d), 0);              /* END only once */
    CHECK_EQ(rvt_proto_decoder_run(d, s.b, s.n), RVT_ERR_STATE);
    rvt_proto_decoder_free(d);
    same(proto, &want, &pushed);

    d = rvt_proto_decoder_new(c, m, NULL, NULL, &st);
    CHECK_EQ(rvt_proto_decoder_set_input(d, s.b, s.n), 0);
    CHECK_EQ(rvt_proto_decoder_run(d, s.b, s.n), RVT_ERR_STATE);
    CHECK_EQ(rvt_proto_decoder_finish(d), RVT_ERR_STATE);
    pull(d, &pulled);
    rvt_block b;
    CHECK_EQ(rvt_proto_decoder_next_block(d, &b), 0);      /* used up */
    rvt_proto_decoder_free(d);
    same(proto, &want, &pulled);
    controls(proto, c, m, &s, &want);

    free(want.ev);
    free(pushed.ev);
    free(pulled.ev);
    th_proto_case_close(&k);
}

static void null_arguments(void)
{
    rvt_mem *m = rvt_mem_new();
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    rvt_proto_cfg *tv = rvt_proto_cfg_new(rvt_proto_find("tv"));
    int st = 0;
    CHECK(rvt_proto_decoder_new(NULL, m, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    st = 0;
    CHECK(rvt_proto_decoder_new(c, NULL, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    st = 0;
    CHECK(rvt_proto_decoder_new(tv, m, NULL, NULL, &st) == NULL);   /* no decoder */
    CHECK_EQ(st, RVT_ERR_STATE);
    CHECK(rvt_proto_decoder_new(NULL, NULL, NULL, NULL, NULL) == NULL);
    rvt_proto_decoder *d = rvt_proto_decoder_new(c, m, NULL, NULL, &st);
    CHECK(d != NULL);
    uint8_t byte = 0;
    rvt_block b;
    rvt_flow_insn in;
    rvt_flow_event ev;
    CHECK_EQ(rvt_proto_decoder_run(NULL, &byte, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_run(d, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_run(d, &byte, 1), RVT_ERR_INVAL);    /* N-Trace: no fn */
    CHECK_EQ(rvt_proto_decoder_finish(NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_input(NULL, &byte, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_input(d, NULL, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_block(NULL, &b), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_block(d, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_insn(NULL, &in), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_insn(d, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_event(NULL, &ev), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_event(d, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_insn(d, &in), RVT_ERR_STATE);  /* no input given */
    CHECK_EQ(rvt_proto_decoder_next_block(d, &b), RVT_ERR_STATE);
    CHECK_EQ(rvt_proto_decoder_next_blocks(d, &b, 0), RVT_ERR_STATE);
    CHECK_EQ(rvt_proto_decoder_next_run(d, &b, 1), RVT_ERR_STATE);
    CHECK_EQ(rvt_proto_decoder_next_event(d, &ev), RVT_ERR_STATE);
    CHECK_EQ(rvt_proto_decoder_next_blocks(NULL, &b, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_run(d, NULL, 1), RVT_ERR_INVAL);
    rvt_proto_dec_stats ds;
    CHECK_EQ(rvt_proto_decoder_set_events(NULL, RVT_PROTO_EVENTS_COUNT), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_events(d, 7), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_source(NULL, 0), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_source(d, 4096), RVT_ERR_INVAL);   /* SRC is 12 bits */
    CHECK_EQ(rvt_proto_decoder_flush(NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_stats(NULL, &ds), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_stats(d, NULL), RVT_ERR_INVAL);
    rvt_proto_decoder_free(d);
    rvt_proto_decoder_free(NULL);
    rvt_proto_cfg_free(tv);
    rvt_proto_cfg_free(c);
    rvt_mem_free(m);
}

int main(void)
{
    one_protocol("etrace", "crc");
    one_protocol("ntrace", "crc");
    one_protocol("etrace", "recurse");
    one_protocol("ntrace", "recurse");
    null_arguments();
    return TH_DONE();
}
