/* rvtrace report: a perf-report-style profile (rvtrace/profile.h) of any
 * instruction trace rvtrace reads, plus any registered output writer into
 * a file (--NAME FILE: flamegraph, speedscope, timeline, html, folded, ...).
 *
 * The input is read by the command that reads it anyway, not again here:
 * a .te/.nt trace by `decode` (its options and FILE.attrs), a program run
 * by `run` (its options), an .rvi file by the ingress replay.  Report
 * hands decode its outputs as one writer of its own (the fan-out below,
 * given as --report-outputs through cli_extra_writer) and run an ingress
 * sink (cli_run_extra) that turns the hart's records into flow events
 * (rvtrace/irec_flow.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_file_out.h"
#include "rvtrace/irec_flow.h"
#include "rvtrace/flow.h"
#include "rvtrace/profile.h"

const char cmd_report_help[] =
    "usage: rvtrace report [REPORT OPTIONS] --elf PROG.elf FILE.te|FILE.nt|FILE.rvi [DECODE OPTIONS]\n"
    "       rvtrace report [REPORT OPTIONS] PROG.elf [RUN OPTIONS]\n"
    "\n"
    "Profile a trace perf-report style: per function the instructions retired\n"
    "in it and its callees (Children), in it alone (Self), the calls, shares,\n"
    "and cycles where the trace has timestamps (N-Trace TSTAMP, the hart's\n"
    "cycle count); then instructions per privilege mode, context and hart,\n"
    "and the traps.  The input: an E-Trace or N-Trace stream (read as\n"
    "`rvtrace decode` reads it: FILE.attrs, the decode options), ingress\n"
    "records (.rvi, with --elf), or a program run on the reference hart (the\n"
    "`rvtrace run` options; the program's console output comes first).\n"
    "\n"
    "report options:\n"
    "  --sort KEY           children (default), self, calls, cycles or name\n"
    "  --percent-limit P    leave out functions under P % of the instructions\n"
    "                       (with callees; callers/callees view: of the function's)\n"
    "  --json               the report as one JSON object\n"
    "  --callers FUNC       instead of the table: who called FUNC, with the\n"
    "                       instructions run in FUNC (and its callees) per caller\n"
    "  --callees FUNC       ... what FUNC called, and its own instructions ([self])\n"
    "  --no-report          no table on stdout (only the files below)\n"
    "  --NAME FILE          also write output writer NAME into FILE; writers:\n"
    "                       flamegraph (zoomable SVG), speedscope (speedscope JSON),\n"
    "                       timeline (Chrome trace-event JSON for Perfetto and\n"
    "                       chrome://tracing), html (one self-contained page),\n"
    "                       folded, listing, pcs, report, and any other registered\n"
    "  --write NAME=FILE    the same for any writer (json: the JSON lines one,\n"
    "                       as --json is the report's switch)\n"
    "\n"
    "docs/report.md describes every column and file format.\n";

/* The command's state: the fan-out writer's open() takes no context. */
typedef struct rep_state {
    rvt_profile_opts opts;
    bool table;                  /* the report on stdout */
    cli_file_outs files;         /* --NAME FILE, --write NAME=FILE (cli_file_out.c) */
    rvt_profile *prof;
    rvt_irec_flow *bridge;       /* run / .rvi input */
    rvt_image *img;              /* .rvi input: the image loaded here */
    int rc;                      /* CLI status of the outputs */
} rep_state;

static rep_state R;

/* ---- the fan-out: profile and file outputs ---- */

static void *fan_open(FILE *f, rvt_image *img)
{
    (void)f;
    if (R.table && !(R.prof = rvt_profile_new(img)))
        return NULL;
    return cli_file_outs_open(&R.files, img) == CLI_OK ? &R : NULL;
}

static void fan_event(void *state, const rvt_flow_event *ev)
{
    rep_state *r = state;
    if (r->prof)
        rvt_profile_event(r->prof, ev);
    cli_file_outs_event(&r->files, ev);
}

/* A block (N-Trace block events through rvt_out_run): counted once, not
 * per instruction (issue #17 Speed). */
static void fan_block(void *state, const struct rvt_block *b)
{
    rep_state *r = state;
    if (r->prof)
        rvt_profile_block(r->prof, b);
    cli_file_outs_block(&r->files, b);
}

/* A batch of blocks (rvt_out_blocks: decode's pull API for E-Trace): the
 * profile's loop, then each file output's (issue #17: a call per batch). */
static uint64_t fan_blocks(void *state, const struct rvt_block *b, size_t n)
{
    rep_state *r = state;
    uint64_t insns = 0;
    if (r->prof)
        insns = rvt_profile_blocks(r->prof, b, n);
    else
        for (size_t i = 0; i < n; i++)
            insns += b[i].ninsn;
    cli_file_outs_blocks(&r->files, b, n);
    return insns;
}

static int fan_flow(void *state, const rvt_flow_event *ev)
{
    fan_event(state, ev);
    return 0;
}

static void fan_finish(void *state)
{
    rep_state *r = state;
    if (cli_file_outs_close(&r->files) != CLI_OK)
        r->rc = CLI_FAIL;
    if (r->prof && rvt_profile_write(r->prof, stdout, &r->opts) < 0) {
        cli_err("report: %s", r->opts.callers || r->opts.callees ? "that function never ran in this trace"
                                                                  : "out of memory");
        r->rc = CLI_FAIL;
    }
    fflush(stdout);
    rvt_profile_free(r->prof);
    r->prof = NULL;
}

static const rvt_out_writer fan_writer = {
    .name = "report-outputs", .needs_image = true,
    .open = fan_open, .event = fan_event, .finish = fan_finish, .block = fan_block,
    .blocks = fan_blocks,
};

/* ---- ingress input (run, .rvi): the bridge in front of the fan-out ---- */

static int bridge_open(rvt_image *img, rvt_irec_sink *out)
{
    if (!fan_open(stdout, img) || !(R.bridge = rvt_irec_flow_new(img, fan_flow, &R))) {
        cli_err("report: out of memory");
        return CLI_FAIL;
    }
    *out = rvt_irec_flow_sink(R.bridge);
    return CLI_OK;
}

static int bridge_close(void)
{
    if (!R.bridge)
        return CLI_OK;
    fan_finish(&R);
    rvt_irec_flow_free(R.bridge);
    R.bridge = NULL;
    return R.rc;
}

static const cli_run_hook run_hook = { bridge_open, bridge_close };

/* ---- options ---- */

static int add_file(const char *name, const char *path)
{
    const rvt_out_writer *w = rvt_out_find(name);
    if (!w) {
        cli_err("report: no output writer '%s'", name);
        return CLI_USAGE;
    }
    return cli_file_outs_add(&R.files, w, path, "report");
}

/* --write NAME=FILE */
static int add_write(const char *spec)
{
    const char *eq = strchr(spec, '=');
    char name[64];
    if (!eq || eq == spec || !eq[1] || (size_t)(eq - spec) >= sizeof name) {
        cli_err("report: --write expects NAME=FILE, got '%s'", spec);
        return CLI_USAGE;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = 0;
    return add_file(name, eq + 1);
}

static int parse_percent(const char *v)
{
    char *end;
    errno = 0;
    double p = strtod(v, &end);
    if (errno || end == v || *end || !(p >= 0 && p <= 100)) {
        cli_err("report: --percent-limit: expected a number from 0 to 100, got '%s'", v);
        return CLI_USAGE;
    }
    R.opts.percent_limit = p;
    return CLI_OK;
}

/* One report option at argv[*i] (advanced past its value): CLI_OK, an
 * error status, or -1 when it is none (the input command's). */
static int report_option(int argc, char **argv, int *i)
{
    const char *a = argv[*i], *v;
    if ((v = cli_opt(argc, argv, i, "--sort"))) {
        if (rvt_profile_sort_key(v, &R.opts.sort))
            return CLI_OK;
        cli_err("report: --sort: expected children, self, calls, cycles or name, got '%s'", v);
        return CLI_USAGE;
    }
    if ((v = cli_opt(argc, argv, i, "--percent-limit")))
        return parse_percent(v);
    if ((v = cli_opt(argc, argv, i, "--callers")))
        return R.opts.callers = v, CLI_OK;
    if ((v = cli_opt(argc, argv, i, "--callees")))
        return R.opts.callees = v, CLI_OK;
    if ((v = cli_opt(argc, argv, i, "--write")))
        return add_write(v);
    if (!strcmp(a, "--json"))
        return R.opts.json = true, CLI_OK;
    if (!strcmp(a, "--no-report"))
        return R.table = false, CLI_OK;
    if (!strncmp(a, "--", 2) && rvt_out_find(a + 2) && (v = cli_opt(argc, argv, i, a)))
        return add_file(a + 2, v);
    return -1;
}

/* ---- inputs ---- */

static bool is_file_arg(const char *a)
{
    return a[0] != '-' || !a[1];
}

static int report_rvi(const char *elf, const char *rvi)
{
    if (!elf) {
        cli_err("report: %s: ingress records need the program: --elf PROG.elf", rvi);
        return CLI_USAGE;
    }
    if (!(R.img = rvt_image_new()))
        return CLI_FAIL;
    rvt_image_set_diag(R.img, cli_diag, (void *)elf);
    int st;
    if (!cli_in(elf) || !cli_in(rvi) || (st = rvt_image_load_elf(R.img, elf)) < 0) {
        cli_err("%s: cannot load the program", elf);
        return CLI_FAIL;
    }
    rvt_irec_sink sink;
    if (bridge_open(R.img, &sink) != CLI_OK)
        return CLI_FAIL;
    st = rvt_rvi_replay(rvi, &sink, cli_diag, (void *)rvi);
    if (st >= 0 && sink.end)
        sink.end(sink.ctx);
    int rc = bridge_close();
    if (st < 0) {
        cli_err("%s: %s", rvi, rvt_status_str(st));
        return CLI_FAIL;
    }
    return rc;
}

static void release(void)
{
    cli_file_outs_close(&R.files);      /* outputs not reached (an error before) */
    rvt_profile_free(R.prof);
    rvt_irec_flow_free(R.bridge);
    rvt_image_free(R.img);
}

/* The input command's arguments (rest[0] is its name) and where they
 * go: a .rvi file, a trace for decode (--elf given), else a program run. */
static int dispatch(int n, char **rest)
{
    const char *elf = NULL, *rvi = NULL, *first = NULL;
    for (int i = 1; i < n; i++) {
        if (!strcmp(rest[i], "--elf") && i + 1 < n)
            elf = rest[++i];
        else if (!strncmp(rest[i], "--elf=", 6))
            elf = rest[i] + 6;
        else if (is_file_arg(rest[i]) && !first)
            first = rest[i];
        if (is_file_arg(rest[i]) && cli_has_suffix(rest[i], ".rvi"))
            rvi = rest[i];
    }
    R.opts.title = first;
    if (rvi)
        return report_rvi(elf, rvi);
    if (elf) {
        rest[0] = "decode";
        rest[n] = (char *)"--report-outputs";
        cli_extra_writer(&fan_writer);
        int rc = cmd_decode(n + 1, rest);
        cli_extra_writer(NULL);
        return rc != CLI_OK ? rc : R.rc;
    }
    if (!first) {
        cli_err("report: need a trace (--elf PROG.elf FILE.te|.nt|.rvi) or a program to run (PROG.elf)");
        return CLI_USAGE;
    }
    rest[0] = "run";
    cli_run_extra = &run_hook;
    int rc = cmd_run(n, rest);
    cli_run_extra = NULL;
    return rc;
}

int cmd_report(int argc, char **argv)
{
    R = (rep_state){ .table = true, .rc = CLI_OK };
    char **rest = calloc((size_t)argc + 2, sizeof *rest);
    if (!rest)
        return CLI_FAIL;
    int n = 1, rc = CLI_OK;
    for (int i = 1; i < argc && rc == CLI_OK; i++) {
        int r = report_option(argc, argv, &i);
        if (r < 0)
            rest[n++] = argv[i];
        else
            rc = r;
    }
    if (rc == CLI_OK && R.opts.callers && R.opts.callees) {
        cli_err("report: --callers or --callees, not both");
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK && !R.table && !R.files.n) {
        cli_err("report: --no-report and no --NAME FILE: nothing to write");
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK)
        rc = dispatch(n, rest);
    release();
    free(rest);
    return rc;
}
