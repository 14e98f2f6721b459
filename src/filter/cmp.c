/* Comparator units (E-Trace table 2.6, chapter 5): a primary and a
 * secondary comparison, combined by matchMode. */
#include "filter/filter_int.h"

/* Longest iaddr range scanned half-word by half-word for a masked
 * comparison (a masked compare is not monotonic over a range). */
#define FLT_MASK_SCAN 256

static bool func_holds(unsigned func, uint64_t x, uint64_t m)
{
    switch (func) {
    case RVT_FILTER_EQ: return x == m;
    case RVT_FILTER_NE: return x != m;
    case RVT_FILTER_LT: return x < m;
    case RVT_FILTER_LE: return x <= m;
    case RVT_FILTER_GT: return x > m;
    case RVT_FILTER_GE: return x >= m;
    default:            return true;   /* 6 reserved / 7: always match */
    }
}

/* Does func hold for any address of [lo, hi]?  Addresses rise through a
 * block, so the relational functions are decided by its ends; equality by
 * containment (half-word granular: instruction boundaries inside a block
 * are not known, which 4.3 accepts as "fuzziness"). */
static bool range_holds(unsigned func, uint64_t lo, uint64_t hi, uint64_t m)
{
    switch (func) {
    case RVT_FILTER_EQ: return lo <= m && m <= hi;
    case RVT_FILTER_NE: return lo != hi || lo != m;
    case RVT_FILTER_LT:
    case RVT_FILTER_LE: return func_holds(func, lo, m);
    case RVT_FILTER_GT:
    case RVT_FILTER_GE: return func_holds(func, hi, m);
    default:            return true;
    }
}

static bool range_holds_masked(unsigned func, uint64_t lo, uint64_t hi, uint64_t m, uint64_t mask)
{
    uint64_t n = (hi - lo) / 2;
    if (n > FLT_MASK_SCAN)
        n = FLT_MASK_SCAN;
    for (uint64_t i = 0; i <= n; i++) {
        if (func_holds(func, (lo + 2 * i) & mask, m & mask))
            return true;
    }
    return func_holds(func, hi & mask, m & mask);
}

/* One comparison: false when the input does not exist here (daddr for an
 * instruction block). */
static bool compare(unsigned input, unsigned func, uint64_t m, uint64_t mask, bool masked,
                    const flt_inputs *in)
{
    uint64_t x;
    switch (input) {
    case RVT_FILTER_IN_IADDR:
        if (masked)
            return range_holds_masked(func, in->iaddr_lo, in->iaddr_hi, m, mask);
        return range_holds(func, in->iaddr_lo, in->iaddr_hi, m);
    case RVT_FILTER_IN_CONTEXT: x = in->context; break;
    case RVT_FILTER_IN_TVAL:    x = in->tval; break;
    default:
        if (!in->has_daddr)
            return false;
        x = in->daddr;
        break;
    }
    return masked ? func_holds(func, x & mask, m & mask) : func_holds(func, x, m);
}

static bool uses_daddr(const rvt_filter_cmp *c)
{
    return c->p_input == RVT_FILTER_IN_DADDR ||
           (c->s_input == RVT_FILTER_IN_DADDR && c->match_mode != RVT_FILTER_MODE_P);
}

bool flt_cmp_eval(rvt_filter *f, unsigned k, const flt_inputs *in, bool *notify)
{
    const rvt_filter_cmp *c = &f->cfg.cmp[k];
    /* A comparator on daddr sees data accesses only; the others are decided
     * once per block and data accesses reuse that (docs/filter.md). */
    if (uses_daddr(c) != in->has_daddr)
        return in->has_daddr ? f->cmp_out[k] : false;
    bool masked = c->s_function == RVT_FILTER_MASK;
    bool p = compare(c->p_input, c->p_function, c->p_match, c->s_match, masked, in);
    bool s = masked || compare(c->s_input, c->s_function, c->s_match, ~0ull, false, in);
    if (notify) {
        /* table 2.6 pNotify/sNotify: watchpoints, iaddr inputs only */
        *notify = (c->p_notify && p && c->p_input == RVT_FILTER_IN_IADDR) ||
                  (c->s_notify && s && !masked && c->s_input == RVT_FILTER_IN_IADDR);
    }
    switch (c->match_mode) {
    case RVT_FILTER_MODE_P:    return p;
    case RVT_FILTER_MODE_AND:  return p && s;
    case RVT_FILTER_MODE_NAND: return !(p && s);
    default: {
        /* 3: set when P matches, and still matching in the block where S
         * matches; clear after it. */
        bool out = f->latched[k] || p;
        f->latched[k] = out && !s;
        return out;
    }
    }
}
