/* Decoders created through the protocol registry (rvtrace/proto.h, issue
 * #14): one E-Trace and one N-Trace stream of a programs/ ELF, traced by
 * the hart in process, decoded through rvt_proto_decoder_* (push, and pull
 * with next_insn) give the same instructions and events as the protocol's
 * own decoder; NULL arguments and calls out of turn are refused. */
#include <stdio.h>
#include <stdlib.h>
#include "rvtrace/hart.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "test_stream_util.h"

/* The protocol's settings: defaults, the ELF's XLEN, the filled policies
 * (what rvtrace encode and decode use). */
static rvt_proto_cfg *config(const char *proto, const rvt_image *img)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find(proto));
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ(rvt_proto_cfg_input_xlen(c, rvt_image_xlen(img)), 0);
        CHECK_EQ(rvt_proto_cfg_fill(c), 0);
    }
    return c;
}

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

static void one_protocol(const char *proto, const char *prog)
{
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    if (!img)
        return;
    rvt_mem *m = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(m, NULL, img), 0);
    rvt_proto_cfg *c = config(proto, img);
    te_buf s = { 0 };
    if (proto[0] == 'e')
        th_te_stream(c, img, &s, 300000);
    else
        th_nt_stream(c, img, &s, 300000);
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

    free(want.ev);
    free(pushed.ev);
    free(pulled.ev);
    free(s.b);
    rvt_proto_cfg_free(c);
    rvt_mem_free(m);
    rvt_image_free(img);
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
