/* Compression against the reference implementations (issue #18,
 * "Compression, restated"; bench/interop.c, docs/compression.md): per interop
 * corpus program and protocol, rvtrace's smallest stream over its option
 * sets beside the reference's smallest decodable stream over the corpus
 * configurations, on the same instructions.  Include as "interop.h"
 * (bench only). */
#ifndef RVT_BENCH_INTEROP_H
#define RVT_BENCH_INTEROP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define INTEROP_PROGS 7
#define INTEROP_NAME 64

typedef struct interop_row {
    char prog[INTEROP_NAME];
    uint64_t instructions;          /* retired instructions encoded */
    uint64_t bytes;                 /* rvtrace's smallest stream */
    const char *set;                /* the option set that gave it */
    unsigned sets_ok, sets;         /* option sets that decoded to the same PCs */
    uint64_t ref_bytes;             /* the reference's smallest decodable stream */
    char ref_config[INTEROP_NAME];
    uint64_t ref_instructions;      /* the manifest's count for it */
    uint64_t floor_bytes;           /* te_floor.h / nt_floor.h bound for the input */
    bool done;
} interop_row;

typedef struct interop_result {
    bool present;                   /* the corpus was found */
    interop_row te[INTEROP_PROGS], nt[INTEROP_PROGS];
    unsigned failures;              /* streams that did not decode to the input's PCs */
} interop_result;

/* Measure against the corpus in dir (…/shared/interop); without it,
 * r->present is false and nothing else is done.  Returns -1 when a stream
 * counted did not decode to the PCs it was encoded from, else 0. */
int interop_measure(const char *dir, interop_result *r);
void interop_report(FILE *f, const interop_result *r);
/* Replace interop_report's section in the results file at path (bench/
 * RESULTS.md), or put it before the first section; -1 on an I/O error. */
int interop_update(const char *path, const interop_result *r);

#endif
