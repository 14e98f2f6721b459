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
 * first); then one instruction event at 0x1000.
 *
 * Then code that changes between blocks (docs/api.md "Code that
 * changes"): what a change touches is decoded again, the rest keeps its
 * decoded lengths and held counts; code added after the map was made is
 * mapped.  Each case below says its code and works out its counts. */
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

#define NOP4 0x13u             /* addi x0,x0,0 */
#define CNOP2 0x00010001u       /* c.nop; c.nop */
static const uint32_t nops[4] = { NOP4, NOP4, NOP4, NOP4 }, cnops[2] = { CNOP2, CNOP2 };

/* After settling, each pc retired n times, no branch outcome. */
typedef struct pc_count {
    uint64_t pc, n;
} pc_count;
#define EXPECT_COUNTS(c, ...) expect_counts((c), (const pc_count[]){ __VA_ARGS__ }, \
                                            sizeof (pc_count[]){ __VA_ARGS__ } / sizeof (pc_count))

static void expect_counts(rvt_cov *c, const pc_count *want, size_t n)
{
    rvt_cov_settle(c);
    for (size_t i = 0; i < n; i++)
        expect(c, want[i].pc, want[i].n, 0, 0);
}

/* Nothing was counted outside the map; c and img freed. */
static void done(rvt_cov *c, rvt_image *img)
{
    CHECK_EQ(c->outside, 0);
    rvt_cov_free(c);
    rvt_image_free(img);
}

static rvt_image *image_of(uint64_t base, const uint32_t *words, size_t n)
{
    rvt_image *img = rvt_image_new();
    CHECK(rvt_image_add_bytes(img, base, words, n * 4, "code") == 0);
    return img;
}

/* Two adjacent regions of four nops, R1 = [0x1000, 0x1010) and R2 =
 * [0x1010, 0x1020) (no sections: the map's ranges are the segments).
 * X = 0x1000..0x100c and Y = 0x1010..0x101c, 4 instructions each, are
 * held in their entries; then 0x100c..0x1014 becomes four c.nop (a
 * region over both, which the map holds already: no third range) and
 * X' = 0x1000..0x100e, Y' = 0x1010..0x101c run, 5 each.  X's held count
 * goes to 1000 1004 1008 100c, Y's to 1010 1014 1018 101c (the lengths
 * they ran with), then X' 1000 1004 1008 100c 100e, Y' 1010 1012 1014
 * 1018 101c: both ranges decoded again where the patch reaches. */
static void patch_over_two_ranges(void)
{
    rvt_image *img = image_of(0x1000, nops, 4);
    CHECK(rvt_image_add_bytes(img, 0x1010, nops, sizeof nops, "code2") == 0);
    rvt_cov *c = rvt_cov_new(img);
    CHECK_EQ(c->nrange, 2);
    block(c, 0x1000, 0x100c, 4);
    block(c, 0x1010, 0x101c, 4);
    CHECK(rvt_image_add_bytes(img, 0x100c, cnops, sizeof cnops, "patch") == 0);
    block(c, 0x1000, 0x100e, 5);
    block(c, 0x1010, 0x101c, 5);
    CHECK_EQ(c->nrange, 2);
    EXPECT_COUNTS(c, { 0x1000, 2 }, { 0x1004, 2 }, { 0x1008, 2 }, { 0x100c, 2 }, { 0x100e, 1 },
                  { 0x1010, 2 }, { 0x1012, 1 }, { 0x1014, 2 }, { 0x1018, 2 }, { 0x101c, 2 });
    CHECK_EQ(c->insns, 18);
    done(c, img);
}

/* R1 = [0x1000, 0x1010) and R3 = [0x2040, 0x2050), four nops each; X =
 * 0x1000..0x100c and Z = 0x2040..0x204c (another entry of the block
 * cache) run once.  A patch of R1 (c.nop c.nop at 0x1004) and an
 * rvt_image_invalidate of R1 leave R3 as it was decoded, Z's held count in its entry; X'' = 0x1000..0x100c (1000 1004
 * 1006 1008 100c, 5) runs, then Z: 0x2040.. retired twice, 0x1004 twice,
 * 0x1006 once. */
static void patch_leaves_other_range(void)
{
    rvt_image *img = image_of(0x1000, nops, 4);
    CHECK(rvt_image_add_bytes(img, 0x2040, nops, sizeof nops, "other") == 0);
    rvt_cov *c = rvt_cov_new(img);
    block(c, 0x1000, 0x100c, 4);
    block(c, 0x2040, 0x204c, 4);
    CHECK(rvt_image_add_bytes(img, 0x1004, cnops, 4, "patch") == 0);
    rvt_image_invalidate(img, 0x1008, 4);
    block(c, 0x1000, 0x100c, 5);
    const rvt_cov_range *r3 = &c->range[1];
    CHECK_EQ(r3->start, 0x2040);
    for (size_t k = 0; k < 8; k += 2)
        CHECK(r3->kind[k] != 0);            /* still decoded */
    const rvt_cov_blk *z = &c->blk[(0x2040 >> 1) & (RVT_COV_BLOCKS - 1)];
    CHECK(z->start == 0x2040 && z->n == 4 && z->count == 1);   /* still held */
    block(c, 0x2040, 0x204c, 4);
    EXPECT_COUNTS(c, { 0x1000, 2 }, { 0x1004, 2 }, { 0x1006, 1 }, { 0x1008, 2 }, { 0x2040, 2 },
                  { 0x204c, 2 });
    CHECK_EQ(c->insns, 17);
    done(c, img);
}

/* A patch at a range's end: sixteen words at 0x1000, nops and at 0x103c
 * beq x0,x0,-12 (0xfe000ae3, to 0x1030).  P = 0x1030..0x103c (4) runs
 * twice (taken once), then the branch becomes beq x0,x0,-44 (0xfc000ae3,
 * to 0x1010; only its upper half-word differs).  P runs again (0x1030
 * after the old branch: taken, as it retired), then Q = 0x1010..0x103c
 * (12) at the new target: taken.  Taken 3, never not taken; 0x1030
 * retired 4 times, 0x1010 once.  An invalidate of the branch's upper
 * half-word alone drops the branch's decode (it starts 2 bytes before),
 * not 0x1030's.  Then four bytes written at 0x103e, two of them past the
 * code: what lies past the range is mapped (0x1040 counted inside). */
static void patch_at_range_edge(void)
{
    uint32_t words[16];
    for (size_t i = 0; i < 15; i++)
        words[i] = NOP4;
    words[15] = 0xfe000ae3u;
    rvt_image *img = image_of(0x1000, words, 16);
    rvt_cov *c = rvt_cov_new(img);
    block(c, 0x1030, 0x103c, 4);
    block(c, 0x1030, 0x103c, 4);
    const uint32_t beq44 = 0xfc000ae3u;
    CHECK(rvt_image_add_bytes(img, 0x103c, &beq44, sizeof beq44, "branch") == 0);
    block(c, 0x1030, 0x103c, 4);
    block(c, 0x1010, 0x103c, 12);
    EXPECT_COUNTS(c, { 0x1030, 4 }, { 0x1010, 1 });
    expect(c, 0x103c, 4, 3, 0);
    rvt_image_invalidate(img, 0x103e, 2);
    rvt_cov_blocks(c, NULL, 0);
    CHECK_EQ(c->range[0].kind[(0x103c - 0x1000) / 2], 0);
    CHECK(c->range[0].kind[(0x1030 - 0x1000) / 2] != 0);
    CHECK(rvt_image_add_bytes(img, 0x103e, cnops, 4, "past") == 0);
    CHECK_EQ(c->nrange, 1);
    block(c, 0x1040, 0x1040, 1);
    CHECK_EQ(c->nrange, 2);
    EXPECT_COUNTS(c, { 0x1040, 1 });
    done(c, img);
}

/* Code added after the map was made, after a patch, and more changes
 * than the image remembers (IMG_CHANGE_LOG): R1 = four nops at 0x1000,
 * X = 0x1000..0x100c once; c.nop c.nop at 0x1000, four nops at 0x3000;
 * X' = 0x1000..0x100c (1000 1002 1004 1008 100c) and W = 0x3000..0x300c;
 * then 20 invalidates of 0x3000 and W and X' again.  0x1000 retired 3
 * times, 0x1002 twice, 0x3000 twice, none outside. */
static void load_after_patch(void)
{
    rvt_image *img = image_of(0x1000, nops, 4);
    rvt_cov *c = rvt_cov_new(img);
    block(c, 0x1000, 0x100c, 4);
    CHECK(rvt_image_add_bytes(img, 0x1000, cnops, 4, "patch") == 0);
    CHECK(rvt_image_add_bytes(img, 0x3000, nops, sizeof nops, "later") == 0);
    block(c, 0x1000, 0x100c, 5);
    block(c, 0x3000, 0x300c, 4);
    for (int i = 0; i < 20; i++)
        rvt_image_invalidate(img, 0x3000, 4);
    block(c, 0x3000, 0x300c, 4);
    block(c, 0x1000, 0x100c, 5);
    EXPECT_COUNTS(c, { 0x1000, 3 }, { 0x1002, 2 }, { 0x1004, 3 }, { 0x3000, 2 }, { 0x300c, 2 });
    CHECK_EQ(c->nrange, 2);
    CHECK_EQ(c->insns, 22);
    done(c, img);
}

int main(void)
{
    patch_over_two_ranges();
    patch_leaves_other_range();
    patch_at_range_edge();
    load_after_patch();
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
    done(c, img);
    return TH_DONE();
}
