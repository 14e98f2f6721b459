/* rvtrace: status codes and diagnostics shared by every module. */
#ifndef RVTRACE_STATUS_H
#define RVTRACE_STATUS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Functions return 0 (or a positive count) on success and one of these,
 * negative, on error.  rvt_status_str() names each. */
enum rvt_status {
    RVT_OK = 0,
    RVT_ERR_NOMEM = -1,      /* allocation failed */
    RVT_ERR_INVAL = -2,      /* bad argument or configuration */
    RVT_ERR_IO = -3,         /* read/write error (errno has details) */
    RVT_ERR_FORMAT = -4,     /* corrupt or malformed input */
    RVT_ERR_TRUNC = -5,      /* input ends inside a record/packet/message */
    RVT_ERR_EOS = -6,        /* end of stream (not an error for iterators) */
    RVT_ERR_NOSYNC = -7,     /* no synchronisation point seen yet */
    RVT_ERR_NOCODE = -8,     /* no program image at the needed address */
    RVT_ERR_MISMATCH = -9,   /* trace contradicts the program image */
    RVT_ERR_LIMIT = -10,     /* a configured limit was reached */
    RVT_ERR_ELF = -11,       /* bad or hostile ELF file */
    RVT_ERR_VERSION = -12,   /* file version not understood */
    RVT_ERR_RANGE = -13,     /* value does not fit the configured width */
    RVT_ERR_STATE = -14,     /* call not valid in the object's current state */
};

const char *rvt_status_str(int status);

/* Severity of a diagnostic passed to an rvt_diag_fn. */
enum rvt_diag_level {
    RVT_DIAG_INFO = 0,
    RVT_DIAG_WARN = 1,
    RVT_DIAG_ERROR = 2,
};

/* Optional diagnostics callback: the library never prints.  offset is the
 * byte offset in the input the message refers to, or UINT64_MAX if none. */
typedef void (*rvt_diag_fn)(void *ctx, int level, uint64_t offset, const char *msg);

#ifdef __cplusplus
}
#endif
#endif
