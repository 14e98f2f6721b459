/* dump / decode / encode: pick the trace path (E-Trace or N-Trace) from the
 * options or the file name and hand over to te_cli.c or nt_cli.c. */
#include <string.h>
#include "cli.h"

enum trace_kind { KIND_NONE, KIND_TE, KIND_NT, KIND_RVI, KIND_TVT };

static enum trace_kind kind_of(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--etrace") || !strncmp(argv[i], "--te-", 5))
            return KIND_TE;
        if (!strcmp(argv[i], "--ntrace") || !strncmp(argv[i], "--nt-", 5))
            return KIND_NT;
        if (!strcmp(argv[i], "--tv"))
            return KIND_TVT;
    }
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        if (cli_has_suffix(argv[i], ".te") || strstr(argv[i], "te_inst_raw"))
            return KIND_TE;
        if (cli_has_suffix(argv[i], ".nt"))
            return KIND_NT;
        if (cli_has_suffix(argv[i], ".rvi"))
            return KIND_RVI;
        if (cli_has_suffix(argv[i], ".tvt"))
            return KIND_TVT;
    }
    return KIND_NONE;
}

const char cmd_dump_help[] =
    "usage: rvtrace dump [--etrace|--ntrace|--tv] [--json|--summary] [--addresses] FILE\n"
    "\n"
    "Print a trace file one packet (E-Trace .te), message (N-Trace .nt),\n"
    "record (.rvi) or tandem-verification item (.tvt) per line, every field\n"
    "named.  The kind is taken from the file name unless --etrace/--ntrace/--tv\n"
    "is given.  Settings are read from FILE.attrs when present; a .tvt stream\n"
    "takes --xlen/--flen/--mlen (default 64).  Fields are printed as on the\n"
    "wire; in text, an E-Trace address is followed by the byte address or\n"
    "signed byte difference it stands for, e.g. address=0x1d (+0x3a).\n"
    "--summary (E-Trace, N-Trace): instead of the list, a table of packets or\n"
    "messages per kind with their bytes and share of the stream, biggest\n"
    "first (E-Trace bytes include the 1-byte headers).  --addresses (N-Trace):\n"
    "each message with an F-ADDR or U-ADDR ends with the PC it stands for\n"
    "(\"-> 0x...\"; JSON: \"pc\"), U-ADDR being XORed with the source's previous\n"
    "address (N-Trace 8.1).\n";

const char cmd_decode_help[] =
    "usage: rvtrace decode --elf PROG.elf [OPTIONS] FILE.te|FILE.nt\n"
    "\n"
    "Rebuild the executed instruction sequence from a trace and the program\n"
    "image.  Output: --pcs F (one hex address per line), --listing (default:\n"
    "disassembly with symbols and trap/privilege annotations), --json (one\n"
    "JSON object per instruction), --folded (call stacks with the number of\n"
    "instructions retired in each, 'main;f;g 1234' lines for flame-graph\n"
    "tools).  Settings come from FILE.attrs.\n"
    "\n"
    "E-Trace: --raw FILE@ADDR adds a binary (e.g. a boot ROM) to the image.\n"
    "Spike's reset vector (auipc t0,0; addi a1,t0,32; csrr a0,mhartid;\n"
    "ld/lw t0,24(t0); jr t0), where Spike traces start, is at 0x1000 unless\n"
    "something else is; --spike-reset-vector puts it there regardless.\n"
    "\n"
    "A progress line (share of the file, instructions) is shown every 2 s on a\n"
    "terminal when the output goes elsewhere (--pcs, --count, a redirect).\n";

const char cmd_encode_help[] =
    "usage: rvtrace encode --etrace|--ntrace [OPTIONS] IN.rvi|IN.csv -o OUT\n"
    "\n"
    "Encode ingress records (an .rvi file or the E-Trace reference flow's\n"
    "encoder-input CSV) as an E-Trace or N-Trace stream.  The settings are\n"
    "written beside the stream as OUT.attrs.\n"
    "\n"
    "The filter and trigger options of `rvtrace run` (--trace-range, --comparator,\n"
    "--filter, --trace-on/-off/-notify; docs/filter.md) apply here too (N-Trace\n"
    "with several inputs: to each hart); --elf PROG.elf lets their addresses be\n"
    "symbols.\n"
    "\n"
    "A progress line (instructions so far) is shown every 2 s on a terminal.\n";



static int dispatch(int argc, char **argv, cli_cmd_fn te, cli_cmd_fn nt, cli_cmd_fn rvi,
                    const char *what)
{
    switch (kind_of(argc, argv)) {
    case KIND_TE: return te(argc, argv);
    case KIND_NT: return nt(argc, argv);
    case KIND_RVI:
        if (rvi)
            return rvi(argc, argv);
        break;
    case KIND_TVT:
        if (!strcmp(what, "dump"))
            return tv_cmd_dump(argc, argv);
        break;
    default:
        break;
    }
    cli_err("%s: cannot tell the trace kind: name the file *.te or *.nt, or give --etrace/--ntrace", what);
    return CLI_USAGE;
}

int cmd_dump(int argc, char **argv)
{
    return dispatch(argc, argv, te_cmd_dump, nt_cmd_dump, rvi_cmd_dump, "dump");
}

int cmd_decode(int argc, char **argv)
{
    return dispatch(argc, argv, te_cmd_decode, nt_cmd_decode, NULL, "decode");
}

int cmd_encode(int argc, char **argv)
{
    return dispatch(argc, argv, te_cmd_encode, nt_cmd_encode, NULL, "encode");
}
