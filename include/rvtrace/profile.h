/* rvtrace profiles (issue #17): a perf-report-style aggregation of a
 * decoded flow, per function, privilege mode, context and hart, and the
 * report it prints.  Fed with rvt_flow_event's like every output writer
 * (out.h); the registered writer "report" is this with the default
 * options.  docs/report.md describes the columns. */
#ifndef RVTRACE_PROFILE_H
#define RVTRACE_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/out.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sort keys of the function table (--sort). */
typedef enum rvt_prof_sort {
    RVT_PROF_SORT_CHILDREN = 0,   /* instructions with callees (default) */
    RVT_PROF_SORT_SELF,           /* instructions in the function itself */
    RVT_PROF_SORT_CALLS,          /* times it was called */
    RVT_PROF_SORT_CYCLES,         /* time (with callees) from the trace's timestamps */
    RVT_PROF_SORT_NAME,           /* function name */
} rvt_prof_sort;

typedef struct rvt_profile_opts {
    rvt_prof_sort sort;
    double percent_limit;   /* leave out functions whose Children share is below */
    bool json;              /* one JSON object instead of the tables */
    const char *callers;    /* instead of the function table: who called this one */
    const char *callees;    /* ... or what this one called */
    const char *title;      /* named in the header (the trace or ELF), may be NULL */
} rvt_profile_opts;

/* The sort key called name ("children", "self", "calls", "cycles",
 * "name"); false if none is. */
bool rvt_profile_sort_key(const char *name, rvt_prof_sort *out);

typedef struct rvt_profile rvt_profile;
/* A profile of the flow through img (symbols name the functions); NULL
 * when out of memory. */
rvt_profile *rvt_profile_new(rvt_image *img);
int rvt_profile_event(void *profile, const rvt_flow_event *ev);   /* an rvt_flow_fn */
/* A run of instructions (rvtrace/flow.h rvt_block: consecutive, only the
 * last a control transfer), counted as its RVT_EV_INSN events would be,
 * per block rather than per instruction (issue #17). */
struct rvt_block;
void rvt_profile_block(rvt_profile *p, const struct rvt_block *b);
/* rvt_profile_block of b[0..n) in order, in one call; returns their
 * instructions (the sum of their ninsn: an rvt_out_writer.blocks). */
uint64_t rvt_profile_blocks(rvt_profile *p, const struct rvt_block *b, size_t n);
/* The report: tables (thousands separators, shares) or JSON.  Returns 0, or
 * -1 when the --callers/--callees function never ran (nothing written but
 * a line saying so). */
int rvt_profile_write(rvt_profile *p, FILE *f, const rvt_profile_opts *o);
uint64_t rvt_profile_insns(const rvt_profile *p);
void rvt_profile_free(rvt_profile *p);

#ifdef __cplusplus
}
#endif
#endif
