/* rvtrace input files: every reader opens its input through here, so a
 * directory, FIFO or device given as a trace file is refused with a clear
 * reason instead of blocking or failing oddly (docs/reliability.md). */
#ifndef RVTRACE_IO_H
#define RVTRACE_IO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Open `path` for reading.  "-" is standard input (any file type).  Any
 * other path must be a regular file.  Returns a file descriptor, or a
 * negative rvt_status with *why (if given) set to a short static reason. */
int rvt_open_input(const char *path, const char **why);

/* Read a whole regular file (at most max_len bytes; 0 = 1 GiB).  Returns a
 * malloc'd buffer (free() it) and its length, or NULL with *status and *why. */
uint8_t *rvt_read_file(const char *path, size_t max_len, size_t *len, int *status, const char **why);

#ifdef __cplusplus
}
#endif
#endif
