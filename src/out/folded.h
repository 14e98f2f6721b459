/* Folded call stacks from a decoded flow: "outer;caller;leaf COUNT" lines,
 * the input format of flame-graph tools (flamegraph.pl, inferno, speedscope).
 * COUNT is the number of instructions retired with that stack. */
#ifndef RVT_OUT_FOLDED_H
#define RVT_OUT_FOLDED_H

#include <stdint.h>
#include <stdio.h>
#include "rvtrace/out.h"
#include "out/callstack.h"
#include "out/block_visit.h"


/* The stacks and their counts; the fields are folded.c's (here so the
 * per-instruction path can be inline in the writers built on it). */
typedef struct fo_entry {
    uint64_t hash;
    size_t off;                 /* first name in the pool */
    uint32_t len;               /* names: callers then the leaf */
    uint64_t count;             /* instructions retired with this stack */
    uint64_t cycles;            /* time (RVT_EV_TIME units) spent with it */
} fo_entry;

/* A piece's entry (rel_harts), beside fo_entry so that one profile's
 * entries stay small. */
typedef struct fo_piece_entry {
    uint64_t base;              /* 0, or the frames below the piece's start
                                   less base - 1 of them (callstack.h rel) */
    uint64_t deep;              /* of count, retired deeper than RVT_CS_MAX_DEPTH */
} fo_piece_entry;

/* One hart's (source's) call stack and where its counts go: each hart
 * keeps its own (issue #17: several harts in one trace interleave), the
 * current one's run state lives in rvt_folded while it runs. */
typedef struct fo_hart {
    rvt_callstack cs;
    uint16_t src;
    const char *prev_leaf;
    size_t cur;
    bool deep, have_time;
    uint64_t time;
} fo_hart;

typedef struct rvt_folded {
    rvt_callstack *cs;          /* the current hart's (harts[hart]) */
    uint16_t src;               /* the current hart's source id */
    fo_hart **harts;            /* every hart seen, in order */
    size_t nharts, hart_cap, hart;
    uint64_t deep_insns;        /* instructions retired deeper than RVT_CS_MAX_DEPTH */
    const char *prev_leaf;
    size_t cur;                 /* entry of the current stack, or SIZE_MAX */
    /* Counts go to the entry a run at a time: the instructions retired
     * since the stack last changed are added when it changes again (one
     * counter per instruction, not an entry update). */
    uint64_t n;                 /* instructions retired */
    uint64_t run_start;         /* n when cur was chosen */
    bool deep;                  /* the current stack is deeper than named */
    bool have_time;
    uint64_t time;              /* the last RVT_EV_TIME */
    fo_entry *ents;
    size_t nents, cap;
    uint32_t *index;            /* open addressing: entry + 1, 0 = free */
    size_t index_cap;           /* power of two, > 2 * nents */
    const char **pool;
    size_t npool, pool_cap;
    bool rel_harts;             /* a piece's: every hart's stack starts unknown */
    fo_piece_entry *pents;      /* then: per entry, beside ents */
    size_t pcap;
} rvt_folded;

rvt_folded *rvt_folded_new(rvt_image *img);
void rvt_folded_event(rvt_folded *fo, const rvt_flow_event *ev);
/* Internal to rvt_folded_src: make src's stack the current one. */
void rvt_folded_switch(rvt_folded *fo, uint16_t src);
/* The events and blocks that follow are source src's (N-Trace SRC,
 * encapsulation srcID): its own call stack.  rvt_folded_event and
 * rvt_folded_block call it; callers of rvt_folded_insn call it first. */
static inline void rvt_folded_src(rvt_folded *fo, uint16_t src)
{
    if (src != fo->src)
        rvt_folded_switch(fo, src);
}
/* Internal to rvt_folded_insn: count the run, find the entry of the
 * changed stack. */
void rvt_folded_restack(rvt_folded *fo);
/* The instructions since the stack last changed go to its entry. */
void rvt_folded_end_run(rvt_folded *fo);
/* The entry of the current hart's stack (fo->cs) with this leaf, added
 * when new; SIZE_MAX when out of memory. */
size_t rvt_folded_lookup(rvt_folded *fo, const char *leaf);
/* An instruction retired in leaf, the stack already moved to it
 * (rvt_cs_insn, rvt_cs_block): counted, its entry found when the stack
 * changed. */
static inline void rvt_folded_leaf(rvt_folded *fo, const char *leaf)
{
    if (fo->cs->dirty || leaf != fo->prev_leaf || fo->cur == SIZE_MAX)
        rvt_folded_restack(fo);
    fo->n++;
    fo->prev_leaf = leaf;
}
/* rvt_folded_event for an RVT_EV_INSN at pc: the hot path, inline. */
static inline void rvt_folded_insn(rvt_folded *fo, uint64_t pc)
{
    rvt_folded_leaf(fo, rvt_cs_insn(fo->cs, pc));
}
/* b on the current hart leaving the function and the stack as they are
 * (rvt_cs_block_stays), the stack's entry known: counted in that entry,
 * true; else false, nothing done (rvt_folded_block does the rest). */
static inline bool rvt_folded_block_stays(rvt_folded *fo, const struct rvt_block *b)
{
    if (b->src != fo->src || fo->prev_leaf != fo->cs->leaf || fo->cur == SIZE_MAX ||
        !rvt_cs_block_stays(fo->cs, b))
        return false;
    fo->n += b->ninsn;
    return true;
}
/* rvt_folded_block_stays for b[0], b[1], ... in turn, as long as each
 * stays (and runs in privilege priv, unless priv < 0): how many did,
 * counted (rvt_cs_blocks_stay: a loop's blocks a run at a time). */
static inline size_t rvt_folded_blocks_stay(rvt_folded *fo, const struct rvt_block *b, size_t n, int priv)
{
    if (fo->prev_leaf != fo->cs->leaf || fo->cur == SIZE_MAX)
        return 0;
    return rvt_cs_blocks_stay(fo->cs, b, n, fo->src, priv, &fo->n);
}
/* rvt_folded_block's visitor (block_visit.h). */
typedef struct rvt_fo_visit {
    rvt_folded *fo;
    void (*each)(void *ctx, uint64_t pc);
    void *ctx;
} rvt_fo_visit;

/* A block in one function (rvt_cs_block gave its leaf): its first
 * instruction counted and given to each, the rest counted in one step
 * (same leaf, no stack effect). */
static inline void rvt_folded_block_in(rvt_folded *fo, const char *leaf, const struct rvt_block *b,
                                       void (*each)(void *ctx, uint64_t pc), void *ctx)
{
    rvt_folded_leaf(fo, leaf);
    if (each)
        each(ctx, b->start_pc);
    fo->n += b->ninsn - 1;
}

static inline void rvt_fo_visit_block(void *ctx, const char *leaf, const struct rvt_block *b)
{
    rvt_fo_visit *w = ctx;
    rvt_folded_block_in(w->fo, leaf, b, w->each, w->ctx);
}

static inline void rvt_fo_visit_insn(void *ctx, uint64_t pc)
{
    rvt_fo_visit *w = ctx;
    rvt_folded_insn(w->fo, pc);
    if (w->each)
        w->each(w->ctx, pc);
}

/* A block's instructions (out.h rvt_out_writer.block), as
 * rvt_folded_insn for each; each(ctx, pc) (may be NULL) is called after
 * the first and any other instruction that may change the function or
 * the stack.  When the block lies in one function (only its last
 * instruction transfers control) that is the first alone, the others
 * counted in one step (rvt_cs_block); else every one.  Inline: once per
 * block, each called directly.  The caller's entry has synced the
 * current stack with the code (rvt_cs_sync), once for its batch. */
static inline void rvt_folded_block(rvt_folded *fo, const struct rvt_block *b,
                                    void (*each)(void *ctx, uint64_t pc), void *ctx)
{
    if (!each && rvt_folded_block_stays(fo, b))     /* (a hook sees every block) */
        return;
    rvt_folded_src(fo, b->src);
    /* the one-function case here, not through the visitor: each is then
     * this call's argument, which the compiler calls directly (through
     * the visitor's context it stayed an indirect call per block) */
    const char *leaf = rvt_cs_block(fo->cs, b->start_pc, b->end_pc);
    if (leaf) {
        rvt_folded_block_in(fo, leaf, b, each, ctx);
        return;
    }
    rvt_fo_visit w = { fo, each, ctx };
    rvt_block_visit_each(b, fo->cs, (rvt_block_visitor){ rvt_fo_visit_block, rvt_fo_visit_insn, &w });
}
/* rvt_folded_block of b[0..n) in order, with no hook, in one call (the
 * stack writers' rvt_out_writer.blocks, issue #17, and with n = 1 their
 * block), after rvt_cs_sync; their instructions. */
uint64_t rvt_folded_blocks(rvt_folded *fo, const struct rvt_block *b, size_t n);
/* Every distinct stack, in the order first seen; then, when calls went
 * deeper than the 1,024 frames kept, a final "# rvtrace: ..." line with
 * how many instructions ran deeper and the deepest stack. */
void rvt_folded_write(rvt_folded *fo, FILE *f);
void rvt_folded_free(rvt_folded *fo);
/* One distinct stack: names[0..n) outermost first, the leaf last; the
 * instructions retired and the time (RVT_EV_TIME units, e.g. cycles)
 * spent with it. */
typedef void (*rvt_folded_fn)(void *ctx, const char *const *names, uint32_t n, uint64_t insns,
                              uint64_t cycles);
/* Every stack with instructions or time, in the order first seen. */
void rvt_folded_each(rvt_folded *fo, rvt_folded_fn fn, void *ctx);

#endif
