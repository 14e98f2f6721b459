/* N-Trace encoder and decoder against the spec's worked examples: the
 * I-CNT examples of 8.4.1/8.4.2, the I-CNT overflow sequence of 8.4.4, the
 * HIST examples of 8.3, plus decode-back of each stream. */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"
#include "test_ntrace_util.h"

/* ---- program image of 8.4.1 ---- */
#define C_ADD 0x952Eu       /* c.add a0,a1: 1001 01010 01011 10 */
#define C_EBREAK 0x9002u
#define ADD 0x00B50533u     /* add a0,a0,a1 */

/* B-type bne a0,a1,off */
static uint32_t bne(int32_t off)
{
    uint32_t i = (uint32_t)off;
    return ((i >> 12 & 1) << 31) | ((i >> 5 & 0x3F) << 25) | (11u << 20) | (10u << 15) |
           (1u << 12) | ((i >> 1 & 0xF) << 8) | ((i >> 11 & 1) << 7) | 0x63;
}

static rvt_image *image_841(void)
{
    rvt_image *img = rvt_image_new();
    put16(img, 0x100, C_ADD);
    put32(img, 0x102, bne(0x200 - 0x102));
    put32(img, 0x106, ADD);
    put32(img, 0x10A, bne(0x300 - 0x10A));
    put16(img, 0x10E, C_ADD);
    put32(img, 0x110, ADD);
    put16(img, 0x114, C_EBREAK);
    put16(img, 0x200, C_ADD);
    put16(img, 0x202, C_EBREAK);
    put32(img, 0x300, ADD);
    put16(img, 0x304, C_EBREAK);
    return img;
}

static void check_sync_start(const rvt_nt_msg *m)
{
    /* 8.4.1: "ProgTraceSync with I-CNT=0 and F-ADDR encoding 0x100" */
    CHECK_EQ(m->tcode, RVT_NT_PROG_TRACE_SYNC);
    CHECK_EQ(m->f[RVT_NT_F_ICNT], 0);
    CHECK_EQ(m->f[RVT_NT_F_FADDR], 0x80);
}

/* 8.4.1 (BTM): run 1, branch at 0x102 taken: DirectBranch I-CNT=3
 * (<0x100..0x105>), then ProgTraceCorrelation I-CNT=1 (<0x200..0x201>);
 * run 2: DirectBranch I-CNT=7, Correlation I-CNT=2; run 3: only
 * Correlation I-CNT=10. */
static void test_spec_icnt_btm(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.inst_mode = RVT_NT_MODE_BTM;
    rvt_image *img = image_841();
    cap c;
    rvt_nt_msg m[8];
    const rvt_irec run1[] = { rec(0x100, 1, 0, 0), rec(0x102, 2, 5, 1), rec(0x200, 1, 0, 0) };
    CHECK_EQ(encode(&cfg, run1, 3, &c, m, 8), 3);
    check_sync_start(&m[0]);
    CHECK_EQ(m[1].tcode, RVT_NT_DIRECT_BRANCH);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 3);
    CHECK_EQ(m[2].tcode, RVT_NT_PROG_TRACE_CORRELATION);
    CHECK_EQ(m[2].f[RVT_NT_F_EVCODE], 0);
    CHECK_EQ(m[2].f[RVT_NT_F_CDF], 0);     /* 7.12: CDF 0 in BTM */
    CHECK_EQ(m[2].f[RVT_NT_F_ICNT], 1);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x200 }, 3);

    const rvt_irec run2[] = { rec(0x100, 1, 0, 0), rec(0x102, 2, 4, 1), rec(0x106, 2, 0, 1),
                              rec(0x10A, 2, 5, 1), rec(0x300, 2, 0, 1) };
    CHECK_EQ(encode(&cfg, run2, 5, &c, m, 8), 3);
    CHECK_EQ(m[1].tcode, RVT_NT_DIRECT_BRANCH);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 7);
    CHECK_EQ(m[2].f[RVT_NT_F_ICNT], 2);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x106, 0x10A, 0x300 }, 5);

    const rvt_irec run3[] = { rec(0x100, 1, 0, 0), rec(0x102, 2, 4, 1), rec(0x106, 2, 0, 1),
                              rec(0x10A, 2, 4, 1), rec(0x10E, 1, 0, 0), rec(0x110, 2, 0, 1) };
    CHECK_EQ(encode(&cfg, run3, 6, &c, m, 8), 2);
    CHECK_EQ(m[1].tcode, RVT_NT_PROG_TRACE_CORRELATION);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 10);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x106, 0x10A, 0x10E, 0x110 }, 6);

    /* 8.4.2 (HTM): I-CNT=4 HIST=0b11; I-CNT=9 HIST=0b101; I-CNT=10 HIST=0b100 */
    cfg.inst_mode = RVT_NT_MODE_HTM;
    CHECK_EQ(encode(&cfg, run1, 3, &c, m, 8), 2);
    CHECK_EQ(m[1].tcode, RVT_NT_PROG_TRACE_CORRELATION);
    CHECK_EQ(m[1].f[RVT_NT_F_CDF], 1);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 4);
    CHECK_EQ(m[1].f[RVT_NT_F_HIST], 0x3);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x200 }, 3);
    CHECK_EQ(encode(&cfg, run2, 5, &c, m, 8), 2);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 9);
    CHECK_EQ(m[1].f[RVT_NT_F_HIST], 0x5);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x106, 0x10A, 0x300 }, 5);
    CHECK_EQ(encode(&cfg, run3, 6, &c, m, 8), 2);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 10);
    CHECK_EQ(m[1].f[RVT_NT_F_HIST], 0x4);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x106, 0x10A, 0x10E, 0x110 }, 6);
    rvt_image_free(img);
}

/* 8.4.4: a 4-bit I-CNT (MSB = overflow marker); branch at 0x102 not
 * taken.  ProgTraceSync; IndirectBranchHistSync SYNC=4 I-CNT=8 HIST=0x2
 * F-ADDR=0x88 (0x110) once 0x10C retires; ProgTraceCorrelation EVCODE=0
 * CDF=1 I-CNT=6 HIST=0x1 for 0x110..0x118 (c.ebreak never retires). */
static void test_spec_icnt_overflow(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.icnt_bits = 4;
    rvt_image *img = rvt_image_new();
    put16(img, 0x100, C_ADD);
    put32(img, 0x102, bne(0x200 - 0x102));
    put16(img, 0x106, C_ADD);
    for (uint64_t a = 0x108; a < 0x11C; a += 4)
        put32(img, a, ADD);
    put16(img, 0x11C, C_EBREAK);
    const rvt_irec r[] = { rec(0x100, 1, 0, 0), rec(0x102, 2, 4, 1), rec(0x106, 1, 0, 0),
                           rec(0x108, 2, 0, 1), rec(0x10C, 2, 0, 1), rec(0x110, 2, 0, 1),
                           rec(0x114, 2, 0, 1), rec(0x118, 2, 0, 1) };
    cap c;
    rvt_nt_msg m[8];
    CHECK_EQ(encode(&cfg, r, 8, &c, m, 8), 3);
    check_sync_start(&m[0]);
    CHECK_EQ(m[1].tcode, RVT_NT_INDIRECT_BRANCH_HIST_SYNC);
    CHECK_EQ(m[1].f[RVT_NT_F_SYNC], RVT_NT_SYNC_ICNT);
    CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 8);
    CHECK_EQ(m[1].f[RVT_NT_F_HIST], 0x2);
    CHECK_EQ(m[1].f[RVT_NT_F_FADDR], 0x88);
    CHECK_EQ(m[2].tcode, RVT_NT_PROG_TRACE_CORRELATION);
    CHECK_EQ(m[2].f[RVT_NT_F_CDF], 1);
    CHECK_EQ(m[2].f[RVT_NT_F_ICNT], 6);
    CHECK_EQ(m[2].f[RVT_NT_F_HIST], 0x1);
    decode_back(&cfg, img, &c, (const uint64_t[]){ 0x100, 0x102, 0x106, 0x108, 0x10C, 0x110,
                                                  0x114, 0x118 }, 8);
    rvt_image_free(img);
}

/* 8.3: HIST 101 = not taken then taken; 1111 = three taken; 10000 =
 * four not taken; 1 = no branch (each the HIST of the closing message). */
static void test_spec_hist(void)
{
    static const struct { const char *seq; uint64_t hist; } ex[] = {
        { "NT", 0x5 }, { "TTT", 0xF }, { "NNNN", 0x10 }, { "", 0x1 },
    };
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    for (size_t k = 0; k < sizeof ex / sizeof ex[0]; k++) {
        rvt_irec r[8];
        size_t n = 0;
        r[n++] = rec(0x1000, 2, 0, 1);
        for (const char *s = ex[k].seq; *s; s++, n++)
            r[n] = rec(0x1000 + 4 * n, 2, *s == 'T' ? 5 : 4, 1);
        cap c;
        rvt_nt_msg m[4];
        CHECK_EQ(encode(&cfg, r, n, &c, m, 4), 2);
        CHECK_EQ(m[1].f[RVT_NT_F_HIST], ex[k].hist);
    }
}

/* 8.3.1: the 32nd history bit makes a ResourceFull RCODE 1 with 31 bits
 * plus stop bit; the decoder's history keeps running across it. */
static void test_hist_overflow(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    rvt_irec r[40];
    size_t n = 0;
    for (int i = 0; i < 33; i++)
        r[n++] = rec(0x1000, 2, i & 1 ? 5 : 4, 1);
    cap c;
    rvt_nt_msg m[6];
    CHECK_EQ(encode(&cfg, r, n, &c, m, 6), 3);
    CHECK_EQ(m[1].tcode, RVT_NT_RESOURCE_FULL);
    CHECK_EQ(m[1].f[RVT_NT_F_RCODE], 1);
    /* branch i (0 oldest) is taken when i is odd and sits at bit 30-i:
     * bits 29, 27, ..., 1 = 0x2AAAAAAA, stop bit 31 -> 0xAAAAAAAA */
    CHECK_EQ(m[1].f[RVT_NT_F_RDATA], 0xAAAAAAAAull);
    CHECK_EQ(m[2].f[RVT_NT_F_HIST], 0x6);   /* bits 32, 33: N, T */
    /* 9.3 whole windows (rvtRepeatKinds 2, refcode's way): period-2
     * chunks of 30 bits repeat. */
    cfg.repeat_history = true;
    cfg.repeat_kinds = 2;
    rvt_irec big[200];
    for (int i = 0; i < 200; i++)
        big[i] = rec(0x1000, 2, i & 1 ? 5 : 4, 1);
    size_t k = encode(&cfg, big, 200, &c, m, 6);
    CHECK(k == 3 || k == 4);
    CHECK_EQ(m[1].f[RVT_NT_F_RCODE], 2);
    CHECK_EQ(m[1].f[RVT_NT_F_RDATA], (1ull << 30) | 0x15555555ull);
    CHECK_EQ(m[1].f[RVT_NT_F_HREPEAT], 6);   /* 6 x 30 = 180 bits */
    /* 9.3 shortest pattern (the default, rvtRepeatKinds 4): the 200
     * branches are "N T" 100 times.  The full register (31 bits, oldest N)
     * repeats with period 2, so the run's pattern is its oldest two bits,
     * N then T = 0b01 under the stop bit: RDATA 0b101 = 0x5 (the spec's
     * second 9.3 example).  The other 169 bits continue the pattern, so
     * nothing is sent until the end: one RCODE 2 with HREPEAT 200/2 = 100,
     * then ProgTraceCorrelation with an empty HIST (0x1). */
    cfg.repeat_kinds = 0;
    rvt_nt_cfg_check(&cfg);
    k = encode(&cfg, big, 200, &c, m, 6);
    CHECK_EQ(k, 3);
    CHECK_EQ(m[1].tcode, RVT_NT_RESOURCE_FULL);
    CHECK_EQ(m[1].f[RVT_NT_F_RCODE], 2);
    CHECK_EQ(m[1].f[RVT_NT_F_RDATA], 0x5);
    CHECK_EQ(m[1].f[RVT_NT_F_HREPEAT], 100);
    CHECK_EQ(m[2].tcode, RVT_NT_PROG_TRACE_CORRELATION);
    CHECK_EQ(m[2].f[RVT_NT_F_HIST], 0x1);
}

/* Table 7: trTeInstNoTrapAddr "must be hard-coded as 0". */
static void test_no_trap_addr_fixed(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    CHECK_EQ(rvt_nt_cfg_set(&cfg, "trTeInstNoTrapAddr", "0"), 0);
    CHECK_EQ(rvt_nt_cfg_set(&cfg, "trTeInstNoTrapAddr", "1"), RVT_ERR_INVAL);
    cfg.no_trap_addr = true;
    CHECK_EQ(rvt_nt_cfg_check(&cfg), RVT_ERR_INVAL);
    int st = 0;
    CHECK(rvt_nt_encoder_new(&cfg, cap_put, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
}

/* 9.2 with a trap right after a call: `jal ra, f` at 0x1000 retires (8.4),
 * f's first instruction at 0x1010 traps without retiring, the handler's
 * mret returns to 0x1012, whose `ret` is an implicit return to 0x1004.  The
 * exception message ends its span on the jal; the call's push must happen
 * all the same, else the ret has no address (the decoder used to skip the
 * last instruction's stack effects when B-TYPE said trap).  Messages, by
 * hand: ProgTraceSync F-ADDR 0x1000; IndirectBranch B-TYPE 2 I-CNT 2 (the
 * jal) to 0x2000; IndirectBranch B-TYPE 0 I-CNT 2 (mret) to 0x1012; no
 * message for the ret; ProgTraceCorrelation I-CNT 2 + 2 (ret, nop). */
static void test_trap_after_call(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, 0x1000, 0x010000EFu);   /* jal ra, +0x10 */
    put32(img, 0x1004, 0x00000013u);   /* nop */
    put16(img, 0x1010, 0x0000);        /* illegal: traps */
    put32(img, 0x1012, 0x00008067u);   /* ret */
    put32(img, 0x2000, 0x30200073u);   /* mret */
    rvt_irec r[4] = {
        rec(0x1000, 2, RVT_ITYPE_INF_CALL, 1),
        rec(0x1010, 0, RVT_ITYPE_EXCEPTION, 1),
        rec(0x2000, 2, RVT_ITYPE_XRET, 1),
        rec(0x1012, 4, RVT_ITYPE_NONE, 1),
    };
    r[1].ninstr = 0;
    r[1].cause = 2;
    r[3].ninstr = 2;
    for (unsigned mode = RVT_NT_MODE_BTM; mode <= RVT_NT_MODE_HTM; mode += 3) {
        rvt_nt_cfg cfg;
        rvt_nt_cfg_default(&cfg);
        cfg.inst_mode = mode;
        cfg.implicit_return = 3;
        cap c;
        rvt_nt_msg m[8];
        size_t n = encode(&cfg, r, 4, &c, m, 8);
        CHECK_EQ(n, 4);
        CHECK_EQ(m[1].f[RVT_NT_F_BTYPE], 2);
        CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 2);
        CHECK_EQ(m[3].tcode, RVT_NT_PROG_TRACE_CORRELATION);
        CHECK_EQ(m[3].f[RVT_NT_F_ICNT], 4);
        const uint64_t want[] = { 0x1000, 0x2000, 0x1012, 0x1004 };
        decode_back(&cfg, img, &c, want, 4);
    }
    rvt_image_free(img);
}

/* Events of a trace with an interrupt and an exception.  N-Trace carries
 * no cause (ch. 1: cause/tval "are not reported in N-Trace messages"; B-TYPE
 * 3 interrupt, 2 exception), so the trap events say the cause is unknown
 * (RVT_EVF_CAUSE_UNKNOWN, aux = aux2 = 0), not B-TYPE as a cause.  The
 * first SYNC=3 is the trace start (table 26), the final EVCODE=0 the end
 * (7.12, 8.4.4 example). */
typedef struct evlog { rvt_flow_event ev[16]; size_t n; } evlog;
static int log_ev(void *ctx, const rvt_flow_event *ev)
{
    evlog *l = ctx;
    if (ev->kind != RVT_EV_INSN && l->n < 16) l->ev[l->n++] = *ev;
    return 0;
}

static void test_trap_events(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, 0x1000, 0x00000013u);   /* nop: the interrupt comes after it */
    put32(img, 0x1004, 0x00000073u);   /* ecall (retires, 8.4 table 2) */
    put32(img, 0x1008, 0x00000013u);
    put32(img, 0x2000, 0x30200073u);   /* mret */
    rvt_irec r[5] = {
        rec(0x1000, 2, RVT_ITYPE_INTERRUPT, 1),
        rec(0x2000, 2, RVT_ITYPE_XRET, 1),
        rec(0x1004, 2, RVT_ITYPE_EXCEPTION, 1),
        rec(0x2000, 2, RVT_ITYPE_XRET, 1),
        rec(0x1008, 2, RVT_ITYPE_NONE, 1),
    };
    r[0].cause = 7;
    r[2].cause = 11;
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cap c;
    rvt_nt_msg m[8];
    encode(&cfg, r, 5, &c, m, 8);
    int st;
    evlog l = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, log_ev, &l, &st);
    CHECK_EQ(rvt_nt_decode(d, c.b, c.n), 0);
    rvt_nt_decoder_free(d);
    const uint8_t kinds[] = { RVT_EV_SYNC, RVT_EV_INTERRUPT, RVT_EV_TRAP, RVT_EV_STOP };
    CHECK_EQ(l.n, 4);
    for (size_t i = 0; i < 4 && i < l.n; i++)
        CHECK_EQ(l.ev[i].kind, kinds[i]);
    CHECK(l.ev[0].msg && strcmp(l.ev[0].msg, "trace start (SYNC 3)") == 0);
    for (size_t i = 1; i < 3; i++) {
        CHECK_EQ(l.ev[i].flags, RVT_EVF_CAUSE_UNKNOWN);
        CHECK_EQ(l.ev[i].aux, 0);
        CHECK_EQ(l.ev[i].aux2, 0);
        CHECK_EQ(l.ev[i].pc, 0x2000);
    }
    CHECK(l.ev[3].msg && strstr(l.ev[3].msg, "end of trace") != NULL);
    rvt_image_free(img);
}

int main(void)
{
    test_trap_events();
    test_trap_after_call();
    test_no_trap_addr_fixed();
    test_spec_icnt_btm();
    test_spec_icnt_overflow();
    test_spec_hist();
    test_hist_overflow();
    return TH_DONE();
}
