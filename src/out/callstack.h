/* The call stack a decoded flow implies, shared by the writers that need
 * it (folded stacks, profile, timeline).  It follows the link-register
 * convention the trace encoders use (E-Trace 4.1.1, tables 4.4/4.5; N-Trace
 * follows it for implicit return): a call pushes the caller's function, a
 * return pops it, a co-routine swap does both; a trap pushes the
 * interrupted function and the xret pops it.  A loss, decode error or stop
 * forgets the stack: continuity is unknown there. */
#ifndef RVT_OUT_CALLSTACK_H
#define RVT_OUT_CALLSTACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/flow.h"
#include "rvtrace/out.h"
#include "image/image_gen.h"

#define RVT_CS_MAX_DEPTH 1024u      /* frames named; deeper calls are only counted */
#define RVT_CS_CACHE 4096u          /* pc -> function and jump class, direct mapped */
#define RVT_CS_BLOCKS 1024u         /* block start -> function, last jump class */

/* What the previous instruction did to the stack, seen at the next one. */
enum rvt_cs_effect { RVT_CS_NONE = 0, RVT_CS_CALL, RVT_CS_RETURN, RVT_CS_SWAP };

typedef struct rvt_callstack {
    rvt_image *img;
    const char *stk[RVT_CS_MAX_DEPTH];  /* the callers, outermost first */
    uint64_t depth;             /* frames outstanding (stk holds the outermost) */
    uint64_t max_depth;         /* the deepest stack seen */
    uint8_t pending;            /* rvt_cs_effect the previous instruction will have */
    uint8_t effect;             /* rvt_cs_effect applied before the current insn */
    bool dirty;                 /* the callers changed since the caller last cleared it */
    /* A piece of a trace cut at its index (profile_piece.c, issue #18):
     * while rel, stk holds only the frames pushed since the piece began,
     * above the unknown frames of the stack it began with; a return at
     * depth 0 pops one of those (under counts them) and max_rel is the
     * highest depth - under reached.  A reset makes the stack known. */
    bool rel;
    uint64_t under;
    int64_t max_rel;
    const char *leaf;           /* function of the current instruction; NULL
                                   before the first one and after a reset */
    uint64_t leaf_lo, leaf_hi;  /* [lo, hi): addresses of leaf's function when
                                   rvt_cs_block named it, else empty */
    const uint64_t *img_gen;    /* img's generation (image/image_gen.h) */
    uint64_t gen;               /* its value when cache and blk were filled in */
    /* What each instruction needs, looked up once per pc: the function
     * symbol (a binary search) and the jump class (the image's decode). */
    struct { uint64_t pc; const char *name; uint8_t effect; } cache[RVT_CS_CACHE];
    /* The same per block (rvt_cs_block): its function when all of it lies
     * in one (NULL: it crosses a symbol), its last instruction's effect. */
    struct rvt_cs_blk {
        uint64_t start, end;
        uint64_t lo, hi;        /* the span of name's function (rvt_image_symbol_span) */
        const char *name;
        uint8_t effect;
    } blk[RVT_CS_BLOCKS];
} rvt_callstack;

/* "[unknown]": the function name of a pc no symbol covers. */
extern const char rvt_cs_unknown[];
/* The function name of pc in img as the stack names it (a symbol, or
 * rvt_cs_unknown). */
const char *rvt_cs_name_at(const rvt_image *img, uint64_t pc);

void rvt_cs_init(rvt_callstack *cs, rvt_image *img);
/* Internal to rvt_cs_sync: cache and blk emptied, the leaf's span too. */
void rvt_cs_forget_code(rvt_callstack *cs);
/* Drops what cs looked up in its image's code when that code changed
 * since (rvt_image_generation; docs/api.md "Code that changes": a call
 * rewritten into a jump, a function's lengths moved).  What the stack
 * holds stays: those instructions retired as they were.  Called once per
 * call of a writer's entry (a batch: the code cannot change inside one)
 * and when a writer switches to another hart's stack, not per
 * instruction. */
static inline void rvt_cs_sync(rvt_callstack *cs)
{
    if (__builtin_expect(*cs->img_gen != cs->gen, 0))
        rvt_cs_forget_code(cs);
}
/* Internal to rvt_cs_insn: the previous instruction's effect; the cache
 * line k filled for pc. */
void rvt_cs_apply(rvt_callstack *cs);
void rvt_cs_fill(rvt_callstack *cs, size_t k, uint64_t pc);

/* An instruction retired at pc: applies the previous one's effect (in
 * cs->effect), then makes pc's function the leaf; returns it.  Inline:
 * every writer that follows the stack calls it per instruction. */
static inline const char *rvt_cs_insn(rvt_callstack *cs, uint64_t pc)
{
    cs->effect = RVT_CS_NONE;
    if (cs->pending != RVT_CS_NONE)
        rvt_cs_apply(cs);
    size_t k = (pc >> 1) & (RVT_CS_CACHE - 1);
    if (cs->cache[k].pc != pc || !cs->cache[k].name)
        rvt_cs_fill(cs, k, pc);
    cs->pending = cs->cache[k].effect;
    cs->leaf = cs->cache[k].name;
    cs->leaf_lo = cs->leaf_hi = 0;
    return cs->leaf;
}
/* Internal to rvt_cs_block: the entry e filled for the block start..end. */
void rvt_cs_blk_fill(rvt_callstack *cs, struct rvt_cs_blk *e, uint64_t start, uint64_t end);

/* A block of instructions from start to end of which only the last may
 * transfer control (rvt_block, rvtrace/flow.h): when all of it lies in
 * one function, the stack as after rvt_cs_insn for each of them, in one
 * step (issue #17: per block, not per instruction: the ones before the
 * last neither change the function nor the stack); returns the leaf, with
 * cs->effect the effect applied before the first one.  NULL, nothing
 * changed, when the block crosses a function symbol (the caller takes
 * its instructions one by one). */
static inline const char *rvt_cs_block(rvt_callstack *cs, uint64_t start, uint64_t end)
{
    struct rvt_cs_blk *e = &cs->blk[(start >> 1) & (RVT_CS_BLOCKS - 1)];
    if (e->start != start || e->end != end)    /* (an empty entry is a crossing 0..0) */
        rvt_cs_blk_fill(cs, e, start, end);
    if (!e->name)
        return NULL;
    cs->effect = RVT_CS_NONE;
    if (cs->pending != RVT_CS_NONE)
        rvt_cs_apply(cs);
    cs->pending = e->effect;
    cs->leaf = e->name;
    cs->leaf_lo = e->lo;
    cs->leaf_hi = e->hi;
    return e->name;
}
/* The callers changed (or may have): the caller finds its entry again
 * (dirty), and no block counts as staying in the leaf until rvt_cs_block
 * names it again (the span emptied). */
static inline void rvt_cs_changed(rvt_callstack *cs)
{
    cs->dirty = true;
    cs->leaf_lo = cs->leaf_hi = 0;
}
/* Whether block b lies in [lo, lo + w) (the leaf's function: leaf_lo,
 * leaf_hi) and ends in a conditional branch (no stack effect, whatever
 * the protocol's call rules). */
static inline bool rvt_cs_block_in(const rvt_block *b, uint64_t lo, uint64_t w)
{
    return b->start_pc - lo < w && b->end_pc - lo < w &&
           (b->end == RVT_BLK_BRANCH_TAKEN || b->end == RVT_BLK_BRANCH_NOT_TAKEN);
}
/* Whether block b leaves the stack as it is: it ends in a conditional
 * branch, lies in the current leaf's function, the instruction before it
 * had no effect, and the callers have not changed since rvt_cs_block
 * named the leaf (rvt_cs_changed empties the span: no separate test of
 * dirty, whose load next to the byte just stored in pending would wait
 * on it).  rvt_cs_block would then only clear cs->effect, as this does:
 * a writer counts b's instructions in its current entry and looks up
 * nothing (issue #17: most blocks of a loop stay in their function). */
static inline bool rvt_cs_block_stays(rvt_callstack *cs, const rvt_block *b)
{
    if (cs->pending != RVT_CS_NONE || !rvt_cs_block_in(b, cs->leaf_lo, cs->leaf_hi - cs->leaf_lo))
        return false;
    cs->effect = RVT_CS_NONE;
    return true;
}
/* rvt_cs_block_stays for b[0], b[1], ... in turn, as long as each stays
 * and is source src's (and runs in privilege priv, unless priv < 0):
 * how many did, their instructions added to *insns.  The writers' batch
 * loops take a loop's blocks so, the span and the counter in registers
 * (issue #17: a few instructions per block where the per-block checks
 * reloaded the stack's fields after every counter store). */
static inline size_t rvt_cs_blocks_stay(rvt_callstack *cs, const rvt_block *b, size_t n, uint16_t src,
                                        int priv, uint64_t *insns)
{
    if (cs->pending != RVT_CS_NONE)
        return 0;
    uint64_t lo = cs->leaf_lo, w = cs->leaf_hi - lo, sum = 0;
    size_t k = 0;
    while (k < n && b[k].src == src && (priv < 0 || b[k].priv == priv) && rvt_cs_block_in(&b[k], lo, w))
        sum += b[k++].ninsn;
    if (k)
        cs->effect = RVT_CS_NONE;
    *insns += sum;
    return k;
}
/* A trap or interrupt: the interrupted function becomes a caller. */
void rvt_cs_trap(rvt_callstack *cs);
/* Continuity lost (loss, error, stop): the stack is forgotten. */
void rvt_cs_reset(rvt_callstack *cs);
/* The named frames: min(depth, RVT_CS_MAX_DEPTH). */
static inline unsigned rvt_cs_named(const rvt_callstack *cs)
{
    return cs->depth < RVT_CS_MAX_DEPTH ? (unsigned)cs->depth : RVT_CS_MAX_DEPTH;
}
/* Feed one flow event (INSN, TRAP/INTERRUPT, LOST/ERROR/STOP); true for
 * an instruction. */
bool rvt_cs_event(rvt_callstack *cs, const rvt_flow_event *ev);

#endif
