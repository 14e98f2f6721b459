/* A trace file as decode and index read it (trace_in.c): mapped, not
 * copied, so memory does not grow with the trace (issue #18); an
 * encapsulated E-Trace stream is unwrapped into memory (cli_container.c). */
#ifndef RVT_TRACE_IN_H
#define RVT_TRACE_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cli_opts.h"

typedef struct trace_in {
    const uint8_t *buf;   /* the stream (unwrapped when encapsulated) */
    size_t len;
    void *map;            /* the mapping, or NULL (read into memory) */
    size_t map_len;
    uint8_t *owned;       /* a malloc'd buffer to free, or NULL */
    bool unwrapped;       /* buf is an encapsulated stream's contents */
} trace_in;

/* Open path as kind k's stream; false after printing why. */
bool trace_in_open(trace_in *t, const char *path, cli_kind k);
void trace_in_close(trace_in *t);
/* Give back the whole pages of a mapped stream buf[from..to) (nothing for
 * a stream in memory): a private read-only mapping faults them in again
 * from the file if they are read later, so a reader that goes forward
 * keeps a bounded resident set whatever the file's size. */
void trace_in_drop_pages(const uint8_t *buf, uint64_t from, uint64_t to);

#endif
