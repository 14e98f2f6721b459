/* decode's program images (cli_image.c): every --elf of the command line,
 * each in every address space or in the one its key names. */
#ifndef RVT_CLI_IMAGE_H
#define RVT_CLI_IMAGE_H

#include "rvtrace/mem.h"

typedef struct cli_mem cli_mem;

/* Load every --elf FILE[@KEY] of argv (repeatable): FILE alone into img
 * (every space; img also serves listings and symbols), FILE@KEY into an
 * image of its own for the space KEY names: comma-separated ctx=N,
 * priv=U|S|M or 0..3, src=N, each absent field a wildcard
 * (include/rvtrace/mem.h).  NULL after printing why (a file that does not
 * load, a bad key: *usage set then). */
cli_mem *cli_image_load(rvt_image *img, int argc, char **argv, bool *usage);
/* The rvt_mem decoders take: img in every space plus the keyed images. */
rvt_mem *cli_image_mem(cli_mem *cm);
/* Some --elf FILE@KEY: code img does not hold. */
bool cli_image_keyed(const cli_mem *cm);
void cli_image_free(cli_mem *cm);

#endif
