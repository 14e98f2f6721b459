/* The E-Trace reader and decoder over an rvt_transport (issue 14: the
 * container is the transport's, not hard-wired into the reader): one
 * stream of te_prog decoded from its plain reference-flow bytes
 * (rvt_te_decoder_run), through the "refflow" transport and, wrapped in
 * Encapsulation 1.0, through the "encap" transport
 * (rvt_te_decoder_run_transport) gives the same instructions; in the
 * encapsulated stream the events' offsets are its own packets' (after the
 * leading synchronisation sequence of N + 1 = 32 bytes, 2.3: N = 31 + T +
 * S with T = 0 and S = int(6 / 8) = 0). */
#include "test_etrace_util.h"
#include "rvtrace/transport.h"

static size_t blk(rvt_irec *r, uint64_t addr, unsigned n, unsigned itype)
{
    *r = (rvt_irec){ .iaddr = addr, .iretire = 2 * n, .ninstr = n, .itype = (uint8_t)itype,
                     .ilastsize = 1, .priv = 3, .flags = RVT_IREC_F_CYCLE_END };
    return n;
}

/* 00-14 (beqz taken to 1c), 1c jalr to 50 (uninferable call), 50 xor,
 * 54 ret to 20 (a return), 20 addi. */
static void encode(const rvt_te_attrs *a, te_buf *out)
{
    rvt_irec r[4];
    blk(&r[0], TE_BASE, 6, 5);
    blk(&r[1], TE_BASE + 0x1c, 1, 8);
    blk(&r[2], TE_BASE + 0x50, 2, 13);
    blk(&r[3], TE_BASE + 0x20, 1, 0);
    te_encode_recs(a, r, 4, out);
}

/* Each reference-flow frame (header msg_type << 5 | length, then length
 * payload bytes) as one encapsulated packet with srcID 1 of 6 bits and a
 * 2-bit type. */
static void wrap(const te_buf *plain, te_buf *out)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = 6;
    c.src_id = 1;
    c.type_bits = 2;
    memset(out, 0, sizeof *out);
    int st;
    rvt_encap_writer *w = rvt_encap_writer_new(&c, te_buf_put, out, &st);
    CHECK(w != NULL);
    for (size_t at = 0; w && at < plain->n;) {
        size_t n = 1 + (plain->b[at] & 31u);
        CHECK_EQ(rvt_encap_write_frame(w, NULL, plain->b + at, n), 0);
        at += n;
    }
    rvt_encap_writer_free(w);
}

static int via(const rvt_te_attrs *a, rvt_image *img, const char *name, const rvt_tp_config *c,
               const te_buf *s, te_evs *out)
{
    int st = 0;
    rvt_transport *tp = rvt_tp_new(name, c, s->b, s->n, &st);
    CHECK(tp != NULL);
    rvt_te_decoder *d = tp ? rvt_te_decoder_new(a, img, te_evs_put, out, &st) : NULL;
    CHECK(!tp || d != NULL);
    out->n = 0;
    st = d ? rvt_te_decoder_run_transport(d, tp) : -1;
    rvt_te_decoder_free(d);
    rvt_tp_free(tp);
    return st;
}

/* The instructions of two event lists are the same. */
static bool same_insns(const te_evs *x, const te_evs *y, size_t *count)
{
    size_t i = 0, j = 0;
    *count = 0;
    for (;;) {
        while (i < x->n && x->ev[i].kind != RVT_EV_INSN)
            i++;
        while (j < y->n && y->ev[j].kind != RVT_EV_INSN)
            j++;
        if (i == x->n || j == y->n)
            return i == x->n && j == y->n;
        if (x->ev[i++].pc != y->ev[j++].pc)
            return false;
        ++*count;
    }
}

static uint64_t first_offset(const te_evs *e)
{
    for (size_t i = 0; i < e->n; i++)
        if (e->ev[i].kind == RVT_EV_INSN)
            return e->ev[i].offset;
    return UINT64_MAX;
}

int main(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_te_attrs_fill(&a);
    rvt_image *img = te_image(te_prog, sizeof te_prog / sizeof *te_prog);
    te_buf plain, enc;
    encode(&a, &plain);
    wrap(&plain, &enc);
    te_evs p = { 0 }, r = { 0 }, e = { 0 };
    CHECK_EQ(te_decode(&a, img, plain.b, plain.n, &p), 0);
    CHECK_EQ(via(&a, img, "refflow", NULL, &plain, &r), 0);
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = 6;
    c.type_bits = 2;
    CHECK_EQ(via(&a, img, "encap", &c, &enc, &e), 0);
    size_t n;
    CHECK(same_insns(&p, &r, &n));
    CHECK_EQ(n, 10);                      /* 6 + 1 + 2 + 1 */
    CHECK(same_insns(&p, &e, &n));
    CHECK_EQ(n, 10);
    /* The first instructions are reported by the second packet: in the
     * plain stream at 2 (the first frame is a header and one payload
     * byte); encapsulated, that frame became header, srcID/type byte (6 + 2
     * bits) and the payload byte, 3 bytes after the 32-byte sync sequence,
     * so the second packet is at 35. */
    CHECK_EQ(plain.n > 1 ? plain.b[0] & 31u : 0, 1);
    CHECK_EQ(first_offset(&p), 2);
    CHECK_EQ(first_offset(&r), 2);
    CHECK_EQ(first_offset(&e), 35);
    CHECK_EQ(rvt_te_decoder_run_transport(NULL, NULL), RVT_ERR_INVAL);
    free(p.ev);
    free(r.ev);
    free(e.ev);
    free(plain.b);
    free(enc.b);
    rvt_image_free(img);
    return TH_DONE();
}
