/* `rvtrace import qemu LOG --elf P.elf -o OUT.tvt`: QEMU's per-instruction
 * state log (-singlestep -d cpu,fpu,nochain,int) as a tandem-verification
 * trace (src/tv/qemu_log.c), for `rvtrace verify --dut qemu`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "tv_cli.h"

static FILE *open_log(const char *in)
{
    if (!strcmp(in, "-"))
        return stdin;
    FILE *f = fopen(in, "r");
    if (!f)
        cli_err("%s: cannot open", in);
    return f;
}

/* Feeds the log line by line; errors name the line's byte offset. */
static int feed(rvt_tv_qemu *q, FILE *f, const char *in)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    uint64_t off = 0;
    int r = RVT_OK;
    while (r >= 0 && (n = getline(&line, &cap, f)) >= 0) {
        if (memchr(line, 0, (size_t)n)) {
            r = RVT_ERR_FORMAT;
        } else {
            if (n && line[n - 1] == '\n')
                line[n - 1] = 0;
            r = rvt_tv_qemu_line(q, line);
        }
        if (r < 0)
            cli_diag((void *)in, RVT_DIAG_ERROR, off, "not a QEMU -d cpu,fpu,int state log line");
        off += (uint64_t)n;
    }
    free(line);
    if (r >= 0 && ferror(f)) {
        cli_err("%s: read error", in);
        r = RVT_ERR_IO;
    }
    if (r >= 0 && (r = rvt_tv_qemu_end(q)) < 0)
        cli_err("%s: the log never reaches the program's entry, or ends inside a state", in);
    return r;
}

int tv_import_qemu(const char *in, const char *out, rvt_image *img, unsigned xlen)
{
    if (!cli_in(in))
        return CLI_FAIL;
    tv_out *t = tv_out_open(out, xlen, false, false);
    if (!t)
        return CLI_FAIL;
    FILE *f = open_log(in);
    int r = RVT_ERR_IO;
    if (f) {
        rvt_tv_qemu_cfg qc = { .xlen = xlen, .start = rvt_image_entry(img), .img = img,
                               .out = tv_out_writer(t) };
        rvt_tv_qemu *q = rvt_tv_qemu_new(&qc, &r);
        if (q)
            r = feed(q, f, in);
        rvt_tv_qemu_free(q);
        if (f != stdin)
            fclose(f);
    }
    int c = tv_out_close(t);
    if (r >= 0 && c == 0)
        return cli_out_commit() ? CLI_FAIL : CLI_OK;
    return CLI_FAIL;
}
