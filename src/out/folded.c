/* Folded call stacks (folded.h): the stack comes from the shared tracker
 * (callstack.h); this file counts instructions (and cycles) per distinct
 * stack. */
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "out/folded.h"
#include "out/writers.h"
#include "out/fmt.h"

/* A new hart's stack, empty, at the end of fo->harts; NULL when out of
 * memory. */
static fo_hart *add_hart(rvt_folded *fo, uint16_t src, rvt_image *img)
{
    fo_hart **g = rvt_grow(fo->harts, &fo->hart_cap, fo->nharts + 1, sizeof *g, 4);
    if (!g)
        return NULL;
    fo->harts = g;
    fo_hart *h = malloc(sizeof *h);
    if (!h)
        return NULL;
    rvt_cs_init(&h->cs, img);
    h->cs.rel = fo->rel_harts;
    h->src = src;
    h->prev_leaf = NULL;
    h->cur = SIZE_MAX;
    h->deep = h->have_time = false;
    h->time = 0;
    g[fo->nharts++] = h;
    return h;
}

rvt_folded *rvt_folded_new(rvt_image *img)
{
    rvt_folded *fo = calloc(1, sizeof *fo);
    if (!fo)
        return NULL;
    fo->cur = SIZE_MAX;
    fo->index_cap = 256;
    fo->index = calloc(fo->index_cap, sizeof *fo->index);
    fo_hart *h = fo->index ? add_hart(fo, 0, img) : NULL;
    if (!h) {
        rvt_folded_free(fo);
        return NULL;
    }
    fo->cs = &h->cs;
    return fo;
}

void rvt_folded_free(rvt_folded *fo)
{
    if (!fo)
        return;
    for (size_t i = 0; i < fo->nharts; i++)
        free(fo->harts[i]);
    free(fo->harts);
    free(fo->ents);
    free(fo->pents);
    free(fo->index);
    free(fo->pool);
    free(fo);
}

/* fo_entry.base of the current stack. */
static uint64_t stack_base(const rvt_callstack *cs)
{
    return cs->rel ? cs->under + 1 : 0;
}

static uint64_t stack_hash(const rvt_folded *fo, const char *leaf)
{
    uint64_t h = 1469598103934665603ull ^ stack_base(fo->cs);  /* FNV-1a over the pointers */
    unsigned n = rvt_cs_named(fo->cs);
    for (unsigned i = 0; i <= n; i++) {
        h ^= (uint64_t)(uintptr_t)(i < n ? fo->cs->stk[i] : leaf);
        h *= 1099511628211ull;
    }
    return h;
}

static bool same_stack(const rvt_folded *fo, const fo_entry *e, const char *leaf)
{
    unsigned n = rvt_cs_named(fo->cs);
    if (e->len != n + 1 || fo->pool[e->off + n] != leaf)
        return false;
    if (fo->rel_harts && fo->pents[e - fo->ents].base != stack_base(fo->cs))
        return false;
    return memcmp(&fo->pool[e->off], fo->cs->stk, n * sizeof fo->cs->stk[0]) == 0;
}

static bool grow_index(rvt_folded *fo)
{
    size_t cap = fo->index_cap * 2;
    uint32_t *ix = calloc(cap, sizeof *ix);
    if (!ix)
        return false;
    for (size_t i = 0; i < fo->nents; i++) {
        size_t k = fo->ents[i].hash & (cap - 1);
        while (ix[k])
            k = (k + 1) & (cap - 1);
        ix[k] = (uint32_t)(i + 1);
    }
    free(fo->index);
    fo->index = ix;
    fo->index_cap = cap;
    return true;
}

static size_t add_entry(rvt_folded *fo, uint64_t h, const char *leaf)
{
    unsigned n = rvt_cs_named(fo->cs);
    if (fo->nents >= UINT32_MAX - 1)
        return SIZE_MAX;
    fo_entry *e = rvt_grow(fo->ents, &fo->cap, fo->nents + 1, sizeof *e, 64);
    if (!e)
        return SIZE_MAX;
    fo->ents = e;
    const char **p = rvt_grow(fo->pool, &fo->pool_cap, fo->npool + n + 1, sizeof *p, 1024);
    if (!p)
        return SIZE_MAX;
    fo->pool = p;
    memcpy(&fo->pool[fo->npool], fo->cs->stk, n * sizeof fo->cs->stk[0]);
    fo->pool[fo->npool + n] = leaf;
    if (fo->rel_harts) {
        fo_piece_entry *pe = rvt_grow(fo->pents, &fo->pcap, fo->nents + 1, sizeof *pe, 64);
        if (!pe)
            return SIZE_MAX;
        fo->pents = pe;
        pe[fo->nents] = (fo_piece_entry){ stack_base(fo->cs), 0 };
    }
    fo->ents[fo->nents] = (fo_entry){ h, fo->npool, n + 1, 0, 0 };
    fo->npool += n + 1;
    return fo->nents++;
}

/* The entry of the current stack with this leaf (added when new). */
static size_t lookup(rvt_folded *fo, const char *leaf)
{
    if (2 * (fo->nents + 1) > fo->index_cap && !grow_index(fo))
        return SIZE_MAX;
    uint64_t h = stack_hash(fo, leaf);
    size_t k = h & (fo->index_cap - 1);
    for (; fo->index[k]; k = (k + 1) & (fo->index_cap - 1)) {
        fo_entry *e = &fo->ents[fo->index[k] - 1];
        if (e->hash == h && same_stack(fo, e, leaf))
            return fo->index[k] - 1;
    }
    size_t i = add_entry(fo, h, leaf);
    if (i == SIZE_MAX)
        return i;
    fo->index[k] = (uint32_t)(i + 1);
    return i;
}

/* The instructions since the stack last changed go to its entry. */
static void end_run(rvt_folded *fo)
{
    uint64_t n = fo->n - fo->run_start;
    fo->run_start = fo->n;
    if (fo->cur != SIZE_MAX)
        fo->ents[fo->cur].count += n;
    if (fo->deep) {
        fo->deep_insns += n;
        if (fo->rel_harts && fo->cur != SIZE_MAX)
            fo->pents[fo->cur].deep += n;
    }
}

void rvt_folded_end_run(rvt_folded *fo) { end_run(fo); }
size_t rvt_folded_lookup(rvt_folded *fo, const char *leaf) { return lookup(fo, leaf); }

void rvt_folded_restack(rvt_folded *fo)
{
    end_run(fo);
    fo->cur = lookup(fo, fo->cs->leaf);
    fo->cs->dirty = false;
    fo->deep = fo->cs->depth > RVT_CS_MAX_DEPTH;
}

/* The current hart's run state into its record, src's out of its own
 * (a new, empty stack when src is new).  Out of memory: the current hart
 * stays, its stack forgotten, as at a loss. */
void rvt_folded_switch(rvt_folded *fo, uint16_t src)
{
    end_run(fo);
    fo_hart *h = fo->harts[fo->hart];
    h->prev_leaf = fo->prev_leaf;
    h->cur = fo->cur;
    h->deep = fo->deep;
    h->have_time = fo->have_time;
    h->time = fo->time;
    size_t k = 0;
    while (k < fo->nharts && fo->harts[k]->src != src)
        k++;
    if (k == fo->nharts && !add_hart(fo, src, fo->cs->img)) {
        rvt_cs_reset(fo->cs);
        fo->cur = SIZE_MAX;
        return;
    }
    h = fo->harts[k];
    fo->hart = k;
    fo->src = src;
    fo->cs = &h->cs;
    rvt_cs_sync(fo->cs);              /* its lookups of code patched since it last ran */
    rvt_cs_changed(fo->cs);           /* the next instruction finds its entry */
    fo->prev_leaf = h->prev_leaf;
    fo->cur = h->cur;
    fo->deep = h->deep;
    fo->have_time = h->have_time;
    fo->time = h->time;
}

/* Time passes with the current stack: the cycles since the last
 * timestamp are charged to it. */
static void time_event(rvt_folded *fo, uint64_t t)
{
    if (fo->have_time && t > fo->time && fo->cur != SIZE_MAX)
        fo->ents[fo->cur].cycles += t - fo->time;
    fo->have_time = true;
    fo->time = t;
}

void rvt_folded_event(rvt_folded *fo, const rvt_flow_event *ev)
{
    rvt_folded_src(fo, ev->src);
    if (ev->kind == RVT_EV_INSN) {
        rvt_cs_sync(fo->cs);
        rvt_folded_insn(fo, ev->pc);
        return;
    }
    rvt_cs_event(fo->cs, ev);          /* traps, losses */
    if (ev->kind == RVT_EV_TIME)
        time_event(fo, ev->aux);
    else if (ev->kind == RVT_EV_LOST || ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_STOP) {
        end_run(fo);
        fo->cur = SIZE_MAX;
    }
}

void rvt_folded_each(rvt_folded *fo, rvt_folded_fn fn, void *ctx)
{
    end_run(fo);
    for (size_t i = 0; i < fo->nents; i++) {
        const fo_entry *e = &fo->ents[i];
        if (e->count || e->cycles)
            fn(ctx, &fo->pool[e->off], e->len, e->count, e->cycles);
    }
}

/* A frame: its symbol, over several images "IMAGE`symbol" (the module
 * prefix of DTrace's ustack, which stackcollapse and flamegraph.pl keep). */
static void put_frame(FILE *f, const rvt_image *img, bool several, const char *name)
{
    const char *file = several ? rvt_fmt_image_name(rvt_image_symbol_file(img, name)) : NULL;
    if (file)
        fprintf(f, "%s`", file);
    fputs(name, f);
}

/* The deepest stack any hart reached. */
static uint64_t max_depth(const rvt_folded *fo)
{
    uint64_t d = 0;
    for (size_t i = 0; i < fo->nharts; i++)
        d = fo->harts[i]->cs.max_depth > d ? fo->harts[i]->cs.max_depth : d;
    return d;
}

void rvt_folded_write(rvt_folded *fo, FILE *f)
{
    end_run(fo);
    bool several = fo->cs->img && rvt_image_file_count(fo->cs->img) > 1;
    for (size_t i = 0; i < fo->nents; i++) {
        const fo_entry *e = &fo->ents[i];
        if (!e->count)
            continue;
        for (uint32_t k = 0; k < e->len; k++) {
            if (k)
                fputc(';', f);
            put_frame(f, fo->cs->img, several, fo->pool[e->off + k]);
        }
        fprintf(f, " %llu\n", (unsigned long long)e->count);
    }
    /* Deeper stacks were merged into their outermost frames: say so in a
     * comment line, which flame-graph tools skip as a malformed line. */
    if (fo->deep_insns)
        fprintf(f, "# rvtrace: %llu instructions ran deeper than %u frames (deepest %llu); "
                "their stacks keep the %u outermost frames and the leaf\n",
                (unsigned long long)fo->deep_insns, RVT_CS_MAX_DEPTH, (unsigned long long)max_depth(fo),
                RVT_CS_MAX_DEPTH);
}

/* The "folded" writer: the stacks are written when the output finishes. */
typedef struct fo_out {
    rvt_folded *fo;
    FILE *f;
} fo_out;

static void *folded_open(FILE *f, rvt_image *img)
{
    fo_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->f = f;
    if (!(o->fo = rvt_folded_new(img))) {
        free(o);
        return NULL;
    }
    return o;
}

static void folded_event(void *state, const rvt_flow_event *ev)
{
    rvt_folded_event(((fo_out *)state)->fo, ev);
}

static void folded_block(void *state, const rvt_block *b)
{
    rvt_folded_blocks(((fo_out *)state)->fo, b, 1);
}

/* The batch loop, a function of its own: with the sync before it in the
 * same function the compiler laid the loop out anew (the same
 * instructions run, callgrind, but long.elf's folded pass timed 3-6 %
 * slower in 6 interleaved runs, within this machine's noise); apart, its
 * code is as before the sync. */
static __attribute__((noinline)) uint64_t blocks_run(rvt_folded *fo, const rvt_block *b, size_t n)
{
    uint64_t had = fo->n;           /* every instruction counts once in n */
    for (size_t i = 0; i < n;) {
        size_t k = rvt_folded_blocks_stay(fo, &b[i], n - i, -1);
        if (!k)
            rvt_folded_block(fo, &b[i++], NULL, NULL);
        i += k;
    }
    return fo->n - had;
}

uint64_t rvt_folded_blocks(rvt_folded *fo, const rvt_block *b, size_t n)
{
    rvt_cs_sync(fo->cs);            /* the other harts' at rvt_folded_switch */
    return blocks_run(fo, b, n);
}

static uint64_t folded_blocks(void *state, const rvt_block *b, size_t n)
{
    return rvt_folded_blocks(((fo_out *)state)->fo, b, n);
}

static void folded_finish(void *state)
{
    fo_out *o = state;
    rvt_folded_write(o->fo, o->f);
    rvt_folded_free(o->fo);
    free(o);
}

const rvt_out_writer rvt_out_folded_writer = {
    .name = "folded", .needs_image = true,
    .open = folded_open, .event = folded_event, .finish = folded_finish, .block = folded_block,
    .blocks = folded_blocks,
};
