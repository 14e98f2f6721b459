/* rvtrace: one command-line tool, one file per subcommand. */
#include <stdio.h>
#include <string.h>
#include "rvtrace/version.h"
#include "cli.h"

static const struct {
    const char *name;
    cli_cmd_fn fn;
    const char *summary;
} commands[] = {
    { "run", cmd_run, "run a RISC-V ELF on the reference hart, optionally tracing" },
    { "encode", cmd_encode, "encode ingress records (.rvi, CSV) as E-Trace or N-Trace" },
    { "decode", cmd_decode, "rebuild the executed instructions from a trace and the ELF" },
    { "dump", cmd_dump, "print a trace one packet/message (or record) per line" },
    { "index", cmd_index, "write a trace's synchronisation points beside it (TRACE.idx)" },
    { "verify", cmd_verify, "tandem-verify a .tvt trace against the reference hart" },
    { "import", cmd_import, "convert CSV, Spike logs or PC lists to .rvi" },
    { "disasm", cmd_disasm, "disassemble an ELF (objdump-style)" },
    { "stat", cmd_stat, "PMU event counts of a run, perf-stat style" },
    { "report", cmd_report, "profile of a trace or run: functions, flame graph, timeline, HTML" },
    { "script", cmd_script, "branch-stack samples for llvm-profgen (AutoFDO), perf-script style" },
    { "bench", cmd_bench, "throughput and bits per instruction over the workloads" },
    { "help", cmd_help, "show help for a command" },
};

static void usage(FILE *f)
{
    fputs("usage: rvtrace COMMAND [OPTIONS] [ARGS]\n"
          "       rvtrace --version | --help\n\ncommands:\n", f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'rvtrace help COMMAND' or 'rvtrace COMMAND --help' for details.\n"
          "Documentation: docs/cli.md, file formats: docs/formats.md.\n"
          "\nErrors in input name the file and byte offset (exit status 1; usage errors 2).\n"
          "The same error at consecutive offsets is printed once, then folded into one\n"
          "line; at most RVTRACE_MAX_ERRORS lines are printed (default 100, 0 = all).\n"
          "Long runs show a progress line on a terminal every RVTRACE_PROGRESS seconds\n"
          "(default 2).\n"
          "\nAn output that is also an input or another output of the command is\n"
          "refused.  Outputs are written under a temporary name and renamed into\n"
          "place at the end; a failed command leaves none behind.\n"
          "Numbers: decimal or 0x hex, nothing else around them; counts take\n"
          "k/M/G = 10^3/10^6/10^9, sizes in bytes k/M/G = KiB/MiB/GiB; every\n"
          "option checks its range.\n"
          "Exit status: 0 success, 1 input/output or decode error, 2 usage error.\n", f);
}

const char *cli_help_text(const char *cmd)
{
    static const struct { const char *name; const char *text; } texts[] = {
        { "run", cmd_run_help }, { "dump", cmd_dump_help },
        { "decode", cmd_decode_help }, { "encode", cmd_encode_help },
        { "import", cmd_import_help }, { "verify", cmd_verify_help }, { "disasm", cmd_disasm_help },
        { "stat", cmd_stat_help }, { "bench", cmd_bench_help }, { "report", cmd_report_help },
        { "script", cmd_script_help }, { "index", cmd_index_help },
        { "help", "usage: rvtrace help [COMMAND]\n"
                  "\n"
                  "Without COMMAND: the command list.  'rvtrace COMMAND --help' is the same\n"
                  "as 'rvtrace help COMMAND'; 'rvtrace --version' prints the version.\n" },
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strcmp(cmd, texts[i].name))
            return texts[i].text;
    return NULL;
}

/* A command's help; the commands that take them also list both trace
 * paths' options (decode and dump take them as overrides of the sidecar). */
static void print_help(const char *cmd, const char *text)
{
    bool table = !strcmp(cmd, "encode") || !strcmp(cmd, "decode") || !strcmp(cmd, "dump") ||
                 !strcmp(cmd, "index");
    fputs(text, stdout);
    if (table) {                /* generated from the parser's table */
        fputc('\n', stdout);
        cli_options_help(stdout, cmd);
    }
    if (table || !strcmp(cmd, "run"))
        printf("\n%s\n%s", te_options_help, nt_options_help);
    if (!strcmp(cmd, "run"))
        printf("\n%s", filter_options_help);
}

int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        usage(stdout);
        return CLI_OK;
    }
    const char *text = cli_help_text(argv[1]);
    if (!text) {
        cli_err("no command '%s' (try 'rvtrace help')", argv[1]);
        return CLI_USAGE;
    }
    print_help(argv[1], text);
    return CLI_OK;
}

/* The documented statuses only: a library status (< 0) or any other value
 * that slipped through a command is a failure, never the exit code. */
static int cli_exit_status(int rc)
{
    return rc == CLI_OK || rc == CLI_FAIL || rc == CLI_USAGE ? rc : CLI_FAIL;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("rvtrace %s\n", rvt_version());
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        for (int j = 2; j < argc; j++) {
            if (!strcmp(argv[j], "--help") || !strcmp(argv[j], "-h")) {
                print_help(argv[1], cli_help_text(argv[1]));
                return CLI_OK;
            }
        }
        int rc = cli_exit_status(commands[i].fn(argc - 1, argv + 1));
        cli_diag_flush();
        if (rc == CLI_OK)
            rc = cli_out_commit();
        cli_out_abort();
        return rc;
    }
    cli_err("unknown command '%s'", argv[1]);
    usage(stderr);
    return CLI_USAGE;
}
