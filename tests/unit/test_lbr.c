/* Branch-stack samples (src/out/lbr.c): the ring keeps the newest
 * `depth` taken transfers and a sample lists them newest first, in
 * perf script's brstack text, at the instruction after the period's
 * last; a loss empties the ring. */
#include "tharness.h"
#include "out/lbr.h"

static void insn(rvt_lbr *l, uint64_t pc)
{
    rvt_lbr_event(l, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = pc });
}

int main(void)
{
    static const uint32_t nops[32] = { 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13,
                                       0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13, 0x13 };
    rvt_image *img = rvt_image_new();
    CHECK(rvt_image_add_bytes(img, 0x1000, nops, sizeof nops, "nops") == 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(rvt_lbr_new(f, img, &(rvt_lbr_cfg){ 0, 2 }) == NULL);       /* no period */
    CHECK(rvt_lbr_new(f, img, &(rvt_lbr_cfg){ 5, 0 }) == NULL);       /* no depth */
    rvt_lbr *l = rvt_lbr_new(f, img, &(rvt_lbr_cfg){ 5, 2 });
    CHECK(l != NULL);
    insn(l, 0x1000);
    insn(l, 0x1010);            /* 0x1000 -> 0x1010 */
    insn(l, 0x1020);            /* 0x1010 -> 0x1020 */
    insn(l, 0x1030);            /* 0x1020 -> 0x1030: the oldest falls out */
    insn(l, 0x1034);            /* fall-through; 5th instruction: a sample due */
    insn(l, 0x1038);            /* ... taken here, where execution went on */
    rvt_lbr_event(l, &(rvt_flow_event){ .kind = RVT_EV_LOST });
    for (uint64_t pc = 0x1000; pc < 0x1018; pc += 4)
        insn(l, pc);            /* 6 more, no transfer: no sample line */
    CHECK_EQ(rvt_lbr_samples(l), 1);
    rvt_lbr_free(l);
    fclose(f);
    /* "nops" is no ELF file: no MMAP2 header line. */
    CHECK_STR(buf, "            1038 0x1020/0x1030/P/-/-/0 0x1010/0x1020/P/-/-/0\n");
    free(buf);
    rvt_image_free(img);
    return TH_DONE();
}
