/* A trace's index for decode --jobs and rvtrace index (cli_index.c). */
#ifndef RVT_CLI_INDEX_H
#define RVT_CLI_INDEX_H

#include "rvtrace/index.h"
#include "trace_in.h"

/* "TRACE.idx" into buf. */
void cli_index_path(const char *trace, char *buf, size_t n);
/* The index of the trace `in` read from `path`: TRACE.idx when it exists
 * and was written for this stream, else built in memory (said on stderr
 * when a stale TRACE.idx is passed over), min_gap as cli_index_build.  NULL after printing why (a
 * damaged TRACE.idx: its byte offset). */
rvt_index *cli_index_get(const char *path, const rvt_proto_cfg *c, const trace_in *in,
                         uint64_t min_gap);
/* Build it in memory, points min_gap bytes apart or more (index.h);
 * NULL after printing why. */
rvt_index *cli_index_build(const char *path, const rvt_proto_cfg *c, const trace_in *in,
                           uint64_t min_gap);

#endif
