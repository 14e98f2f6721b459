/* perf.data in dump and decode (cli_perf.c, issue #16). */
#ifndef RVT_CLI_PERF_H
#define RVT_CLI_PERF_H

#include <stdbool.h>
#include "cli_opts.h"

/* Whether the file starts with perf.data's magic. */
bool cli_perf_file(const char *path);
/* dump FILE for a perf.data: the records, then totals per type. */
int cli_perf_dump(const cli_args *a, const char *path);
/* decode FILE --symfs DIR for a perf.data: each CPU's AUX data. */
int cli_perf_decode(const cli_args *a, const char *path);

#endif
