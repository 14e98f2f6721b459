/* The flow walk's instruction predicates (src/flow/flow_insn.h) on
 * hand-encoded instructions, under the E-Trace rules (11.1 is_*; 4.1.1)
 * and the N-Trace rules (tables 2-4), including the two points where the
 * specifications differ: jalr with rs1 = x0, and the co-routine swap. */
#include "flow/flow_insn.h"
#include "test_isa_enc.h"
#include "tharness.h"

#define JALR_OP 0x67u
#define ET (&rvt_flow_rules_etrace)
#define NT (&rvt_flow_rules_ntrace)

static rvt_insn dec(uint32_t raw)
{
    rvt_insn i;
    memset(&i, 0, sizeof i);
    rvt_isa_decode(raw, 64, &i);
    return i;
}

/* jal ra, +8 (c.jal alike): inferable call for both. */
static void test_jal_call(void)
{
    rvt_insn i = dec(J(8, 1));
    const rvt_flow_rules *rules[] = { ET, NT };
    for (unsigned k = 0; k < 2; k++) {
        const rvt_flow_rules *r = rules[k];
        CHECK(rvt_flow_is_inferable_jump(&i, r));
        CHECK(!rvt_flow_is_uninferable_jump(&i, r));
        CHECK(!rvt_flow_is_uninferable_discon(&i, r));
        CHECK(rvt_flow_is_call(&i, r));
        CHECK(!rvt_flow_is_return(&i, r));
    }
    CHECK(!rvt_flow_is_plain(&i));
    CHECK(!rvt_flow_is_branch(&i));
    CHECK_EQ(rvt_flow_inferable_target(&i, 0x1000), 0x1008);
    rvt_insn t = dec(J(-16, 0));                   /* jal x0, -16: a tail call */
    CHECK(!rvt_flow_is_call(&t, ET) && !rvt_flow_is_call(&t, NT));
    CHECK_EQ(rvt_flow_inferable_target(&t, 0x1000), 0xff0);
}

/* jalr rd, imm(x0): E-Trace 11.1 is_inferable_jump (target imm with bit 0
 * cleared); N-Trace table 2 has no inferable jalr. */
static void test_jalr_x0(void)
{
    rvt_insn i = dec(I(0x101, 0, 0, 1, JALR_OP));  /* jalr ra, 0x101(x0) */
    CHECK(rvt_flow_is_inferable_jump(&i, ET));
    CHECK(!rvt_flow_is_uninferable_jump(&i, ET));
    CHECK(!rvt_flow_is_uninferable_discon(&i, ET));
    CHECK_EQ(rvt_flow_inferable_target(&i, 0x4000), 0x100);
    CHECK(!rvt_flow_is_inferable_jump(&i, NT));
    CHECK(rvt_flow_is_uninferable_jump(&i, NT));
    CHECK(rvt_flow_is_uninferable_discon(&i, NT));
    /* a call either way (4.1.1: jalr x1, rs where rs != x5) */
    CHECK(rvt_flow_is_call(&i, ET) && rvt_flow_is_call(&i, NT));
}

/* jalr x1, x5 / jalr x5, x1 / c.jalr t0: co-routine swaps (4.1.1).
 * N-Trace table 4: Pop, Push.  E-Trace: neither (reported as a jump). */
static void test_swap(void)
{
    uint32_t raws[] = { R(0, 0, 5, 0, 1, JALR_OP), R(0, 0, 1, 0, 5, JALR_OP), 0x9282 };
    for (unsigned k = 0; k < 3; k++) {
        rvt_insn i = dec(raws[k]);
        CHECK_EQ(i.jclass, RVT_JC_SWAP);
        CHECK(rvt_flow_is_call(&i, NT));
        CHECK(rvt_flow_is_return(&i, NT));
        CHECK(!rvt_flow_is_call(&i, ET));
        CHECK(!rvt_flow_is_return(&i, ET));
        CHECK(rvt_flow_is_uninferable_jump(&i, ET) && rvt_flow_is_uninferable_jump(&i, NT));
    }
}

/* Returns: jalr x0, 0(ra), c.jr t0; calls: jalr ra, 0(a0), c.jalr a5. */
static void test_returns_and_calls(void)
{
    uint32_t rets[] = { I(0, 1, 0, 0, JALR_OP), 0x8282 };
    uint32_t calls[] = { I(0, 10, 0, 1, JALR_OP), 0x9782 };
    const rvt_flow_rules *rules[] = { ET, NT };
    for (unsigned r = 0; r < 2; r++) {
        for (unsigned k = 0; k < 2; k++) {
            rvt_insn ret = dec(rets[k]), call = dec(calls[k]);
            CHECK(rvt_flow_is_return(&ret, rules[r]) && !rvt_flow_is_call(&ret, rules[r]));
            CHECK(rvt_flow_is_call(&call, rules[r]) && !rvt_flow_is_return(&call, rules[r]));
            CHECK(rvt_flow_is_uninferable_jump(&ret, rules[r]));
            CHECK(rvt_flow_is_uninferable_jump(&call, rules[r]));
        }
    }
    rvt_insn tail = dec(I(0, 10, 0, 0, JALR_OP));  /* jalr x0, 0(a0) */
    CHECK(!rvt_flow_is_call(&tail, ET) && !rvt_flow_is_return(&tail, ET));
    CHECK(!rvt_flow_is_call(&tail, NT) && !rvt_flow_is_return(&tail, NT));
}

/* Plain, branch and trapping instructions. */
static void test_plain_branch_traps(void)
{
    rvt_insn addi = dec(I(1, 0, 0, 10, 0x13)), beq = dec(BR(8, 0, 0, 0));
    rvt_insn ecall = dec(0x00000073), ebreak = dec(0x00100073), cebreak = dec(0x9002);
    rvt_insn mret = dec(0x30200073), sret = dec(0x10200073), bad = dec(0x00000000);
    CHECK(rvt_flow_is_plain(&addi));
    CHECK(!rvt_flow_is_branch(&addi));
    CHECK(!rvt_flow_is_uninferable_discon(&addi, ET));
    CHECK(rvt_flow_is_branch(&beq));
    CHECK(!rvt_flow_is_plain(&beq));
    CHECK(!rvt_flow_is_inferable_jump(&beq, ET) && !rvt_flow_is_uninferable_discon(&beq, ET));
    const rvt_insn *traps[] = { &ecall, &ebreak, &cebreak, &mret, &sret };
    for (unsigned k = 0; k < 5; k++) {
        CHECK(!rvt_flow_is_plain(traps[k]));
        CHECK(rvt_flow_is_uninferable_discon(traps[k], ET));
        CHECK(rvt_flow_is_uninferable_discon(traps[k], NT));
        CHECK(!rvt_flow_is_uninferable_jump(traps[k], ET));
        CHECK(!rvt_flow_is_call(traps[k], NT) && !rvt_flow_is_return(traps[k], NT));
    }
    CHECK(!rvt_flow_is_plain(&bad));              /* illegal: traps */
}

int main(void)
{
    test_jal_call();
    test_jalr_x0();
    test_swap();
    test_returns_and_calls();
    test_plain_branch_traps();
    return TH_DONE();
}
