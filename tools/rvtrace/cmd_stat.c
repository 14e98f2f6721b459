/* rvtrace stat: PMU event counts of a whole run, Linux `perf stat` style
 * (thousands separators, derived ratios in a "#" column).  `stat P.elf`
 * is `run P.elf --stat`; the counting is the hart's tool-side tally
 * (rvt_pmu_tally), so the program's own counters are untouched.
 * docs/pmu.md lists the events. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/pmu.h"

const char cmd_stat_help[] =
    "usage: rvtrace stat PROG.elf [-e EVENT[:MODES],...] [RUN OPTIONS]\n"
    "       rvtrace stat --list\n"
    "\n"
    "Run PROG.elf on the reference hart and print PMU event counts, perf-stat\n"
    "style, to stderr.  The same report: rvtrace run PROG.elf --stat.\n"
    "\n"
    "options:\n"
    "  -e, --events LIST    events to show (default: cycles, instructions,\n"
    "                       branches, branches-taken, jumps, calls, returns, loads,\n"
    "                       stores, amos, exceptions, interrupts, csr-accesses);\n"
    "                       EVENT:MODES counts only in modes u, s, m (e.g.\n"
    "                       instructions:u, cycles:su)\n"
    "  --list               list the events with their mhpmevent selectors\n"
    "  other options are those of 'rvtrace run' (--sbi, --ctr, --isa, ...)\n";

static const char default_events[] =
    "cycles,instructions,branches,branches-taken,jumps,calls,returns,loads,stores,"
    "amos,exceptions,interrupts,csr-accesses";

/* "name[:modes]" -> event and mode mask (bit 0 U, 1 S, 3 M). */
static bool parse_one(const char *s, size_t n, stat_sel *out)
{
    char name[64];
    if (n == 0 || n >= sizeof name)
        return false;
    memcpy(name, s, n);
    name[n] = 0;
    char *colon = strchr(name, ':');
    out->modes = 0xB;
    if (colon) {
        *colon = 0;
        out->modes = 0;
        for (const char *m = colon + 1; *m; m++) {
            if (*m == 'u') out->modes |= 1;
            else if (*m == 's' || *m == 'k') out->modes |= 2;
            else if (*m == 'm') out->modes |= 8;
            else return false;
        }
        if (!out->modes)
            return false;
    }
    int ev = rvt_pmu_event_by_name(name);
    if (ev < 0)
        return false;
    out->ev = (unsigned)ev;
    memcpy(out->label, s, n);   /* n < sizeof name == sizeof label */
    out->label[n] = 0;
    return true;
}

int stat_parse_events(const char *list, stat_sel *sel, int max)
{
    int n = 0;
    if (!list)
        list = default_events;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (n == max || !parse_one(p, len, &sel[n])) {
            cli_err("stat: unknown event '%.*s' (see 'rvtrace stat --list')", (int)len, p);
            return -1;
        }
        n++;
        p += len;
        if (*p == ',')
            p++;
    }
    return n;
}

static uint64_t tally(const rvt_pmu *p, unsigned ev, unsigned modes)
{
    return rvt_pmu_tally(p, ev, modes);
}

/* The "#" column: a ratio that makes the count meaningful. */
static void derived(char *buf, size_t n, const rvt_pmu *p, const stat_sel *s, uint64_t v)
{
    uint64_t insn = tally(p, RVT_PMU_EV_INSTRUCTIONS, s->modes);
    uint64_t cyc = tally(p, RVT_PMU_EV_CYCLES, s->modes);
    uint64_t br = tally(p, RVT_PMU_EV_BRANCHES, s->modes);
    buf[0] = 0;
    switch (s->ev) {
    case RVT_PMU_EV_INSTRUCTIONS:
        if (cyc)
            snprintf(buf, n, "#  %6.2f  insn per cycle", (double)v / (double)cyc);
        break;
    case RVT_PMU_EV_BRANCHES_TAKEN: case RVT_PMU_EV_BRANCHES_NOT_TAKEN:
        if (br)
            snprintf(buf, n, "#  %6.2f%% of all branches", 100.0 * (double)v / (double)br);
        break;
    case RVT_PMU_EV_EXCEPTIONS: case RVT_PMU_EV_INTERRUPTS:
        if (v)
            snprintf(buf, n, "#  %9.1f  insn per %s", (double)insn / (double)v,
                     s->ev == RVT_PMU_EV_EXCEPTIONS ? "exception" : "interrupt");
        break;
    case RVT_PMU_EV_CYCLES:
        break;
    default:
        if (insn)
            snprintf(buf, n, "#  %6.2f%% of instructions", 100.0 * (double)v / (double)insn);
        break;
    }
}

void stat_print(FILE *f, const rvt_pmu *p, const stat_sel *sel, int n, const char *prog,
                double secs)
{
    fprintf(f, "\n Performance counter stats for '%s':\n\n", prog);
    for (int i = 0; i < n; i++) {
        char num[32], d[64];
        uint64_t v = tally(p, sel[i].ev, sel[i].modes);
        derived(d, sizeof d, p, &sel[i], v);
        fprintf(f, "%18s      %-26s %s\n", cli_thousands(v, num, sizeof num), sel[i].label, d);
    }
    fprintf(f, "\n%17.6f seconds time elapsed\n\n", secs);
}

static void list_events(void)
{
    printf("%-20s %-10s %s\n", "event", "mhpmevent", "counts");
    for (unsigned i = 0; rvt_pmu_event_get(i); i++) {
        const rvt_pmu_event_info *e = rvt_pmu_event_get(i);
        printf("%-20s 0x%-8x %s\n", e->name, e->selector, e->desc);
    }
}

int cmd_stat(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--list")) {
            list_events();
            return CLI_OK;
        }
    char **av = calloc((size_t)argc + 2, sizeof *av);
    if (!av)
        return CLI_FAIL;
    int n = 0;
    av[n++] = "run";
    for (int i = 1; i < argc; i++)
        av[n++] = argv[i];
    av[n++] = "--stat";
    int rc = cmd_run(n, av);
    free(av);
    return rc;
}
