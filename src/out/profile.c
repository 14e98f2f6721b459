/* The profile (rvtrace/profile.h): instructions per function with and
 * without callees, calls and caller/callee pairs, instructions per
 * privilege mode, context and hart, traps by cause, and the time the
 * trace's timestamps span.  The stacks and their counts are the folded
 * writer's (folded.c, callstack.c): a function's self count is the sum
 * over the stacks it is the leaf of, its total the sum over the stacks it
 * appears in (once per stack, so recursion is not counted twice). */
#define _GNU_SOURCE 1   /* qsort_r */
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "rvtrace/flow.h"
#include "out/profile.h"
#include "out/profile_piece.h"

rvt_profile *rvt_profile_new(rvt_image *img)
{
    rvt_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (!(p->fo = rvt_folded_new(img))) {
        free(p);
        return NULL;
    }
    p->img = img;
    return p;
}

void rvt_profile_free(rvt_profile *p)
{
    if (!p)
        return;
    rvt_folded_free(p->fo);
    rvt_prof_piece_free(p->piece);
    rvt_keymap_free(&p->fn_ix);
    rvt_keymap_free(&p->edge_ix);
    rvt_keymap_free(&p->ctx_ix);
    rvt_keymap_free(&p->hart_ix);
    rvt_keymap_free(&p->trap_ix);
    free(p->fns);
    free(p->edge_calls);
    free(p->ctx_insns);
    free(p->src_ctx);
    free(p->hart_insns);
    free(p->trap_counts);
    free(p);
}

uint64_t rvt_profile_insns(const rvt_profile *p) { return p->fo->n; }

/* The counter of key (a, b) in a table: index map plus a parallel array
 * of elem-byte entries, zeroed when new.  NULL when out of memory. */
static void *counter(rvt_profile *p, rvt_keymap *m, void **arr, size_t *cap, size_t elem, uint64_t a,
                     uint64_t b)
{
    int added;
    size_t i = rvt_keymap_get(m, a, b, &added);
    if (i == SIZE_MAX) {
        p->oom = true;
        return NULL;
    }
    if (added) {
        void *g = rvt_grow(*arr, cap, i + 1, elem, 16);
        if (!g) {
            p->oom = true;
            return NULL;
        }
        *arr = g;
        memset((char *)g + i * elem, 0, elem);
    }
    return (char *)*arr + i * elem;
}

static rvt_prof_fn *function(rvt_profile *p, const char *name)
{
    rvt_prof_fn *f = counter(p, &p->fn_ix, (void **)&p->fns, &p->fn_cap, sizeof *f,
                             (uint64_t)(uintptr_t)name, 0);
    if (f)
        f->name = name;
    return f;
}

static uint64_t *count_of(rvt_profile *p, rvt_keymap *m, uint64_t **arr, size_t *cap, uint64_t a,
                          uint64_t b)
{
    return counter(p, m, (void **)arr, cap, sizeof **arr, a, b);
}

/* A call (or co-routine swap) just entered the current leaf. */
static void call(rvt_profile *p, const rvt_callstack *cs)
{
    rvt_prof_fn *f = function(p, cs->leaf);
    if (f)
        f->calls++;
    const char *caller = cs->depth && cs->depth <= RVT_CS_MAX_DEPTH ? cs->stk[cs->depth - 1] : NULL;
    if (cs->rel) {                  /* a piece's: named or not, once composed */
        rvt_prof_piece_call(p, caller, cs->leaf, (int64_t)(cs->depth - cs->under));
        return;
    }
    uint64_t *e = count_of(p, &p->edge_ix, &p->edge_calls, &p->edge_cap, (uint64_t)(uintptr_t)caller,
                           (uint64_t)(uintptr_t)cs->leaf);
    if (e)
        ++*e;
}

/* A context event belongs to its hart: on a stream of several harts each
 * runs in its own (E-Trace and N-Trace report contexts per source), so
 * one hart's instructions are counted in that hart's last context, not in
 * the last one of any hart. */
uint64_t rvt_prof_context(const rvt_profile *p, uint16_t src)
{
    return src < p->src_ctx_cap ? p->src_ctx[src] : 0;
}

bool rvt_prof_set_context(rvt_profile *p, uint16_t src, uint64_t context)
{
    if (src >= p->src_ctx_cap) {
        size_t had = p->src_ctx_cap;
        uint64_t *g = rvt_grow(p->src_ctx, &p->src_ctx_cap, (size_t)src + 1, sizeof *g, 4);
        if (!g) {
            p->oom = true;
            return false;
        }
        memset(g + had, 0, (p->src_ctx_cap - had) * sizeof *g);
        p->src_ctx = g;
    }
    p->src_ctx[src] = context;
    return true;
}

/* Instructions per privilege mode, context and hart are counted in runs:
 * a run ends when one of them changes, and its length is added to their
 * counters then (a compare per instruction, not three table updates). */
static void end_run(rvt_profile *p, uint64_t upto)
{
    uint64_t n = upto - p->run_start;
    p->run_start = upto;
    if (!n)
        return;
    p->priv_insns[p->run_priv & 7] += n;
    uint64_t *c = p->ctx_inherited ? &p->head_ctx_insns
                                   : count_of(p, &p->ctx_ix, &p->ctx_insns, &p->ctx_cap,
                                              rvt_prof_context(p, p->run_src), 0);
    if (c)
        *c += n;
    uint64_t *h = count_of(p, &p->hart_ix, &p->hart_insns, &p->hart_cap, p->run_src, 0);
    if (h)
        *h += n;
}

/* A new leaf: the image of its function, if not known yet (a function's
 * code comes from one file; only leaf changes pay for the lookup). */
static void leaf_image(rvt_profile *p, const char *leaf, uint64_t pc)
{
    p->last_leaf = leaf;
    rvt_prof_fn *f = function(p, leaf);
    if (f && !f->image) {
        f->image = rvt_image_file_at(p->img, pc);
        f->pc = pc;
    }
}

/* An instruction at pc in privilege priv of hart src, the folded stacks
 * already moved to it. */
static inline __attribute__((always_inline)) void insn(rvt_profile *p, uint64_t pc, uint8_t priv, uint16_t src)
{
    const rvt_callstack *cs = p->fo->cs;
    if (cs->leaf != p->last_leaf)
        leaf_image(p, cs->leaf, pc);
    if (priv != p->run_priv || src != p->run_src) {
        end_run(p, p->fo->n - 1);          /* the run ends before this one */
        p->run_priv = priv;
        p->run_src = src;
    }
    if (cs->effect == RVT_CS_CALL || cs->effect == RVT_CS_SWAP)
        call(p, cs);
}

static void trap(rvt_profile *p, const rvt_flow_event *ev)
{
    uint64_t *t = count_of(p, &p->trap_ix, &p->trap_counts, &p->trap_cap,
                           ev->kind | (uint64_t)(ev->flags & RVT_EVF_CAUSE_UNKNOWN) << 8, ev->aux);
    if (t)
        ++*t;
}

static void time_event(rvt_profile *p, uint64_t t)
{
    if (!p->have_time)
        p->t_first = t;
    p->have_time = true;
    p->t_last = t;
}

static inline __attribute__((always_inline)) void feed(rvt_profile *p, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN) {          /* the hot path */
        rvt_folded_src(p->fo, ev->src);
        rvt_cs_sync(p->fo->cs);
        rvt_folded_insn(p->fo, ev->pc);
        insn(p, ev->pc, ev->priv, ev->src);
        return;
    }
    rvt_folded_event(p->fo, ev);
    switch (ev->kind) {
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT: trap(p, ev); break;
    case RVT_EV_CONTEXT:
        end_run(p, p->fo->n);
        rvt_prof_set_context(p, ev->src, ev->aux);
        p->ctx_inherited = false;
        break;
    case RVT_EV_TIME: time_event(p, ev->aux); break;
    case RVT_EV_ERROR: p->errors++; break;
    case RVT_EV_LOST: p->lost++; break;
    case RVT_EV_END: p->incomplete = (ev->aux & RVT_END_INCOMPLETE) != 0; break;
    default: break;
    }
}

int rvt_profile_event(void *ctx, const rvt_flow_event *ev)
{
    rvt_profile *p = ctx;
    if (__builtin_expect(p->piece != NULL, 0))
        rvt_prof_piece_event(p, ev);
    else
        feed(p, ev);
    return 0;
}

/* ---- for composing pieces (profile.h) ---- */

void rvt_prof_feed(rvt_profile *p, const rvt_flow_event *ev) { feed(p, ev); }
rvt_prof_fn *rvt_prof_function(rvt_profile *p, const char *name) { return function(p, name); }
void rvt_prof_end_run(rvt_profile *p, uint64_t upto) { end_run(p, upto); }

uint64_t *rvt_prof_counter(rvt_profile *p, rvt_keymap *m, uint64_t **arr, size_t *cap, uint64_t a, uint64_t b)
{
    return count_of(p, m, arr, cap, a, b);
}

/* rvt_folded_block's hook: insn() for the instructions it looks up. */
typedef struct block_ctx {
    rvt_profile *p;
    uint8_t priv;
    uint16_t src;
} block_ctx;

static inline __attribute__((always_inline)) void block_insn(void *ctx, uint64_t pc)
{
    const block_ctx *c = ctx;
    insn(c->p, pc, c->priv, c->src);
}

static inline __attribute__((always_inline)) void block(rvt_profile *p, const rvt_block *b)
{
    /* in the same function, mode and hart as the instruction before, with
     * no call: insn() would find nothing to do for any of b's */
    if (b->priv == p->run_priv && b->src == p->run_src && p->last_leaf == p->fo->cs->leaf &&
        rvt_folded_block_stays(p->fo, b))
        return;
    block_ctx c = { p, b->priv, b->src };
    rvt_folded_block(p->fo, b, block_insn, &c);
}

void rvt_profile_block(rvt_profile *p, const rvt_block *b)
{
    if (p->piece) {                 /* a piece counts its start event by event */
        p->piece->refused = true;
        return;
    }
    rvt_cs_sync(p->fo->cs);
    block(p, b);
}

/* The loop here, so that block() is inline in it (issue #17: a call per
 * batch, not per block). */
uint64_t rvt_profile_blocks(rvt_profile *p, const rvt_block *b, size_t n)
{
    if (p->piece) {
        p->piece->refused = true;
        uint64_t insns = 0;
        for (size_t i = 0; i < n; i++)
            insns += b[i].ninsn;
        return insns;
    }
    uint64_t had = p->fo->n;        /* the folded stacks count each once */
    rvt_cs_sync(p->fo->cs);         /* the other harts' at rvt_folded_switch */
    for (size_t i = 0; i < n;) {
        /* the blocks block() would find nothing to do for, a run at a time */
        size_t k = p->run_src == p->fo->src && p->last_leaf == p->fo->cs->leaf
                       ? rvt_folded_blocks_stay(p->fo, &b[i], n - i, p->run_priv)
                       : 0;
        if (!k)
            block(p, &b[i++]);
        i += k;
    }
    return p->fo->n - had;
}

rvt_prof_image *rvt_profile_images(const rvt_profile *p, size_t *n)
{
    rvt_prof_image *im = NULL;
    size_t cap = 0;
    *n = 0;
    for (size_t i = 0; i < p->fn_ix.n; i++) {
        const rvt_prof_fn *f = &p->fns[i];
        const char *name = f->image ? f->image : "[unknown]";
        size_t k = 0;
        while (k < *n && strcmp(im[k].name, name))
            k++;
        if (k == *n) {
            rvt_prof_image *g = rvt_grow(im, &cap, k + 1, sizeof *im, 4);
            if (!g) {
                free(im);
                return NULL;
            }
            im = g;
            im[k] = (rvt_prof_image){ name, 0 };
            ++*n;
        }
        im[k].insns += f->self;
    }
    return im;
}

uint64_t rvt_profile_cycles(const rvt_profile *p)
{
    return p->have_time ? p->t_last - p->t_first : 0;
}

/* ---- totals ---- */

typedef struct totals_walk {
    rvt_profile *p;
    uint64_t stack;                /* stacks walked so far: stamps functions counted */
} totals_walk;

static void add_stack(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    totals_walk *w = ctx;
    w->stack++;
    for (uint32_t i = 0; i < n; i++) {
        rvt_prof_fn *f = function(w->p, names[i]);
        if (!f)
            return;
        if (f->stamp != w->stack) {   /* once per stack */
            f->stamp = w->stack;
            f->total += insns;
            f->total_cycles += cycles;
        }
        if (i == n - 1) {
            f->self += insns;
            f->self_cycles += cycles;
        }
    }
}

void rvt_profile_totals(rvt_profile *p)
{
    if (p->totalled)
        return;
    p->totalled = true;
    p->insns = p->fo->n;
    end_run(p, p->insns);
    totals_walk w = { .p = p };
    rvt_folded_each(p->fo, add_stack, &w);
}

/* ---- sorting ---- */

typedef struct sort_ctx {
    const rvt_profile *p;
    rvt_prof_sort key;
} sort_ctx;

static int by_key(const void *a, const void *b, void *ctx)
{
    const sort_ctx *c = ctx;
    rvt_prof_sort sort_key = c->key;
    const rvt_prof_fn *x = &c->p->fns[*(const size_t *)a], *y = &c->p->fns[*(const size_t *)b];
    uint64_t kx = 0, ky = 0;
    switch (sort_key) {
    case RVT_PROF_SORT_CHILDREN: kx = x->total; ky = y->total; break;
    case RVT_PROF_SORT_SELF: kx = x->self; ky = y->self; break;
    case RVT_PROF_SORT_CALLS: kx = x->calls; ky = y->calls; break;
    case RVT_PROF_SORT_CYCLES: kx = x->total_cycles; ky = y->total_cycles; break;
    case RVT_PROF_SORT_NAME: break;
    }
    if (kx != ky)
        return kx < ky ? 1 : -1;
    if (sort_key != RVT_PROF_SORT_NAME && x->self != y->self)
        return x->self < y->self ? 1 : -1;
    return strcmp(x->name, y->name);
}

size_t *rvt_profile_sorted(const rvt_profile *p, rvt_prof_sort key, size_t *n)
{
    *n = p->fn_ix.n;
    size_t *ix = malloc((*n ? *n : 1) * sizeof *ix);
    if (!ix)
        return NULL;
    for (size_t i = 0; i < *n; i++)
        ix[i] = i;
    sort_ctx c = { p, key };
    qsort_r(ix, *n, sizeof *ix, by_key, &c);
    return ix;
}

bool rvt_profile_sort_key(const char *name, rvt_prof_sort *out)
{
    static const char *const names[] = { "children", "self", "calls", "cycles", "name" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (name && !strcmp(name, names[i])) {
            *out = (rvt_prof_sort)i;
            return true;
        }
    }
    return false;
}

const char *rvt_profile_trap_name(const rvt_profile *p, size_t i, char *buf, size_t n)
{
    uint64_t kind = p->trap_ix.keys[i].a & 0xff, cause = p->trap_ix.keys[i].b;
    const char *what = kind == RVT_EV_INTERRUPT ? "interrupt" : "exception";
    if (p->trap_ix.keys[i].a >> 8 & RVT_EVF_CAUSE_UNKNOWN)
        snprintf(buf, n, "%s (cause not traced)", what);
    else
        snprintf(buf, n, "%s %llu", what, (unsigned long long)cause);
    return buf;
}
