/* Finding a trace's index (cli_index.h): TRACE.idx, else built. */
#include <errno.h>
#include <string.h>
#include "cli.h"
#include "cli_index.h"

void cli_index_path(const char *trace, char *buf, size_t n)
{
    snprintf(buf, n, "%s.idx", trace);
}

/* The scan has passed these bytes: their pages go back to the file. */
typedef struct scan_pages {
    const uint8_t *buf;
    uint64_t dropped;         /* pages before this are given back already */
} scan_pages;

static void scanned(void *ctx, uint64_t upto)
{
    scan_pages *s = ctx;
    trace_in_drop_pages(s->buf, s->dropped, upto);
    s->dropped = upto;
}

rvt_index *cli_index_build(const char *path, const rvt_proto_cfg *c, const trace_in *in,
                           uint64_t min_gap)
{
    rvt_index *x = NULL;
    scan_pages pages = { in->buf, 0 };
    int st = rvt_index_build_stream(c, in->buf, in->len, 0, min_gap, in->map ? scanned : NULL,
                                    &pages, &x);
    if (st < 0)
        cli_err("%s: cannot index: %s", path, rvt_status_str(st));
    return x;
}

/* An index file that exists is read; one that is damaged is an error (the
 * user made it and should know), one for another stream is passed over. */
static rvt_index *read_file(const char *ipath, FILE *f, const rvt_proto_cfg *c,
                            const trace_in *in, bool *stale)
{
    rvt_index *x = NULL;
    uint64_t bad = 0;
    const char *why = NULL;
    int st = rvt_index_read(f, &x, &bad, &why);
    if (st < 0) {
        if (why)
            cli_diag((void *)ipath, RVT_DIAG_ERROR, bad, why);
        else
            cli_err("%s: cannot read: %s", ipath, rvt_status_str(st));
        return NULL;
    }
    const char *proto = rvt_proto_name(rvt_proto_cfg_proto(c));
    *stale = rvt_index_stream_size(x) != in->len || strncmp(proto, rvt_index_proto(x), 6);
    if (*stale) {
        cli_err("%s: written for another stream (%s, %llu bytes; the trace is %s, %zu bytes): "
                "indexing in memory instead", ipath, rvt_index_proto(x),
                (unsigned long long)rvt_index_stream_size(x), proto, in->len);
        rvt_index_free(x);
        return NULL;
    }
    return x;
}

rvt_index *cli_index_get(const char *path, const rvt_proto_cfg *c, const trace_in *in,
                         uint64_t min_gap)
{
    char ipath[4096];
    cli_index_path(path, ipath, sizeof ipath);
    FILE *f = in->unwrapped ? NULL : fopen(ipath, "rb");
    if (!f)
        return cli_index_build(path, c, in, min_gap);
    bool stale = false;
    rvt_index *x = read_file(ipath, f, c, in, &stale);
    fclose(f);
    if (x && rvt_index_sources(x) > 1) {
        /* the file keeps only how many sources there are: decode --jobs
         * needs them in the order of their first message, and each
         * source's points (parallel.md) */
        rvt_index_free(x);
        return cli_index_build(path, c, in, min_gap);
    }
    return x || !stale ? x : cli_index_build(path, c, in, min_gap);
}
