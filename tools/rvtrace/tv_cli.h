/* rvtrace CLI: the tandem-verification trace pieces (tv_*.c, cmd_verify.c). */
#ifndef RVT_TV_CLI_H
#define RVT_TV_CLI_H

#include "rvtrace/hart.h"
#include "rvtrace/tv.h"

/* `run --tv F.tvt`: a writer on a file, fed by the hart's commit hook. */
typedef struct tv_out tv_out;
tv_out *tv_out_open(const char *path, unsigned xlen, bool eaddr, bool mem_bus);
void tv_out_hook(tv_out *t, rvt_hart_cfg *cfg);
/* The state-initialization group for the hart's reset state. */
int tv_out_start(tv_out *t, const rvt_hart *h);
/* NULL-safe; prints errors; returns 0 or CLI_FAIL. */
int tv_out_close(tv_out *t);
rvt_tv_writer *tv_out_writer(tv_out *t);
/* import qemu (tv_qemu.c): QEMU's state log -> OUT.tvt; a CLI status. */
int tv_import_qemu(const char *in, const char *out, rvt_image *img, unsigned xlen);

/* Open a .tvt file as a streaming reader (prints errors). */
rvt_tv_reader *tv_reader_open(const char *path, const rvt_tv_cfg *cfg, int *fd);
void tv_reader_close(rvt_tv_reader *r, int fd);
/* --xlen/--flen/--mlen, shared by dump and verify; true if argv[*i] was one. */
bool tv_cfg_option(int argc, char **argv, int *i, rvt_tv_cfg *cfg, bool *err);

#endif
