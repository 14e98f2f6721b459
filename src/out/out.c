/* Outputs: a writer plug-in (writers.h, looked up in registry.c) with the
 * counters every output keeps.  Every decoder (E-Trace, N-Trace) feeds
 * these through rvt_out_event() (one event per instruction) or
 * rvt_out_block() (runs of instructions); a writer with a block entry gets
 * runs either way (run.c gathers the events), one without gets events. */
#include <stdlib.h>
#include "rvtrace/flow.h"
#include "rvtrace/status.h"
#include "out/run.h"

struct rvt_out {
    const rvt_out_writer *w;
    void *state;            /* the writer's */
    FILE *f;
    rvt_image *img;         /* instruction lengths for rvt_out_block */
    rvt_out_run run;        /* RVT_EV_INSN events gathered for w->block */
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
    o->img = img;
    rvt_out_run_init(&o->run, img);
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

/* The gathered run, if any, to the writer's block entry. */
static void run_out(rvt_out *o, uint8_t end, uint64_t next_pc)
{
    rvt_block b;
    if (rvt_out_run_take(&o->run, end, next_pc, &b))
        o->w->block(o->state, &b);
}

void rvt_out_free(rvt_out *o)
{
    if (!o)
        return;
    if (o->w->block)
        run_out(o, RVT_BLK_END, 0);
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
    if (ev->kind == RVT_EV_INSN) {
        o->insns++;
        if (!o->w->block) {
            o->w->event(o->state, ev);
        } else if (!rvt_out_run_add(&o->run, ev)) {     /* ev starts a new run */
            run_out(o, RVT_BLK_DISCON, ev->pc);
            rvt_out_run_add(&o->run, ev);
        }
        return 0;
    }
    if (ev->kind == RVT_EV_ERROR)
        o->errors++;
    else if (ev->kind == RVT_EV_LOST)
        o->lost++;
    if (o->w->block)
        run_out(o, rvt_out_run_end_of(ev->kind), 0);
    rvt_out_run_event(&o->run, ev);
    o->w->event(o->state, ev);
    return 0;
}

int rvt_out_block(rvt_out *o, const rvt_block *b)
{
    if (!o || !b)
        return RVT_ERR_INVAL;
    if (o->w->block) {
        run_out(o, RVT_BLK_DISCON, b->start_pc);
        o->insns += b->ninsn;
        o->w->block(o->state, b);
        return 0;
    }
    /* one event each: the lengths first, so that nothing is written of a
     * block the image cannot walk */
    uint64_t pc = b->start_pc;
    for (uint64_t k = 1; k < b->ninsn; k++) {
        const rvt_insn *i = o->img ? rvt_image_insn(o->img, pc) : NULL;
        if (!i)
            return RVT_ERR_NOCODE;
        pc += i->len;
    }
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = b->priv, .src = b->src, .offset = b->offset };
    pc = b->start_pc;
    for (uint64_t k = 0; k < b->ninsn; k++) {
        ev.pc = pc;
        o->w->event(o->state, &ev);
        if (k + 1 < b->ninsn)
            pc += rvt_image_insn(o->img, pc)->len;
    }
    o->insns += b->ninsn;
    return 0;
}
