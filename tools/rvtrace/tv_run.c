/* `rvtrace run --tv F.tvt`: the hart's commit hook writes one group per
 * retired instruction or trap (src/tv/from_hart.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "tv_cli.h"

struct tv_out {
    FILE *f;
    const char *path;
    rvt_tv_writer *w;
};

static int file_write(void *ctx, const uint8_t *buf, size_t n)
{
    return fwrite(buf, 1, n, ctx) == n ? RVT_OK : RVT_ERR_IO;
}

tv_out *tv_out_open(const char *path, unsigned xlen, bool eaddr, bool mem_bus)
{
    tv_out *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->path = path;
    t->f = cli_out_fopen(path, "wb");
    if (!t->f) {
        free(t);
        return NULL;
    }
    rvt_tv_writer_cfg wc = { .tv = { .xlen = xlen }, .write = file_write, .write_ctx = t->f,
                             .eaddr = eaddr, .mem_bus = mem_bus };
    int st;
    t->w = rvt_tv_writer_new(&wc, &st);
    if (!t->w) {
        cli_err("%s: %s", path, rvt_status_str(st));
        fclose(t->f);
        free(t);
        return NULL;
    }
    return t;
}

rvt_tv_writer *tv_out_writer(tv_out *t)
{
    return t->w;
}

void tv_out_hook(tv_out *t, rvt_hart_cfg *cfg)
{
    if (!t)
        return;
    cfg->on_commit = rvt_tv_writer_on_commit;
    cfg->commit_ctx = t->w;
}

int tv_out_start(tv_out *t, const rvt_hart *h)
{
    if (!t)
        return 0;
    int r = rvt_tv_writer_init_state(t->w, h);
    if (r < 0) {
        cli_err("%s: %s", t->path, rvt_status_str(r));
        return CLI_FAIL;
    }
    return 0;
}

int tv_out_close(tv_out *t)
{
    if (!t)
        return 0;
    int r = rvt_tv_writer_free(t->w);
    bool bad = r < 0 || fclose(t->f) != 0;
    if (bad)
        cli_err("%s: write error", t->path);
    free(t);
    return bad ? CLI_FAIL : 0;
}
