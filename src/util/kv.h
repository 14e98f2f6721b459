/* The one "name=value" settings text (the .attrs sidecar of every protocol,
 * docs/format-te.md, docs/format-nt.md): one reader and one writer. */
#ifndef RVT_UTIL_KV_H
#define RVT_UTIL_KV_H

#include <stddef.h>
#include <stdio.h>
#include "rvtrace/status.h"

typedef int (*rvt_kv_set_fn)(void *obj, const char *name, const char *value);
typedef int (*rvt_kv_get_fn)(const void *obj, const char *name, char *buf, size_t n);
/* The i-th name of obj's settings in file order, NULL past the end. */
typedef const char *(*rvt_kv_name_fn)(const void *obj, size_t i);

/* Read "name=value" lines (blank lines and '#' comments skipped, leading
 * blanks ignored) into obj through set.  Every bad line is reported through
 * diag (may be NULL) as "line N: bad setting 'TEXT'" at offset UINT64_MAX;
 * *bad_line (may be NULL) gets the first one.  Returns 0, the first bad
 * line's status, or RVT_ERR_IO. */
int rvt_kv_read(FILE *f, rvt_kv_set_fn set, void *obj, rvt_diag_fn diag, void *diag_ctx,
                unsigned *bad_line);
/* Write "# HEADER\n" then "name=value\n" for every name, in order. */
int rvt_kv_write(FILE *f, const char *header, rvt_kv_name_fn name_at, rvt_kv_get_fn get,
                 const void *obj);

#endif
