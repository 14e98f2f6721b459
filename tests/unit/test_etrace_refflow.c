/* The "refflow" profile (docs/conformance-etrace.md, reference-flow
 * deviations): its attribute set, and the reference encoder's updiscon
 * rule around an ecall/ebreak after an uninferable jump, byte for byte,
 * with the stream decoded back. */
#include "test_etrace_util.h"
#include "rvtrace/out.h"

/* The reference flow's itype3_basic settings (manifest.tsv) on top of the
 * profile: 64-bit delta addresses with iaddress_lsb 1, a 32-bit context,
 * no time, resync-max 0. */
static rvt_te_attrs itype3_basic(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_attrs_profile(&a, "refflow"), 0);
    a.iaddress_width = 64;
    a.iaddress_lsb = 1;
    a.nocontext = 0;
    a.context_width = 32;
    a.notime = 1;
    a.itype_width = 3;
    a.resync_max = 0;
    rvt_te_attrs_fill(&a);
    CHECK_EQ(rvt_te_attrs_check(&a), 0);
    return a;
}

static void profile_set(void)
{
    rvt_te_attrs a, b;
    rvt_te_attrs_default(&a);
    rvt_te_attrs_default(&b);
    CHECK_EQ(rvt_te_attrs_profile(&a, "refflow"), 0);
    CHECK_EQ(a.version, RVT_TE_V20);
    CHECK_EQ(a.resync_mode, RVT_TE_RESYNC_PACKETS);
    CHECK_EQ(a.irdepth_ones, 1);
    CHECK_EQ(a.trap_noupd, 1);
    /* The same through the attribute interface, and nothing else moves. */
    CHECK_EQ(rvt_te_attrs_set(&b, "profile=refflow"), 0);
    CHECK_MEM(&a, &b, sizeof a);
    CHECK(rvt_te_attrs_profile(&a, "spike") < 0);
    CHECK(rvt_te_attrs_set(&a, "profile=") < 0);
}

/* One encoder-input row (itype_0,cause,tval,priv,iaddr_0,context,ctype,
 * iretire_0,ilastsize_0) as a single-retirement block. */
static rvt_irec row(unsigned itype, unsigned cause, uint64_t iaddr, unsigned ilastsize)
{
    rvt_irec r = { .iaddr = iaddr, .itype = (uint8_t)itype, .cause = (uint16_t)cause, .priv = 3,
                   .ninstr = 1, .iretire = 1u << ilastsize, .ilastsize = (uint8_t)ilastsize };
    return r;
}

/* An mret (3-bit itype 6) to 0x80000100, whose next instruction is a
 * c.ebreak (itype 1, retired): the reference reports 0x80000100 with
 * updiscon set, as its rule is "the next row is an exception".  Bytes
 * by hand, E-Trace 2.0 layout, header msg_type 2 << 5 | length:
 * - 41 1f: support, ienable 1, qual_status 0, ioptions 0 (b0-1 11, b2-3 11,
 *   b4 ienable 1; sign-compressed to 5 bits);
 * - 49 73 00.. 20: start, branch 1, priv 3, context 0 (32 bits), address
 *   0x80000000 >> 1 (63 bits, b39-101: b69): 71 bits kept, 9 bytes;
 * - 49 02 02 00 00 00 00 00 00 fc: format 2, address 0x100 >> 1 = 0x80
 *   (b2-64: b9), notify = MSB = 0 (b65), updiscon = 1 ^ notify (b66),
 *   irreport = 0 ^ updiscon = 1 (b67), padded with ones: 9 bytes;
 * - 41 0a: format 2 at the c.ebreak (retired, reported before its trap):
 *   address +4 >> 1 = 2 (b3), flags 0;
 * - 4a 77 00 00 00 80 21 40 00 00 10: trap, branch 1, priv 3, context 0,
 *   ecause 3 (b39-43), interrupt 0, thaddr 1 (b45), address 0x80000200
 *   >> 1 (b46-108: b54, b76), tval 0: 78 bits kept, 10 bytes;
 * - 41 0a: the last instruction, +4; 41 4f: support, ienable 0,
 *   qual_status 1 (ended_rep). */
static void updiscon_before_ebreak(void)
{
    rvt_te_attrs a = itype3_basic();
    rvt_irec r[] = {
        row(0, 0, 0x80000000, 1), row(6, 0, 0x80000004, 1), row(0, 0, 0x80000100, 1),
        row(1, 3, 0x80000104, 0), row(0, 0, 0x80000200, 1), row(0, 0, 0x80000204, 1),
    };
    static const uint8_t want[] = {
        0x41, 0x1f,
        0x49, 0x73, 0, 0, 0, 0, 0, 0, 0, 0x20,
        0x49, 0x02, 0x02, 0, 0, 0, 0, 0, 0, 0xfc,
        0x41, 0x0a,
        0x4a, 0x77, 0, 0, 0, 0x80, 0x21, 0x40, 0, 0, 0x10,
        0x41, 0x0a,
        0x41, 0x4f,
    };
    te_buf out = { 0 };
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(&a, te_buf_put, &out, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK_EQ(rvt_te_encoder_put(e, r, sizeof r / sizeof r[0]), 0);
    CHECK_EQ(rvt_te_encoder_end(e), 0);
    rvt_te_encoder_free(e);
    CHECK_EQ(out.n, sizeof want);
    if (out.n == sizeof want)
        CHECK_MEM(out.b, want, sizeof want);

    /* Decoded back: every row retires (the c.ebreak too), the trap is
     * taken after the c.ebreak, no error. */
    static const uint32_t w0[] = { 0x00000013, 0x30200073 };  /* nop; mret */
    static const uint16_t w1[] = { 0x0013, 0x0000, 0x9002 };   /* nop; c.ebreak */
    static const uint32_t w2[] = { 0x00000013, 0x00000013 };  /* nop; nop */
    rvt_image *img = rvt_image_new();
    CHECK(img != NULL);
    if (!img)
        return;
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000000, w0, sizeof w0, "a"), 0);
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000100, w1, sizeof w1, "b"), 0);
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000200, w2, sizeof w2, "c"), 0);
    te_evs ev = { 0 };
    te_decode(&a, img, out.b, out.n, &ev);
    static const uint64_t pcs[] = { 0x80000000, 0x80000004, 0x80000100, 0x80000104,
                                    0x80000200, 0x80000204 };
    size_t k = 0, traps = 0, errors = 0;
    for (size_t i = 0; i < ev.n; i++) {
        if (ev.ev[i].kind == RVT_EV_ERROR)
            errors++;
        if (ev.ev[i].kind == RVT_EV_TRAP) {
            traps++;
            CHECK_EQ(k, 4);             /* after the c.ebreak */
            CHECK_EQ(ev.ev[i].aux, 3);
        }
        if (ev.ev[i].kind == RVT_EV_INSN) {
            CHECK(k < 6);
            if (k < 6)
                CHECK_EQ(ev.ev[i].pc, pcs[k]);
            k++;
        }
    }
    CHECK_EQ(k, 6);
    CHECK_EQ(traps, 1);
    CHECK_EQ(errors, 0);
    free(ev.ev);
    free(out.b);
    rvt_image_free(img);
}

/* ---- data trace: the reference's te_data forms (conformance-etrace) ---- */

typedef struct drecs {
    rvt_drec r[4];
    size_t n;
} drecs;

static int drec_put(void *ctx, const rvt_drec *d, uint64_t offset)
{
    (void)offset;
    drecs *o = ctx;
    if (o->n < 4)
        o->r[o->n] = *d;
    o->n++;
    return 0;
}

/* Decode buf with the reference's dtype settings (64-bit data and
 * addresses) on top of the profile; returns the decoder's error count. */
static int ddecode(const uint8_t *buf, size_t len, drecs *out)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_attrs_profile(&a, "refflow"), 0);
    a.data_trace = 1;
    a.data_width = 64;
    a.iaddress_width = 64;
    int st = 0;
    rvt_te_data_decoder *d = rvt_te_data_decoder_new(&a, drec_put, out, &st);
    CHECK(d != NULL);
    if (!d)
        return -1;
    int errors = rvt_te_data_decoder_run(d, buf, len);
    rvt_te_data_decoder_free(d);
    return errors;
}

/* E-Trace 2.0 "Unified atomic with address and data": size as for loads
 * (max(1, clog2(clog2(64/8 + 1))) = 2 bits, 2^size bytes), op_len and
 * data_len `size` bits.  amoadd.w, operand 5, data 7, address 0x80001000,
 * diff 00 (dtype_debug: full address and data), lengths 3 as the
 * reference always writes them:
 *   format 110 (b0-2: b1 b2), subtype 001 (b3), size 2 (b6-7: b7),
 *   diff 00, op_len 3 (b10 b11), operand 5 (b12-43: b12 b14),
 *   data_len 3 (b44 b45), data 7 (b46-77: b46-48),
 *   address 0x80001000 >> 2 = 0x20000400 (b78-141: b88 b107);
 * 109 bits kept (b108 the sign), 14 bytes: 8e 5c 00 00 00 f0 01 00 00 00
 * 00 01 00 08; header 3 << 5 | 14 = 6e.  The 1.1.1 layout (1-bit size)
 * reads these bits as another packet. */
static void atomic_2_0(void)
{
    static const uint8_t buf[] = { 0x6e, 0x8e, 0x5c, 0, 0, 0, 0xf0, 0x01, 0, 0, 0, 0, 0x01, 0, 0x08 };
    drecs o = { 0 };
    CHECK_EQ(ddecode(buf, sizeof buf, &o), 0);
    CHECK_EQ(o.n, 1);
    CHECK_EQ(o.r[0].dtype, RVT_DTYPE_AMO_ADD);
    CHECK_EQ(o.r[0].dsize, 2);
    CHECK_EQ(o.r[0].addr, 0x80001000);
    CHECK_EQ(o.r[0].data, 5);           /* operand */
    CHECK_EQ(o.r[0].data2, 7);          /* data */
}

/* The reference's first packet of a size after a sync (its support
 * packet) carries the full values with diff = 01 (differential address,
 * compressed data): decoded against zero.  Support packet 41 1f, then an
 * sd of 0x1234 to 0x80002000: format 010 (b1), size 3 (b3 b4), diff 01
 * (b5), data_len 7 (b7-9), data 0x1234 (b10-73: b12 b14 b15 b19 b22),
 * address 0x80002000 >> 3 = 0x10000400 (b74-137: b84 b102): 104 bits,
 * 13 bytes ba d3 48 00 00 00 00 00 00 00 10 00 40, header 6d.  Without the
 * sync the same packet has no reference: an error. */
static void diff_against_zero(void)
{
    static const uint8_t buf[] = { 0x41, 0x1f, 0x6d, 0xba, 0xd3, 0x48, 0, 0, 0, 0, 0, 0, 0,
                                   0x10, 0, 0x40 };
    drecs o = { 0 };
    CHECK_EQ(ddecode(buf, sizeof buf, &o), 0);
    CHECK_EQ(o.n, 1);
    CHECK_EQ(o.r[0].dtype, RVT_DTYPE_STORE);
    CHECK_EQ(o.r[0].dsize, 3);
    CHECK_EQ(o.r[0].addr, 0x80002000);
    CHECK_EQ(o.r[0].data, 0x1234);
    drecs none = { 0 };
    CHECK_EQ(ddecode(buf + 2, sizeof buf - 2, &none), 1);
    CHECK_EQ(none.n, 0);
}

int main(void)
{
    profile_set();
    updiscon_before_ebreak();
    atomic_2_0();
    diff_against_zero();
    return TH_DONE();
}
