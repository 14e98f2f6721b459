/* Creating an output file by name (create.c). */
#ifndef RVT_UTIL_CREATE_H
#define RVT_UTIL_CREATE_H

/* open(2) path for writing, created 0666 & ~umask if missing, emptied if
 * it has bytes: a write-only descriptor, or -1 with errno set.  An empty
 * file is not truncated again: ext4 (auto_da_alloc) writes a file that
 * was truncated back to disk when it is closed, which for a freshly made
 * temporary output (the CLI's, tools/rvtrace/cli_out.c) costs a second
 * or more per GB at close for nothing. */
int rvt_file_create(const char *path);

#endif
