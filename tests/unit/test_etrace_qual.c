/* E-Trace trace on/off: qualification (chapter 8 "Qualified?"), trigger[0]
 * trace-on and trigger[1] trace-off (4.2.4, table 4.7), the halted and
 * reset sideband signals (table 4.5) and trigger[2] trace-notify (6.6.1,
 * 6.6.2 case 4).  Hand-built ingress blocks over two small programs are
 * encoded (1.1 layout, default attributes, delta mode; one case with
 * full addresses); the packet lists are derived by hand below, and the
 * decoder must give back exactly the PCs of the traced blocks, with a
 * STOP event where each trace ended and a SYNC where it restarted.
 *
 * Rules the derivations use:
 * - 3.1.6 / chapter 8: when tracing stops (the first untraced block;
 *   halted or reset behave as an unqualified instruction) the last traced
 *   instruction is reported by a format 1/2 (format 1 when branches are
 *   unreported), then a support packet (format 3 subformat 3) with
 *   enable = 0 and qual_status ended_rep or ended_upd (6.5.1): ended_upd
 *   when that packet would have been sent anyway because the instruction
 *   follows an uninferable discontinuity, ended_rep otherwise, and
 *   ended_rep when the packet already carries updiscon (the paragraph
 *   after table 6.4).
 * - 3.1.5 / table 4.5: the next traced instruction starts with a support
 *   packet (enable = 1, no_change) and a format 3 subformat 0 sync.
 * - 6.6.2: delta addresses are (to >> 1) - (from >> 1) (iaddress_lsb 1),
 *   from the last reported address; a branch map bit is 1 for not taken
 *   (6.7.2), bit 0 the oldest. */
#include "test_etrace_util.h"

#define NB(a) (sizeof(a) / sizeof((a)[0]))
#define MAXI 128

#define UQ RVT_IREC_F_UNQUAL
#define HALT RVT_IREC_F_HALTED
#define RST RVT_IREC_F_RESET
#define ON RVT_IREC_F_TRIG_START
#define OFF RVT_IREC_F_TRIG_STOP
#define NTF RVT_IREC_F_TRIG_NOTIFY

/* 6.6.2's loop: looplabel (0c) is entered by falling through from 08 and
 * then by the uninferable jalr at 10, with no branch in between.  14-18
 * are a trap handler.  (Encodings by the formats of the unprivileged spec
 * 2.2: U-type auipc, I-type addi/jalr.) */
static const uint32_t lp_prog[] = {
    0x00000317, /* 00 auipc t1,0 */
    0x00c30313, /* 04 addi  t1,t1,12      t1 = looplabel */
    0x00000293, /* 08 addi  t0,x0,0 */
    0x00128293, /* 0c looplabel: addi t0,t0,1 */
    0x00030067, /* 10 jalr  x0,0(t1)      itype 14 */
    0x00000013, /* 14 handler: nop */
    0x00000013, /* 18 nop */
};

/* One block: n 4-byte instructions from off, the last of type itype
 * (table 4.1), cause for itype 1/2; n = 0: nothing retires (a marker
 * record for halted/reset).  traced: whether the block is traced, by hand
 * from the rules above (the test's expectation, not the encoder's). */
typedef struct qb {
    uint32_t off;
    unsigned n;
    uint8_t itype;
    uint8_t flags;
    uint16_t cause;
    uint8_t traced;
} qb;

static size_t build(const qb *b, size_t nb, rvt_irec *r, uint64_t *pcs)
{
    size_t np = 0;
    for (size_t i = 0; i < nb; i++) {
        r[i] = (rvt_irec){ .iaddr = TE_BASE + b[i].off, .iretire = 2 * b[i].n, .ninstr = b[i].n,
                           .itype = b[i].itype, .ilastsize = 1, .priv = 3, .cause = b[i].cause,
                           .flags = (uint8_t)(RVT_IREC_F_CYCLE_END | b[i].flags) };
        for (unsigned k = 0; b[i].traced && k < b[i].n && np < MAXI; k++)
            pcs[np++] = TE_BASE + b[i].off + 4 * k;
    }
    return np;
}

/* The same flow one instruction per block (8.3: the packets must be those
 * of single retirement).  A block's qualification and halted/reset apply
 * to each of its instructions; trace-on to its first, trace-off and
 * notify to its last (4.2.4: notify reports the block's last). */
static size_t split(const qb *b, size_t nb, qb *out)
{
    size_t n = 0;
    for (size_t i = 0; i < nb; i++) {
        uint8_t each = b[i].flags & (UQ | HALT | RST);
        for (unsigned k = 0; k + 1 < b[i].n; k++)
            out[n++] = (qb){ b[i].off + 4 * k, 1, 0, (uint8_t)(each | (k ? 0 : b[i].flags & ON)), 0,
                             b[i].traced };
        out[n] = b[i];
        if (b[i].n > 1) {
            out[n].off += 4 * (b[i].n - 1);
            out[n].n = 1;
            out[n].flags &= (uint8_t)~ON;
        }
        n++;
    }
    return n;
}

static int encode(const rvt_te_attrs *a, const qb *b, size_t nb, te_buf *out)
{
    rvt_irec r[64];
    uint64_t pcs[MAXI];
    build(b, nb, r, pcs);
    memset(out, 0, sizeof *out);
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(a, te_buf_put, out, &st);
    CHECK(e != NULL);
    if (!e)
        return st;
    st = rvt_te_encoder_put(e, r, nb);
    if (st >= 0)
        st = rvt_te_encoder_end(e);
    rvt_te_encoder_free(e);
    return st;
}

/* Expected packets. */
enum { X_SUP, X_SYNC, X_F1, X_F2 };
#define F_NOTIFY 1
#define F_UPD 2
typedef struct xp {
    uint8_t kind;
    uint8_t a;          /* support: enable; F1: branches */
    uint8_t q;          /* support: qual_status; F1/F2: F_NOTIFY | F_UPD */
    uint32_t map;
    uint64_t addr;      /* address field */
} xp;

#define M63 ((1ull << 63) - 1)
#define D(from, to) ((((TE_BASE + (to)) >> 1) - ((TE_BASE + (from)) >> 1)) & M63)
#define FULL(at) ((TE_BASE + (at)) >> 1)
#define SUP(en, q) { X_SUP, en, q, 0, 0 }
#define SYNC(at) { X_SYNC, 0, 0, 0, FULL(at) }
#define F1(br, map, addr, fl) { X_F1, br, fl, map, addr }
#define F2(addr, fl) { X_F2, 0, fl, 0, addr }
#define REP RVT_TE_QUAL_ENDED_REP
#define UPD RVT_TE_QUAL_ENDED_UPD
#define NC RVT_TE_QUAL_NO_CHANGE

static void check_packets(const rvt_te_attrs *a, const te_buf *s, const xp *x, size_t nx, const char *what)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, s->b, s->n);
    rvt_te_pkt p;
    uint64_t off;
    size_t k = 0;
    int st;
    while ((st = rvt_te_reader_next(&r, &p, &off)) > 0) {
        if (k >= nx) {
            k++;
            continue;
        }
        const xp *w = &x[k++];
        rvt_te_flags f = rvt_te_pkt_flags(a, &p);
        unsigned fl = (f.notify ? F_NOTIFY : 0) | (f.updiscon ? F_UPD : 0);
        bool ok;
        switch (w->kind) {
        case X_SUP:
            ok = p.format == 3 && p.subformat == 3 && p.enable == w->a && p.qual_status == w->q;
            break;
        case X_SYNC:
            ok = p.format == 3 && p.subformat == 0 && p.address == w->addr;
            break;
        case X_F1:
            ok = p.format == 1 && p.branches == w->a && (p.branch_map & ((1u << w->a) - 1)) == w->map &&
                 (p.address & M63) == w->addr && fl == w->q;
            break;
        default:
            ok = p.format == 2 && (p.address & M63) == w->addr && fl == w->q;
            break;
        }
        if (!ok)
            TH_FAIL("%s: packet %zu (format %u/%u, address 0x%" PRIx64 ", qual %u, flags %u) is not "
                    "the one expected", what, k - 1, p.format, p.subformat, p.address, p.qual_status, fl);
    }
    CHECK(st == 0);
    if (k != nx)
        TH_FAIL("%s: %zu packets, %zu expected", what, k, nx);
}

/* Decoder events that mark the trace's shape. */
typedef struct xe {
    uint8_t kind;       /* RVT_EV_SYNC, RVT_EV_STOP or RVT_EV_NOTIFY */
    uint32_t at;
    uint8_t qual;
} xe;
#define ESYNC(at) { RVT_EV_SYNC, at, 0 }
#define ESTOP(at, q) { RVT_EV_STOP, at, q }
#define ENOTIFY(at) { RVT_EV_NOTIFY, at, 0 }

static void check_decode(const rvt_te_attrs *a, const uint32_t *prog, size_t nprog, const qb *b, size_t nb,
                         const te_buf *s, const xe *x, size_t nx, const char *what)
{
    rvt_irec r[64];
    uint64_t pcs[MAXI];
    size_t np = build(b, nb, r, pcs);
    rvt_image *img = te_image(prog, nprog);
    te_evs ev = { 0 };
    te_decode(a, img, s->b, s->n, &ev);
    size_t k = 0, j = 0;
    for (size_t i = 0; i < ev.n; i++) {
        const rvt_flow_event *e = &ev.ev[i];
        if (e->kind == RVT_EV_ERROR || e->kind == RVT_EV_LOST)
            TH_FAIL("%s: decode error or loss at offset %" PRIu64, what, e->offset);
        if (e->kind == RVT_EV_INSN) {
            if (k >= np || e->pc != pcs[k])
                TH_FAIL("%s: PC %zu is %" PRIx64 ", expected %" PRIx64, what, k, e->pc, k < np ? pcs[k] : 0);
            k++;
        } else if (e->kind == RVT_EV_SYNC || e->kind == RVT_EV_STOP || e->kind == RVT_EV_NOTIFY) {
            if (j >= nx || e->kind != x[j].kind || e->pc != TE_BASE + x[j].at ||
                (e->kind == RVT_EV_STOP && e->aux != x[j].qual))
                TH_FAIL("%s: event %zu (kind %u at %" PRIx64 ") is not the one expected", what, j,
                        (unsigned)e->kind, e->pc);
            /* a notification comes right after its instruction */
            if (e->kind == RVT_EV_NOTIFY && (i == 0 || ev.ev[i - 1].kind != RVT_EV_INSN ||
                                             ev.ev[i - 1].pc != e->pc))
                TH_FAIL("%s: notify at %" PRIx64 " does not follow that instruction", what, e->pc);
            j++;
        }
    }
    if (k != np)
        TH_FAIL("%s: %zu PCs decoded, %zu expected", what, k, np);
    if (j != nx)
        TH_FAIL("%s: %zu sync/stop/notify events, %zu expected", what, j, nx);
    free(ev.ev);
    rvt_image_free(img);
}

/* Encode b (and its single-retirement form, which must give the same
 * bytes), check the packets and the decode; the stream is left in *out. */
static void run(const char *opts, const uint32_t *prog, size_t nprog, const qb *b, size_t nb, const xp *x,
                size_t nx, const xe *ev, size_t nev, te_buf *out, const char *what)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_opts_parse(opts, &a.options), 0);
    rvt_te_attrs_fill(&a);
    CHECK_EQ(encode(&a, b, nb, out), 0);
    check_packets(&a, out, x, nx, what);
    check_decode(&a, prog, nprog, b, nb, out, ev, nev, what);
    qb one[MAXI / 2];
    size_t n1 = split(b, nb, one);
    te_buf s1;
    CHECK_EQ(encode(&a, one, n1, &s1), 0);
    if (s1.n != out->n || memcmp(s1.b, out->b, s1.n) != 0)
        TH_FAIL("%s: single-retirement blocks give another stream (8.3)", what);
    check_decode(&a, prog, nprog, one, n1, &s1, ev, nev, what);
    free(s1.b);
}

#define RUN(opts, prog, b, x, ev, out, what) \
    run(opts, prog, NB(prog), b, NB(b), x, NB(x), ev, NB(ev), out, what)

/* te_prog's loop twice round (test_etrace_util.h): 00-14 (beqz taken)
 * -> 1c jalr -> 50, 50-54 ret -> 20, 20-24 (bnez taken) -> 10, 10-14
 * (beqz taken) -> 1c jalr -> 50, 50-54 ret -> 20, 20-24 (not taken),
 * 28-38.  Blocks 2 and 3 are not qualified. */
static const qb gap[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, UQ, 0, 0 }, { 0x20, 2, 5, UQ, 0, 0 },
    { 0x10, 2, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 },
    { 0x28, 5, 15, 0, 0, 1 },
};
/* By hand: the sync at 00 (first traced); 14 is a taken branch (map bit
 * 0); 1c is the last traced before the gap: a format 1 with that branch,
 * then ended_rep (1c follows a branch, no uninferable discontinuity: the
 * packet was sent only because tracing ended).  The restart at 10: support
 * and sync; 14 taken; 50 follows the jalr at 1c: format 1; 20 follows the
 * ret at 54: format 2 (delta negative); 24 not taken (map bit 1); 38 is
 * the last instruction: format 1, ended_rep (38 follows the sw at 34). */
static const xp gap_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x1c), 0), SUP(0, REP),
    SUP(1, NC), SYNC(0x10), F1(1, 0, D(0x10, 0x50), 0), F2(D(0x50, 0x20), 0), F1(1, 1, D(0x20, 0x38), 0),
    SUP(0, REP),
};
static const xe gap_e[] = { ESYNC(0x00), ESTOP(0x1c, REP), ESYNC(0x10), ESTOP(0x38, REP) };
/* Full-address mode (3.2.2): the same packets, the addresses absolute. */
static const xp gap_full_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, FULL(0x1c), 0), SUP(0, REP),
    SUP(1, NC), SYNC(0x10), F1(1, 0, FULL(0x50), 0), F2(FULL(0x20), 0), F1(1, 1, FULL(0x38), 0),
    SUP(0, REP),
};

static void unqualified_gap(void)
{
    te_buf s;
    RUN("delta", te_prog, gap, gap_x, gap_e, &s, "unqualified gap");
    free(s.b);
    RUN("full-address", te_prog, gap, gap_full_x, gap_e, &s, "unqualified gap, full address");
    free(s.b);
}

/* Trace-off (trigger[1]) on the jalr block: it is the last traced; the
 * next block is unqualified, the one after it qualified but trace is
 * still off; trace-on (trigger[0]) on the block at 10 restarts it: the
 * packets are those of the unqualified gap, byte for byte. */
static const qb trig[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, OFF, 0, 1 }, { 0x50, 2, 13, UQ, 0, 0 }, { 0x20, 2, 5, 0, 0, 0 },
    { 0x10, 2, 5, ON, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 },
    { 0x28, 5, 15, 0, 0, 1 },
};
/* Trace-on on an unqualified block: trace is on, that block is still not
 * traced; the jalr block at 1c is the first traced: its sync, then 50
 * after the jalr (format 2: no branch since the sync), 20 after the ret,
 * 24 not taken, 38 last.  Trace-off on an unqualified block (the last)
 * keeps trace off: nothing more. */
static const qb trig2[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, OFF, 0, 1 }, { 0x50, 2, 13, 0, 0, 0 }, { 0x20, 2, 5, 0, 0, 0 },
    { 0x10, 2, 5, ON | UQ, 0, 0 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 },
    { 0x28, 5, 15, 0, 0, 1 }, { 0x38, 1, 15, OFF | UQ, 0, 0 }, { 0x38, 1, 15, 0, 0, 0 },
};
static const xp trig2_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x1c), 0), SUP(0, REP),
    SUP(1, NC), SYNC(0x1c), F2(D(0x1c, 0x50), 0), F2(D(0x50, 0x20), 0), F1(1, 1, D(0x20, 0x38), 0),
    SUP(0, REP),
};
static const xe trig2_e[] = { ESYNC(0x00), ESTOP(0x1c, REP), ESYNC(0x1c), ESTOP(0x38, REP) };

static void triggers(void)
{
    te_buf s, g;
    RUN("delta", te_prog, trig, gap_x, gap_e, &s, "trace-off, unqualified, trace-on");
    RUN("delta", te_prog, gap, gap_x, gap_e, &g, "unqualified gap (again)");
    CHECK(s.n == g.n && memcmp(s.b, g.b, s.n) == 0);
    free(s.b);
    free(g.b);
    RUN("delta", te_prog, trig2, trig2_x, trig2_e, &s, "trace-on on an unqualified block");
    free(s.b);
}

/* Trace starting unqualified: nothing is traced before 50, so no end of
 * trace comes first; the sync at 50, 20 after the ret (format 2), 24 and
 * 14 taken, 50 after the jalr (format 1, 2 branches), 20, 24 not taken,
 * 38 last (ended_rep). */
static const qb late[] = {
    { 0x00, 6, 5, UQ, 0, 0 }, { 0x1c, 1, 8, UQ, 0, 0 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 5, 0, 0, 1 },
    { 0x10, 2, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 },
    { 0x28, 5, 15, 0, 0, 1 },
};
static const xp late_x[] = {
    SUP(1, NC), SYNC(0x50), F2(D(0x50, 0x20), 0), F1(2, 0, D(0x20, 0x50), 0), F2(D(0x50, 0x20), 0),
    F1(1, 1, D(0x20, 0x38), 0), SUP(0, REP),
};
static const xe late_e[] = { ESYNC(0x50), ESTOP(0x38, REP) };

/* Ending unqualified: the last two blocks are not qualified, so 54 (the
 * ret, whose target 20 is not traced) is the last traced: format 2 from
 * 50 (no branch since the packet at 50), ended_rep (54 follows the xor at
 * 50).  The decoder stops at the first 54 it reaches. */
static const qb early[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 5, 0, 0, 1 },
    { 0x10, 2, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, UQ, 0, 0 },
    { 0x28, 5, 15, UQ, 0, 0 },
};
static const xp early_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x50), 0), F2(D(0x50, 0x20), 0), F1(2, 0, D(0x20, 0x50), 0),
    F2(D(0x50, 0x54), 0), SUP(0, REP),
};
static const xe early_e[] = { ESYNC(0x00), ESTOP(0x54, REP) };

static void start_and_end(void)
{
    te_buf s;
    RUN("delta", te_prog, late, late_x, late_e, &s, "starting unqualified");
    free(s.b);
    RUN("delta", te_prog, early, early_x, early_e, &s, "ending unqualified");
    free(s.b);
}

/* 6.5.1 on 6.6.2's loop.  rep: 00-0c traced, the jalr at 10 not: the last
 * traced is looplabel's 1st execution, reported by a format 2 (delta 0c)
 * only because tracing ended: ended_rep; the decoder stays at the first
 * 0c.  upd: 00-10 and looplabel again traced: the last traced is the 2nd
 * execution, whose packet (the same format 2, delta 0c) the jalr needed
 * anyway: ended_upd; the decoder goes on to the 2nd 0c.  updiscon: as
 * upd, but an interrupt follows 0c (handler 14 not qualified): the packet
 * reports the jalr's target before a trap, with updiscon (6.6.2 case 2),
 * so the end is ended_rep (the paragraph after table 6.4). */
static const qb lp_rep[] = { { 0x00, 4, 0, 0, 0, 1 }, { 0x10, 1, 14, UQ, 0, 0 } };
static const qb lp_upd[] = { { 0x00, 5, 14, 0, 0, 1 }, { 0x0c, 1, 0, 0, 0, 1 }, { 0x10, 1, 14, UQ, 0, 0 } };
static const qb lp_trap[] = { { 0x00, 5, 14, 0, 0, 1 }, { 0x0c, 1, 2, 0, 7, 1 }, { 0x14, 2, 0, UQ, 0, 0 } };
static const xp lp_rep_x[] = { SUP(1, NC), SYNC(0x00), F2(D(0x00, 0x0c), 0), SUP(0, REP) };
static const xp lp_upd_x[] = { SUP(1, NC), SYNC(0x00), F2(D(0x00, 0x0c), 0), SUP(0, UPD) };
static const xp lp_trap_x[] = { SUP(1, NC), SYNC(0x00), F2(D(0x00, 0x0c), F_UPD), SUP(0, REP) };
static const xe lp_rep_e[] = { ESYNC(0x00), ESTOP(0x0c, REP) };
static const xe lp_upd_e[] = { ESYNC(0x00), ESTOP(0x0c, UPD) };

static void ended_rep_upd(void)
{
    te_buf s;
    RUN("delta", lp_prog, lp_rep, lp_rep_x, lp_rep_e, &s, "loop, ended_rep");
    free(s.b);
    RUN("delta", lp_prog, lp_upd, lp_upd_x, lp_upd_e, &s, "loop, ended_upd");
    free(s.b);
    RUN("delta", lp_prog, lp_trap, lp_trap_x, lp_rep_e, &s, "loop, updiscon then ended_rep");
    free(s.b);
}

/* Halted (table 4.5): two cycles with the hart halted after the jalr at
 * 1c; it resumes at 50.  Upon assertion the last retired instruction (1c,
 * format 1 with the taken branch at 14) and the support packet (ended_rep);
 * upon deassertion a new trace: support, sync at 50, 20 after the ret,
 * 50 after the jalr (2 branches taken), 20, 38 last. */
static const qb halted[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 0, 0, HALT, 0, 0 }, { 0x50, 0, 0, HALT, 0, 0 },
    { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 5, 0, 0, 1 }, { 0x10, 2, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 },
    { 0x50, 2, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 }, { 0x28, 5, 15, 0, 0, 1 },
};
static const xp halted_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x1c), 0), SUP(0, REP),
    SUP(1, NC), SYNC(0x50), F2(D(0x50, 0x20), 0), F1(2, 0, D(0x20, 0x50), 0), F2(D(0x50, 0x20), 0),
    F1(1, 1, D(0x20, 0x38), 0), SUP(0, REP),
};
static const xe halted_e[] = { ESYNC(0x00), ESTOP(0x1c, REP), ESYNC(0x50), ESTOP(0x38, REP) };

/* Reset (table 4.5, "as described above for halt"): the hart is reset
 * right after 50, the jalr's target: 50 is reported (format 1, the branch
 * at 14) and would have been anyway: ended_upd.  Out of reset at 00: the
 * trace starts again with support and sync at 00; 50 (format 1), 20, 38. */
static const qb reset[] = {
    { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 1, 0, 0, 0, 1 }, { 0x00, 0, 0, RST, 0, 0 },
    { 0x00, 0, 0, RST, 0, 0 }, { 0x00, 6, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 2, 13, 0, 0, 1 },
    { 0x20, 2, 4, 0, 0, 1 }, { 0x28, 5, 15, 0, 0, 1 },
};
static const xp reset_x[] = {
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x50), 0), SUP(0, UPD),
    SUP(1, NC), SYNC(0x00), F1(1, 0, D(0x00, 0x50), 0), F2(D(0x50, 0x20), 0), F1(1, 1, D(0x20, 0x38), 0),
    SUP(0, REP),
};
static const xe reset_e[] = { ESYNC(0x00), ESTOP(0x50, UPD), ESYNC(0x00), ESTOP(0x38, REP) };

static void halted_reset(void)
{
    te_buf s;
    RUN("delta", te_prog, halted, halted_x, halted_e, &s, "halted and resumed");
    free(s.b);
    RUN("delta", te_prog, reset, reset_x, reset_e, &s, "reset");
    free(s.b);
}

/* Trace-notify (4.2.4: a packet with the address of the block's last
 * instruction).  te_prog: notify on 00-08 reports 08, which no packet
 * would report: format 2 with notify != address[MSB] (6.6.1; the delta 4
 * is positive, so the notify bit is 1).  Notify on the block at 50, the
 * jalr's target: reported anyway, so notify == address[MSB] (6.6.2 case
 * 4, "subsequent executions").  lp_prog, 6.6.2 case 4 itself: notify on
 * looplabel's 1st execution (notify inverted; the decoder stops there at
 * once) and on its 2nd (after the jalr: not inverted, delta 0); the 3rd
 * is the last traced: ended_upd.
 * The decoder shows a notification (RVT_EV_NOTIFY, right after the
 * instruction) only where the bit is inverted: 08 and looplabel's 1st
 * execution.  The others look like any report of a jump target. */
static const qb ntf[] = {
    { 0x00, 3, 0, NTF, 0, 1 }, { 0x0c, 3, 5, 0, 0, 1 }, { 0x1c, 1, 8, 0, 0, 1 }, { 0x50, 1, 0, NTF, 0, 1 },
    { 0x54, 1, 13, 0, 0, 1 }, { 0x20, 2, 4, 0, 0, 1 }, { 0x28, 5, 15, 0, 0, 1 },
};
static const xp ntf_x[] = {
    SUP(1, NC), SYNC(0x00), F2(D(0x00, 0x08), F_NOTIFY), F1(1, 0, D(0x08, 0x50), 0), F2(D(0x50, 0x20), 0),
    F1(1, 1, D(0x20, 0x38), 0), SUP(0, REP),
};
static const xe ntf_e[] = { ESYNC(0x00), ENOTIFY(0x08), ESTOP(0x38, REP) };
static const qb lp_ntf[] = {
    { 0x00, 4, 0, NTF, 0, 1 }, { 0x10, 1, 14, 0, 0, 1 }, { 0x0c, 1, 0, NTF, 0, 1 }, { 0x10, 1, 14, 0, 0, 1 },
    { 0x0c, 1, 0, 0, 0, 1 }, { 0x10, 1, 14, UQ, 0, 0 },
};
static const xp lp_ntf_x[] = {
    SUP(1, NC), SYNC(0x00), F2(D(0x00, 0x0c), F_NOTIFY), F2(0, 0), F2(0, 0), SUP(0, UPD),
};
static const xe lp_ntf_e[] = { ESYNC(0x00), ENOTIFY(0x0c), ESTOP(0x0c, UPD) };

static void notify(void)
{
    te_buf s;
    RUN("delta", te_prog, ntf, ntf_x, ntf_e, &s, "notify");
    /* The wire bit itself (6.6.1): 1 against the positive delta's MSB 0. */
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_te_attrs_fill(&a);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, s.b, s.n);
    rvt_te_pkt p;
    uint64_t off;
    for (int i = 0; i < 3 && rvt_te_reader_next(&r, &p, &off) > 0; i++)
        if (i == 2)
            CHECK_EQ(p.notify, 1);
    free(s.b);
    RUN("delta", lp_prog, lp_ntf, lp_ntf_x, lp_ntf_e, &s, "notify, 6.6.2 case 4");
    free(s.b);
}

/* Every flow above with all compressing modes (implicit return with a
 * 4-entry stack, implicit exception, sequentially inferable jumps, branch
 * prediction, jump target cache): other packets, the same PCs and the
 * same stops and restarts. */
typedef struct flow {
    const uint32_t *prog;
    size_t nprog;
    const qb *b;
    size_t nb;
    const xe *e;
    size_t ne;
    const char *what;
} flow;
#define FLOW(prog, b, e) { prog, NB(prog), b, NB(b), e, NB(e), #b }

static void all_modes(void)
{
    static const flow fl[] = {
        FLOW(te_prog, gap, gap_e), FLOW(te_prog, trig, gap_e), FLOW(te_prog, trig2, trig2_e),
        FLOW(te_prog, late, late_e), FLOW(te_prog, early, early_e), FLOW(lp_prog, lp_rep, lp_rep_e),
        FLOW(lp_prog, lp_upd, lp_upd_e), FLOW(lp_prog, lp_trap, lp_rep_e), FLOW(te_prog, halted, halted_e),
        FLOW(te_prog, reset, reset_e), FLOW(te_prog, ntf, ntf_e), FLOW(lp_prog, lp_ntf, lp_ntf_e),
    };
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_opts_parse("all,full-address", &a.options), 0);
    CHECK_EQ(rvt_te_attrs_set(&a, "return_stack_size=2"), 0);
    rvt_te_attrs_fill(&a);
    for (size_t i = 0; i < NB(fl); i++) {
        te_buf s;
        CHECK_EQ(encode(&a, fl[i].b, fl[i].nb, &s), 0);
        check_decode(&a, fl[i].prog, fl[i].nprog, fl[i].b, fl[i].nb, &s, fl[i].e, fl[i].ne, fl[i].what);
        free(s.b);
    }
}

int main(void)
{
    unqualified_gap();
    triggers();
    start_and_end();
    ended_rep_upd();
    halted_reset();
    notify();
    all_modes();
    return TH_DONE();
}
