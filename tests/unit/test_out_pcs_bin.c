/* The binary PC list (rvtrace/pcbin.h, docs/formats.md): the "pcs-bin"
 * writer's bytes worked out by hand for a 64-bit and a 32-bit image,
 * read back with rvt_pcbin_open/read, and every damaged form refused with
 * the offset of the fault. */
#include <stdlib.h>
#include "tharness.h"
#include "rvtrace/out.h"
#include "rvtrace/pcbin.h"
#include "rvtrace/status.h"
#include "test_hart_util.h"

/* The writer's bytes for pcs[0..n) (xlen from img; NULL: 64). */
static uint8_t *write_list(rvt_image *img, const uint64_t *pcs, size_t n, size_t *len)
{
    char *bytes = NULL;
    FILE *f = open_memstream(&bytes, len);
    rvt_out *o = rvt_out_open(rvt_out_find("pcs-bin"), f, img);
    CHECK(o != NULL);
    rvt_flow_event sync = { .kind = RVT_EV_SYNC, .pc = pcs[0] };
    rvt_out_event(o, &sync);                /* only instructions are written */
    for (size_t i = 0; i < n; i++) {
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = pcs[i] };
        rvt_out_event(o, &ev);
    }
    CHECK_EQ(rvt_out_insns(o), n);
    rvt_out_free(o);
    fclose(f);
    return (uint8_t *)bytes;
}

static void test_rv64(void)
{
    static const uint64_t pcs[] = { 0x80000000, 0, UINT64_MAX, 0x0123456789abcdefull };
    size_t len;
    uint8_t *b = write_list(NULL, pcs, 4, &len);
    static const uint8_t want[] = {
        'R', 'V', 'T', 'P', 'C', 'S', 1, 64,
        0x00, 0x00, 0x00, 0x80, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
        0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01,
    };
    CHECK_EQ(len, sizeof want);
    CHECK_MEM(b, want, sizeof want);
    rvt_pcbin pl;
    CHECK_EQ(rvt_pcbin_open(&pl, b, len, NULL), 0);
    CHECK_EQ(pl.xlen, 64);
    CHECK_EQ(pl.count, 4);
    uint64_t got[8] = { 0 };
    CHECK_EQ(rvt_pcbin_read(&pl, 0, got, 8), 4);
    CHECK_MEM(got, pcs, sizeof pcs);
    CHECK_EQ(rvt_pcbin_read(&pl, 3, got, 8), 1);
    CHECK_EQ(got[0], 0x0123456789abcdefull);
    CHECK_EQ(rvt_pcbin_read(&pl, 4, got, 8), 0);
    free(b);
}

/* A 32-bit image's list: 4 bytes a PC (the crc_rv32 program from
 * programs/ gives the class). */
static void test_rv32(void)
{
    rvt_image *img = th_program("crc_rv32");
    CHECK(img != NULL);
    if (!img)
        return;
    static const uint64_t pcs[] = { 0x80000000, 0xfffffffe, 0x12 };
    size_t len;
    uint8_t *b = write_list(img, pcs, 3, &len);
    static const uint8_t want[] = {
        'R', 'V', 'T', 'P', 'C', 'S', 1, 32,
        0x00, 0x00, 0x00, 0x80, 0xfe, 0xff, 0xff, 0xff, 0x12, 0, 0, 0,
    };
    CHECK_EQ(len, sizeof want);
    CHECK_MEM(b, want, sizeof want);
    rvt_pcbin pl;
    CHECK_EQ(rvt_pcbin_open(&pl, b, len, NULL), 0);
    CHECK_EQ(pl.xlen, 32);
    uint64_t got[3];
    CHECK_EQ(rvt_pcbin_read(&pl, 0, got, 3), 3);
    CHECK_MEM(got, pcs, sizeof pcs);
    free(b);
    rvt_image_free(img);
}

static void check_bad(const uint8_t *b, size_t len, int st, uint64_t at)
{
    rvt_pcbin pl;
    uint64_t off = 12345;
    CHECK_EQ(rvt_pcbin_open(&pl, b, len, &off), st);
    CHECK_EQ(off, at);
}

static void test_damaged(void)
{
    uint8_t b[] = { 'R', 'V', 'T', 'P', 'C', 'S', 1, 32, 1, 2, 3, 4, 5, 6 };
    rvt_pcbin pl;
    CHECK_EQ(rvt_pcbin_open(&pl, b, 8, NULL), 0);      /* empty list */
    CHECK_EQ(pl.count, 0);
    check_bad(b, 14, RVT_ERR_TRUNC, 12);               /* a PC cut after 2 of 4 bytes */
    check_bad(b, 5, RVT_ERR_TRUNC, 5);                 /* inside the header */
    b[7] = 16;
    check_bad(b, 12, RVT_ERR_FORMAT, 7);               /* xlen */
    b[7] = 32;
    b[6] = 2;
    check_bad(b, 12, RVT_ERR_VERSION, 6);
    b[0] = 'X';
    check_bad(b, 12, RVT_ERR_FORMAT, 0);
    CHECK_EQ(rvt_pcbin_open(NULL, b, 12, NULL), RVT_ERR_INVAL);
}

int main(void)
{
    test_rv64();
    test_rv32();
    test_damaged();
    return TH_DONE();
}
