/* rvtrace dump of a binary PC list (pcbin_dump.c). */
#ifndef RVT_PCBIN_DUMP_H
#define RVT_PCBIN_DUMP_H

#include <stdbool.h>

/* path starts with the binary PC list's magic. */
bool pcbin_is_file(const char *path);
/* Its PCs as text on stdout (decode --pcs's form); a damaged list is
 * reported with its byte offset.  CLI_OK or CLI_FAIL. */
int pcbin_dump_file(const char *path);

#endif
