/* Data accesses as text, one per line (rvt_te_drec_format): the hart's
 * records (`rvtrace run --data-out F`) and the accesses the data-trace
 * decoder rebuilds (`rvtrace decode F.te --data OUT`), so that a test can
 * compare the two files. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/etrace.h"

typedef struct data_text {
    FILE *f;
    const char *path;
    unsigned omit;
} data_text;

static int put_line(data_text *t, const rvt_drec *d)
{
    char line[128];
    int n = rvt_te_drec_format(d, t->omit, line, sizeof line);
    if (n < 0)
        return n;
    line[n] = '\n';
    return fwrite(line, 1, (size_t)n + 1, t->f) == (size_t)n + 1 ? 0 : RVT_ERR_IO;
}

/* A split load or atomic is listed once, complete, at its response (which
 * repeats the request's fields): the order the data-trace decoder
 * reports accesses in (docs/etrace.md "Split loads"). */
static int hart_data(void *ctx, const rvt_drec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (recs[i].flags & RVT_DREC_F_SPLIT_REQ)
            continue;
        int st = put_line(ctx, &recs[i]);
        if (st < 0)
            return st;
    }
    return 0;
}

static int no_put(void *ctx, const rvt_irec *r, size_t n) { (void)ctx; (void)r; (void)n; return 0; }

static data_text *text_open(const char *path, unsigned omit)
{
    data_text *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->path = path;
    t->omit = omit;
    t->f = cli_out_fopen(path, "w");
    if (!t->f) {
        free(t);
        return NULL;
    }
    return t;
}

static int text_close(data_text *t)
{
    int bad = ferror(t->f);
    if (t->f != stdout)
        bad |= fclose(t->f) != 0;
    else
        bad |= fflush(stdout) != 0;
    if (bad)
        cli_err("%s: write error", t->path);
    free(t);
    return bad ? CLI_FAIL : CLI_OK;
}

int data_text_open(const char *path, rvt_irec_sink *out, void **handle)
{
    data_text *t = text_open(path, 0);
    *handle = t;
    if (!t)
        return CLI_FAIL;
    rvt_irec_sink k = { t, no_put, hart_data, NULL };
    *out = k;
    return CLI_OK;
}

int data_text_close(void *handle)
{
    return handle ? text_close(handle) : CLI_OK;
}

static int dec_access(void *ctx, const rvt_drec *d, uint64_t offset)
{
    (void)offset;
    return put_line(ctx, d);
}

int te_data_decode(const rvt_te_attrs *a, const uint8_t *buf, size_t len, const char *in,
                   const char *out)
{
    unsigned omit = (a->no_address ? RVT_TE_DREC_NO_ADDR : 0) | (a->no_data ? RVT_TE_DREC_NO_DATA : 0);
    data_text *t = text_open(out, omit);
    if (!t)
        return CLI_FAIL;
    int st;
    rvt_te_data_decoder *d = rvt_te_data_decoder_new(a, dec_access, t, &st);
    if (!d) {
        cli_err("%s: %s", in, rvt_status_str(st));
        text_close(t);
        return CLI_FAIL;
    }
    rvt_te_data_decoder_set_diag(d, cli_diag, (void *)in);
    if (cli_container_mid_stream())     /* a wrapped sink buffer: loss said already */
        rvt_te_data_decoder_mid_stream(d);
    int errs = rvt_te_data_decoder_run(d, buf, len);
    rvt_te_data_decoder_free(d);
    if (errs < 0)
        cli_err("%s: %s", out, rvt_status_str(errs));
    int rc = text_close(t);
    /* Errors in the stream are reported and decoding goes on past them:
     * the output covers the whole stream, so it is kept (cli_out.c). */
    if (rc == CLI_OK && errs >= 0)
        rc = cli_out_commit();
    return errs != 0 ? CLI_FAIL : rc;
}
