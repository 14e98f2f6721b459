/* N-Trace encoder and decoder across trace gaps: filters (RVT_IREC_F_UNQUAL),
 * halted and reset harts, trigger[0]/[1] on/off and trigger[2] notify
 * (docs/ntrace.md "Trace on/off, filters, halt, reset, notify").  Each case
 * checks the message list against a derivation from the spec (table 25
 * SYNC codes, 7.12 EVCODE, 8.6 table 26, 7.5, ch. 10 rules) in BTM and
 * HTM, and that the decoder rebuilds exactly the PCs of the traced blocks. */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"
#include "test_ntrace_util.h"

#define C_ADD 0x952Eu       /* c.add a0,a1 */
#define ADD 0x00B50533u     /* add a0,a0,a1 */
#define C_JR_A0 0x8502u     /* c.jr a0: 1000 01010 00000 10 */
#define BNE_M6 0xFEB51DE3u  /* bne a0,a1,-6 (0x106 -> 0x100) */

/* 0x100 add; 0x104 c.add; 0x106 bne 0x100; 0x10A add; 0x10E c.add;
 * 0x110 add; 0x114 c.add; 0x116 c.add; 0x118 c.jr a0 (to 0x200);
 * 0x200..0x20C add x4. */
static rvt_image *image(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, 0x100, ADD);
    put16(img, 0x104, C_ADD);
    put32(img, 0x106, BNE_M6);
    put32(img, 0x10A, ADD);
    put16(img, 0x10E, C_ADD);
    put32(img, 0x110, ADD);
    put16(img, 0x114, C_ADD);
    put16(img, 0x116, C_ADD);
    put16(img, 0x118, C_JR_A0);
    for (unsigned k = 0; k < 4; k++)
        put32(img, 0x200 + 4 * k, ADD);
    return img;
}

/* The execution, one instruction per block: B0-B2 loop once (bne taken),
 * B3-B5 again (not taken), B6-B11 straight to the c.jr, B12-B15 at 0x200.
 * Half-words: B0 2, B1 1, B2 2, B3 2, B4 1, B5 2, B6 2, B7 1, B8 2, B9 1,
 * B10 1, B11 1, B12-B15 2 each. */
#define NB 16
static void run(rvt_irec *r)
{
    static const struct { uint64_t pc; unsigned hw, itype; } b[NB] = {
        { 0x100, 2, 0 }, { 0x104, 1, 0 }, { 0x106, 2, RVT_ITYPE_T_BRANCH },
        { 0x100, 2, 0 }, { 0x104, 1, 0 }, { 0x106, 2, RVT_ITYPE_NT_BRANCH },
        { 0x10A, 2, 0 }, { 0x10E, 1, 0 }, { 0x110, 2, 0 }, { 0x114, 1, 0 },
        { 0x116, 1, 0 }, { 0x118, 1, RVT_ITYPE_UNINF_JUMP },
        { 0x200, 2, 0 }, { 0x204, 2, 0 }, { 0x208, 2, 0 }, { 0x20C, 2, 0 },
    };
    for (unsigned i = 0; i < NB; i++) {
        r[i] = rec(b[i].pc, b[i].hw, b[i].itype, b[i].hw - 1);
        r[i].time = 10 * i;
    }
}

/* One expected message: code is SYNC (sync messages) or EVCODE
 * (ProgTraceCorrelation), -1 for none; hist -1 = no HIST field; pc the
 * F-ADDR as a PC (sync messages only, else 0). */
typedef struct want { unsigned tcode; int code; uint64_t icnt; int64_t hist; uint64_t pc; } want;

#define SYNC(s, i, pc) { RVT_NT_PROG_TRACE_SYNC, s, i, -1, pc }
#define CORR(e, i, h) { RVT_NT_PROG_TRACE_CORRELATION, e, i, h, 0 }
#define DB(i) { RVT_NT_DIRECT_BRANCH, -1, i, -1, 0 }
#define IB(i) { RVT_NT_INDIRECT_BRANCH, -1, i, -1, 0 }
#define IBH(i, h) { RVT_NT_INDIRECT_BRANCH_HIST, -1, i, h, 0 }

/* pc[] holds the instructions and, tagged with NOTE, the notifications in
 * the order the decoder sent them. */
#define NOTE (1ull << 63)
typedef struct evs {
    uint64_t pc[64];
    size_t n, stops, syncs, errors, lost;
    uint64_t evcode[8], sync[8], stop_pc[8];
} evs;

static int on_ev(void *ctx, const rvt_flow_event *ev)
{
    evs *e = ctx;
    if ((ev->kind == RVT_EV_INSN || ev->kind == RVT_EV_NOTIFY) && e->n < 64)
        e->pc[e->n++] = ev->pc | (ev->kind == RVT_EV_NOTIFY ? NOTE : 0);
    if (ev->kind == RVT_EV_STOP && e->stops < 8)
        e->stop_pc[e->stops] = ev->pc;
    if (ev->kind == RVT_EV_STOP && e->stops < 8)
        e->evcode[e->stops++] = ev->aux;
    if (ev->kind == RVT_EV_SYNC && e->syncs < 8)
        e->sync[e->syncs++] = ev->aux;
    e->errors += ev->kind == RVT_EV_ERROR;
    e->lost += ev->kind == RVT_EV_LOST;
    return 0;
}

/* Encode the run with flags[i] on block i, check the messages, decode,
 * and check the PCs are those of the blocks in `traced` (a bit per block),
 * each traced block with RVT_IREC_F_TRIG_NOTIFY followed by a notification
 * at its (only) instruction (table 25 SYNC=6, 7.5), and that a trace
 * stopped by a ProgTraceCorrelation stops after the last traced block. */
static void check(const char *name, unsigned mode, bool start_disabled, const uint8_t *flags,
                  const want *w, size_t nw, unsigned traced)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.inst_mode = mode;
    cfg.start_disabled = start_disabled;
    rvt_irec r[NB];
    run(r);
    for (unsigned i = 0; i < NB; i++)
        r[i].flags = flags[i];
    cap c;
    rvt_nt_msg m[32];
    size_t n = encode(&cfg, r, NB, &c, m, 32);
    bool htm = mode == RVT_NT_MODE_HTM;
    if (n != nw)
        fprintf(stderr, "%s (%s): %zu messages, want %zu\n", name, htm ? "HTM" : "BTM", n, nw);
    CHECK_EQ(n, nw);
    for (size_t k = 0; k < n && k < nw; k++) {
        int before = th_failed;
        CHECK_EQ(m[k].tcode, w[k].tcode);
        if (w[k].tcode == RVT_NT_PROG_TRACE_CORRELATION) {
            CHECK_EQ(m[k].f[RVT_NT_F_EVCODE], (uint64_t)w[k].code);
            CHECK_EQ(m[k].f[RVT_NT_F_CDF], htm);     /* 7.12 */
        } else if (w[k].code >= 0) {
            CHECK_EQ(m[k].f[RVT_NT_F_SYNC], (uint64_t)w[k].code);
            CHECK_EQ(m[k].f[RVT_NT_F_FADDR], w[k].pc >> 1);
        }
        CHECK_EQ(m[k].f[RVT_NT_F_ICNT], w[k].icnt);
        CHECK_EQ(rvt_nt_has(&m[k], RVT_NT_F_HIST), w[k].hist >= 0);
        if (w[k].hist >= 0)
            CHECK_EQ(m[k].f[RVT_NT_F_HIST], (uint64_t)w[k].hist);
        if (th_failed != before)
            fprintf(stderr, "%s (%s): message %zu differs\n", name, htm ? "HTM" : "BTM", k);
    }
    rvt_image *img = image();
    int st;
    evs e = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, on_ev, &e, &st);
    CHECK_EQ(rvt_nt_decode(d, c.b, c.n), 0);
    rvt_nt_decoder_free(d);
    rvt_image_free(img);
    CHECK_EQ(e.errors, 0);
    CHECK_EQ(e.lost, 0);
    size_t j = 0, ns = 0;
    uint64_t want_pc[2 * NB], want_stop[NB];
    for (unsigned i = 0; i < NB; i++) {
        if (!(traced >> i & 1))
            continue;
        want_pc[j++] = r[i].iaddr;
        if (flags[i] & RVT_IREC_F_TRIG_NOTIFY)
            want_pc[j++] = r[i].iaddr | NOTE;
        if (i + 1 == NB || !(traced >> (i + 1) & 1))
            want_stop[ns++] = r[i].iaddr;
    }
    for (size_t k = 0; k < j; k++) {
        CHECK(k < e.n);
        if (k < e.n && e.pc[k] != want_pc[k])
            fprintf(stderr, "%s (%s): event %zu is %llx, want %llx\n", name, htm ? "HTM" : "BTM", k,
                    (unsigned long long)e.pc[k], (unsigned long long)want_pc[k]);
        CHECK(k >= e.n || e.pc[k] == want_pc[k]);
    }
    CHECK_EQ(e.n, j);
    /* 7.12: each stop (a gap, the end) is after the last traced instruction */
    CHECK_EQ(e.stops, ns);
    for (size_t k = 0; k < ns && k < e.stops; k++)
        CHECK_EQ(e.stop_pc[k], want_stop[k]);
    /* every ProgTraceCorrelation seen while synchronised is a stop event */
    size_t ncorr = 0;
    for (size_t k = 0; k < nw; k++)
        ncorr += w[k].tcode == RVT_NT_PROG_TRACE_CORRELATION && w[k].icnt;
    CHECK(e.stops >= ncorr);
}

#define ALL 0xFFFFu
#define BLOCKS(a, b) ((unsigned)(((1u << ((b) + 1)) - 1) & ~((1u << (a)) - 1)))
#define U RVT_IREC_F_UNQUAL
#define H RVT_IREC_F_HALTED
#define R RVT_IREC_F_RESET

/* UNQUAL on B6-B8.  BTM: SYNC=3 at 0x100 (table 25, first sync); B2 taken
 * -> DirectBranch I-CNT 2+1+2=5 at B3; B3-B5 I-CNT 5 (not taken: nothing);
 * B6 is the first unqualified block: Correlation EVCODE=4 I-CNT=5 (ch. 10
 * rule 6); B9 restarts with SYNC=5 (table 25 "after a gap ... trace
 * filters") I-CNT 0 at 0x114; c.jr at B11 -> IndirectBranch I-CNT 1+1+1=3;
 * end: Correlation EVCODE=0 I-CNT 4*2=8.  HTM: the branches go to HIST
 * (taken 1, not taken 0: 0b1_10), so the stop is EVCODE=4 I-CNT=10 HIST=6;
 * the c.jr with an empty HIST is an IndirectBranch (ch. 10 rule 4). */
static void test_unqual_middle(void)
{
    uint8_t f[NB] = {0};
    f[6] = f[7] = f[8] = U;
    unsigned tr = ALL & ~BLOCKS(6, 8);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 5, -1), SYNC(5, 0, 0x114), IB(3),
                         CORR(0, 8, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(4, 10, 6), SYNC(5, 0, 0x114), IB(3), CORR(0, 8, 1) };
    check("unqual middle", RVT_NT_MODE_BTM, false, f, btm, 6, tr);
    check("unqual middle", RVT_NT_MODE_HTM, false, f, hm, 5, tr);
}

/* UNQUAL on B0-B2: 8.6 table 26 "trace starts disabled": Correlation
 * EVCODE=4 (I-CNT 0, nothing traced) then SYNC=5 at B3 (0x100).  B3-B11:
 * I-CNT 2+1+2+2+1+2+1+1+1 = 13 up to the c.jr -> IndirectBranch I-CNT 13
 * (HTM: HIST 0b1_0, the not-taken B5); end EVCODE=0 I-CNT 8.  The same
 * with rvtStartDisabled and trigger[0] on B3 (table 25 SYNC=0: "If trace
 * is enabled by a trigger SYNC=5 should be used"). */
static void test_unqual_start(void)
{
    uint8_t f[NB] = {0};
    f[0] = f[1] = f[2] = U;
    unsigned tr = ALL & ~BLOCKS(0, 2);
    const want btm[] = { CORR(4, 0, -1), SYNC(5, 0, 0x100), IB(13), CORR(0, 8, -1) };
    const want hm[] = { CORR(4, 0, 1), SYNC(5, 0, 0x100), IBH(13, 2), CORR(0, 8, 1) };
    check("unqual start", RVT_NT_MODE_BTM, false, f, btm, 4, tr);
    check("unqual start", RVT_NT_MODE_HTM, false, f, hm, 4, tr);
    uint8_t g[NB] = {0};
    g[3] = RVT_IREC_F_TRIG_START;
    check("start disabled", RVT_NT_MODE_BTM, true, g, btm, 4, tr);
    check("start disabled", RVT_NT_MODE_HTM, true, g, hm, 4, tr);
}

/* UNQUAL on B12-B15: SYNC=3, DirectBranch I-CNT 5, then at B12 the
 * pending c.jr target is never traced: Correlation EVCODE=4 with I-CNT
 * 13 (B3-B11, 7.12 "the PC where ... the trace actually stopped"); nothing
 * at the end (trace is off).  HTM: EVCODE=4 I-CNT 18 HIST 0b1_10. */
static void test_unqual_end(void)
{
    uint8_t f[NB] = {0};
    f[12] = f[13] = f[14] = f[15] = U;
    unsigned tr = BLOCKS(0, 11);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 13, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(4, 18, 6) };
    check("unqual end", RVT_NT_MODE_BTM, false, f, btm, 3, tr);
    check("unqual end", RVT_NT_MODE_HTM, false, f, hm, 2, tr);
}

/* HALTED on B6-B8: as the filter gap, but the stop is EVCODE=0 (7.12:
 * entry into debug mode, "do not send 4 instead") and the restart SYNC=3
 * (table 25: exit from debug mode; SYNC=5 "must not be used" for it). */
static void test_halted(void)
{
    uint8_t f[NB] = {0};
    f[6] = f[7] = f[8] = H;
    unsigned tr = ALL & ~BLOCKS(6, 8);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(0, 5, -1), SYNC(3, 0, 0x114), IB(3),
                         CORR(0, 8, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(0, 10, 6), SYNC(3, 0, 0x114), IB(3), CORR(0, 8, 1) };
    check("halted", RVT_NT_MODE_BTM, false, f, btm, 6, tr);
    check("halted", RVT_NT_MODE_HTM, false, f, hm, 5, tr);
}

/* RESET on B6-B8: stop EVCODE=4 (reset is not debug mode; table 25 SYNC=1
 * "core was reset without stopping", so the hart runs on), restart SYNC=1
 * (exit from reset) with I-CNT 0 (7.5). */
static void test_reset(void)
{
    uint8_t f[NB] = {0};
    f[6] = f[7] = f[8] = R;
    unsigned tr = ALL & ~BLOCKS(6, 8);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 5, -1), SYNC(1, 0, 0x114), IB(3),
                         CORR(0, 8, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(4, 10, 6), SYNC(1, 0, 0x114), IB(3), CORR(0, 8, 1) };
    check("reset", RVT_NT_MODE_BTM, false, f, btm, 6, tr);
    check("reset", RVT_NT_MODE_HTM, false, f, hm, 5, tr);
}

/* NOTIFY on B2 (the taken bne at 0x106) and B13 (0x204).  Table 25 SYNC=6
 * is a marker that does not reset the encoder; 7.5: a ProgTraceSync whose
 * I-CNT locates the event and F-ADDR is its PC.  BTM: B2's DirectBranch
 * (I-CNT 5) goes first, at B3, then the marker SYNC=6 I-CNT=0 F-ADDR 0x106
 * (the I-CNT was just reported); B3-B11 -> IndirectBranch I-CNT 13 (its
 * U-ADDR is against the marker's address, 8.1); B12-B13: I-CNT 4 -> marker
 * SYNC=6 I-CNT=4 at 0x204 (sent at B14); end EVCODE=0 I-CNT 4 (B14-B15,
 * ch. 10 rule 7 reset I-CNT at the marker).  HTM: no branch message, so
 * the first marker carries I-CNT 5 (B0-B2) and HIST keeps running: the
 * IndirectBranchHist at B12 has I-CNT 13 and HIST 0b1_10. */
static void test_notify(void)
{
    uint8_t f[NB] = {0};
    f[2] = f[13] = RVT_IREC_F_TRIG_NOTIFY;
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), SYNC(6, 0, 0x106), IB(13), SYNC(6, 4, 0x204),
                         CORR(0, 4, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), SYNC(6, 5, 0x106), IBH(13, 6), SYNC(6, 4, 0x204),
                        CORR(0, 4, 1) };
    check("notify", RVT_NT_MODE_BTM, false, f, btm, 6, ALL);
    check("notify", RVT_NT_MODE_HTM, false, f, hm, 5, ALL);
    /* NOTIFY on the c.jr (B11) whose target is unqualified: the marker
     * (I-CNT 13, 0x118) goes before the stop, which then has I-CNT 0 */
    uint8_t g[NB] = {0};
    g[11] = RVT_IREC_F_TRIG_NOTIFY;
    g[12] = g[13] = g[14] = g[15] = U;
    const want btm2[] = { SYNC(3, 0, 0x100), DB(5), SYNC(6, 13, 0x118), CORR(4, 0, -1) };
    const want hm2[] = { SYNC(3, 0, 0x100), SYNC(6, 18, 0x118), CORR(4, 0, 6) };
    check("notify+stop", RVT_NT_MODE_BTM, false, g, btm2, 4, BLOCKS(0, 11));
    check("notify+stop", RVT_NT_MODE_HTM, false, g, hm2, 3, BLOCKS(0, 11));
}

/* trigger[1] on B4 (B4 traced, then Correlation EVCODE=4 I-CNT 2+1=3 after
 * the DirectBranch I-CNT 5); B5 is qualified but trace is off; B6-B7
 * unqualified with trigger[0] on B6: trace is on again but B6-B7 are not
 * qualified; B8 restarts with SYNC=5 at 0x110; c.jr: IndirectBranch I-CNT
 * 2+1+1+1=5; end EVCODE=0 I-CNT 8.  HTM: stop I-CNT 8 HIST 0b1_1. */
static void test_trig_unqual(void)
{
    uint8_t f[NB] = {0};
    f[4] = RVT_IREC_F_TRIG_STOP;
    f[6] = U | RVT_IREC_F_TRIG_START;
    f[7] = U;
    unsigned tr = ALL & ~BLOCKS(5, 7);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 3, -1), SYNC(5, 0, 0x110), IB(5),
                         CORR(0, 8, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(4, 8, 3), SYNC(5, 0, 0x110), IB(5), CORR(0, 8, 1) };
    check("stop/unqual/start", RVT_NT_MODE_BTM, false, f, btm, 6, tr);
    check("stop/unqual/start", RVT_NT_MODE_HTM, false, f, hm, 5, tr);
}

/* Trace off (UNQUAL B6) when the hart halts (B7): 8.6 table 26 "hart
 * stops with trace disabled": Correlation EVCODE=0 I-CNT=0.  (a) B8 is
 * unqualified again: the hart left debug mode with trace disabled, table
 * 26 "trace starts disabled": EVCODE=4 I-CNT 0, then SYNC=5 at B9.
 * (b) B8 halted too (no second message), B9 traced: SYNC=3. */
static void test_halt_while_off(void)
{
    uint8_t f[NB] = {0};
    f[6] = U;
    f[7] = H;
    f[8] = U;
    unsigned tr = ALL & ~BLOCKS(6, 8);
    const want btm[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 5, -1), CORR(0, 0, -1), CORR(4, 0, -1),
                         SYNC(5, 0, 0x114), IB(3), CORR(0, 8, -1) };
    const want hm[] = { SYNC(3, 0, 0x100), CORR(4, 10, 6), CORR(0, 0, 1), CORR(4, 0, 1),
                        SYNC(5, 0, 0x114), IB(3), CORR(0, 8, 1) };
    check("halt while off", RVT_NT_MODE_BTM, false, f, btm, 8, tr);
    check("halt while off", RVT_NT_MODE_HTM, false, f, hm, 7, tr);
    f[8] = H;
    const want btm2[] = { SYNC(3, 0, 0x100), DB(5), CORR(4, 5, -1), CORR(0, 0, -1),
                          SYNC(3, 0, 0x114), IB(3), CORR(0, 8, -1) };
    const want hm2[] = { SYNC(3, 0, 0x100), CORR(4, 10, 6), CORR(0, 0, 1), SYNC(3, 0, 0x114), IB(3),
                         CORR(0, 8, 1) };
    check("halt while off 2", RVT_NT_MODE_BTM, false, f, btm2, 7, tr);
    check("halt while off 2", RVT_NT_MODE_HTM, false, f, hm2, 6, tr);
}

int main(void)
{
    test_unqual_middle();
    test_unqual_start();
    test_unqual_end();
    test_halted();
    test_reset();
    test_notify();
    test_trig_unqual();
    test_halt_while_off();
    return TH_DONE();
}
