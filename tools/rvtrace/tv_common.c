/* Shared by `dump F.tvt` and `verify`: opening a .tvt stream and the
 * parameter options (TV ch. 3: the stream does not carry XLEN/FLEN/MLEN;
 * docs/tv.md). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "rvtrace/io.h"
#include "tv_cli.h"

static long fd_read(void *ctx, uint8_t *buf, size_t n)
{
    ssize_t r = read(*(int *)ctx, buf, n);
    return r < 0 ? RVT_ERR_IO : (long)r;
}

rvt_tv_reader *tv_reader_open(const char *path, const rvt_tv_cfg *cfg, int *fd)
{
    const char *why = NULL;
    *fd = rvt_open_input(path, &why);
    if (*fd < 0) {
        cli_err("%s: %s", path, why ? why : rvt_status_str(*fd));
        return NULL;
    }
    int st;
    rvt_tv_reader *r = rvt_tv_reader_new(cfg, fd_read, fd, &st);
    if (!r) {
        cli_err("%s: %s", path, rvt_status_str(st));
        if (*fd > 0)
            close(*fd);
    }
    return r;
}

void tv_reader_close(rvt_tv_reader *r, int fd)
{
    rvt_tv_reader_free(r);
    if (fd > 0)
        close(fd);
}

static bool num(const char *name, const char *v, unsigned *out, bool *err)
{
    uint64_t x;
    if (!cli_parse_range(name, v, CLI_NUM_PLAIN, 0, 128, &x)) {
        *err = true;
        return true;
    }
    *out = (unsigned)x;
    return true;
}

bool tv_cfg_option(int argc, char **argv, int *i, rvt_tv_cfg *cfg, bool *err)
{
    const char *v;
    if ((v = cli_opt(argc, argv, i, "--xlen")))
        return num("--xlen", v, &cfg->xlen, err);
    if ((v = cli_opt(argc, argv, i, "--flen")))
        return num("--flen", v, &cfg->flen, err);
    if ((v = cli_opt(argc, argv, i, "--mlen")))
        return num("--mlen", v, &cfg->mlen, err);
    return false;
}
