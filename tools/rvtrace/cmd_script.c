/* rvtrace script --lbr: perf-script-compatible branch-stack samples
 * synthesised from a full trace (src/out/lbr.c; docs/coverage.md).  The
 * trace is decoded exactly as `rvtrace decode` does, with the "lbr"
 * writer configured by --period and --depth. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_file_out.h"
#include "out/lbr.h"

const char cmd_script_help[] =
    "usage: rvtrace script --lbr [--period N] [--depth N] [-o OUT] --elf PROG.elf TRACE\n"
    "\n"
    "Branch-stack samples as `perf script -F ip,brstack` prints them, headed by\n"
    "the PERF_RECORD_MMAP2 line `perf script --show-mmap-events` prints for each\n"
    "executable segment of the ELF, so that\n"
    "  llvm-profgen --perfscript OUT --binary PROG.elf --output PROG.afdo\n"
    "makes an AutoFDO profile.  A sample every --period N retired instructions\n"
    "(default 10007) with the last --depth N taken transfers, newest first\n"
    "(default 32; 16 and 32 are the usual LBR sizes; at most 256).  TRACE is\n"
    "any trace decode takes (.te/.nt and the decode options); OUT defaults to\n"
    "stdout.  Samples from the hart's CTR instead: run --ctr-sample N --lbr OUT.\n";

static rvt_lbr_cfg script_cfg = { RVT_LBR_DEFAULT_PERIOD, RVT_LBR_DEFAULT_DEPTH };

static void *script_lbr_open(FILE *f, rvt_image *img)
{
    return rvt_lbr_new(f, img, &script_cfg);
}

static void script_lbr_event(void *state, const rvt_flow_event *ev)
{
    rvt_lbr_event(state, ev);
}

static void script_lbr_block(void *state, const struct rvt_block *b)
{
    rvt_lbr_block(state, b);
}

static void script_lbr_finish(void *state)
{
    rvt_lbr_free(state);
}

static const rvt_out_writer script_lbr_writer = {
    .name = "lbr", .needs_image = true, .file_option = true,
    .open = script_lbr_open, .event = script_lbr_event, .finish = script_lbr_finish,
    .block = script_lbr_block,
};

int cmd_script(int argc, char **argv)
{
    char **dargv = calloc((size_t)argc + 3, sizeof *dargv);
    if (!dargv)
        return CLI_FAIL;
    const char *out = "-", *v;
    bool lbr = false;
    uint64_t depth = script_cfg.depth;
    int n = 0;
    dargv[n++] = "decode";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lbr"))
            lbr = true;
        else if ((v = cli_opt(argc, argv, &i, "--period"))) {
            if (!cli_parse_range("--period", v, CLI_NUM_COUNT, 1, UINT64_MAX, &script_cfg.period))
                goto usage;
        } else if ((v = cli_opt(argc, argv, &i, "--depth"))) {
            if (!cli_parse_range("--depth", v, CLI_NUM_PLAIN, 1, RVT_LBR_MAX_DEPTH, &depth))
                goto usage;
        } else if ((v = cli_opt(argc, argv, &i, "-o")))
            out = v;
        else
            dargv[n++] = argv[i];
    }
    if (!lbr) {
        cli_err("script: say which script: --lbr (the only one so far)");
        goto usage;
    }
    script_cfg.depth = (unsigned)depth;
    dargv[n++] = "--lbr";
    dargv[n++] = (char *)out;
    cli_file_out_override(&script_lbr_writer);
    int rc = cmd_decode(n, dargv);
    free(dargv);
    return rc;
usage:
    free(dargv);
    return CLI_USAGE;
}
