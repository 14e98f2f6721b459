/* Fill paths of the shared instruction/block cache (isa/insn_blocks.h). */
#include <string.h>
#include "isa/insn_blocks.h"

void rvt_iblk_init(rvt_iblocks *c, rvt_iblk_insn_fn insn, void *ctx, uint64_t xmask)
{
    c->insn = insn;
    c->ctx = ctx;
    c->xmask = xmask;
    rvt_iblk_set_space(c, 0);
}

void rvt_iblk_set_space(rvt_iblocks *c, unsigned space)
{
    uint64_t n = space % RVT_IBLK_SPACES + 1u;
    uint64_t hash = (n * 0x9E3779B97F4A7C15ull) & ((1ull << 56) - 1);   /* ODD: 2^64 / phi */
    c->space_key = n << RVT_IBLK_SPACE_SHIFT | hash << 1 | 1u;
}

/* Flushing only retags blocks (to RVT_IBLK_EMPTY): a walk holding a block
 * (an event callback may flush, 11.4) still reads what it held. */
void rvt_iblk_flush(rvt_iblocks *c)
{
    for (size_t i = 0; i < (1u << RVT_IBLK_CACHE_BITS); i++)
        c->cache[i].tag = RVT_IBLK_EMPTY;
    for (size_t i = 0; i < (1u << RVT_IBLK_BLOCK_BITS); i++)
        c->blocks[i].tag = RVT_IBLK_EMPTY;
    c->flushes++;
}

/* Misses (no code) are not cached; an odd pc is never code. */
const rvt_insn *rvt_iblk_insn_miss(rvt_iblocks *c, uint64_t pc)
{
    uint64_t t = rvt_iblk_tag(c, pc);
    rvt_iblk_ent *e = &c->cache[rvt_iblk_slot(t, RVT_IBLK_CACHE_BITS)];
    e->ins = pc & 1 ? NULL : c->insn(c->ctx, pc);
    e->tag = e->ins ? t : RVT_IBLK_EMPTY;
    return e->ins;
}

/* Anything a decoder must look at on its own: a control transfer, a trap
 * (ecall, ebreak, illegal), fence.i (11.4: it may change the image from
 * an event callback) or a length the lens bitmap cannot hold. */
static bool ends_block(const rvt_insn *i)
{
    return i->jclass != RVT_JC_NONE || i->op == RVT_OP_ECALL || i->op == RVT_OP_EBREAK ||
           i->op == RVT_OP_ILLEGAL || i->op == RVT_OP_FENCE_I || i->len > 4;
}

/* The last instruction's facts a walk reads from the block (n >= 1). */
static void last_facts(const rvt_iblocks *c, rvt_iblock *b, uint64_t pc)
{
    const rvt_insn *i = b->last;
    b->last_pc = rvt_iblk_last_pc(c, b, pc);
    b->to[RVT_IBLK_FALL] = (b->last_pc + i->len) & c->xmask;
    bool fixed = i->jclass == RVT_JC_BRANCH || i->op == RVT_OP_JAL;
    b->to[RVT_IBLK_TAKEN] = fixed ? (b->last_pc + (uint64_t)i->imm) & c->xmask : 0;
    b->jclass = i->jclass;
    b->illegal = i->op == RVT_OP_ILLEGAL;
    bool jump = i->op == RVT_OP_JAL && (i->jclass == RVT_JC_TAIL_INF || i->jclass == RVT_JC_JUMP_INF);
    b->chains = b->last_pc < pc                    ? 0
                : b->jclass == RVT_JC_BRANCH ? RVT_IBLK_CHAIN_BRANCH
                : jump                       ? RVT_IBLK_CHAIN_JUMP
                                             : 0;
}

const rvt_iblock *rvt_iblk_block_miss(rvt_iblocks *c, uint64_t pc)
{
    uint64_t t = rvt_iblk_tag(c, pc);
    rvt_iblock *b = &c->blocks[rvt_iblk_slot(t, RVT_IBLK_BLOCK_BITS)];
    b->tag = t;
    b->n = b->hw = b->lens = 0;
    b->jclass = b->illegal = b->chains = 0;
    b->last = b->prev = NULL;
    b->succ[RVT_IBLK_FALL] = b->succ[RVT_IBLK_TAKEN] = NULL;
    for (uint64_t p = pc; b->n < RVT_IBLK_MAX;) {
        const rvt_insn *i = rvt_iblk_insn(c, p);
        if (!i)
            break;               /* the decoder reports missing code itself */
        b->prev = b->last;
        b->last = i;
        b->lens |= (uint32_t)(i->len == 4) << b->n;
        b->n++;
        b->hw += i->len >> 1;
        if (ends_block(i))
            break;
        p = (p + i->len) & c->xmask;
    }
    if (b->n)
        last_facts(c, b, pc);
    return b;
}
