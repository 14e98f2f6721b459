/* Outputs: a writer plug-in (writers.h, looked up in registry.c) with the
 * counters every output keeps.  Every decoder (E-Trace, N-Trace) feeds
 * these through rvt_out_event(). */
#include <stdlib.h>
#include "rvtrace/out.h"

struct rvt_out {
    const rvt_out_writer *w;
    void *state;            /* the writer's */
    FILE *f;
    uint64_t insns, errors, lost;
};

rvt_out *rvt_out_open(const rvt_out_writer *w, FILE *f, rvt_image *img)
{
    if (!w || !f || (w->needs_image && !img))
        return NULL;
    rvt_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->w = w;
    o->f = f;
    if (!(o->state = w->open(f, img))) {
        free(o);
        return NULL;
    }
    return o;
}

rvt_out *rvt_out_new(rvt_out_kind kind, FILE *f, rvt_image *img)
{
    /* the registry lists the writers in rvt_out_kind order, then others */
    if ((unsigned)kind > RVT_OUT_FOLDED)
        return NULL;
    return rvt_out_open(rvt_out_writer_at((size_t)kind), f, img);
}

void rvt_out_free(rvt_out *o)
{
    if (!o)
        return;
    o->w->finish(o->state);
    fflush(o->f);
    free(o);
}

uint64_t rvt_out_insns(const rvt_out *o) { return o->insns; }
uint64_t rvt_out_errors(const rvt_out *o) { return o->errors; }
uint64_t rvt_out_lost(const rvt_out *o) { return o->lost; }

int rvt_out_event(void *ctx, const rvt_flow_event *ev)
{
    rvt_out *o = ctx;
    if (ev->kind == RVT_EV_INSN)
        o->insns++;
    else if (ev->kind == RVT_EV_ERROR)
        o->errors++;
    else if (ev->kind == RVT_EV_LOST)
        o->lost++;
    o->w->event(o->state, ev);
    return 0;
}
