/* E-Trace 4.1.1 jump classification and the table 4.1 itype codes. */
#include "tharness.h"
#include "rvtrace/isa.h"

/* jal rd,8: imm[10:1]=4 -> 0x0080006f | rd<<7 */
#define JAL(rd) (0x0080006fu | ((uint32_t)(rd) << 7))
/* jalr rd,0(rs1): 000000000000 rs1 000 rd 1100111 */
#define JALR(rd, rs1) (0x00000067u | ((uint32_t)(rs1) << 15) | ((uint32_t)(rd) << 7))

struct kcase { uint32_t raw; unsigned xlen; rvt_itype itype; const char *what; };

static const struct kcase cases[] = {
    /* Calls */
    { JAL(1), 64, RVT_ITYPE_INF_CALL, "jal x1" },
    { JAL(5), 64, RVT_ITYPE_INF_CALL, "jal x5" },
    { JALR(1, 10), 64, RVT_ITYPE_UNINF_CALL, "jalr x1,a0" },
    { JALR(1, 1), 64, RVT_ITYPE_UNINF_CALL, "jalr x1,x1 (rs != x5 -> call)" },
    { JALR(5, 10), 64, RVT_ITYPE_UNINF_CALL, "jalr x5,a0" },
    { JALR(5, 5), 64, RVT_ITYPE_UNINF_CALL, "jalr x5,x5 (rs != x1 -> call; rd=x5 so not a return)" },
    { 0x9782, 64, RVT_ITYPE_UNINF_CALL, "c.jalr a5" },
    { 0x9082, 64, RVT_ITYPE_UNINF_CALL, "c.jalr ra (= jalr x1,x1)" },
    { 0x2019, 32, RVT_ITYPE_INF_CALL, "c.jal (RV32)" },
    /* Tail calls */
    { JAL(0), 64, RVT_ITYPE_INF_TAIL, "jal x0" },
    { 0xb001, 64, RVT_ITYPE_INF_TAIL, "c.j" },
    { JALR(0, 10), 64, RVT_ITYPE_UNINF_TAIL, "jalr x0,a0" },
    { JALR(0, 0), 64, RVT_ITYPE_UNINF_TAIL, "jalr x0,x0" },
    { 0x8502, 64, RVT_ITYPE_UNINF_TAIL, "c.jr a0" },
    /* Returns */
    { JALR(0, 1), 64, RVT_ITYPE_RETURN, "jalr x0,x1 (ret)" },
    { JALR(0, 5), 64, RVT_ITYPE_RETURN, "jalr x0,x5" },
    { JALR(10, 1), 64, RVT_ITYPE_RETURN, "jalr a0,x1 (rd not a link)" },
    { 0x8082, 64, RVT_ITYPE_RETURN, "c.jr ra" },
    { 0x8282, 64, RVT_ITYPE_RETURN, "c.jr t0" },
    /* Co-routine swaps */
    { JALR(1, 5), 64, RVT_ITYPE_SWAP, "jalr x1,x5" },
    { JALR(5, 1), 64, RVT_ITYPE_SWAP, "jalr x5,x1" },
    { 0x9282, 64, RVT_ITYPE_SWAP, "c.jalr t0 (= jalr x1,x5)" },
    /* Other */
    { JAL(3), 64, RVT_ITYPE_INF_JUMP, "jal x3" },
    { JAL(10), 32, RVT_ITYPE_INF_JUMP, "jal a0" },
    { JALR(3, 6), 64, RVT_ITYPE_UNINF_JUMP, "jalr x3,x6" },
    /* Exception return */
    { 0x30200073, 64, RVT_ITYPE_XRET, "mret" },
    { 0x10200073, 32, RVT_ITYPE_XRET, "sret" },
    /* Not control transfers */
    { 0x00000073, 64, RVT_ITYPE_NONE, "ecall (the trap is the hart's report)" },
    { 0x00100073, 64, RVT_ITYPE_NONE, "ebreak" },
    { 0x10500073, 64, RVT_ITYPE_NONE, "wfi" },
    { 0x00000013, 64, RVT_ITYPE_NONE, "nop" },
    { 0x0000100f, 64, RVT_ITYPE_NONE, "fence.i" },
};

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rvt_insn in;
        int rc = rvt_isa_decode(cases[i].raw, cases[i].xlen, &in);
        rvt_itype t = rvt_isa_itype(&in, false);
        if (rc != 0 || t != cases[i].itype)
            TH_FAIL("%s: itype %d, want %d", cases[i].what, t, cases[i].itype);
        else
            th_passed++;
        /* taken only matters for branches */
        CHECK_EQ(rvt_isa_itype(&in, true), t);
    }

    /* Branches: 4 not taken, 5 taken (beq/bne/blt/bge/bltu/bgeu, c.beqz/c.bnez) */
    static const uint32_t br[] = { 0x00208463, 0x00209463, 0x0020c463, 0x0020d463,
                                   0x0020e463, 0x0020f463, 0xd001, 0xeffd };
    for (size_t i = 0; i < sizeof br / sizeof br[0]; i++) {
        rvt_insn in;
        CHECK_EQ(rvt_isa_decode(br[i], 64, &in), 0);
        CHECK_EQ(rvt_isa_itype(&in, false), RVT_ITYPE_NT_BRANCH);
        CHECK_EQ(rvt_isa_itype(&in, true), RVT_ITYPE_T_BRANCH);
        CHECK(rvt_isa_is_branch(&in));
        CHECK(!rvt_isa_is_inferable_jump(&in));
        CHECK(!rvt_isa_is_uninferable(&in));
        CHECK_EQ(in.jclass, RVT_JC_BRANCH);
    }

    /* Inferable / uninferable predicates */
    rvt_insn in;
    rvt_isa_decode(JAL(0), 64, &in);
    CHECK(rvt_isa_is_inferable_jump(&in) && !rvt_isa_is_uninferable(&in) && !rvt_isa_is_branch(&in));
    rvt_isa_decode(0x2019, 32, &in);   /* c.jal */
    CHECK(rvt_isa_is_inferable_jump(&in));
    rvt_isa_decode(JALR(0, 1), 64, &in);
    CHECK(!rvt_isa_is_inferable_jump(&in) && rvt_isa_is_uninferable(&in));
    rvt_isa_decode(0x9282, 64, &in);   /* c.jalr t0 */
    CHECK(rvt_isa_is_uninferable(&in));
    rvt_isa_decode(0x30200073, 64, &in);
    CHECK(rvt_isa_is_uninferable(&in) && !rvt_isa_is_inferable_jump(&in));
    CHECK_EQ(in.jclass, RVT_JC_XRET);
    rvt_isa_decode(0x00000013, 64, &in);
    CHECK(!rvt_isa_is_uninferable(&in) && !rvt_isa_is_inferable_jump(&in) && !rvt_isa_is_branch(&in));

    /* 3-bit itype (table 4.1, itype_width_p = 3) */
    static const struct { rvt_itype in, out; } m3[] = {
        { RVT_ITYPE_NONE, RVT_ITYPE_NONE }, { RVT_ITYPE_EXCEPTION, RVT_ITYPE_EXCEPTION },
        { RVT_ITYPE_INTERRUPT, RVT_ITYPE_INTERRUPT }, { RVT_ITYPE_XRET, RVT_ITYPE_XRET },
        { RVT_ITYPE_NT_BRANCH, RVT_ITYPE_NT_BRANCH }, { RVT_ITYPE_T_BRANCH, RVT_ITYPE_T_BRANCH },
        { RVT_ITYPE_UNINF_CALL, 6 }, { RVT_ITYPE_INF_CALL, 0 },
        { RVT_ITYPE_UNINF_TAIL, 6 }, { RVT_ITYPE_INF_TAIL, 0 },
        { RVT_ITYPE_SWAP, 6 }, { RVT_ITYPE_RETURN, 6 },
        { RVT_ITYPE_UNINF_JUMP, 6 }, { RVT_ITYPE_INF_JUMP, 0 },
    };
    for (size_t i = 0; i < sizeof m3 / sizeof m3[0]; i++)
        CHECK_EQ(rvt_isa_itype3(m3[i].in), m3[i].out);
    return TH_DONE();
}
