/* rvtrace disasm P.elf: an objdump -d style listing of the executable
 * sections (or executable segments when there are no section headers),
 * decoded through the image's instruction cache. */
#include <inttypes.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/image.h"
#include "rvtrace/isa.h"

const char cmd_disasm_help[] =
    "usage: rvtrace disasm PROG.elf\n"
    "\n"
    "Disassemble the executable sections of an ELF, objdump-style: a header\n"
    "per symbol ('0000000080000000 <_start>:') and one line per instruction\n"
    "(address, encoding, mnemonic, operands, branch targets with symbols).\n";

static void disasm_range(rvt_image *img, uint64_t pc, uint64_t end)
{
    char text[160];
    while (pc < end) {
        uint64_t off;
        const char *sym = rvt_image_symbol(img, pc, &off);
        if (sym && off == 0)
            printf("\n%016" PRIx64 " <%s>:\n", pc, sym);
        const rvt_insn *in = rvt_image_insn(img, pc);
        if (!in)
            break;
        rvt_isa_disasm(in, pc, text, sizeof text, rvt_image_symbol, img);
        /* objdump pads the encoding column: 8 hex digits + 10 blanks for a
         * word, 4 + 16 for a compressed instruction. */
        if (in->len == 2)
            printf("%12" PRIx64 ":\t%04" PRIx32 "                \t%s\n", pc, in->raw & 0xffff, text);
        else
            printf("%12" PRIx64 ":\t%08" PRIx32 "          \t%s\n", pc, in->raw, text);
        pc += in->len;
    }
}

int cmd_disasm(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-')
        return cli_err("usage: rvtrace disasm PROG.elf"), CLI_USAGE;
    rvt_image *img = rvt_image_new();
    rvt_image_set_diag(img, cli_diag, argv[1]);
    if (!cli_in(argv[1]) || rvt_image_load_elf(img, argv[1]) < 0) {
        rvt_image_free(img);
        return CLI_FAIL;
    }
    printf("\n%s:     file format elf%u-littleriscv\n", argv[1], rvt_image_xlen(img));
    uint64_t s, e;
    const char *name;
    for (size_t i = 0; rvt_image_code_range(img, i, &s, &e, &name); i++) {
        printf("\n\nDisassembly of section %s:\n", name);
        disasm_range(img, s, e);
    }
    if (rvt_image_code_count(img) == 0) {
        for (size_t i = 0; i < rvt_image_segment_count(img); i++) {
            const rvt_segment *g = rvt_image_segment(img, i);
            if (g->flags & 1) {
                printf("\n\nDisassembly of segment %zu:\n", i);
                disasm_range(img, g->vaddr, g->vaddr + g->filesz);
            }
        }
    }
    rvt_image_free(img);
    return CLI_OK;
}
