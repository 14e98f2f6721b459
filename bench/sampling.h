/* Bench rows of issue 17 (bench/sampling.c): how close a profile from
 * CTR samples comes to the full trace's (the passes over the decoders'
 * output, lbr and coverage among them, are bench.c's output table). */
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
    uint64_t trace_bytes;       /* the long workload's E-Trace stream */
    bench_ctr_row row[BENCH_CTR_ROWS];  /* the long workload, fpu.elf (90 functions), pgo.elf */
    size_t nrows;
    uint64_t pgo_base, pgo_fdo;         /* cycles of pgo.elf and pgo_fdo.elf (programs/pgo.sh) */
} bench_sampling;

/* te: the E-Trace stream of a run of elf with attributes a. */
int bench_sampling_measure(const char *elf, size_t te_len, bench_sampling *s);
void bench_sampling_report(FILE *f, const bench_sampling *s, const char *long_name);

#endif
