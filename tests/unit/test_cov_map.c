/* The coverage map (src/out/cov_map.c): retire counts per instruction and
 * a conditional branch's outcome from the instruction that retires next;
 * a trap in between, or a successor that is neither the fall-through nor
 * the target, leaves the outcome unknown (docs/coverage.md). */
#include "tharness.h"
#include "out/cov_map.h"

/* 0x1000 bne a0,a1,+8: B-type imm 8 = imm[4:1] 0100 in bits 11:8,
 * funct3 001, rs1 10, rs2 11: 0x00b51463.  Then three nops (addi x0,x0,0). */
static const uint32_t code[] = { 0x00b51463u, 0x13u, 0x13u, 0x13u };

static void insn(rvt_cov *c, uint64_t pc)
{
    rvt_cov_event(c, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = pc });
}

int main(void)
{
    rvt_image *img = rvt_image_new();
    CHECK(rvt_image_add_bytes(img, 0x1000, code, sizeof code, "code") == 0);
    rvt_cov *c = rvt_cov_new(img);
    CHECK(c != NULL);
    insn(c, 0x1000);
    insn(c, 0x1008);            /* the target: taken */
    insn(c, 0x1000);
    insn(c, 0x1004);            /* the next instruction: not taken */
    insn(c, 0x1000);
    rvt_cov_event(c, &(rvt_flow_event){ .kind = RVT_EV_TRAP, .pc = 0x1000 });
    insn(c, 0x100c);            /* after a trap: unknown */
    insn(c, 0x1000);
    insn(c, 0x100c);            /* neither way (a gap): unknown */
    insn(c, 0x9000);            /* no code there */
    rvt_cov_cell k;
    CHECK(rvt_cov_get(c, 0x1000, &k));
    CHECK_EQ(k.exec, 4);
    CHECK_EQ(k.taken, 1);
    CHECK_EQ(k.fall, 1);
    CHECK(rvt_cov_get(c, 0x1004, &k) && k.exec == 1);
    CHECK(rvt_cov_get(c, 0x1008, &k) && k.exec == 1);
    CHECK(rvt_cov_get(c, 0x100c, &k) && k.exec == 2);
    CHECK_EQ(k.taken + k.fall, 0);
    CHECK(!rvt_cov_get(c, 0x9000, &k) && k.exec == 0);
    CHECK(!rvt_cov_get(c, 0x1010, &k));
    CHECK_EQ(c->insns, 9);
    CHECK_EQ(c->outside, 1);
    rvt_cov_free(c);
    rvt_image_free(img);
    return TH_DONE();
}
