/* rvtrace dump --summary (dump_summary.c): count and size per kind. */
#ifndef RVT_DUMP_SUMMARY_H
#define RVT_DUMP_SUMMARY_H

#include <stdint.h>
#include <stdlib.h>

#define DUMP_SUMMARY_KINDS 80    /* E-Trace: 8 + 11 data kinds; N-Trace: 64 TCODEs */

typedef struct dump_kind {
    const char *name;             /* static string */
    uint64_t count, bytes;
} dump_kind;

typedef struct dump_summary {
    dump_kind k[DUMP_SUMMARY_KINDS];
    size_t n;
} dump_summary;

/* One packet or message of `kind` (a static string), `bytes` long. */
void dump_summary_add(dump_summary *s, const char *kind, uint64_t bytes);
/* The table, biggest share first; unit names the rows ("packets"). */
void dump_summary_print(dump_summary *s, uint64_t file_bytes, const char *unit);

#endif
