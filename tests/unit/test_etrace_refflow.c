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

int main(void)
{
    profile_set();
    updiscon_before_ebreak();
    return TH_DONE();
}
