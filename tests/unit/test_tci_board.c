/* The Trace Control Interface on the virt board (src/hart/dev_tci.c,
 * dtb.c; docs/tci.md): loads and stores of the hart reach the registers
 * at 0x18000000 (32-bit; a 64-bit access covers two registers; smaller
 * ones fault), the device tree names each component, and a sink in SMEM
 * mode writes the hart's RAM. */
#include <string.h>
#include <libfdt.h>
#include "hart/hart_int.h"
#include "rvtrace/tci.h"
#include "test_hart_util.h"

#define TCI 0x18000000ull

static bool to_ram(void *ctx, uint64_t addr, const uint8_t w[4])
{
    return rvt_hart_tv_mem_write(*(rvt_hart **)ctx, addr, w, 4) == 0;
}

static uint64_t rd(rvt_hart *h, uint64_t a, unsigned size)
{
    uint64_t v = 0xdead;
    CHECK_EQ(hart_load_slow(h, a, size, &v), 0);
    return v;
}

static void wr(rvt_hart *h, uint64_t a, uint64_t v)
{
    CHECK_EQ(hart_store_slow(h, a, 4, v), 0);
}

static void loads_and_stores(void)
{
    static const tinsn loop[] = { I4(0x0000006f) };   /* j . */
    rvt_image *img = timage(loop, 1);
    rvt_hart *h = NULL;
    rvt_tci_cfg tc = { .nharts = 1, .smem_base = 0x80000000, .smem_size = 128u << 20,
                       .mem_write = to_ram, .ctx = &h };
    rvt_tci *t = rvt_tci_new(&tc, NULL);
    rvt_hart_cfg cfg = { .xlen = 64, .tci = t };
    int st;
    h = rvt_hart_new(&cfg, img, &st);
    CHECK(h != NULL);
    CHECK_EQ(rd(h, TCI + 4, 4), 0x00020101);               /* trTeImpl */
    CHECK_EQ(rd(h, TCI, 8), 0x00020101ull << 32 | 0x8);    /* trTeControl, trTeImpl */
    uint64_t v;
    CHECK_EQ(hart_load_slow(h, TCI + 4, 1, &v), 6);         /* load access fault (cause 5) + 1 */
    CHECK_EQ(hart_store_slow(h, TCI, 2, 1), 8);             /* store access fault (cause 7) + 1 */
    CHECK_EQ(rd(h, TCI + 0x11004, 4), 0x2901);              /* trRamImpl: SMEM only */
    /* a sink in SMEM mode over 16 bytes of RAM at 0x80400000 */
    wr(h, TCI + 0x11000, 1);
    wr(h, TCI + 0x11010, 0x80400000);
    wr(h, TCI + 0x11018, 0x8040000c);
    wr(h, TCI + 0x11020, 0x80400000);
    wr(h, TCI + 0x11000, 0x13);
    wr(h, TCI + 0x10000, 1);
    wr(h, TCI + 0x10000, 3);
    wr(h, TCI, 1);
    wr(h, TCI, (rd(h, TCI, 4) & ~8u) | 2);
    const uint8_t b[6] = { 1, 2, 3, 4, 5, 6 };
    CHECK_EQ(rvt_tci_put(t, 0, b, 6), 6);
    wr(h, TCI + 0x11000, 0x11);                             /* disable: flush */
    uint8_t ram[8], want[8] = { 1, 2, 3, 4, 5, 6, 0, 0 };
    CHECK_EQ(rvt_hart_tv_mem_read(h, 0x80400000, ram, 8), 0);
    CHECK_MEM(ram, want, 8);
    CHECK_EQ(rd(h, TCI + 0x11020, 4), 0x80400008);
    rvt_hart_free(h);
    /* without a TCI the window faults */
    cfg.tci = NULL;
    h = rvt_hart_new(&cfg, img, &st);
    CHECK_EQ(hart_load_slow(h, TCI + 4, 4, &v), 6);
    rvt_hart_free(h);
    rvt_tci_free(t);
    rvt_image_free(img);
}

static void device_tree(void)
{
    rvt_tci_cfg tc = { .nharts = 2, .sram_size = 4096 };
    rvt_tci *t = rvt_tci_new(&tc, NULL);
    rvt_hart_cfg cfg = { .xlen = 64, .tci = t };
    uint8_t *dtb;
    size_t len;
    CHECK_EQ(rvt_hart_dtb_build(&cfg, 64, NULL, &dtb, &len), 0);
    static const struct { const char *path, *compat; uint64_t base; } nodes[] = {
        { "/soc/trace-encoder@18000000", "riscv,trace-encoder", 0x18000000 },
        { "/soc/trace-encoder@18001000", "riscv,trace-encoder", 0x18001000 },
        { "/soc/trace-funnel@18010000", "riscv,trace-funnel", 0x18010000 },
        { "/soc/trace-ram-sink@18011000", "riscv,trace-ram-sink", 0x18011000 },
        { "/soc/trace-pib-sink@18012000", "riscv,trace-pib-sink", 0x18012000 },
    };
    for (unsigned i = 0; i < 5; i++) {
        int n = fdt_path_offset(dtb, nodes[i].path);
        CHECK(n >= 0);
        if (n < 0)
            continue;
        CHECK_STR(fdt_getprop(dtb, n, "compatible", NULL), nodes[i].compat);
        int plen;
        /* a property is 4-byte aligned in the blob: read its cells by copy */
        const void *reg = fdt_getprop(dtb, n, "reg", &plen);
        CHECK(reg && plen == 16);
        if (reg && plen == 16) {
            fdt64_t cell[2];
            memcpy(cell, reg, sizeof cell);
            CHECK_EQ(fdt64_to_cpu(cell[0]), nodes[i].base);
            CHECK_EQ(fdt64_to_cpu(cell[1]), 0x1000);
        }
    }
    free(dtb);
    cfg.tci = NULL;      /* no TCI, no nodes */
    CHECK_EQ(rvt_hart_dtb_build(&cfg, 64, NULL, &dtb, &len), 0);
    CHECK(fdt_path_offset(dtb, "/soc/trace-funnel@18010000") < 0);
    free(dtb);
    rvt_tci_free(t);
}

int main(void)
{
    loads_and_stores();
    device_tree();
    return TH_DONE();
}
