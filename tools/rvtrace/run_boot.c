/* rvtrace run --bios/--kernel/--initrd/--append/--dtb/--dump-dtb/--stdin:
 * the images and the device tree placed as QEMU 7.2's virt board places
 * them (hw/riscv/boot.c), docs/hart.md "Booting". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run_boot.h"
#include "cli_image.h"

#define RAM_BASE 0x80000000ull
#define MiB (1ull << 20)

bool run_boot_option(int argc, char **argv, int *i, run_boot *b)
{
    static const struct { const char *name; size_t off; } opts[] = {
        { "--bios", offsetof(run_boot, bios) }, { "--kernel", offsetof(run_boot, kernel) },
        { "--initrd", offsetof(run_boot, initrd) }, { "--append", offsetof(run_boot, append) },
        { "--dtb", offsetof(run_boot, dtb) }, { "--dump-dtb", offsetof(run_boot, dump_dtb) },
        { "--stdin", offsetof(run_boot, stdin_path) },
    };
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        const char *v = cli_opt(argc, argv, i, opts[k].name);   /* exits on a missing value */
        if (v) {
            *(const char **)((char *)b + opts[k].off) = v;
            return true;
        }
    }
    return false;
}

int run_boot_check(const run_boot *b, const char *prog)
{
    if (b->bios && prog) {
        cli_err("run: give a program or --bios, not both ('%s', --bios '%s')", prog, b->bios);
        return CLI_USAGE;
    }
    if (!b->bios && (b->kernel || b->initrd || b->append)) {
        cli_err("run: --kernel, --initrd and --append need --bios FW");
        return CLI_USAGE;
    }
    if (b->initrd && !b->kernel) {
        cli_err("run: --initrd needs --kernel");
        return CLI_USAGE;
    }
    if (b->dtb && b->append) {
        cli_err("run: --append goes into the generated device tree; with --dtb, put bootargs in it");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* Highest address any segment added since segment `from` occupies. */
static uint64_t segs_end(const rvt_image *img, size_t from)
{
    uint64_t end = 0;
    for (size_t i = from; i < rvt_image_segment_count(img); i++) {
        const rvt_segment *s = rvt_image_segment(img, i);
        if (s->vaddr + s->memsz > end)
            end = s->vaddr + s->memsz;
    }
    return end;
}

/* One image: an ELF at its own addresses, anything else raw at `at`. */
static int load_one(rvt_image *img, const char *path, uint64_t at, uint64_t *entry)
{
    if (!cli_in(path))
        return CLI_FAIL;
    bool elf = cli_is_elf(path);
    int st = elf ? rvt_image_load_elf(img, path) : rvt_image_load_raw(img, path, at);
    if (st < 0) {
        cli_err("%s: cannot load: %s", path, rvt_status_str(st));
        return CLI_FAIL;
    }
    if (entry)
        *entry = elf ? rvt_image_entry(img) : at;
    return CLI_OK;
}

/* The ELF entry of the image loaded last (rvt_image_entry is the first's). */
static uint64_t kernel_entry_of(const char *path, uint64_t raw_at)
{
    if (!cli_is_elf(path))
        return raw_at;
    rvt_image *k = rvt_image_new();
    uint64_t e = raw_at;
    if (k && rvt_image_load_elf(k, path) >= 0)
        e = rvt_image_entry(k);
    rvt_image_free(k);
    return e;
}

int run_boot_load(run_boot *b, rvt_image *img, uint64_t ram_size, unsigned xlen)
{
    if (load_one(img, b->bios, RAM_BASE, NULL) != CLI_OK)
        return CLI_FAIL;
    b->bios_end = segs_end(img, 0);
    if (!xlen)
        xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
    if (b->kernel) {
        /* QEMU riscv_calc_kernel_start_addr: the firmware's end rounded up
         * to 2 MiB (RV64) or 4 MiB (RV32) */
        uint64_t align = xlen == 32 ? 4 * MiB : 2 * MiB;
        uint64_t at = (b->bios_end + align - 1) & ~(align - 1);
        if (load_one(img, b->kernel, at, NULL) != CLI_OK)
            return CLI_FAIL;
        b->kernel_entry = kernel_entry_of(b->kernel, at);
    }
    if (b->initrd) {
        /* QEMU riscv_load_initrd: kernel entry + min(RAM / 2, 128 MiB) */
        uint64_t ram = ram_size ? ram_size : 128 * MiB;
        b->initrd_start = b->kernel_entry + (ram / 2 < 128 * MiB ? ram / 2 : 128 * MiB);
        size_t n0 = rvt_image_segment_count(img);
        if (load_one(img, b->initrd, b->initrd_start, NULL) != CLI_OK)
            return CLI_FAIL;
        b->initrd_end = segs_end(img, n0);
    }
    return CLI_OK;
}

static int dump_dtb(const run_boot *b)
{
    FILE *f = cli_out_fopen(b->dump_dtb, "wb");
    if (!f)
        return CLI_FAIL;
    bool bad = fwrite(b->dtb_buf, 1, b->dtb_len, f) != b->dtb_len;
    if (fclose(f) != 0 || bad) {
        cli_err("%s: write error", b->dump_dtb);
        return CLI_FAIL;
    }
    return CLI_OK;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* --dtb F must be a flattened device tree (DT spec 5.2: magic 0xd00dfeed,
 * then totalsize); the firmware parses the rest. */
static int check_dtb(const run_boot *b)
{
    if (b->dtb_len < 8 || be32(b->dtb_buf) != 0xd00dfeed) {
        cli_err("%s: not a device tree blob (no magic 0xd00dfeed at offset 0)", b->dtb);
        return CLI_FAIL;
    }
    uint32_t total = be32(b->dtb_buf + 4);
    if (total < 8 || total > b->dtb_len) {
        cli_err("%s: device tree totalsize %u at offset 4 does not match the file's %zu bytes",
                b->dtb, total, b->dtb_len);
        return CLI_FAIL;
    }
    return CLI_OK;
}

int run_boot_cfg(run_boot *b, rvt_hart_cfg *cfg, unsigned xlen)
{
    if (b->stdin_path) {
        b->in_buf = cli_slurp(b->stdin_path, &b->in_len);
        if (!b->in_buf)
            return CLI_FAIL;
        cfg->uart_in = b->in_buf;
        cfg->uart_in_len = b->in_len;
    }
    if (b->dtb) {
        b->dtb_buf = cli_slurp(b->dtb, &b->dtb_len);
        if (!b->dtb_buf || check_dtb(b) != CLI_OK)
            return CLI_FAIL;
        b->dtb_len = be32(b->dtb_buf + 4);   /* the blob, not what follows it */
    }
    /* several harts: always a device tree (a1), where SMP software finds
     * its harts, as QEMU's virt gives one to -kernel too */
    bool smp = cfg->nharts > 1;
    if (!b->dtb && (b->bios || b->dump_dtb || smp)) {
        rvt_hart_dtb_opts opt = { b->append, b->initrd_start, b->initrd_end };
        int st = rvt_hart_dtb_build(cfg, xlen, &opt, &b->dtb_buf, &b->dtb_len);
        if (st < 0) {
            cli_err("run: cannot build the device tree: %s", rvt_status_str(st));
            return CLI_FAIL;
        }
    }
    if (b->dump_dtb && dump_dtb(b) != CLI_OK)
        return CLI_FAIL;
    if (b->bios || b->dtb || smp) {
        cfg->dtb = b->dtb_buf;
        cfg->dtb_len = b->dtb_len;
    }
    if (b->bios)
        cfg->reset_pc = RAM_BASE;   /* QEMU's reset ROM jumps to the start of RAM */
    return CLI_OK;
}

void run_boot_free(run_boot *b)
{
    free(b->dtb_buf);
    free(b->in_buf);
}
