/* rvtrace run --harts N --quantum Q (docs/hart.md "Several harts"): the
 * options, what they allow, and the per-hart output names. */
#ifndef RVT_RUN_HARTS_H
#define RVT_RUN_HARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/smp.h"

typedef struct run_harts {
    uint64_t n;              /* --harts, 0 = 1 */
    uint64_t quantum;        /* --quantum, 0 = RVT_SMP_DEFAULT_QUANTUM */
    char *path[2][RVT_SMP_MAX_HARTS];   /* per-hart names of --pcs-* */
} run_harts;

#define RUN_HARTS_HELP \
    "  --harts N            N harts (1..8, default 1) with mhartid 0..N-1 sharing\n" \
    "                       RAM and the board; a0 = hartid, a1 = the DTB for each;\n" \
    "                       each has its own encoder: --etrace is encapsulated with\n" \
    "                       srcID = hartid (--encap-src-id + hartid), --ntrace\n" \
    "                       messages carry SRC = hartid (--nt-src + hartid);\n" \
    "                       --pcs-retired/--pcs-executed F write F-hartI.EXT per hart\n" \
    "  --quantum N          instructions a hart runs before the next one's turn\n" \
    "                       (round-robin; default 1000); wfi ends a turn early\n"

/* 1 taken (i moved), 0 not ours, -1 bad value (printed). */
int run_harts_option(int argc, char **argv, int *i, run_harts *rh);
/* `what` (an option given, NULL = none) cannot go with several harts:
 * CLI_USAGE (printed), else CLI_OK. */
int run_harts_allows(const run_harts *rh, const char *what);
/* The name hart i writes for `path` (kind 0 executed, 1 retired PCs):
 * path itself with one hart, else "-hartI" put before its extension.
 * NULL for a NULL path or out of memory. */
const char *run_harts_path(run_harts *rh, unsigned kind, unsigned i, const char *path);
void run_harts_free(run_harts *rh);

#endif
