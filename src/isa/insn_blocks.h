/* The decoded-instruction and straight-line-block cache both flow decoders
 * (E-Trace and N-Trace) walk programs through.  A trace decoder retires
 * most instructions inside straight-line runs that no packet or message
 * mentions; caching each run once as a block lets it retire them in one
 * step (counts, lengths, the final control transfer) instead of asking
 * about every instruction.  Include as "isa/insn_blocks.h". */
#ifndef RVT_ISA_INSN_BLOCKS_H
#define RVT_ISA_INSN_BLOCKS_H

#include <stdint.h>
#include "rvtrace/isa.h"

/* Slots: 2^CACHE_BITS instructions, 2^BLOCK_BITS blocks (the fuzz build
 * shrinks them, fuzz/CMakeLists.txt; behaviour is the same at any size). */
#ifndef RVT_IBLK_CACHE_BITS
#define RVT_IBLK_CACHE_BITS 16
#endif
#ifndef RVT_IBLK_BLOCK_BITS
#define RVT_IBLK_BLOCK_BITS 12
#endif
#define RVT_IBLK_MAX 32          /* instructions per block (bits of lens) */

/* Instruction lookup: the decoded instruction at pc or NULL (the shape
 * of rvt_te_insn_fn and rvt_nt_insn_fn). */
typedef const rvt_insn *(*rvt_iblk_insn_fn)(void *ctx, uint64_t pc);

/* A straight-line run from pc: instructions that transfer no control,
 * ended by the first that may (a jclass, ecall, ebreak, an illegal
 * encoding, fence.i, a 6/8-byte instruction), by the RVT_IBLK_MAX-th
 * instruction, or by missing code after it.  n = 0: no code at pc.
 * Every instruction but the last is 2 or 4 bytes and moves to pc + len. */
/* Slots are keyed by pc and address space (mem.h: a decoder switching
 * between spaces keeps every space's entries, and two spaces' code at one
 * address sits in two slots).  Space number s (0-based; n = s + 1, 1..127)
 * gives
 *     key  = n << 57 | hash << 1 | 1,  hash = (n * ODD) mod 2^56
 *     tag  = pc ^ key                  slot = (tag >> 1) mod 2^BITS
 * so the slot is the tag's bits 1..BITS: pc's, XOR the space's hash.  One
 * XOR (with the key, loaded once) gives both, as many instructions as a
 * lookup keyed by pc alone: the space costs the hot path nothing.  Two
 * (pc, space) pairs with one tag (and so one slot) differ in pc by
 * key1 ^ key2, whose bits 57..63 are n1 ^ n2, not 0: pcs that agree in
 * bits 57..63 never do.  Those are all pcs with code: every RV32 address,
 * and every RV64 one that is canonical under Sv39/48/57 (bits 63..57 copy
 * bit 56) or below 2^56 (a physical address, bare mode); an instruction
 * fetch elsewhere faults (Privileged 12.x: the upper bits must all equal
 * the top virtual address bit), so no trace executes code there.  So a
 * tag in its slot names one pc in one space.  No even pc makes tag 0
 * (bit 0 is set), so all-zero memory, and a flushed slot (tag 0), is
 * empty, and a decoder allocated with calloc needs no pass over the 1.2 MB
 * of tables (its pages stay untouched until used).  (The odd pc key
 * itself would meet an empty slot: odd pcs are never code.) */
#define RVT_IBLK_SPACE_SHIFT 57
/* Space numbers a cache tells apart at once (0 .. RVT_IBLK_SPACES - 1):
 * n = s + 1 fills bits 57..63. */
#define RVT_IBLK_SPACES ((1u << (64 - RVT_IBLK_SPACE_SHIFT)) - 1u)
#define RVT_IBLK_EMPTY 0u

typedef struct rvt_iblock {
    uint64_t tag;                /* rvt_iblk_tag(start pc) */
    const rvt_insn *last;        /* the block's final instruction */
    const rvt_insn *prev;        /* the one before it (NULL if n <= 1) */
    /* The blocks that follow it (rvt_iblk_succ): [RVT_IBLK_FALL] at the
     * address after the last instruction, [RVT_IBLK_TAKEN] at its fixed
     * target (a direct branch or an inferable jump).  Filled on first use,
     * cleared when the slot is refilled, and trusted only while the slot
     * pointed to still holds the block at that address in the current
     * space (its tag), so a flush, a refill of that slot by other code
     * (self-modifying code, a collision) or a space switch never follows
     * a stale pointer. */
    struct rvt_iblock *succ[2];
    /* What a walk needs of the last instruction, copied here so that a
     * run of blocks reads the block slots alone (a pointer hop into the
     * image's decoded instructions per block was the walk's longest
     * dependency chain).  Meaningful when n >= 1. */
    uint64_t last_pc;            /* its address (rvt_iblk_last_pc) */
    uint64_t to[2];              /* [RVT_IBLK_FALL] the address after it;
                                    [RVT_IBLK_TAKEN] its fixed target: a
                                    branch's or jal's pc + imm, else 0 */
    uint32_t lens;               /* bit k: instruction k is 4 bytes, else 2 */
    uint32_t hw;                 /* half-words of the whole block */
    uint32_t n;
    uint8_t jclass;              /* its rvt_jclass */
    uint8_t illegal;             /* it is an illegal encoding (traps) */
    uint8_t chains;              /* RVT_IBLK_CHAIN_*: one test for a walk
                                    taking a run of blocks one a step */
} rvt_iblock;

/* rvt_iblock.chains: the block does not wrap and its last instruction is
 * a branch (BRANCH), or a direct jump that links no return address
 * (JUMP: jal x0 and other non-call jal: to[RVT_IBLK_TAKEN] always);
 * else 0. */
enum { RVT_IBLK_CHAIN_BRANCH = 1, RVT_IBLK_CHAIN_JUMP = 2 };

enum { RVT_IBLK_FALL = 0, RVT_IBLK_TAKEN = 1 };

typedef struct rvt_iblk_ent {
    uint64_t tag;                /* rvt_iblk_tag(pc) */
    const rvt_insn *ins;
} rvt_iblk_ent;

/* Both direct-mapped on pc; embedded in a decoder allocated zeroed,
 * initialised by rvt_iblk_init.  Pointers handed out stay readable until the owner is
 * freed (a flush only marks slots empty). */
typedef struct rvt_iblocks {
    rvt_iblk_insn_fn insn;
    void *ctx;
    uint64_t xmask;              /* pc wrap inside a block */
    uint64_t space_key;          /* the current space's key, XORed into tags */
    uint64_t flushes;            /* whole-cache flushes (code changed, or
                                    more spaces than RVT_IBLK_SPACES) */
    rvt_iblk_ent cache[1u << RVT_IBLK_CACHE_BITS];
    rvt_iblock blocks[1u << RVT_IBLK_BLOCK_BITS];
} rvt_iblocks;

/* c must be zeroed memory (calloc): that is the empty cache. */
void rvt_iblk_init(rvt_iblocks *c, rvt_iblk_insn_fn insn, void *ctx, uint64_t xmask);
/* Forget everything (the image changed: self-modifying code, 11.4). */
void rvt_iblk_flush(rvt_iblocks *c);
/* Look up in address space number space (< RVT_IBLK_SPACES) from now on;
 * entries of the other numbers stay cached. */
void rvt_iblk_set_space(rvt_iblocks *c, unsigned space);
/* The miss paths of the two lookups below. */
const rvt_insn *rvt_iblk_insn_miss(rvt_iblocks *c, uint64_t pc);
const rvt_iblock *rvt_iblk_block_miss(rvt_iblocks *c, uint64_t pc);

static inline uint64_t rvt_iblk_tag(const rvt_iblocks *c, uint64_t pc)
{
    return pc ^ c->space_key;
}
/* The slot of a tag (rvt_iblk_tag) in a table of 2^bits. */
static inline size_t rvt_iblk_slot(uint64_t tag, unsigned bits)
{
    return (size_t)((tag >> 1) & ((1u << bits) - 1));
}

/* The instruction at pc (NULL: no code; misses are not cached). */
static inline const rvt_insn *rvt_iblk_insn(rvt_iblocks *c, uint64_t pc)
{
    uint64_t t = rvt_iblk_tag(c, pc);
    const rvt_iblk_ent *e = &c->cache[rvt_iblk_slot(t, RVT_IBLK_CACHE_BITS)];
    return e->tag == t ? e->ins : rvt_iblk_insn_miss(c, pc);
}

/* The block starting at pc. */
static inline const rvt_iblock *rvt_iblk_block(rvt_iblocks *c, uint64_t pc)
{
    uint64_t t = rvt_iblk_tag(c, pc);
    const rvt_iblock *b = &c->blocks[rvt_iblk_slot(t, RVT_IBLK_BLOCK_BITS)];
    return b->tag == t ? b : rvt_iblk_block_miss(c, pc);
}

/* The block at pc, where control goes from block b along edge k
 * (RVT_IBLK_FALL or RVT_IBLK_TAKEN): b's successor pointer when its slot
 * still holds that block (one compare, no hash), else a lookup that sets
 * the pointer.  Only a fixed edge may be asked this way: the fall-through
 * address, or the target the last instruction's encoding gives (not a
 * return's or an indirect jump's, which change from one visit to the
 * next, and would only thrash the pointer). */
static inline const rvt_iblock *rvt_iblk_succ(rvt_iblocks *c, const rvt_iblock *b, unsigned k,
                                              uint64_t pc)
{
    const rvt_iblock *s = b->succ[k];
    if (s && s->tag == rvt_iblk_tag(c, pc))
        return s;
    s = rvt_iblk_block(c, pc);
    /* the pointers are the cache's own bookkeeping: b is one of its slots */
    ((rvt_iblock *)b)->succ[k] = (rvt_iblock *)s;
    return s;
}

/* rvt_iblk_succ with the current space's key given: a walk that holds
 * it in a register compares the successor's tag without loading it from
 * c (a store into the walk's output may alias c, and the compiler
 * reloaded it every block). */
static inline const rvt_iblock *rvt_iblk_succ_keyed(rvt_iblocks *c, const rvt_iblock *b, unsigned k,
                                                    uint64_t pc, uint64_t key)
{
    const rvt_iblock *s = b->succ[k];
    return s && s->tag == (pc ^ key) ? s : rvt_iblk_succ(c, b, k, pc);
}

/* Address of the block's last instruction (b->n >= 1, starting at pc). */
static inline uint64_t rvt_iblk_last_pc(const rvt_iblocks *c, const rvt_iblock *b, uint64_t pc)
{
    return (pc + 2ull * b->hw - b->last->len) & c->xmask;
}

#endif
