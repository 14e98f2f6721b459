/* Fuzz target: the CTR model (Smctr/Ssctr 0.1.4 draft, docs/ctr.md):
 * rvt_ctr_csr_read/write, rvt_ctr_transfer, rvt_ctr_ireg_read/write,
 * rvt_ctr_get, rvt_ctr_cc_encode/decode.
 * Input: 1 configuration byte (bit 0 MXLEN 32, bit 1 no S-mode, bit 2 no
 * U-mode), then operations, each an opcode byte and its arguments
 * (fuzz/fuzz_ops.h; seeds: fuzz/tools/mkops.c).  After every operation the state must keep the
 * draft's invariants:
 * - DEPTH (2.1) is one of 0000/0001/0011/0111/1111 and the depth is
 *   16 << ones; CLR reads 0; the S/STE/U bits read 0 without their mode;
 *   mctrstatus (2.4) holds only WRPTR < depth, WRAP and FROZEN;
 * - CSRs: a CSR the configuration lacks (2.3 vsctrcontrol, 2.6 the *h
 *   halves on RV64) reads and writes RVT_ERR_INVAL and changes nothing;
 *   sctrcontrol reads M and MTE as 0 (2.2), sctrstatus = mctrstatus;
 *   writing back what a CSR reads changes nothing (WARL); RV32 views
 *   are 32 bits; CLR (2.1) empties the buffer and mctrstatus;
 * - entries (3): logical entry i < depth reads through rvt_ctr_get and
 *   *ireg, *ireg2 and *ireg3 alike, V (ctrsource bit 0) as rvt_ctr_get's
 *   result, MISP 0, ctrdata only TYPE/CCV/CC, MXLEN-wide PCs; entries at or
 *   above the depth read 0 and ignore writes; *ireg4..6 read 0; a select
 *   outside 0x200..0x2FF or a register outside 1..6 is RVT_ERR_INVAL;
 * - transfers (5): while FROZEN nothing changes; otherwise, without
 *   RASEMU, either nothing changes or WRPTR advances by one (WRAP set when
 *   it wraps) and logical entry 0 is the transfer (its TYPE, its source or
 *   0, its target or 0); with RASEMU (5.4) a call pushes, a return pops
 *   (the popped entry invalid) and a co-routine swap rewrites entry 0;
 *   FROZEN is never cleared by a transfer;
 * - CC (5.3): decode(encode(n)) <= n and re-encodes to the same field;
 *   the first record after a write to ctrcontrol has CCV=0; without
 *   RASEMU a record with CCV=1 counts no more cycles than elapsed since
 *   the previous record (qualified cycles are a subset).
 * FUZZ_ARGS: -max_len=2048 */
#include "../fuzz_ops.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

/* A CSR number: one of the CTR ones, or any 12 bits. */
static unsigned pick_csr(rvt_fuzz_in *in)
{
    uint8_t s = rvt_fuzz_u8(in);
    return s < RVT_FUZZ_CTR_NCSRS ? rvt_fuzz_ctr_csrs[s] : (unsigned)(rvt_fuzz_bytes(in, 2) & 0xfff);
}

typedef struct fz {
    rvt_ctr *c;
    rvt_ctr_cfg cfg;
    uint64_t xmask;
    uint64_t now;
    uint64_t last_rec;      /* cycle of the last record */
    bool ccv_clear;         /* ctrcontrol written since the last record */
} fz;

/* Every logical entry 0..255 as rvt_ctr_get shows it (check_entries holds
 * the *ireg..3 view equal to it; one call per entry instead of three keeps
 * the target at thousands of inputs a second). */
typedef struct snap {
    uint64_t control, status;
    rvt_ctr_entry e[256];
} snap;

static void take(const fz *f, snap *s)
{
    memset(s, 0, sizeof *s);
    s->control = rvt_ctr_control(f->c);
    s->status = rvt_ctr_status(f->c);
    /* Entries at or above the depth read 0 (check_entries checks it). */
    unsigned depth = rvt_ctr_depth(f->c);
    for (unsigned i = 0; i < depth; i++)
        RVT_FUZZ_ASSERT(rvt_ctr_get(f->c, i, &s->e[i]) >= 0);
}

static bool same(const snap *a, const snap *b)
{
    return a->control == b->control && a->status == b->status &&
           memcmp(a->e, b->e, sizeof a->e) == 0;
}

/* 2.1: the fields the draft defines (TYPE 0, 6 and 7 have no filter bit;
 * bit 38 is ETEN). */
#define CTL_DEFINED (RVT_CTRCTL_M | RVT_CTRCTL_S | RVT_CTRCTL_U | RVT_CTRCTL_MTE | \
                     RVT_CTRCTL_STE | RVT_CTRCTL_RASEMU | RVT_CTRCTL_BPFRZ | \
                     RVT_CTRCTL_LCOFIFRZ | RVT_CTRCTL_DEPTH | 0xFF7Eull << 32)
#define DATA_W (RVT_CTRDATA_TYPE | RVT_CTRDATA_CCV | (0xFFFFull << RVT_CTRDATA_CC_SHIFT))

static void check_state(const fz *f)
{
    uint64_t ctl = rvt_ctr_control(f->c), sts = rvt_ctr_status(f->c);
    unsigned d = (unsigned)((ctl & RVT_CTRCTL_DEPTH) >> RVT_CTRCTL_DEPTH_SHIFT);
    RVT_FUZZ_ASSERT(d == 0 || d == 1 || d == 3 || d == 7 || d == 15);
    unsigned depth = rvt_ctr_depth(f->c);
    RVT_FUZZ_ASSERT(depth == 16u << __builtin_popcount(d));
    RVT_FUZZ_ASSERT(!(ctl & RVT_CTRCTL_CLR));
    if (f->cfg.no_smode)
        RVT_FUZZ_ASSERT(!(ctl & (RVT_CTRCTL_S | RVT_CTRCTL_STE)));
    if (f->cfg.no_umode)
        RVT_FUZZ_ASSERT(!(ctl & RVT_CTRCTL_U));
    RVT_FUZZ_ASSERT(!(ctl & ~CTL_DEFINED));
    RVT_FUZZ_ASSERT(!(sts & ~(RVT_CTRSTS_WRPTR | RVT_CTRSTS_WRAP | RVT_CTRSTS_FROZEN)));
    RVT_FUZZ_ASSERT((sts & RVT_CTRSTS_WRPTR) < depth);
}

/* Entries at or above the depth are one uniform region of the model: its
 * edges (depth, 255) stand for it, as 0, depth-1 do for *ireg4..6, which
 * keeps the check at ~3 x depth register reads instead of 1 536. */
static bool edge(unsigned i, unsigned depth)
{
    return i == 0 || i + 1 == depth || i == depth || i == 255;
}

static void check_entries(const fz *f)
{
    unsigned depth = rvt_ctr_depth(f->c);
    for (unsigned i = 0; i < 256; i++) {
        if (i > depth && i != 255)
            continue;
        rvt_ctr_entry e;
        int v = rvt_ctr_get(f->c, i, &e);
        uint64_t r[7] = { 0 };
        for (unsigned k = 1; k <= (edge(i, depth) ? 6u : 3u); k++)
            RVT_FUZZ_ASSERT(rvt_ctr_ireg_read(f->c, RVT_CTR_ISEL_FIRST + i, k, &r[k]) == 0);
        RVT_FUZZ_ASSERT(r[4] == 0 && r[5] == 0 && r[6] == 0);
        if (i >= depth) {
            RVT_FUZZ_ASSERT(v == RVT_ERR_INVAL);
            RVT_FUZZ_ASSERT(r[1] == 0 && r[2] == 0 && r[3] == 0);
            continue;
        }
        RVT_FUZZ_ASSERT(v == (int)(e.source & 1));
        RVT_FUZZ_ASSERT(r[1] == e.source && r[2] == e.target && r[3] == e.data);
        RVT_FUZZ_ASSERT(!(e.target & 1));                   /* MISP */
        RVT_FUZZ_ASSERT(!(e.data & ~DATA_W));
        RVT_FUZZ_ASSERT(!(e.source & ~f->xmask) && !(e.target & ~f->xmask));
    }
}

static bool is_control(unsigned csr)
{
    return csr == RVT_CSR_MCTRCONTROL || csr == RVT_CSR_MCTRCONTROLH ||
           csr == RVT_CSR_SCTRCONTROL || csr == RVT_CSR_SCTRCONTROLH;
}

/* 5.3: a new record (entry 0) and its cycle count. */
static void check_record(fz *f, const rvt_ctr_entry *e0, bool ras)
{
    bool ccv = (e0->data & RVT_CTRDATA_CCV) != 0;
    if (f->ccv_clear)
        RVT_FUZZ_ASSERT(!ccv);
    if (ccv && !ras)
        RVT_FUZZ_ASSERT(rvt_ctr_cc_decode((unsigned)(e0->data >> RVT_CTRDATA_CC_SHIFT)) <=
                        f->now - f->last_rec);
    f->ccv_clear = false;
    f->last_rec = f->now;
}

static void op_csr_read(fz *f, rvt_fuzz_in *in)
{
    unsigned csr = pick_csr(in);
    uint64_t v = 0xdead;
    int st = rvt_ctr_csr_read(f->c, csr, &v);
    rvt_fuzz_check_status(st);
    bool is = rvt_ctr_is_csr(f->c, csr);
    RVT_FUZZ_ASSERT(is ? st == 0 : st == RVT_ERR_INVAL);
    if (!is)
        return;
    RVT_FUZZ_ASSERT(!(v & ~f->xmask));
    if (csr == RVT_CSR_SCTRCONTROL)
        RVT_FUZZ_ASSERT(!(v & (RVT_CTRCTL_M | RVT_CTRCTL_MTE)));
    if (csr == RVT_CSR_SCTRSTATUS || csr == RVT_CSR_MCTRSTATUS)
        RVT_FUZZ_ASSERT(v == rvt_ctr_status(f->c));
    if (csr == RVT_CSR_MCTRCONTROL)
        RVT_FUZZ_ASSERT(v == (rvt_ctr_control(f->c) & f->xmask));
    /* WARL: writing back what was read changes nothing */
    snap a, b;
    take(f, &a);
    RVT_FUZZ_ASSERT(rvt_ctr_csr_write(f->c, csr, v, 3, f->now) == 0);
    f->ccv_clear |= is_control(csr);
    take(f, &b);
    RVT_FUZZ_ASSERT(same(&a, &b));
}

static void op_csr_write(fz *f, rvt_fuzz_in *in)
{
    unsigned csr = pick_csr(in);
    uint64_t v = rvt_fuzz_bytes(in, 8);
    unsigned priv = rvt_fuzz_privs[rvt_fuzz_u8(in) & 3];
    f->now += rvt_fuzz_bytes(in, 1);
    bool is = rvt_ctr_is_csr(f->c, csr);
    snap a;
    take(f, &a);
    int st = rvt_ctr_csr_write(f->c, csr, v, priv, f->now);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(is ? st == 0 : st == RVT_ERR_INVAL);
    f->ccv_clear |= is && is_control(csr);
    if (!is) {
        snap b;
        take(f, &b);
        RVT_FUZZ_ASSERT(same(&a, &b));
        return;
    }
    bool lo = csr == RVT_CSR_MCTRCONTROL || csr == RVT_CSR_SCTRCONTROL;
    if (lo && (v & RVT_CTRCTL_CLR)) {
        /* 2.1: CLR zeroes every entry and mctrstatus */
        RVT_FUZZ_ASSERT(rvt_ctr_status(f->c) == 0);
        snap b;
        take(f, &b);
        for (unsigned i = 0; i < 256; i++)
            RVT_FUZZ_ASSERT(!b.e[i].source && !b.e[i].target && !b.e[i].data);
    }
    if (csr == RVT_CSR_SCTRCONTROL || csr == RVT_CSR_SCTRCONTROLH) {
        /* 2.2: M and MTE are not writable through the S view */
        uint64_t keep = RVT_CTRCTL_M | RVT_CTRCTL_MTE;
        RVT_FUZZ_ASSERT((rvt_ctr_control(f->c) & keep) == (a.control & keep));
    }
}

/* 5.4: with RASEMU a co-routine swap from an enabled mode rewrites entry
 * 0 even when the new entry equals the old one -- a record all the same
 * (its CCV follows 5.3), though the snapshots cannot tell. */
static bool ras_swap_recorded(const snap *a, const rvt_ctr_xfer *x)
{
    uint64_t mode = x->src_priv == 3 ? RVT_CTRCTL_M : x->src_priv == 1 ? RVT_CTRCTL_S : RVT_CTRCTL_U;
    return (a->control & RVT_CTRCTL_RASEMU) && x->type == RVT_CTR_CO_SWAP && (a->control & mode);
}

static void op_transfer(fz *f, rvt_fuzz_in *in)
{
    rvt_ctr_xfer x;
    x.type = rvt_fuzz_ctr_types[rvt_fuzz_u8(in) % RVT_FUZZ_CTR_NTYPES];
    x.src = rvt_fuzz_bytes(in, 8);
    x.tgt = rvt_fuzz_bytes(in, 8);
    uint8_t pr = rvt_fuzz_u8(in);
    x.src_priv = rvt_fuzz_privs[pr & 3];
    x.tgt_priv = rvt_fuzz_privs[(pr >> 2) & 3];
    x.cause = rvt_fuzz_u8(in) & 31;
    uint64_t dt = rvt_fuzz_bytes(in, 2) << (pr >> 4);
    f->now += dt;
    unsigned cc = rvt_ctr_cc_encode(dt);
    RVT_FUZZ_ASSERT(cc <= 0xffff && rvt_ctr_cc_decode(cc) <= dt);
    RVT_FUZZ_ASSERT(rvt_ctr_cc_encode(rvt_ctr_cc_decode(cc)) == cc);

    snap a, b;
    take(f, &a);
    rvt_ctr_transfer(f->c, &x, f->now);
    take(f, &b);
    unsigned depth = rvt_ctr_depth(f->c);
    unsigned w0 = (unsigned)(a.status & RVT_CTRSTS_WRPTR), w1 = (unsigned)(b.status & RVT_CTRSTS_WRPTR);
    RVT_FUZZ_ASSERT(a.control == b.control);
    if (a.status & RVT_CTRSTS_FROZEN) {
        RVT_FUZZ_ASSERT(same(&a, &b));
        return;
    }
    if (b.status & RVT_CTRSTS_FROZEN) {                     /* 5.5: this trap froze it */
        RVT_FUZZ_ASSERT(x.type == RVT_CTR_EXCEPTION || x.type == RVT_CTR_INTERRUPT);
        RVT_FUZZ_ASSERT(memcmp(a.e, b.e, sizeof a.e) == 0 && w0 == w1);
        return;
    }
    if (same(&a, &b)) {
        if (ras_swap_recorded(&a, &x))
            check_record(f, &b.e[0], true);
        return;
    }
    const rvt_ctr_entry *e0 = &b.e[0];
    bool ras = (a.control & RVT_CTRCTL_RASEMU) != 0;
    if (ras && x.type == RVT_CTR_RETURN) {
        /* 5.4: pop -- the old entry 0 becomes logical depth-1, invalid */
        RVT_FUZZ_ASSERT(w1 == ((w0 - 1u) & (depth - 1u)));
        RVT_FUZZ_ASSERT(!(b.e[depth - 1].source & 1));
        RVT_FUZZ_ASSERT(b.e[depth - 1].target == a.e[0].target);
        RVT_FUZZ_ASSERT(memcmp(&a.e[1], &b.e[0], (depth - 1) * sizeof a.e[0]) == 0);
        if (w0 == 0)
            RVT_FUZZ_ASSERT(!(b.status & RVT_CTRSTS_WRAP));
        return;
    }
    RVT_FUZZ_ASSERT(e0->source & 1);
    RVT_FUZZ_ASSERT((e0->data & RVT_CTRDATA_TYPE) == x.type);
    uint64_t src = (x.src & f->xmask & ~1ull) | 1u, tgt = x.tgt & f->xmask & ~1ull;
    RVT_FUZZ_ASSERT(e0->source == src || e0->source == 1);
    RVT_FUZZ_ASSERT(e0->target == tgt || e0->target == 0);
    check_record(f, e0, ras);
    if (ras && x.type == RVT_CTR_CO_SWAP) {
        /* 5.4: a swap rewrites entry 0 in place */
        RVT_FUZZ_ASSERT(w1 == w0);
        RVT_FUZZ_ASSERT(memcmp(&a.e[1], &b.e[1], (depth - 1) * sizeof a.e[0]) == 0);
        return;
    }
    if (ras)
        RVT_FUZZ_ASSERT(x.type == RVT_CTR_IND_CALL || x.type == RVT_CTR_DIR_CALL);
    /* 2.4: insert at WRPTR, WRPTR + 1, WRAP when it wraps */
    RVT_FUZZ_ASSERT(w1 == ((w0 + 1u) & (depth - 1u)));
    if (w1 == 0)
        RVT_FUZZ_ASSERT(b.status & RVT_CTRSTS_WRAP);
    else
        RVT_FUZZ_ASSERT((b.status & RVT_CTRSTS_WRAP) == (a.status & RVT_CTRSTS_WRAP));
    RVT_FUZZ_ASSERT(memcmp(&a.e[0], &b.e[1], (depth - 1) * sizeof a.e[0]) == 0);
}

/* Entry registers: selects around the 0x200..0x2FF window, registers 0..7. */
static void op_ireg(fz *f, rvt_fuzz_in *in, bool write)
{
    unsigned sel = RVT_FUZZ_CTR_SEL_BASE + (unsigned)(rvt_fuzz_bytes(in, 2) % 0x120u);
    unsigned reg = rvt_fuzz_u8(in) & 7;
    uint64_t v = write ? rvt_fuzz_bytes(in, 8) : 0;
    bool ok = sel >= RVT_CTR_ISEL_FIRST && sel <= RVT_CTR_ISEL_LAST && reg >= 1 && reg <= 6;
    unsigned i = sel - RVT_CTR_ISEL_FIRST;
    snap a, b;
    take(f, &a);
    uint64_t r = 0;
    int st = write ? rvt_ctr_ireg_write(f->c, sel, reg, v) : rvt_ctr_ireg_read(f->c, sel, reg, &r);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(ok ? st == 0 : st == RVT_ERR_INVAL);
    take(f, &b);
    if (!write || !ok || i >= rvt_ctr_depth(f->c) || reg > 3) {
        RVT_FUZZ_ASSERT(same(&a, &b));          /* reads and ignored writes */
        return;
    }
    /* Only the one register of the one entry changes. */
    uint64_t *nv = reg == 1 ? &b.e[i].source : reg == 2 ? &b.e[i].target : &b.e[i].data;
    uint64_t *ov = reg == 1 ? &a.e[i].source : reg == 2 ? &a.e[i].target : &a.e[i].data;
    RVT_FUZZ_ASSERT(!(*nv & ~v));                /* WARL: no bit that was not written */
    *ov = *nv;
    RVT_FUZZ_ASSERT(same(&a, &b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    uint8_t cb = rvt_fuzz_u8(&in);
    fz f;
    memset(&f, 0, sizeof f);
    f.cfg.mxlen = (cb & 1) ? 32 : 64;
    f.cfg.no_smode = (cb >> 1) & 1;
    f.cfg.no_umode = (cb >> 2) & 1;
    f.xmask = f.cfg.mxlen == 32 ? 0xffffffffull : UINT64_MAX;
    f.c = rvt_ctr_new(&f.cfg);
    RVT_FUZZ_ASSERT(f.c != NULL);
    check_state(&f);
    unsigned ops = 0;
    while (in.n && ops++ < 128) {
        switch (rvt_fuzz_u8(&in) % RVT_FUZZ_CTR_NOPS) {
        case RVT_FUZZ_CTR_CSRW: op_csr_write(&f, &in); break;
        case RVT_FUZZ_CTR_CSRR: op_csr_read(&f, &in); break;
        case RVT_FUZZ_CTR_XFER: case RVT_FUZZ_CTR_XFER + 1: op_transfer(&f, &in); break;
        case RVT_FUZZ_CTR_IREG: op_ireg(&f, &in, rvt_fuzz_u8(&in) & 1); break;
        default: check_entries(&f); break;
        }
        check_state(&f);
    }
    check_entries(&f);
    rvt_ctr_free(f.c);
    return 0;
}
