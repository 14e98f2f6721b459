/* CTR chapter 5: which transfers are recorded, how the array and WRPTR
 * move (5, 5.4), what freezes recording (5.5), and qualified cycles (5.3). */
#include "ctr_int.h"

enum { PRV_U = 0, PRV_S = 1, PRV_M = 3 };
#define CAUSE_BREAKPOINT 3    /* priv table 3.6 */
#define IRQ_LCOFI 13          /* Sscofpmf */

unsigned ctr_depth_of(uint64_t control)
{
    /* CTR 2.1: DEPTH 0000, 0001, 0011, 0111, 1111 = 16 .. 256 */
    unsigned d = (unsigned)((control & RVT_CTRCTL_DEPTH) >> RVT_CTRCTL_DEPTH_SHIFT);
    return 16u << __builtin_popcount(d);
}

bool ctr_mode_enabled(const rvt_ctr *c, unsigned priv)
{
    uint64_t bit = priv == PRV_M ? RVT_CTRCTL_M : priv == PRV_S ? RVT_CTRCTL_S : RVT_CTRCTL_U;
    return (c->control & bit) != 0;
}

bool rvt_ctr_active(const rvt_ctr *c)
{
    return (c->control & (RVT_CTRCTL_M | RVT_CTRCTL_S | RVT_CTRCTL_U)) != 0;
}

/* CTR 5.3: qualified cycles are those in an enabled mode with FROZEN=0. */
void ctr_account(rvt_ctr *c, unsigned priv, uint64_t now)
{
    if (now > c->last && ctr_mode_enabled(c, priv) && !(c->status & RVT_CTRSTS_FROZEN))
        c->acc += now - c->last;
    c->last = now;
}

static unsigned wrptr(const rvt_ctr *c)
{
    return (unsigned)(c->status & RVT_CTRSTS_WRPTR);
}

static void set_wrptr(rvt_ctr *c, unsigned w)
{
    c->status = (c->status & ~RVT_CTRSTS_WRPTR) | w;
}

/* Logical entry 0 is the physical entry before WRPTR (CTR 2.4 note). */
static unsigned newest(const rvt_ctr *c)
{
    return (wrptr(c) - 1u) & (ctr_depth_of(c->control) - 1u);
}

/* Fill physical entry p; the CC covers the cycles since the last record. */
static void fill(rvt_ctr *c, unsigned p, uint64_t src, uint64_t tgt, unsigned type)
{
    uint64_t data = type | ((uint64_t)rvt_ctr_cc_encode(c->acc) << RVT_CTRDATA_CC_SHIFT);
    if (!c->ccv_lost)
        data |= RVT_CTRDATA_CCV;
    c->e[p] = (rvt_ctr_entry){ (src & c->xmask & ~1ull) | 1u, tgt & c->xmask & ~1ull, data };
    c->elapsed[p] = c->acc;
    c->acc = 0;
    c->ccv_lost = false;
}

/* CTR 2.4: insert at WRPTR, increment it, WRAP when it wraps. */
static void push(rvt_ctr *c, uint64_t src, uint64_t tgt, unsigned type)
{
    unsigned depth = ctr_depth_of(c->control), w = wrptr(c);
    fill(c, w, src, tgt, type);
    if (w == depth - 1) {
        set_wrptr(c, 0);
        c->status |= RVT_CTRSTS_WRAP;
    } else {
        set_wrptr(c, w + 1);
    }
}

/* CTR 5.4: a return invalidates entry 0 and rotates it to depth-1
 * (WRPTR decrements; WRAP clears when it wraps below 0).  The popped
 * call's cycles go back to the counter (5.4 note), so the next call's CC
 * spans from its parent call. */
static void pop(rvt_ctr *c)
{
    unsigned depth = ctr_depth_of(c->control), w = wrptr(c), p = newest(c);
    c->e[p].source &= ~1ull;
    c->acc += c->elapsed[p];
    c->elapsed[p] = 0;
    if (w == 0) {
        set_wrptr(c, depth - 1);
        c->status &= ~RVT_CTRSTS_WRAP;
    } else {
        set_wrptr(c, w - 1);
    }
}

/* CTR 5.4: calls push, returns pop, swaps overwrite entry 0; all other
 * types are not recorded and the filter bits are ignored. */
static void ras_emulate(rvt_ctr *c, const rvt_ctr_xfer *x)
{
    switch (x->type) {
    case RVT_CTR_IND_CALL: case RVT_CTR_DIR_CALL:
        push(c, x->src, x->tgt, x->type);
        break;
    case RVT_CTR_RETURN:
        pop(c);
        break;
    case RVT_CTR_CO_SWAP: {
        unsigned p = newest(c);
        c->acc += c->elapsed[p];
        fill(c, p, x->src, x->tgt, x->type);
        break;
    }
    default:
        break;
    }
}

/* CTR 5.5: an LCOFI trap with LCOFIFRZ, or a breakpoint exception with
 * BPFRZ, sets FROZEN and is itself not recorded. */
static bool freezes(const rvt_ctr *c, const rvt_ctr_xfer *x)
{
    if (x->type == RVT_CTR_EXCEPTION)
        return x->cause == CAUSE_BREAKPOINT && (c->control & RVT_CTRCTL_BPFRZ);
    return x->type == RVT_CTR_INTERRUPT && x->cause == IRQ_LCOFI &&
           (c->control & RVT_CTRCTL_LCOFIFRZ);
}

/* CTR 5.2: NTBREN opts in; every other type bit inhibits. */
static bool type_allowed(const rvt_ctr *c, unsigned type)
{
    bool bit = (c->control & RVT_CTRCTL_TYPE_BIT(type)) != 0;
    return type == RVT_CTR_NT_BRANCH ? bit : !bit;
}

/* CTR 5.2.1: an external trap (enabled mode to inhibited mode) is recorded
 * with target 0 when ETEN and the target mode's xTE are set, whatever
 * EXCINH/INTRINH say. */
static void external_trap(rvt_ctr *c, const rvt_ctr_xfer *x)
{
    uint64_t te = x->tgt_priv == PRV_M ? RVT_CTRCTL_MTE : RVT_CTRCTL_STE;
    if ((c->control & RVT_CTRCTL_ETEN) && (c->control & te))
        push(c, x->src, 0, x->type);
}

void rvt_ctr_transfer(rvt_ctr *c, const rvt_ctr_xfer *x, uint64_t now)
{
    ctr_account(c, x->src_priv, now);
    bool trap = x->type == RVT_CTR_EXCEPTION || x->type == RVT_CTR_INTERRUPT;
    if (trap && freezes(c, x)) {
        c->status |= RVT_CTRSTS_FROZEN;
        return;
    }
    if (c->status & RVT_CTRSTS_FROZEN)
        return;
    bool se = ctr_mode_enabled(c, x->src_priv), te = ctr_mode_enabled(c, x->tgt_priv);
    if (c->control & RVT_CTRCTL_RASEMU) {
        if (se && !trap && x->type != RVT_CTR_TRAP_RETURN)
            ras_emulate(c, x);
        return;
    }
    uint64_t src = x->src, tgt = x->tgt;
    /* CTR 5.1 table: privilege-mode transitions */
    if (trap) {
        if (se && !te) {
            external_trap(c, x);
            return;
        }
        if (!te)
            return;
        if (!se)
            src = 0;
    } else {
        if (!se)
            return;
        if (!te)
            tgt = 0;       /* a trap return to an inhibited mode */
    }
    if (type_allowed(c, x->type))
        push(c, src, tgt, x->type);
}
