/* Outputs: a writer plug-in (writers.h, looked up in registry.c) with the
 * counters every output keeps.  Every decoder (E-Trace, N-Trace) feeds
 * these through rvt_out_event() (one event per instruction) or
 * rvt_out_block()/rvt_out_run() (runs of instructions: to the writer's
 * block entry, or as one event each to a writer without one). */
#include <stdlib.h>
#include "rvtrace/flow.h"
#include "rvtrace/status.h"
#include "out/block_shape.h"

struct rvt_out {
    const rvt_out_writer *w;
    void *state;            /* the writer's */
    FILE *f;
    rvt_image *img;         /* instruction lengths for rvt_out_block */
    rvt_shapes *shapes;     /* the blocks seen, walked once (block_shape.h) */
    uint64_t insns, errors, lost;
};

/* A new output of w (f NULL: a part into buffers), its state to come. */
static rvt_out *out_new(const rvt_out_writer *w, FILE *f, rvt_image *img)
{
    rvt_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->w = w;
    o->f = f;
    o->img = img;
    if (!(o->shapes = calloc(1, sizeof *o->shapes))) {
        free(o);
        return NULL;
    }
    rvt_shapes_init(o->shapes, img);
    return o;
}

/* o with its writer's state (NULL: o freed, NULL returned). */
static rvt_out *out_with(rvt_out *o, void *state)
{
    if (o && !state) {
        free(o->shapes);
        free(o);
        return NULL;
    }
    if (o)
        o->state = state;
    return o;
}

/* Whether w can write img's output (the common checks of the opens). */
static bool out_ok(const rvt_out_writer *w, rvt_image *img)
{
    return w && (!w->needs_image || img);
}

rvt_out *rvt_out_open(const rvt_out_writer *w, FILE *f, rvt_image *img)
{
    if (!out_ok(w, img) || !f || !w->open)
        return NULL;
    rvt_out *o = out_new(w, f, img);
    return out_with(o, o ? w->open(f, img) : NULL);
}

rvt_out *rvt_out_open_part(const rvt_out_writer *w, FILE *f, rvt_image *img)
{
    if (!out_ok(w, img) || !f || !w->blocks || !w->open_part)
        return NULL;
    rvt_out *o = out_new(w, f, img);
    return out_with(o, o ? w->open_part(f, NULL, img) : NULL);
}

rvt_out *rvt_out_open_part_bufs(const rvt_out_writer *w, const rvt_out_bufs *to, rvt_image *img)
{
    if (!out_ok(w, img) || !to || !to->swap || to->size < RVT_OUT_BUF_MIN || !w->blocks || !w->open_part)
        return NULL;
    rvt_out *o = out_new(w, NULL, img);
    return out_with(o, o ? w->open_part(NULL, to, img) : NULL);
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
    if (o->f)               /* a part into buffers handed its last one over */
        fflush(o->f);
    free(o->shapes);
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

/* b's instructions as one event each, their lengths from sh. */
static void expand_shape(rvt_out *o, const rvt_block *b, const rvt_shape *sh)
{
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = b->priv, .src = b->src, .offset = b->offset };
    uint64_t pc = b->start_pc;
    for (unsigned k = 0; k < sh->n; k++) {
        ev.pc = pc;
        o->w->event(o->state, &ev);
        pc = rvt_shape_next(sh, k, pc);
    }
}

/* The same, walked through the image (a block rvt_shape_get does not
 * keep): the lengths first, so that nothing is written of a block the
 * image cannot walk. */
static int expand_walk(rvt_out *o, const rvt_block *b)
{
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
    return 0;
}

/* b to the writer: its block entry, else one event each (sh: b's shape
 * if known). */
static int deliver(rvt_out *o, const rvt_block *b, const rvt_shape *sh)
{
    int st = 0;
    if (o->w->block)
        o->w->block(o->state, b);
    else if (sh)
        expand_shape(o, b, sh);
    else
        st = expand_walk(o, b);
    if (st == 0)
        o->insns += b->ninsn;
    return st;
}

/* The shapes kept, none of code patched since (docs/api.md "Code that
 * changes"): the same start and count may be other lengths now. */
static rvt_shapes *shapes_now(rvt_out *o)
{
    rvt_shapes_sync(o->shapes);
    return o->shapes;
}

/* b's shape for expanding it into events, if known and b's (NULL for a
 * writer with a block entry, which walks b itself). */
static const rvt_shape *block_shape(rvt_out *o, const rvt_block *b)
{
    if (o->w->block)
        return NULL;
    const rvt_shape *sh = rvt_shape_get(shapes_now(o), b->start_pc, b->ninsn);
    return sh && sh->end == b->end_pc ? sh : NULL;
}

int rvt_out_block(rvt_out *o, const rvt_block *b)
{
    if (!o || !b)
        return RVT_ERR_INVAL;
    return deliver(o, b, block_shape(o, b));
}

int rvt_out_blocks(rvt_out *o, const rvt_block *b, size_t n, size_t *done)
{
    size_t k = 0;
    int st = 0;
    if (!o || (!b && n)) {
        st = RVT_ERR_INVAL;
    } else if (o->w->blocks) {
        o->insns += o->w->blocks(o->state, b, n);
        k = n;
    } else if (o->w->block) {       /* a call per block, but straight to the writer */
        for (; k < n; k++) {
            o->w->block(o->state, &b[k]);
            o->insns += b[k].ninsn;
        }
    } else {
        for (; k < n && (st = rvt_out_block(o, &b[k])) == 0; k++)
            ;
    }
    if (done)
        *done = k;
    return st;
}

/* The last pc of n instructions from pc making hw half-words (N-Trace
 * 8.4.2 counts half-words), walked through img; false when img lacks the
 * code or the lengths do not add up.  Without an image, only a block of
 * one instruction is known. */
static bool run_end(rvt_image *img, uint64_t pc, uint64_t n, uint64_t hw, uint64_t *end)
{
    *end = pc;
    if (!img)
        return n == 1;
    uint64_t used = 0;
    for (uint64_t k = 0; k < n; k++) {
        const rvt_insn *i = rvt_image_insn(img, pc);
        if (!i)
            return false;
        *end = pc;
        used += i->len / 2;
        pc += i->len;
    }
    return used == hw;
}

int rvt_out_run(rvt_out *o, const rvt_flow_event *ev)
{
    if (!o || !ev || ev->kind != RVT_EV_INSN)
        return RVT_ERR_INVAL;
    rvt_block b = { .start_pc = ev->pc, .end_pc = ev->pc, .next_pc = ev->pc, .ninsn = ev->aux,
                    .offset = ev->offset, .priv = ev->priv, .src = ev->src, .end = RVT_BLK_DISCON };
    if (ev->aux == 1 && ev->aux2 == 0)
        return deliver(o, &b, NULL);    /* one instruction whose code the decoder lacked */
    const rvt_shape *sh = rvt_shape_get(shapes_now(o), ev->pc, ev->aux);
    if (sh && sh->hw != ev->aux2)
        return RVT_ERR_NOCODE;      /* not the code the decoder walked */
    if (sh)
        b.end_pc = sh->end;
    else if (!run_end(o->img, ev->pc, ev->aux, ev->aux2, &b.end_pc))
        return RVT_ERR_NOCODE;
    b.next_pc = b.end_pc;
    return deliver(o, &b, sh);
}
