/* Bench rows of issue 18 "Output at the decoder's speed", the .rvi part
 * (bench/rvi_rows.c): the hart writing .rvi, the reader alone, encoding
 * from .rvi beside the encoders alone, and the file's size, for both
 * format versions. */
#ifndef RVT_BENCH_RVI_ROWS_H
#define RVT_BENCH_RVI_ROWS_H

#include <stdint.h>
#include <stdio.h>
#include "rvtrace/ingress.h"

#define BENCH_RVI_VERSIONS 2    /* [0] version 1, [1] version 2 */
#define BENCH_RVI_ENCODERS 2    /* [0] E-Trace all modes, [1] N-Trace best */

/* What bench.c lends the rows: a hart run into a sink, and its encoders. */
typedef struct bench_rvi_hooks {
    /* instructions retired and the CPU seconds of the run; < 0 on failure */
    int (*run)(const char *elf, const rvt_irec_sink *s, uint64_t *instret, double *cpu);
    /* encoder k (BENCH_RVI_ENCODERS) behind *s, its taker of runs of
     * steps in *steps (steps->steps NULL if none); *enc for close */
    int (*enc_open)(int k, unsigned xlen, void **enc, rvt_irec_sink *s, rvt_irec_steps *steps);
    void (*enc_close)(void *enc);
} bench_rvi_hooks;

typedef struct bench_rvi {
    uint64_t instret, records;
    uint64_t bytes[BENCH_RVI_VERSIONS];
    double write_mips[BENCH_RVI_VERSIONS];       /* hart -> .rvi, M instr/s */
    double read_mrecs[BENCH_RVI_VERSIONS];       /* replay to a null sink, M records/s */
    double read_mips[BENCH_RVI_VERSIONS];        /* the same in M instr/s */
    double enc_mips[BENCH_RVI_VERSIONS][BENCH_RVI_ENCODERS];   /* replay to the encoder */
    double enc_alone_mips[BENCH_RVI_ENCODERS];   /* hart to the encoder less hart alone */
} bench_rvi;

/* Writes elf's records to a temporary .rvi of each version and measures
 * them (each timing the best of `repeat`: the machine is shared). */
int bench_rvi_measure(const char *elf, unsigned xlen, const bench_rvi_hooks *h, int repeat,
                      bench_rvi *r);
void bench_rvi_report(FILE *f, const bench_rvi *r, const char *long_name);

#endif
