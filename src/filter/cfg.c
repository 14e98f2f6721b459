/* Filter configuration: defaults and the checks the register fields of
 * E-Trace tables 2.3-2.6 imply. */
#include <stdio.h>
#include <string.h>
#include "filter/filter_int.h"

void rvt_filter_cfg_init(rvt_filter_cfg *cfg)
{
    memset(cfg, 0, sizeof *cfg);
}

static int fail(char *err, size_t errlen, const char *what, unsigned n)
{
    if (err && errlen)
        snprintf(err, errlen, what, n);
    return RVT_ERR_INVAL;
}

static int check_cmp(const rvt_filter_cmp *c, unsigned k, char *err, size_t errlen)
{
    if (c->p_input > 3 || c->s_input > 3)
        return fail(err, errlen, "comparator %u: input must be 0-3 (table 2.6)", k);
    if (c->p_function > 7 || c->s_function > 7 || c->match_mode > 3)
        return fail(err, errlen, "comparator %u: function 0-7, matchMode 0-3 (table 2.6)", k);
    if (c->p_function == RVT_FILTER_MASK)
        return fail(err, errlen, "comparator %u: pFunction 6 is reserved (table 2.6)", k);
    if ((c->p_notify && c->p_input != RVT_FILTER_IN_IADDR) ||
        (c->s_notify && c->s_input != RVT_FILTER_IN_IADDR))
        return fail(err, errlen, "comparator %u: a notify (watchpoint) needs the iaddr input (table 2.6)", k);
    return 0;
}

static int check_filter(const rvt_filter_ctl *c, unsigned n, char *err, size_t errlen)
{
    for (unsigned k = 0; k < 3; k++) {
        if (c->match_comp[k] && c->comp[k] >= RVT_FILTER_COMPARATORS)
            return fail(err, errlen, "filter %u: comparator index above 7 (table 2.4)", n);
    }
    return 0;
}

int rvt_filter_cfg_check(const rvt_filter_cfg *cfg, char *err, size_t errlen)
{
    if (!cfg)
        return RVT_ERR_INVAL;
    for (unsigned k = 0; k < RVT_FILTER_COMPARATORS; k++) {
        int st = check_cmp(&cfg->cmp[k], k, err, errlen);
        if (st < 0)
            return st;
    }
    for (unsigned n = 0; n < RVT_FILTER_FILTERS; n++) {
        int st = check_filter(&cfg->filt[n], n, err, errlen);
        if (st < 0)
            return st;
    }
    if (cfg->ntrig > RVT_FILTER_TRIGGERS)
        return fail(err, errlen, "more than %u triggers", RVT_FILTER_TRIGGERS);
    for (unsigned i = 0; i < cfg->ntrig; i++) {
        unsigned a = cfg->trig[i].action;
        if (a < RVT_FILTER_TRACE_ON || a > RVT_FILTER_TRACE_NOTIFY)
            return fail(err, errlen, "trigger %u: action must be 2, 3 or 4 (table 4.7)", i);
    }
    return 0;
}
