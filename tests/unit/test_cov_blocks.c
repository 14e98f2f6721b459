/* The coverage map fed blocks (src/out/cov_map.c rvt_cov_block, issue
 * #17 "Speed"): a block is counted once and its instructions get the
 * count when the map is settled; the outcome of a block's last
 * instruction, a conditional branch, is read from the next block's first
 * pc.  Code (riscv64-unknown-elf-as -march=rv64i):
 *
 *   0x1000 nop              0x00000013
 *   0x1004 nop              0x00000013
 *   0x1008 bne a0,a1,0x1000 0xfeb51ce3 (B-type imm -8)
 *   0x100c nop              0x00000013
 *
 * Blocks A = 0x1000..0x1008 (3 instructions) three times, then B =
 * 0x100c: the bne is taken twice (A follows A), not taken once (B
 * follows); each of A's instructions retired 3 times, B's once, 10 in
 * all.  Then A again, and A' = 0x1000..0x1004 (2 instructions, same
 * entry of the block cache: A's count must reach its instructions
 * first); then one instruction event at 0x1000. */
#include "tharness.h"
#include "rvtrace/flow.h"
#include "out/cov_map.h"

static const uint32_t code[] = { 0x13u, 0x13u, 0xfeb51ce3u, 0x13u };

static void block(rvt_cov *c, uint64_t start, uint64_t end, uint64_t n)
{
    rvt_block b = { .start_pc = start, .end_pc = end, .ninsn = n, .next_pc = end };
    rvt_cov_block(c, &b);
}

static void expect(rvt_cov *c, uint64_t pc, uint64_t exec, uint32_t taken, uint32_t fall)
{
    rvt_cov_cell k;
    CHECK(rvt_cov_get(c, pc, &k));
    if (k.exec != exec || k.taken != taken || k.fall != fall)
        TH_FAIL("pc %#" PRIx64 ": exec %" PRIu64 " taken %u fall %u, want %" PRIu64 " %u %u", pc, k.exec,
                k.taken, k.fall, exec, taken, fall);
}

int main(void)
{
    rvt_image *img = rvt_image_new();
    CHECK(rvt_image_add_bytes(img, 0x1000, code, sizeof code, "code") == 0);
    rvt_cov *c = rvt_cov_new(img);
    CHECK(c != NULL);
    for (int i = 0; i < 3; i++)
        block(c, 0x1000, 0x1008, 3);
    block(c, 0x100c, 0x100c, 1);
    rvt_cov_settle(c);
    expect(c, 0x1000, 3, 0, 0);
    expect(c, 0x1004, 3, 0, 0);
    expect(c, 0x1008, 3, 2, 1);
    expect(c, 0x100c, 1, 0, 0);
    CHECK_EQ(c->insns, 10);

    block(c, 0x1000, 0x1008, 3);      /* A' follows at the target: taken */
    block(c, 0x1000, 0x1004, 2);
    rvt_cov_event(c, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = 0x1000 });
    rvt_cov_settle(c);
    expect(c, 0x1000, 6, 0, 0);
    expect(c, 0x1004, 5, 0, 0);
    expect(c, 0x1008, 4, 3, 1);
    CHECK_EQ(c->insns, 16);
    CHECK_EQ(c->outside, 0);
    rvt_cov_free(c);
    rvt_image_free(img);
    return TH_DONE();
}
