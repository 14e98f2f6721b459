/* Filters (E-Trace tables 2.4 and 2.5): which hart inputs a filter looks
 * at and the values it requires. */
#include "filter/filter_int.h"

static bool bit(uint64_t set, unsigned n)
{
    return n < 64 && ((set >> n) & 1);
}

bool flt_match(const rvt_filter *f, unsigned n, const bool *cmp_out, const rvt_drec *d)
{
    const rvt_filter_ctl *c = &f->cfg.filt[n];
    if (!c->enable)
        return false;
    for (unsigned k = 0; k < 3; k++) {
        if (c->match_comp[k] && !cmp_out[c->comp[k]])
            return false;
    }
    if (c->match_privilege && !bit(c->choice_privilege, f->priv))
        return false;
    if ((c->match_ecause || c->match_interrupt) && !f->region[n])
        return false;
    if (c->match_impdef && ((f->cfg.impdef ^ c->value_impdef) & c->mask_impdef))
        return false;
    /* matchDtype/matchDsize look at data accesses only (table 2.4 "OD") */
    if (d && c->match_dtype && !bit(c->choice_dtype, d->dtype))
        return false;
    if (d && c->match_dsize && !bit(c->choice_dsize, d->dsize))
        return false;
    return true;
}

/* Table 2.4 matchEcause/matchInterrupt: "start matching from" a trap of
 * the chosen kind and cause. */
static bool starts_region(const rvt_filter_ctl *c, const rvt_irec *r)
{
    if (!c->match_ecause && !c->match_interrupt)
        return false;
    if (c->match_interrupt && r->itype != (c->value_interrupt ? 2 : 1))
        return false;
    return !c->match_ecause || bit(c->choice_ecause, r->cause);
}

/* Matching starts with the handler's first block and stops "upon return
 * from the 1st matching" trap: the xRET (itype 3) at the same nesting
 * depth is the last matching block. */
void flt_regions_update(rvt_filter *f, const rvt_irec *r)
{
    bool trap = r->itype == 1 || r->itype == 2;
    for (unsigned n = 0; n < RVT_FILTER_FILTERS; n++) {
        if (f->region[n]) {
            if (trap)
                f->depth[n]++;
            else if (r->itype == 3 && f->depth[n] == 0)
                f->region[n] = false;
            else if (r->itype == 3)
                f->depth[n]--;
        } else if (trap && starts_region(&f->cfg.filt[n], r)) {
            f->region[n] = true;
            f->depth[n] = 0;
        }
    }
}
