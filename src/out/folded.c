/* Folded call stacks (folded.h).  The stack is rebuilt from the decoded
 * flow with the link-register convention the trace encoders use (E-Trace
 * 4.1.1, tables 4.4/4.5; N-Trace follows it for implicit return): a call
 * pushes the caller's function, a return pops it, a co-routine swap does
 * both; a trap pushes the interrupted function and the xret pops it.  A
 * loss or decode error forgets the stack: continuity is unknown there. */
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "out/folded.h"
#include "out/writers.h"
#include "rvtrace/isa.h"

#define FO_MAX_DEPTH 1024u      /* frames named; deeper calls are only counted */
#define FO_SYM_CACHE 1024u      /* pc -> function name, direct mapped */

static const char fo_unknown[] = "[unknown]";

typedef struct fo_entry {
    uint64_t hash;
    size_t off;                 /* first name in the pool */
    uint32_t len;               /* names: callers then the leaf */
    uint64_t count;             /* instructions retired with this stack */
} fo_entry;

struct rvt_folded {
    rvt_image *img;
    const char *stk[FO_MAX_DEPTH];
    uint64_t depth;             /* frames outstanding (stk holds the outermost) */
    uint64_t max_depth;         /* the deepest stack seen */
    uint64_t deep_insns;        /* instructions retired deeper than FO_MAX_DEPTH */
    uint8_t pending;            /* rvt_jclass of the previous instruction */
    bool have_prev, dirty;
    const char *prev_leaf;
    size_t cur;                 /* entry of the current stack, or SIZE_MAX */
    fo_entry *ents;
    size_t nents, cap;
    uint32_t *index;            /* open addressing: entry + 1, 0 = free */
    size_t index_cap;           /* power of two, > 2 * nents */
    const char **pool;
    size_t npool, pool_cap;
    struct { uint64_t pc; const char *name; } cache[FO_SYM_CACHE];
};

rvt_folded *rvt_folded_new(rvt_image *img)
{
    rvt_folded *fo = calloc(1, sizeof *fo);
    if (!fo)
        return NULL;
    fo->img = img;
    fo->cur = SIZE_MAX;
    fo->index_cap = 256;
    fo->index = calloc(fo->index_cap, sizeof *fo->index);
    if (!fo->index) {
        free(fo);
        return NULL;
    }
    return fo;
}

void rvt_folded_free(rvt_folded *fo)
{
    if (!fo)
        return;
    free(fo->ents);
    free(fo->index);
    free(fo->pool);
    free(fo);
}

static const char *leaf_name(rvt_folded *fo, uint64_t pc)
{
    size_t k = (pc >> 1) & (FO_SYM_CACHE - 1);
    if (fo->cache[k].name && fo->cache[k].pc == pc)
        return fo->cache[k].name;
    const char *n = fo->img ? rvt_image_symbol(fo->img, pc, NULL) : NULL;
    fo->cache[k].pc = pc;
    fo->cache[k].name = n ? n : fo_unknown;
    return fo->cache[k].name;
}

static unsigned named_depth(const rvt_folded *fo)
{
    return fo->depth < FO_MAX_DEPTH ? (unsigned)fo->depth : FO_MAX_DEPTH;
}

static uint64_t stack_hash(const rvt_folded *fo, const char *leaf)
{
    uint64_t h = 1469598103934665603ull;           /* FNV-1a over the pointers */
    unsigned n = named_depth(fo);
    for (unsigned i = 0; i <= n; i++) {
        h ^= (uint64_t)(uintptr_t)(i < n ? fo->stk[i] : leaf);
        h *= 1099511628211ull;
    }
    return h;
}

static bool same_stack(const rvt_folded *fo, const fo_entry *e, const char *leaf)
{
    unsigned n = named_depth(fo);
    if (e->len != n + 1 || fo->pool[e->off + n] != leaf)
        return false;
    return memcmp(&fo->pool[e->off], fo->stk, n * sizeof fo->stk[0]) == 0;
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
    unsigned n = named_depth(fo);
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
    memcpy(&fo->pool[fo->npool], fo->stk, n * sizeof fo->stk[0]);
    fo->pool[fo->npool + n] = leaf;
    fo->ents[fo->nents] = (fo_entry){ h, fo->npool, n + 1, 0 };
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

static void push(rvt_folded *fo, const char *name)
{
    if (fo->depth < FO_MAX_DEPTH)
        fo->stk[fo->depth] = name;
    fo->depth++;
    fo->dirty = true;
}

static void pop(rvt_folded *fo)
{
    if (fo->depth) {
        fo->depth--;
        fo->dirty = true;
    }
}

/* The stack effect of the previous instruction, now that it retired and
 * the next one is known (table 4.4's call/return/swap classes). */
static void apply_pending(rvt_folded *fo)
{
    switch (fo->pending) {
    case RVT_JC_CALL_INF:
    case RVT_JC_CALL_UNINF:
        push(fo, fo->prev_leaf);
        break;
    case RVT_JC_RETURN:
    case RVT_JC_XRET:
        pop(fo);
        break;
    case RVT_JC_SWAP:
        pop(fo);
        push(fo, fo->prev_leaf);
        break;
    default:
        break;
    }
    fo->pending = RVT_JC_NONE;
}

static void insn(rvt_folded *fo, uint64_t pc)
{
    if (fo->have_prev)
        apply_pending(fo);
    const char *leaf = leaf_name(fo, pc);
    if (fo->dirty || leaf != fo->prev_leaf || fo->cur == SIZE_MAX) {
        fo->cur = lookup(fo, leaf);
        fo->dirty = false;
    }
    if (fo->cur != SIZE_MAX)
        fo->ents[fo->cur].count++;
    if (fo->depth > fo->max_depth)
        fo->max_depth = fo->depth;
    if (fo->depth > FO_MAX_DEPTH)
        fo->deep_insns++;
    const rvt_insn *i = fo->img ? rvt_image_insn(fo->img, pc) : NULL;
    fo->pending = i ? i->jclass : RVT_JC_NONE;
    fo->prev_leaf = leaf;
    fo->have_prev = true;
}

void rvt_folded_event(rvt_folded *fo, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_INSN:
        insn(fo, ev->pc);
        break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        if (fo->have_prev) {
            apply_pending(fo);
            push(fo, fo->prev_leaf);
        }
        break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:       /* what runs until the restart is not traced */
        fo->depth = 0;
        fo->have_prev = false;
        fo->pending = RVT_JC_NONE;
        fo->dirty = true;
        break;
    default:
        break;
    }
}

void rvt_folded_write(const rvt_folded *fo, FILE *f)
{
    for (size_t i = 0; i < fo->nents; i++) {
        const fo_entry *e = &fo->ents[i];
        if (!e->count)
            continue;
        for (uint32_t k = 0; k < e->len; k++) {
            if (k)
                fputc(';', f);
            fputs(fo->pool[e->off + k], f);
        }
        fprintf(f, " %llu\n", (unsigned long long)e->count);
    }
    /* Deeper stacks were merged into their outermost frames: say so in a
     * comment line, which flame-graph tools skip as a malformed line. */
    if (fo->deep_insns)
        fprintf(f, "# rvtrace: %llu instructions ran deeper than %u frames (deepest %llu); "
                "their stacks keep the %u outermost frames and the leaf\n",
                (unsigned long long)fo->deep_insns, FO_MAX_DEPTH, (unsigned long long)fo->max_depth,
                FO_MAX_DEPTH);
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

static void folded_finish(void *state)
{
    fo_out *o = state;
    rvt_folded_write(o->fo, o->f);
    rvt_folded_free(o->fo);
    free(o);
}

const rvt_out_writer rvt_out_folded_writer = {
    .name = "folded", .needs_image = true,
    .open = folded_open, .event = folded_event, .finish = folded_finish,
};
