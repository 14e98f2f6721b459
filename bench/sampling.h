/* Bench rows of issue 17 (bench/sampling.c): the coverage and branch-
 * sample passes over the E-Trace decoder's output on the long workload,
 * and how close a profile from CTR samples comes to the full trace's. */
#ifndef RVT_BENCH_SAMPLING_H
#define RVT_BENCH_SAMPLING_H

#include <stdint.h>
#include <stdio.h>
#include "rvtrace/etrace.h"

#define BENCH_TOP 20

/* One workload's sampled profile against its full one. */
typedef struct bench_ctr_row {
    char name[64];
    uint64_t instret, period, samples, sample_bytes;
    size_t funcs, top, overlap; /* functions with code run; top-N compared */
    double rank_err;            /* mean |full rank - sampled rank| of the top */
    double run_s, sampled_run_s;    /* hart CPU seconds: plain / with CTR sampling */
    uint64_t pcs_run, pcs_sampled;  /* distinct PCs retired; of them in sampled ranges */
} bench_ctr_row;

#define BENCH_CTR_ROWS 3

typedef struct bench_sampling {
    double events_mips;         /* decoder delivering events to a counter */
    double lcov_mips, listing_mips, lbr_mips;   /* ... to a writer */
    uint64_t trace_bytes;       /* the long workload's E-Trace stream */
    bench_ctr_row row[BENCH_CTR_ROWS];  /* the long workload, fpu.elf (90 functions), pgo.elf */
    size_t nrows;
    uint64_t pgo_base, pgo_fdo;         /* cycles of pgo.elf and pgo_fdo.elf (programs/pgo.sh) */
} bench_sampling;

/* te: the E-Trace stream of a run of elf with attributes a. */
int bench_sampling_measure(const char *elf, const rvt_te_attrs *a, const uint8_t *te, size_t te_len,
                           bench_sampling *s);
/* plain_mips: the decoder with events off (the long table's row). */
void bench_sampling_report(FILE *f, const bench_sampling *s, double plain_mips, const char *long_name);

#endif
