/* The Sdtrig trigger module (Debug spec 1.0 ch. 5): HART_NTRIG triggers of
 * type 6 (mcontrol6) that match instruction, load and store addresses and
 * either raise a breakpoint exception (action 0) or pulse the E-Trace
 * trigger outputs (actions 2-4, E-Trace 4.2.4 table 4.7) on the block of
 * the instruction that caused them.  The checks run in the observing and
 * commit exec loops only (exec_tmpl.h, HART_OBS); arming a trigger selects
 * those loops (obs.c), so the plain loop pays nothing.  WARL choices are
 * listed in docs/hart.md. */
#include "hart_int.h"

/* Debug spec 1.0, 5.7 (tdata1, tinfo) and the mcontrol6 field layout. */
#define CSR_TSELECT 0x7A0
#define CSR_TDATA1  0x7A1
#define CSR_TDATA2  0x7A2
#define CSR_TDATA3  0x7A3
#define CSR_TINFO   0x7A4
#define TYPE_MCONTROL6 6ull
#define TINFO_VERSION_1 (1ull << 24)   /* tinfo.version 1: ratified 1.0 */

#define MC_LOAD   (1u << 0)
#define MC_STORE  (1u << 1)
#define MC_EXEC   (1u << 2)
#define MC_U      (1u << 3)
#define MC_S      (1u << 4)
#define MC_M      (1u << 6)
#define MC_MATCH_SHIFT 7
#define MC_CHAIN  (1u << 11)
#define MC_ACTION_SHIFT 12
#define MC_SIZE_SHIFT 16
#define MC_HIT0   (1u << 22)
#define MC_HIT1   (1u << 25)
#define MC_KINDS  (MC_LOAD | MC_STORE | MC_EXEC)
#define MC_MODES  (MC_U | MC_S | MC_M)
/* What this hart implements of fields 26:0; select, vs, vu, uncertain,
 * uncertainen and the reserved bits read 0 (no data match, no H). */
#define MC_KEEP   (MC_KINDS | MC_MODES | MC_CHAIN | MC_HIT0 | MC_HIT1 | \
                   (15u << MC_MATCH_SHIFT) | (15u << MC_ACTION_SHIFT) | (7u << MC_SIZE_SHIFT))

enum { M_EQ = 0, M_NAPOT = 1, M_GE = 2, M_LT = 3, M_MASKLO = 4, M_MASKHI = 5, M_NOT = 8 };
enum { A_BREAKPOINT = 0, A_DEBUG = 1, A_TRACE_ON = 2, A_TRACE_OFF = 3, A_TRACE_NOTIFY = 4 };

static unsigned field(uint32_t ctl, unsigned shift, unsigned mask)
{
    return (ctl >> shift) & mask;
}

static uint64_t xmask(const rvt_hart *h)
{
    return h->xlen == 32 ? 0xffffffffull : UINT64_MAX;
}

/* Debug spec 1.0, 5.7 mcontrol6.match: 0-5 and their negations 8, 9, 12, 13. */
static bool match_legal(unsigned m)
{
    unsigned base = m & 7;
    return base <= M_MASKHI && (!(m & M_NOT) || base == M_EQ || base == M_NAPOT ||
                                base == M_MASKLO || base == M_MASKHI);
}

/* The WARL value of a tdata1 write to trigger i.  A type other than 6
 * leaves a disabled mcontrol6 (writing 0 must disable, 5.7 tdata1). */
static uint32_t tdata1_legal(const rvt_hart *h, unsigned i, uint64_t v)
{
    v &= xmask(h);
    if ((v >> (h->xlen - 4)) != TYPE_MCONTROL6)
        return 0;
    uint32_t c = (uint32_t)v & MC_KEEP;
    unsigned match = field(c, MC_MATCH_SHIFT, 15), action = field(c, MC_ACTION_SHIFT, 15);
    unsigned size = field(c, MC_SIZE_SHIFT, 7);
    if (!match_legal(match))
        c &= ~(15u << MC_MATCH_SHIFT);
    /* 5.2 table "action": 1 (Debug Mode) is illegal with dmode 0, which
     * this hart (no Sdext) always has, and hardware clears it; actions this
     * hart does not offer (5, 8, 9, reserved) are cleared the same way. */
    if (action == A_DEBUG || action > A_TRACE_NOTIFY)
        c &= ~(15u << MC_ACTION_SHIFT);
    /* size: any (0), 8/16/32/64-bit (1, 2, 3, 5); no 48/128-bit ones */
    if (size == 4 || size >= 6)
        c &= ~(7u << MC_SIZE_SHIFT);
    if (i == HART_NTRIG - 1)
        c &= ~MC_CHAIN;   /* nothing to chain with (5.7 mcontrol6.chain) */
    return c;
}

static bool is_napot(uint32_t ctl)
{
    return (field(ctl, MC_MATCH_SHIFT, 15) & 7) == M_NAPOT;
}

/* NAPOT with maskmax6 = XLEN-1 (5.7 mcontrol6.match 1): writing all ones
 * to bits maskmax6-1:0 clears bit maskmax6-1. */
static uint64_t tdata2_legal(const rvt_hart *h, uint32_t ctl, uint64_t v)
{
    uint64_t low = (1ull << (h->xlen - 1)) - 1;
    v &= xmask(h);
    if (is_napot(ctl) && (v & low) == low)
        v &= ~(1ull << (h->xlen - 2));
    return v;
}

/* Which triggers can fire at all: some mode and some access kind set. */
static void rearm(rvt_hart *h)
{
    h->trig_x = h->trig_ld = h->trig_st = 0;
    for (unsigned i = 0; i < HART_NTRIG; i++) {
        uint32_t c = h->tctl[i];
        if (!(c & MC_MODES))
            continue;
        h->trig_x |= (uint8_t)(((c & MC_EXEC) != 0) << i);
        h->trig_ld |= (uint8_t)(((c & MC_LOAD) != 0) << i);
        h->trig_st |= (uint8_t)(((c & MC_STORE) != 0) << i);
    }
    hart_obs_update(h);   /* picks the loop with the trigger checks */
}

bool hart_trig_csr_read(const rvt_hart *h, unsigned csr, uint64_t *v)
{
    unsigned i = (unsigned)h->tselect;
    switch (csr) {
    case CSR_TSELECT: *v = h->tselect; return true;
    case CSR_TDATA1: *v = (TYPE_MCONTROL6 << (h->xlen - 4)) | h->tctl[i]; return true;
    case CSR_TDATA2: *v = h->tdata2[i]; return true;
    case CSR_TDATA3: *v = 0; return true;   /* textra: no context matching */
    case CSR_TINFO: *v = TINFO_VERSION_1 | (1ull << TYPE_MCONTROL6); return true;
    default: return false;
    }
}

bool hart_trig_csr_write(rvt_hart *h, unsigned csr, uint64_t v)
{
    unsigned i = (unsigned)h->tselect;
    switch (csr) {
    case CSR_TSELECT:
        /* 5.7 tselect: WARL; an index past the last trigger is not taken,
         * so reading back shows the debugger it does not exist */
        if (v < HART_NTRIG)
            h->tselect = v;
        return true;
    case CSR_TDATA1:
        h->tctl[i] = tdata1_legal(h, i, v);
        h->tdata2[i] = tdata2_legal(h, h->tctl[i], h->tdata2[i]);
        rearm(h);
        return true;
    case CSR_TDATA2: h->tdata2[i] = tdata2_legal(h, h->tctl[i], v); return true;
    /* ch. 5: M-mode accesses to the trigger CSRs of implemented triggers
     * succeed; textra and tinfo hold nothing writable */
    case CSR_TDATA3: case CSR_TINFO: return true;
    default: return false;
    }
}

/* One compare value against tdata2 (5.7 mcontrol6.match 0-5). */
static bool match_one(const rvt_hart *h, unsigned m, uint64_t cv, uint64_t t)
{
    unsigned half = h->xlen / 2;
    uint64_t lo = (1ull << half) - 1;
    switch (m) {
    case M_EQ: return cv == t;
    case M_NAPOT: {
        unsigned ones = (unsigned)__builtin_ctzll(~t);
        if (ones > h->xlen - 2)
            ones = h->xlen - 2;
        uint64_t keep = ~((2ull << ones) - 1);
        return ((cv ^ t) & keep & xmask(h)) == 0;
    }
    case M_GE: return cv >= t;
    case M_LT: return cv < t;
    case M_MASKLO: return ((cv & lo) & (t >> half)) == (t & lo);
    default: return (((cv >> half) & lo) & (t >> half)) == (t & lo);   /* M_MASKHI */
    }
}

/* mcontrol6.size against the access / instruction size in bytes. */
static bool size_ok(uint32_t ctl, unsigned bytes)
{
    static const uint8_t sz[8] = { 0, 1, 2, 4, 6, 8, 16, 0 };
    unsigned s = field(ctl, MC_SIZE_SHIFT, 7);
    return s == 0 || sz[s] == bytes;
}

static bool mode_ok(const rvt_hart *h, uint32_t ctl)
{
    uint32_t bit = h->priv == PRV_M ? MC_M : h->priv == PRV_S ? MC_S : MC_U;
    return (ctl & bit) != 0;
}

/* Trigger i matches the access: its kind, mode and size, and any of the
 * compare values addr..addr+n-1 (5.7 mcontrol6.select 0: every accessed
 * byte address; an instruction compares its own address only); the
 * negated matches hold when the plain one holds for none. */
static bool trig_match(const rvt_hart *h, unsigned i, unsigned kinds, uint64_t addr,
                       unsigned n, unsigned bytes)
{
    uint32_t c = h->tctl[i];
    if (!(c & kinds) || !mode_ok(h, c) || !size_ok(c, bytes))
        return false;
    unsigned m = field(c, MC_MATCH_SHIFT, 15);
    bool any = false;
    for (unsigned k = 0; k < n && !any; k++)
        any = match_one(h, m & 7, (addr + k) & xmask(h), h->tdata2[i]);
    return (m & M_NOT) ? !any : any;
}

/* Debug spec 1.0, 5.4 (native triggers), solution 1: action 0 does not
 * fire in M-mode while mstatus.MIE is 0, nor in S-mode while SIE is 0 when
 * breakpoints are delegated, so a handler cannot re-trigger itself. */
static bool breakpoint_masked(const rvt_hart *h)
{
    if (h->priv == PRV_M)
        return !(h->mstatus & MSTATUS_MIE);
    if (h->priv == PRV_S && ((h->medeleg >> CAUSE_BREAKPOINT) & 1))
        return !(h->mstatus & MSTATUS_SIE);
    return false;
}

/* Fire the chain `members` ending with trigger `last`: hit = 1 ("before",
 * 5.7 mcontrol6.hit0/hit1) on every member, then the last one's action. */
static bool fire(rvt_hart *h, unsigned members, unsigned last, uint64_t tval)
{
    static const uint8_t pulse[] = {
        [A_TRACE_ON] = RVT_IREC_F_TRIG_START,
        [A_TRACE_OFF] = RVT_IREC_F_TRIG_STOP,
        [A_TRACE_NOTIFY] = RVT_IREC_F_TRIG_NOTIFY,
    };
    unsigned action = field(h->tctl[last], MC_ACTION_SHIFT, 15);
    if (action == A_BREAKPOINT && breakpoint_masked(h))
        return false;
    for (unsigned i = 0; i < HART_NTRIG; i++)
        if ((members >> i) & 1)
            h->tctl[i] = (h->tctl[i] & ~MC_HIT1) | MC_HIT0;
    if (action != A_BREAKPOINT) {
        h->trig_pend |= pulse[action];
        return false;
    }
    h->trig_tval = tval;
    return true;
}

/* Evaluate every chain (5.7 mcontrol6.chain: a chain fires when all its
 * triggers match the same access) for one access of the given kinds. */
static bool check(rvt_hart *h, unsigned kinds, uint64_t addr, unsigned n, unsigned bytes)
{
    bool all = true, bp = false;
    unsigned members = 0;
    for (unsigned i = 0; i < HART_NTRIG; i++) {
        all = all && trig_match(h, i, kinds, addr, n, bytes);
        members |= 1u << i;
        if (h->tctl[i] & MC_CHAIN)
            continue;
        if (all)
            bp |= fire(h, members, i, addr);
        all = true;
        members = 0;
    }
    return bp;
}

/* Debug spec 1.0, 5.3: an execute address match is taken before the
 * instruction executes (the highest-priority synchronous exception). */
bool hart_trig_exec(rvt_hart *h, uint64_t pc, unsigned len)
{
    h->trig_pend = 0;
    return check(h, HART_TRIG_EXEC, pc, 1, len);
}

/* 5.3: load/store address matches come before misaligned and access
 * faults; 5.5.1: LR is a load, SC a store, an AMO both. */
bool hart_trig_mem(rvt_hart *h, unsigned kinds, uint64_t addr, unsigned size)
{
    return check(h, kinds, addr, size, size);
}

/* E-Trace 4.2.4: the pulse comes with the retirement of the instruction
 * that caused it; that instruction is in the open block, or it ended the
 * newest block. */
void hart_trig_retired(rvt_hart *h)
{
    if (h->blk_n)
        h->blk_flags |= h->trig_pend;
    else if (h->nbuf)
        h->buf[h->nbuf - 1].flags |= h->trig_pend;
    h->trig_pend = 0;
}
