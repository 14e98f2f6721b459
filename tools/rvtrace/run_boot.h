/* rvtrace run's boot options (run_boot.c): --bios, --kernel, --initrd,
 * --append, --dtb, --dump-dtb, --stdin, laid out as QEMU 7.2's virt board
 * does with -bios/-kernel/-initrd/-append (docs/hart.md "Booting"). */
#ifndef RVT_CLI_RUN_BOOT_H
#define RVT_CLI_RUN_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/hart.h"
#include "rvtrace/image.h"

typedef struct run_boot {
    const char *bios, *kernel, *initrd, *append, *dtb, *dump_dtb, *stdin_path;
    uint64_t bios_end;            /* highest address the firmware occupies */
    uint64_t kernel_entry;
    uint64_t initrd_start, initrd_end;
    uint8_t *dtb_buf, *in_buf;
    size_t dtb_len, in_len;
} run_boot;

/* Is argv[*i] a boot option?  Consumes its value. */
bool run_boot_option(int argc, char **argv, int *i, run_boot *b);
/* Usage checks after parsing (program given or not): CLI_OK / CLI_USAGE. */
int run_boot_check(const run_boot *b, const char *prog);
/* Load --bios, --kernel and --initrd into img (CLI_OK / CLI_FAIL); xlen 0
 * = the firmware ELF's class. */
int run_boot_load(run_boot *b, rvt_image *img, uint64_t ram_size, unsigned xlen);
/* The DTB (--dtb or built) and the UART input into cfg; writes --dump-dtb. */
int run_boot_cfg(run_boot *b, rvt_hart_cfg *cfg, unsigned xlen);
void run_boot_free(run_boot *b);

#endif
