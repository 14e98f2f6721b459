/* Sequentially inferable jumps (src/flow/flow_seq.h; E-Trace 3.2.4 and
 * 11.1 sequential_jump_target, N-Trace 9.1): targets worked out by hand
 * from the encodings below. */
#include "flow/flow_seq.h"
#include "test_isa_enc.h"
#include "tharness.h"

#define JALR(rd, rs1, imm) I(imm, rs1, 0, rd, 0x67u)
#define LUI(rd, imm) U(imm, rd, 0x37u)
#define AUIPC(rd, imm) U(imm, rd, 0x17u)
#define M64 UINT64_MAX
#define M32 0xffffffffull

static rvt_insn dec(uint32_t raw, unsigned xlen)
{
    rvt_insn i;
    memset(&i, 0, sizeof i);
    rvt_isa_decode(raw, xlen, &i);
    return i;
}

/* prev at prev_pc, then jump: the target, or ~0 when not inferable. */
static uint64_t seq(uint32_t prev, uint64_t prev_pc, uint32_t jump, unsigned xlen, uint64_t mask)
{
    rvt_insn p = dec(prev, xlen), j = dec(jump, xlen);
    uint64_t t = 0;
    return rvt_flow_seq_target(&p, prev_pc, &j, mask, &t) ? t : ~0ull;
}

static void test_targets(void)
{
    /* auipc t1, 0x1 at 0x80000000; jalr ra, 0x10(t1): 0x80000000 + 0x1000 + 0x10 */
    CHECK_EQ(seq(AUIPC(6, 0x1000), 0x80000000, JALR(1, 6, 0x10), 64, M64), 0x80001010);
    /* lui a5, 0x12345; jalr x0, -4(a5): 0x12345000 - 4, pc irrelevant */
    CHECK_EQ(seq(LUI(15, 0x12345000), 0x40, JALR(0, 15, -4), 64, M64), 0x12344ffc);
    /* jalr clears bit 0: lui a5, 0x2; jalr x0, 1(a5) */
    CHECK_EQ(seq(LUI(15, 0x2000), 0x40, JALR(0, 15, 1), 64, M64), 0x2000);
    /* c.lui a5, 1 (0x6785) then c.jr a5 (0x8782): 0x1000 */
    CHECK_EQ(seq(0x6785, 0x100, 0x8782, 64, M64), 0x1000);
    /* RV32: lui a5, 0xfffff sign-extends; jalr x0, 0x10(a5) -> 0xfffff010 */
    CHECK_EQ(seq(LUI(15, 0xfffff000u), 0x40, JALR(0, 15, 0x10), 32, M32), 0xfffff010);
    /* RV32 wrap: auipc a5, 0x1 at 0xfffff000 -> 0x1'00000000 + 4 wraps to 4 */
    CHECK_EQ(seq(AUIPC(15, 0x1000), 0xfffff000, JALR(0, 15, 4), 32, M32), 4);
}

static void test_not_inferable(void)
{
    /* another register: auipc t1; jalr x0, 0(t2) */
    CHECK_EQ(seq(AUIPC(6, 0x1000), 0x100, JALR(0, 7, 0), 64, M64), ~0ull);
    /* not a lui/auipc: addi t1, x0, 0x40; jalr x0, 0(t1) */
    CHECK_EQ(seq(I(0x40, 0, 0, 6, 0x13), 0x100, JALR(0, 6, 0), 64, M64), ~0ull);
    /* rd = x0 writes nothing: auipc x0; jalr ra, 8(x0) */
    CHECK_EQ(seq(AUIPC(0, 0x1000), 0x100, JALR(1, 0, 8), 64, M64), ~0ull);
    /* not a jalr: lui a5; jal ra, 8 */
    CHECK_EQ(seq(LUI(15, 0x2000), 0x100, J(8, 1), 64, M64), ~0ull);
    /* mret after lui a5 (rs1 field 0) */
    CHECK_EQ(seq(LUI(15, 0x2000), 0x100, 0x30200073, 64, M64), ~0ull);
    /* nothing retired before */
    rvt_insn j = dec(JALR(0, 15, 0), 64);
    uint64_t t = 0;
    CHECK(!rvt_flow_seq_target(NULL, 0, &j, M64, &t));
}

int main(void)
{
    test_targets();
    test_not_inferable();
    return TH_DONE();
}
