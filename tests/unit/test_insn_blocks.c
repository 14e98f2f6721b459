/* The instruction/block cache both flow decoders share (src/isa/
 * insn_blocks.h): block boundaries, counts and lens bitmaps derived by
 * hand from the instruction lengths below, lookups cached once, odd and
 * missing pcs, the 32-instruction cap, a flush that keeps blocks
 * already handed out readable, and which blocks a walk may chain. */
#include "isa/insn_blocks.h"
#include "tharness.h"

#define BASE 0x1000u
#define CAP_BASE 0x2000u

/* Encodings (RISC-V unprivileged spec, RV32I/RV64I base and C):
 * addi a0,a0,1 = imm 1 | rs1 10 | funct3 0 | rd 10 | 0x13 = 0x00150513;
 * c.addi a0,1  = 000 0 01010 00001 01 = 0x0505;
 * c.nop        = 0x0001;
 * beq a0,a1,8  = imm[4:1]=0100 at bits 11:8 | rs2 11 | rs1 10 | 0x63 = 0x00b50463;
 * ecall        = 0x00000073;  fence.i = funct3 1 | MISC-MEM 0x0f = 0x0000100f. */
static const uint8_t code[] = {
    0x13, 0x05, 0x15, 0x00,   /* 00 addi a0,a0,1   4 bytes */
    0x05, 0x05,               /* 04 c.addi a0,1    2 */
    0x01, 0x00,               /* 06 c.nop          2 */
    0x63, 0x04, 0xb5, 0x00,   /* 08 beq a0,a1,8    4: ends the block at 00 and 04 */
    0x73, 0x00, 0x00, 0x00,   /* 0c ecall          4: a block by itself */
    0x13, 0x05, 0x15, 0x00,   /* 10 addi           4 */
    0x0f, 0x10, 0x00, 0x00,   /* 14 fence.i        4: ends the block at 10 */
    0x13, 0x05, 0x15, 0x00,   /* 18 addi           4: no code after it */
};

/* Jumps (rvt_iblock.chains), at JUMP_BASE: jal rd, 8 = imm[10:1] = 4 at
 * bits 30:21 | rd << 7 | 0x6f; jalr x0, 0(x1) = rs1 1 << 15 | 0x67. */
#define JUMP_BASE 0x6000u
static const uint32_t jumps[] = {
    0x00150513,               /* 00 addi a0,a0,1 */
    0x0080006f,               /* 04 jal x0, 8: a jump (TAIL_INF) */
    0x008000ef,               /* 08 jal x1, 8: a call */
    0x008001ef,               /* 0c jal x3, 8: a jump linking x3 (JUMP_INF) */
    0x00008067,               /* 10 jalr x0, 0(x1): a return */
};
/* A block that wraps: addi at 2^64 - 4, beq a0,a1,8 at 0 (only when
 * `wrapping`: the tests below ask pcs near 0 for no code). */
#define WRAP_TOP 0xfffffffffffffffcull
static bool wrapping;

static rvt_insn slots[0x2000];
static rvt_insn jump_slots[8];
static unsigned calls;
static rvt_iblocks cache;
/* Self-modifying code: the ecall at 0c is rewritten as addi a0,a0,1. */
static bool patched;

static const rvt_insn *decoded(rvt_insn *s, uint32_t raw)
{
    return rvt_isa_decode(raw, 64, s) < 0 ? NULL : s;
}

/* Lookup over code[] at BASE and 40 c.nop at CAP_BASE. */
static const rvt_insn *lookup(void *ctx, uint64_t pc)
{
    (void)ctx;
    calls++;
    uint32_t raw;
    if (pc >= BASE && pc < BASE + sizeof code) {
        size_t o = (size_t)(pc - BASE);
        raw = code[o] | (uint32_t)code[o + 1] << 8;
        if (o + 3 < sizeof code)
            raw |= (uint32_t)code[o + 2] << 16 | (uint32_t)code[o + 3] << 24;
        if (patched && o == 0x0c)
            raw = 0x00150513;
    } else if (pc >= CAP_BASE && pc < CAP_BASE + 80) {
        raw = 0x0001;
    } else if (pc >= JUMP_BASE && pc < JUMP_BASE + sizeof jumps && !(pc & 3)) {
        return decoded(&jump_slots[(pc - JUMP_BASE) / 4], jumps[(pc - JUMP_BASE) / 4]);
    } else if (wrapping && (pc == WRAP_TOP || pc == 0)) {
        return decoded(&jump_slots[7 - (pc == 0)], pc ? 0x00150513 : 0x00b50463);
    } else {
        return NULL;
    }
    rvt_insn *s = &slots[(pc - BASE) >> 1];
    if (rvt_isa_decode(raw, 64, s) < 0)
        return NULL;
    return s;
}

static void check_block(uint64_t pc, uint32_t n, uint32_t hw, uint32_t lens, uint64_t last_pc)
{
    const rvt_iblock *b = rvt_iblk_block(&cache, pc);
    CHECK_EQ(b->n, n);
    CHECK_EQ(b->hw, hw);
    CHECK_EQ(b->lens, lens);
    if (n) {
        CHECK_EQ(rvt_iblk_last_pc(&cache, b, pc), last_pc);
        CHECK(b->last == rvt_iblk_insn(&cache, last_pc));
    }
    if (n > 1)
        CHECK(b->prev == rvt_iblk_insn(&cache, last_pc - b->prev->len));
    else
        CHECK(b->prev == NULL);
}

/* Successor pointers (rvt_iblk_succ): the beq at 08 ends the block at 00;
 * it falls through to 0c (the ecall block) and, taken, goes to 08 + 8 =
 * 10.  A pointer is set on first use and followed while its slot holds
 * that block: never across a flush, a patch, an eviction or a space. */
static void successors(void)
{
    rvt_iblk_flush(&cache);
    rvt_iblk_set_space(&cache, 0);
    const rvt_iblock *b = rvt_iblk_block(&cache, BASE);
    CHECK(b->succ[RVT_IBLK_FALL] == NULL);
    CHECK(b->succ[RVT_IBLK_TAKEN] == NULL);
    const rvt_iblock *fall = rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c);
    const rvt_iblock *taken = rvt_iblk_succ(&cache, b, RVT_IBLK_TAKEN, BASE + 0x10);
    CHECK(fall == rvt_iblk_block(&cache, BASE + 0x0c));
    CHECK(taken == rvt_iblk_block(&cache, BASE + 0x10));
    CHECK(b->succ[RVT_IBLK_FALL] == fall);
    CHECK(b->succ[RVT_IBLK_TAKEN] == taken);
    CHECK_EQ(fall->n, 1);            /* ecall */
    CHECK_EQ(taken->n, 2);           /* addi, fence.i */
    /* followed with no callback and no refill */
    calls = 0;
    CHECK(rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c) == fall);
    CHECK_EQ(calls, 0);

    /* Eviction: 0x2000 bytes on, a pc takes the same slot (2^12 blocks of
     * half-word-indexed slots); the pointer is not followed to it. */
    const rvt_iblock *other = rvt_iblk_block(&cache, BASE + 0x0c + 0x2000);
    CHECK(other == fall);            /* the same slot, now other code (none) */
    CHECK_EQ(other->n, 0);
    fall = rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c);
    CHECK_EQ(fall->n, 1);
    CHECK_EQ(fall->last->op, RVT_OP_ECALL);

    /* Self-modifying code: the ecall becomes an addi; after the flush the
     * decoder does (fence.i), the edge leads to the new block at 0c
     * (addi, addi, fence.i), not to what the slot held. */
    patched = true;
    rvt_iblk_flush(&cache);
    b = rvt_iblk_block(&cache, BASE);
    CHECK(b->succ[RVT_IBLK_FALL] == NULL);      /* refilled: cleared */
    fall = rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c);
    CHECK_EQ(fall->n, 3);
    CHECK_EQ(fall->hw, 6);
    CHECK_EQ(fall->last->op, RVT_OP_FENCE_I);
    /* a walk holding the old block (flushed, not refilled) gets the new
     * successor too */
    const rvt_iblock *held = b;
    rvt_iblk_flush(&cache);
    patched = false;
    fall = rvt_iblk_succ(&cache, held, RVT_IBLK_FALL, BASE + 0x0c);
    CHECK_EQ(fall->n, 1);
    CHECK_EQ(fall->last->op, RVT_OP_ECALL);

    /* Address spaces: space 1's block at 00 is another slot, and its
     * successors are space 1's blocks; space 0's pointers stay valid for
     * space 0. */
    b = rvt_iblk_block(&cache, BASE);
    const rvt_iblock *fall0 = rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c);
    rvt_iblk_set_space(&cache, 1);
    const rvt_iblock *b1 = rvt_iblk_block(&cache, BASE);
    CHECK(b1 != b);
    const rvt_iblock *fall1 = rvt_iblk_succ(&cache, b1, RVT_IBLK_FALL, BASE + 0x0c);
    CHECK(fall1 != fall0);
    CHECK(fall1 == rvt_iblk_block(&cache, BASE + 0x0c));
    /* space 0's block asked in space 1: not followed into space 0's slot */
    CHECK(rvt_iblk_succ(&cache, b, RVT_IBLK_FALL, BASE + 0x0c) == fall1);
    rvt_iblk_set_space(&cache, 0);
    CHECK(rvt_iblk_succ(&cache, b1, RVT_IBLK_FALL, BASE + 0x0c) == fall0);
}

/* What a walk's run of blocks may take at once (rvt_iblock.chains): a
 * block ending in a branch, or in a jal that links no return address
 * (x0 or another register than x1/x5), unless it wraps; not a call, a
 * return, a trap, fence.i, or a block cut short. */
static void chains(void)
{
    rvt_iblk_flush(&cache);
    CHECK_EQ(rvt_iblk_block(&cache, BASE)->chains, RVT_IBLK_CHAIN_BRANCH);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x04)->chains, RVT_IBLK_CHAIN_BRANCH);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x0c)->chains, 0);     /* ecall */
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x10)->chains, 0);     /* fence.i */
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x18)->chains, 0);     /* no code after */
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x1c)->chains, 0);     /* no code */
    CHECK_EQ(rvt_iblk_block(&cache, CAP_BASE)->chains, 0);        /* 32 c.nop */
    const rvt_iblock *j = rvt_iblk_block(&cache, JUMP_BASE);
    CHECK_EQ(j->n, 2);
    CHECK_EQ(j->chains, RVT_IBLK_CHAIN_JUMP);
    CHECK_EQ(j->to[RVT_IBLK_TAKEN], JUMP_BASE + 0x04 + 8);
    CHECK_EQ(rvt_iblk_block(&cache, JUMP_BASE + 0x04)->chains, RVT_IBLK_CHAIN_JUMP);
    CHECK_EQ(rvt_iblk_block(&cache, JUMP_BASE + 0x08)->chains, 0);   /* call */
    CHECK_EQ(rvt_iblk_block(&cache, JUMP_BASE + 0x0c)->chains, RVT_IBLK_CHAIN_JUMP);
    CHECK_EQ(rvt_iblk_block(&cache, JUMP_BASE + 0x10)->chains, 0);   /* return */
    wrapping = true;
    rvt_iblk_flush(&cache);
    const rvt_iblock *w = rvt_iblk_block(&cache, WRAP_TOP);
    CHECK_EQ(w->n, 2);
    CHECK_EQ(w->last->jclass, RVT_JC_BRANCH);
    CHECK_EQ(w->chains, 0);
    CHECK_EQ(rvt_iblk_block(&cache, 0)->chains, RVT_IBLK_CHAIN_BRANCH);
    wrapping = false;
    rvt_iblk_flush(&cache);
}

int main(void)
{
    rvt_iblk_init(&cache, lookup, NULL, UINT64_MAX);

    /* Empty slots never hit: every even pc asks the callback. */
    for (uint64_t pc = 0; pc < 64; pc += 2)
        CHECK(rvt_iblk_insn(&cache, pc) == NULL);
    CHECK_EQ(calls, 32);
    /* Odd pcs are never code and never reach the callback. */
    calls = 0;
    CHECK(rvt_iblk_insn(&cache, 1) == NULL);
    CHECK(rvt_iblk_insn(&cache, BASE + 1) == NULL);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 1)->n, 0);
    CHECK_EQ(rvt_iblk_block(&cache, 1)->n, 0);
    CHECK_EQ(calls, 0);

    /* 00: 4 + 2 + 2 + 4 bytes = 6 half-words, lens bits 0 and 3. */
    calls = 0;
    const rvt_iblock *b = rvt_iblk_block(&cache, BASE);
    CHECK_EQ(calls, 4);
    CHECK_EQ(b->last->jclass, RVT_JC_BRANCH);
    CHECK(rvt_iblk_block(&cache, BASE) == b);
    CHECK(rvt_iblk_insn(&cache, BASE + 4) != NULL);
    CHECK_EQ(calls, 4);                       /* all cached now */
    check_block(BASE, 4, 6, 0x9, BASE + 0x08);
    check_block(BASE + 0x04, 3, 4, 0x4, BASE + 0x08);
    check_block(BASE + 0x0c, 1, 2, 0x1, BASE + 0x0c);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x0c)->last->op, RVT_OP_ECALL);
    check_block(BASE + 0x10, 2, 4, 0x3, BASE + 0x14);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x10)->last->op, RVT_OP_FENCE_I);
    /* Missing code ends a block after a plain instruction; none at all: n = 0. */
    check_block(BASE + 0x18, 1, 2, 0x1, BASE + 0x18);
    CHECK_EQ(rvt_iblk_block(&cache, BASE + 0x18)->last->jclass, RVT_JC_NONE);
    check_block(BASE + 0x1c, 0, 0, 0, 0);
    /* 40 c.nop: the first block holds RVT_IBLK_MAX (32) of them. */
    check_block(CAP_BASE, 32, 32, 0, CAP_BASE + 62);
    check_block(CAP_BASE + 64, 8, 8, 0, CAP_BASE + 78);

    /* A flush forgets (the callback is asked again) but what a walk
     * holds stays as it was. */
    b = rvt_iblk_block(&cache, BASE);
    const rvt_insn *last = b->last;
    rvt_iblk_flush(&cache);
    CHECK_EQ(b->n, 4);
    CHECK(b->last == last);
    calls = 0;
    CHECK(rvt_iblk_insn(&cache, BASE) != NULL);
    CHECK_EQ(calls, 1);
    check_block(BASE, 4, 6, 0x9, BASE + 0x08);
    successors();
    chains();
    return TH_DONE();
}
