/* The filter stage: decides for each ingress block whether it is traced
 * (E-Trace 8 "Qualified?") and which triggers fire in it (4.2.4), marks it
 * with RVT_IREC_F_* flags and forwards it; drops untraced data accesses. */
#include <stdlib.h>
#include <string.h>
#include "filter/filter_int.h"

static bool any_action(const rvt_filter_cfg *cfg, unsigned action)
{
    for (unsigned i = 0; i < cfg->ntrig; i++) {
        if (cfg->trig[i].action == action)
            return true;
    }
    return false;
}

rvt_filter *rvt_filter_new(const rvt_filter_cfg *cfg, const rvt_irec_sink *down, int *status)
{
    int st = rvt_filter_cfg_check(cfg, NULL, 0);
    rvt_filter *f = NULL;
    if (st == 0 && (!down || !down->put))
        st = RVT_ERR_INVAL;
    if (st == 0 && !(f = calloc(1, sizeof *f)))
        st = RVT_ERR_NOMEM;
    if (status)
        *status = st;
    if (st < 0)
        return NULL;
    f->cfg = *cfg;
    f->down = *down;
    /* With a trace-on trigger, trace waits for it (4.2.4 "start tracing"). */
    f->on = !any_action(cfg, RVT_FILTER_TRACE_ON);
    return f;
}

void rvt_filter_free(rvt_filter *f)
{
    free(f);
}

const rvt_filter_stats *rvt_filter_get_stats(const rvt_filter *f)
{
    return &f->st;
}

/* Address of the block's last instruction (4.2: iretire half-words, the
 * last one 2^ilastsize half-words long). */
static uint64_t last_addr(const rvt_irec *r)
{
    uint64_t last = 1u << (r->ilastsize & 3);
    return r->iretire > last ? r->iaddr + 2 * (r->iretire - last) : r->iaddr;
}

/* Triggers firing in the block: RVT_IREC_F_TRIG_* flags. */
static unsigned triggers(const rvt_filter *f, const rvt_irec *r)
{
    static const unsigned flag[] = {
        [RVT_FILTER_TRACE_ON] = RVT_IREC_F_TRIG_START,
        [RVT_FILTER_TRACE_OFF] = RVT_IREC_F_TRIG_STOP,
        [RVT_FILTER_TRACE_NOTIFY] = RVT_IREC_F_TRIG_NOTIFY,
    };
    unsigned out = 0;
    if (!r->iretire)
        return 0;
    uint64_t hi = last_addr(r);
    for (unsigned i = 0; i < f->cfg.ntrig; i++) {
        const rvt_filter_trigger *t = &f->cfg.trig[i];
        if (t->addr >= r->iaddr && t->addr <= hi)
            out |= flag[t->action];
    }
    return out;
}

/* Evaluate every comparator on the block; returns RVT_IREC_F_TRIG_NOTIFY
 * if a watchpoint matched. */
static unsigned eval_comparators(rvt_filter *f, const rvt_irec *r)
{
    flt_inputs in = { r->iaddr, last_addr(r), r->context, f->tval, 0, false };
    unsigned flags = 0;
    for (unsigned k = 0; k < RVT_FILTER_COMPARATORS; k++) {
        bool notify = false;
        f->cmp_out[k] = r->iretire && flt_cmp_eval(f, k, &in, &notify);
        if (notify && r->iretire)
            flags |= RVT_IREC_F_TRIG_NOTIFY;
    }
    return flags;
}

static bool qualified(const rvt_filter *f)
{
    if (!f->cfg.ifilters)
        return true;             /* table 2.3: all bits 0, all traced */
    for (unsigned n = 0; n < RVT_FILTER_FILTERS; n++) {
        if (((f->cfg.ifilters >> n) & 1) && flt_match(f, n, f->cmp_out, NULL))
            return true;
    }
    return false;
}

unsigned rvt_filter_block(rvt_filter *f, const rvt_irec *r)
{
    if (r->flags & (RVT_IREC_F_HALTED | RVT_IREC_F_RESET)) {
        f->block_on = false;     /* nothing of a halted hart is traced */
        return 0;
    }
    f->priv = r->priv;
    f->context = r->context;
    if (r->itype == 1 || r->itype == 2)
        f->tval = r->tval;       /* valid with the trap; held after it */
    unsigned flags = eval_comparators(f, r) | triggers(f, r);
    /* Trigger pulses the source already raised (the hart's own trigger
     * unit) switch trace on and off just like the configured ones. */
    unsigned pulses = flags | r->flags;
    if (pulses & RVT_IREC_F_TRIG_START)
        f->on = true;
    f->block_on = f->on;
    if (!f->on || !qualified(f))
        flags |= RVT_IREC_F_UNQUAL;
    if (pulses & RVT_IREC_F_TRIG_STOP)
        f->on = false;           /* this block is the last one traced */
    flt_regions_update(f, r);
    f->st.blocks++;
    f->st.unqualified += (flags & RVT_IREC_F_UNQUAL) != 0;
    f->st.trace_on += (flags & RVT_IREC_F_TRIG_START) != 0;
    f->st.trace_off += (flags & RVT_IREC_F_TRIG_STOP) != 0;
    f->st.notify += (flags & RVT_IREC_F_TRIG_NOTIFY) != 0;
    return flags;
}

/* The decision for an access as such (a unified access, a split request). */
static bool data_traced(rvt_filter *f, const rvt_drec *d)
{
    if (!f->block_on)
        return false;
    if (!f->cfg.dfilters)
        return true;
    flt_inputs in = { d->iaddr, d->iaddr, f->context, f->tval, d->addr, true };
    bool out[RVT_FILTER_COMPARATORS];
    for (unsigned k = 0; k < RVT_FILTER_COMPARATORS; k++)
        out[k] = flt_cmp_eval(f, k, &in, NULL);
    for (unsigned n = 0; n < RVT_FILTER_FILTERS; n++) {
        if (((f->cfg.dfilters >> n) & 1) && flt_match(f, n, out, d))
            return true;
    }
    return false;
}

bool rvt_filter_data(rvt_filter *f, const rvt_drec *d)
{
    uint64_t *word = &f->req_passed[d->lrid / 64], bit = 1ull << (d->lrid % 64);
    if (d->flags & RVT_DREC_F_RESPONSE) {
        bool passed = (*word & bit) != 0;
        *word &= ~bit;
        return passed;
    }
    bool traced = data_traced(f, d);
    if ((d->flags & RVT_DREC_F_SPLIT_REQ) && traced)
        *word |= bit;
    else if (d->flags & RVT_DREC_F_SPLIT_REQ)
        *word &= ~bit;
    return traced;
}

static int stage_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_filter *f = ctx;
    const size_t cap = sizeof f->buf / sizeof f->buf[0];
    for (size_t i = 0; i < n; ) {
        size_t k = 0;
        for (; k < cap && i < n; k++, i++) {
            f->buf[k] = recs[i];
            f->buf[k].flags |= (uint8_t)rvt_filter_block(f, &recs[i]);
        }
        int st = f->down.put(f->down.ctx, f->buf, k);
        if (st < 0)
            return st;
    }
    return 0;
}

static int stage_data(void *ctx, const rvt_drec *recs, size_t n)
{
    rvt_filter *f = ctx;
    const size_t cap = sizeof f->dbuf / sizeof f->dbuf[0];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        f->st.data++;
        if (!rvt_filter_data(f, &recs[i])) {
            f->st.data_dropped++;
            continue;
        }
        f->dbuf[k++] = recs[i];
        if (k == cap) {
            int st = f->down.data(f->down.ctx, f->dbuf, k);
            if (st < 0)
                return st;
            k = 0;
        }
    }
    if (k)
        return f->down.data(f->down.ctx, f->dbuf, k);
    return 0;
}

static int stage_end(void *ctx)
{
    rvt_filter *f = ctx;
    return f->down.end ? f->down.end(f->down.ctx) : 0;
}

rvt_irec_sink rvt_filter_sink(rvt_filter *f)
{
    rvt_irec_sink s = { f, stage_put, f->down.data ? stage_data : NULL, stage_end };
    return s;
}
