/* dump / decode / encode: pick the trace path (E-Trace or N-Trace) from the
 * options or the file name and hand over to te_cli.c or nt_cli.c. */
#include <ctype.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cli_file_out.h"

enum trace_kind { KIND_NONE, KIND_TE, KIND_NT, KIND_RVI, KIND_TVT };

static const char *const kind_names[] = { "unknown", "an E-Trace stream", "an N-Trace stream",
                                          "ingress records", "a tandem-verification trace" };

/* The kind an option names (--etrace/--te-*, --ntrace/--nt-*, --tv). */
static enum trace_kind kind_of_options(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--etrace") || !strncmp(argv[i], "--te-", 5))
            return KIND_TE;
        if (!strcmp(argv[i], "--ntrace") || !strncmp(argv[i], "--nt-", 5))
            return KIND_NT;
        if (!strcmp(argv[i], "--tv"))
            return KIND_TVT;
    }
    return KIND_NONE;
}

/* Options of dump/decode/encode that take a value (the value is no file
 * argument); the trace, filter and --elf options say so themselves. */
static int option_args(int argc, char **argv, int i)
{
    static const char *const valued[] = { "--pcs", "--pcs-retired", "--data", "--data-out", "--raw",
                                          "--smc", "--src", "-o", "--xlen", "--flen", "--mlen" };
    const char *a = argv[i];
    int used = 1;
    if (!strcmp(a, "--etrace") || !strcmp(a, "--ntrace") || !strcmp(a, "--tv"))
        return 1;    /* switches here */
    if (te_is_run_option(argc, argv, i, &used) || nt_is_run_option(argc, argv, i, &used) ||
        encode_filter_option(argc, argv, i, &used))
        return used;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
        if (!strcmp(a, valued[k]))
            return i + 1 < argc ? 2 : 1;
    if (cli_file_out_valued(a))         /* --lcov FILE, ... */
        return i + 1 < argc ? 2 : 1;
    return 1;
}

/* The file arguments (not options, not option values), in order. */
static int file_args(int argc, char **argv, const char **files, int max)
{
    int n = 0;
    for (int i = 1; i < argc; i += option_args(argc, argv, i))
        if ((argv[i][0] != '-' || !argv[i][1]) && n < max)
            files[n++] = argv[i];
    return n;
}

static enum trace_kind kind_of_name(const char *f)
{
    if (cli_has_suffix(f, ".te") || strstr(f, "te_inst_raw"))
        return KIND_TE;
    if (cli_has_suffix(f, ".nt"))
        return KIND_NT;
    if (cli_has_suffix(f, ".rvi"))
        return KIND_RVI;
    if (cli_has_suffix(f, ".tvt"))
        return KIND_TVT;
    return KIND_NONE;
}

/* The kind a settings sidecar is written for, by its first setting's
 * name: N-Trace uses the chapter 4 names (trTe..., trTs...) and rvt...
 * (docs/format-nt.md), E-Trace the lowercase 9.1 names (docs/format-te.md). */
/* Peek only into regular files: a FIFO would block (the reader that
 * follows reports what it is). */
static FILE *open_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
}

static enum trace_kind kind_of_sidecar(const char *side)
{
    FILE *f = open_regular(side);
    if (!f)
        return KIND_NONE;
    char line[256];
    enum trace_kind k = KIND_NONE;
    while (k == KIND_NONE && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        bool nt = (!strncmp(line, "tr", 2) && isupper((unsigned char)line[2])) ||
                  (!strncmp(line, "rvt", 3) && isupper((unsigned char)line[3]));
        k = nt ? KIND_NT : islower((unsigned char)line[0]) ? KIND_TE : KIND_NONE;
        if (k == KIND_NONE)
            break;
    }
    fclose(f);
    return k;
}

static bool is_elf(const char *path)
{
    unsigned char m[4] = { 0 };
    FILE *f = open_regular(path);
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f)
        fclose(f);
    return n == 4 && !memcmp(m, "\177ELF", 4);
}

/* The trace kind: options, else file name, else the FILE.attrs sidecar.
 * Files of the wrong kind are named in one line (an ELF given as the
 * trace, the other trace's sidecar); *bad is then set. */
static enum trace_kind kind_of(int argc, char **argv, const char *what, bool *bad)
{
    const char *files[2];
    int n = file_args(argc, argv, files, 2);
    enum trace_kind k = kind_of_options(argc, argv);
    const char *f = n ? files[0] : NULL;
    if (k == KIND_NONE && f)
        k = kind_of_name(f);
    char side[4096];
    snprintf(side, sizeof side, "%s.attrs", f ? f : "");
    enum trace_kind ks = f ? kind_of_sidecar(side) : KIND_NONE;
    if (k == KIND_NONE)
        k = ks;
    *bad = true;
    if (f && is_elf(f) && strcmp(what, "encode"))
        cli_err("%s: is an ELF program, not a trace%s", f,
                strcmp(what, "decode") ? "" : " (decode takes the program with --elf PROG.elf)");
    else if ((k == KIND_TE || k == KIND_NT) && ks != KIND_NONE && ks != k)
        cli_err("%s: holds %s settings, but %s is read as %s (see --etrace/--ntrace)", side,
                ks == KIND_TE ? "E-Trace" : "N-Trace", f, kind_names[k]);
    else
        *bad = false;
    return k;
}

const char cmd_dump_help[] =
    "usage: rvtrace dump [--etrace|--ntrace|--tv] [--json|--summary] [--addresses] FILE\n"
    "\n"
    "Print a trace file one packet (E-Trace .te), message (N-Trace .nt),\n"
    "record (.rvi) or tandem-verification item (.tvt) per line, every field\n"
    "named.  The kind is taken from --etrace/--ntrace/--tv, else the file name\n"
    "(.te .nt .rvi .tvt), else the settings in FILE.attrs.  An ELF or the other\n"
    "trace's FILE.attrs is reported in one line.  Settings are read from\n"
    "FILE.attrs when present; a .tvt stream takes --xlen/--flen/--mlen\n"
    "(default 64).  Fields are printed as on the wire; in text, an E-Trace\n"
    "address is followed by the byte address or signed byte difference it\n"
    "stands for, e.g. address=0x1d (+0x3a).\n"
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
    "image.  Outputs, any together, in any order: --pcs F (the retired PCs,\n"
    "one hex address per line; also spelt --pcs-retired as in run), and on\n"
    "stdout one of --listing (disassembly with symbols and trap/privilege\n"
    "annotations; the default unless --pcs, --count or only --data-out is\n"
    "given), --json (one JSON object per instruction), --folded (call stacks\n"
    "with the number of instructions retired in each, 'main;f;g 1234' lines\n"
    "for flame-graph tools).  E-Trace: --data-out F (old spelling --data F)\n"
    "writes the data accesses of te_data packets as run --data-out does; the\n"
    "ELF is then optional.  Settings come from FILE.attrs, which also tells\n"
    "the trace kind of a file not named .te or .nt.  One trace per command.\n"
    "\n"
    "Coverage files, also in any combination (docs/coverage.md): --lcov F\n"
    "(an lcov tracefile: lines and functions from the ELF's DWARF, branches\n"
    "taken/not taken from the trace; genhtml renders it), --coverage-listing F\n"
    "(every instruction of the code run or not, every branch both-ways,\n"
    "one-way or never; needs no debug info).  Alone they replace the listing.\n"
    "\n"
    "In decode and dump, --etrace/--ntrace take no file: they name the kind\n"
    "of the trace given; --te-opt/--te-attr/--nt-opt/--nt-src/--nt-attr\n"
    "override what FILE.attrs says (the options listed below).\n"
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
    bool bad;
    enum trace_kind k = kind_of(argc, argv, what, &bad);
    if (bad)
        return CLI_FAIL;
    /* One trace per command; only N-Trace encode merges several inputs. */
    const char *files[2];
    if (file_args(argc, argv, files, 2) > 1 && !(k == KIND_NT && !strcmp(what, "encode"))) {
        cli_err("%s: more than one file given ('%s', '%s'): one trace at a time", what, files[0], files[1]);
        return CLI_USAGE;
    }
    switch (k) {
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
    cli_err("%s: cannot tell the trace kind: name the file *.te or *.nt, give --etrace/--ntrace, "
            "or keep its FILE.attrs beside it", what);
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
