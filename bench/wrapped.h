/* Bench: decoding a wrapped sink buffer (issue #16 "Performance"): a big
 * encapsulated E-Trace buffer that starts mid-packet, as a trace RAM sink
 * in wrap mode leaves it, decoded from the first synchronisation point
 * after its oldest byte, in bounded memory, against the plain decoder. */
#ifndef RVT_BENCH_WRAPPED_H
#define RVT_BENCH_WRAPPED_H

#include <stddef.h>
#include <stdint.h>
#include "rvtrace/etrace.h"

typedef struct wrapped_result {
    uint64_t buffer_bytes;   /* the sink buffer's size (written to a temp file) */
    uint64_t skipped;        /* bytes before the first sync point (Encapsulation 2.3) */
    uint64_t insns, errors;  /* decoded from the buffer; decode errors */
    double cpu;              /* its decode CPU seconds (reading, unwrapping, decoding) */
    uint64_t plain_insns;    /* the plain decoder on the stream in memory */
    double plain_cpu;
    long rss_start_kib, rss_peak_kib;   /* at the start of the buffer's decode, its peak */
    int rss_peak_reset;      /* the peak was reset before (clear_refs 5) */
} wrapped_result;

/* refflow: a reference-flow E-Trace stream of elf with attributes a.  The
 * buffer is that stream in encapsulation (srcID 8 bits, a sync sequence
 * every 4 KiB), cut one byte into a packet near its middle, then the whole
 * stream again and again up to `bytes`.  0 or a negative status. */
int wrapped_measure(const char *elf, const rvt_te_attrs *a, const uint8_t *refflow, size_t len,
                    uint64_t bytes, wrapped_result *out);

#endif
