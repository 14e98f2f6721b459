/* decode's program images (cli_image.c): every --elf of the command line,
 * each in every address space or in the one its key names. */
#ifndef RVT_CLI_IMAGE_H
#define RVT_CLI_IMAGE_H

#include "rvtrace/mem.h"

typedef struct cli_mem cli_mem;

/* Load TRACE.images when trace is not NULL and it exists (run's image
 * map, docs/formats.md), then every --elf FILE[@KEY] and --image
 * FILE@ADDR (old spelling --raw) of argv, all repeatable: FILE and
 * FILE@ADDR into img (every space; img also serves listings and symbols;
 * a later one shadows an earlier one), FILE@KEY into an image of its own
 * for the space KEY names: comma-separated ctx=N, priv=U|S|M or 0..3,
 * src=N, each absent field a wildcard (include/rvtrace/mem.h).  NULL
 * after printing why (a file that does not load, a bad map line naming
 * its byte offset, a bad key or address: *usage set then). */
cli_mem *cli_image_load(rvt_image *img, const char *trace, int argc, char **argv, bool *usage);
/* TRACE.images into buf. */
void cli_image_map_name(char *buf, size_t n, const char *trace);
/* The length of a spec's FILE: before "@KEY" (--elf, elf true) or "@ADDR"
 * (--image). */
size_t cli_image_spec_file_len(bool elf, const char *spec);
/* TRACE.images exists. */
bool cli_image_map_exists(const char *trace);
/* The map said the trace starts in Spike's boot ROM (--machine spike). */
bool cli_image_reset_vector(const cli_mem *cm);
/* The file starts with the ELF magic. */
bool cli_is_elf(const char *path);
/* run --elf SPEC: a well-formed key, if any; --image SPEC: FILE@ADDR
 * (printed when not). */
bool cli_image_spec_ok(const char *spec);
bool cli_image_addr_ok(const char *spec);
/* run --elf FILE[@KEY] and --image FILE@ADDR: code the hart does not
 * load itself (user programs the kernel loads, U-Boot's relocated copy of
 * itself), for the image map only.  kind[i] is "elf" or "image". */
typedef struct cli_map_extra {
    const char **kind;
    const char **spec;
    size_t n;
} cli_map_extra;
/* run: TRACE.images, what img holds (each file once: "elf PATH", or
 * "image PATH@ADDR" for a raw binary), then "spike-reset-vector" when
 * asked, then each of extra.  Paths absolute.  CLI_OK or CLI_FAIL. */
int cli_image_map_write(const char *trace, const rvt_image *img, const cli_map_extra *extra,
                        bool reset_vector);
/* The rvt_mem decoders take: img in every space plus the keyed images. */
rvt_mem *cli_image_mem(cli_mem *cm);
/* The image the outputs read (listings, symbols, lengths): img, or with
 * keyed images one that also holds them (looked up by address alone: where
 * keyed images overlap, the one loaded last). */
rvt_image *cli_image_view(cli_mem *cm, rvt_image *img);
/* Some --elf FILE@KEY: code img does not hold. */
bool cli_image_keyed(const cli_mem *cm);
void cli_image_free(cli_mem *cm);

#endif
