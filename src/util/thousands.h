/* Numbers with thousands separators ("1,234,567"), for the CLI's
 * summaries and the profile report. */
#ifndef RVT_UTIL_THOUSANDS_H
#define RVT_UTIL_THOUSANDS_H

#include <stddef.h>
#include <stdint.h>

/* v with a comma every three digits, into buf (truncated to n - 1). */
const char *rvt_thousands(uint64_t v, char *buf, size_t n);

#endif
