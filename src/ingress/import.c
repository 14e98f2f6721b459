/* Importer driver: opens the input, reads it line by line through a
 * bounded buffer, batches the blocks for the sink, and reports errors with
 * the line number and byte offset. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ingress/import_internal.h"
#include "rvtrace/io.h"

static const char *const fmt_names[] = { "refcsv", "spikecsv", "spikelog", "pcs" };

int rvt_import_format(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (name && !strcmp(name, fmt_names[i]))
            return i;
    return -1;
}

const char *rvt_import_format_name(rvt_import_fmt fmt)
{
    return (unsigned)fmt < 4 ? fmt_names[fmt] : "?";
}

static void imp_vdiag(imp *m, int level, uint64_t off, const char *fmt, va_list ap)
{
    if (!m->cfg->diag)
        return;
    char msg[400];
    int k = snprintf(msg, sizeof msg, "line %" PRIu64 ": ", m->lineno);
    vsnprintf(msg + k, sizeof msg - (size_t)k, fmt, ap);
    m->cfg->diag(m->cfg->diag_ctx, level, off, msg);
}

int imp_fail(imp *m, int status, size_t col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    uint64_t off = m->line_off + col;
    imp_vdiag(m, RVT_DIAG_ERROR, off, fmt, ap);
    va_end(ap);
    m->res->err_line = m->lineno;
    m->res->err_offset = off;
    return status;
}

void imp_warn(imp *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    imp_vdiag(m, RVT_DIAG_WARN, m->line_off, fmt, ap);
    va_end(ap);
}

static int imp_flush(imp *m)
{
    int rc = m->nbatch ? m->sink->put(m->sink->ctx, m->batch, m->nbatch) : RVT_OK;
    m->nbatch = 0;
    return rc;
}

int imp_emit(imp *m, const rvt_irec *r)
{
    m->batch[m->nbatch++] = *r;
    m->res->records++;
    if (r->itype == 1 || r->itype == 2)
        m->res->traps++;
    return m->nbatch == IMP_BATCH ? imp_flush(m) : RVT_OK;
}

/* Refill so that a whole line (up to IMP_LINE_MAX) is in the buffer. */
static int imp_fill(imp *m)
{
    memmove(m->buf, m->buf + m->pos, m->len - m->pos);
    m->base += m->pos;
    m->len -= m->pos;
    m->pos = 0;
    while (!m->eof && m->len < sizeof m->buf - 1) {
        ssize_t k = read(m->fd, m->buf + m->len, sizeof m->buf - 1 - m->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return imp_fail(m, RVT_ERR_IO, 0, "read error: %s", strerror(errno));
        if (k == 0)
            m->eof = true;
        m->len += (size_t)k;
        if (memchr(m->buf + m->len - (size_t)k, '\n', (size_t)k))
            break;
    }
    return RVT_OK;
}

int imp_next_line(imp *m)
{
    char *start = m->buf + m->pos;
    char *nl = memchr(start, '\n', m->len - m->pos);
    if (!nl) {
        int rc = imp_fill(m);
        if (rc < 0)
            return rc;
        start = m->buf + m->pos;
        nl = memchr(start, '\n', m->len - m->pos);
    }
    size_t avail = m->len - m->pos;
    if (!nl && avail == 0)
        return 0;
    size_t n = nl ? (size_t)(nl - start) : avail;
    m->lineno++;
    m->line_off = m->base + m->pos;
    if (n > IMP_LINE_MAX)
        return imp_fail(m, RVT_ERR_FORMAT, 0, "line longer than %d bytes", IMP_LINE_MAX);
    if (memchr(start, '\0', n))
        return imp_fail(m, RVT_ERR_FORMAT, (size_t)((char *)memchr(start, '\0', n) - start),
                        "NUL byte (binary data?)");
    m->pos += n + (nl ? 1 : 0);
    if (n && start[n - 1] == '\r')
        n--;
    start[n] = '\0';
    m->line = start;
    m->res->lines++;
    return 1;
}

int imp_csv_split(imp *m, imp_csv *c)
{
    size_t n = strlen(m->line);
    memcpy(c->copy, m->line, n + 1);
    c->n = 0;
    char *p = c->copy;
    for (;;) {
        if (c->n == IMP_MAX_COLS)
            return imp_fail(m, RVT_ERR_FORMAT, (size_t)(p - c->copy), "more than %d columns",
                            IMP_MAX_COLS);
        c->at[c->n] = (size_t)(p - c->copy);
        c->f[c->n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return RVT_OK;
}

int imp_csv_header(imp *m, imp_csv *c, const char *const *names, const bool *required,
                   unsigned nnames, int *idx)
{
    for (unsigned i = 0; i < nnames; i++)
        idx[i] = -1;
    for (unsigned k = 0; k < c->n; k++) {
        unsigned i = 0;
        while (i < nnames && strcmp(c->f[k], names[i]) != 0)
            i++;
        if (i == nnames)
            return imp_fail(m, RVT_ERR_FORMAT, c->at[k], "unknown column '%.40s' in header",
                            c->f[k]);
        if (idx[i] >= 0)
            return imp_fail(m, RVT_ERR_FORMAT, c->at[k], "column '%s' twice", names[i]);
        idx[i] = (int)k;
    }
    for (unsigned i = 0; i < nnames; i++)
        if (required[i] && idx[i] < 0)
            return imp_fail(m, RVT_ERR_FORMAT, 0, "header lacks column '%s'", names[i]);
    return RVT_OK;
}

size_t imp_parse_hex(const char *s, uint64_t *v)
{
    size_t i = 0;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        i = 2;
    size_t start = i;
    uint64_t x = 0;
    for (;; i++) {
        unsigned d;
        char ch = s[i];
        if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f') d = (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F') d = (unsigned)(ch - 'A' + 10);
        else break;
        if (x >> 60)
            return 0;               /* more than 64 bits */
        x = x << 4 | d;
    }
    if (i == start)
        return 0;
    *v = x;
    return i;
}

static int csv_field(imp *m, const imp_csv *c, int col, const char *what, const char **s)
{
    if (col < 0 || (unsigned)col >= c->n)
        return imp_fail(m, RVT_ERR_FORMAT, strlen(m->line), "missing column '%s' (%u columns)",
                        what, c->n);
    *s = c->f[col];
    return RVT_OK;
}

static int check_max(imp *m, const imp_csv *c, int col, const char *what, uint64_t v, uint64_t max)
{
    if (v > max)
        return imp_fail(m, RVT_ERR_RANGE, c->at[col], "%s %" PRIu64 " out of range (max %" PRIu64
                        ")", what, v, max);
    return RVT_OK;
}

int imp_csv_hex(imp *m, const imp_csv *c, int col, const char *what, uint64_t max, uint64_t *v)
{
    const char *s = "";
    int rc = csv_field(m, c, col, what, &s);
    if (rc < 0)
        return rc;
    size_t n = imp_parse_hex(s, v);
    if (!n || s[n])
        return imp_fail(m, RVT_ERR_FORMAT, c->at[col], "%s: '%.40s' is not a hex number", what, s);
    return check_max(m, c, col, what, *v, max);
}

int imp_csv_dec(imp *m, const imp_csv *c, int col, const char *what, uint64_t max, uint64_t *v)
{
    const char *s = "";
    int rc = csv_field(m, c, col, what, &s);
    if (rc < 0)
        return rc;
    uint64_t x = 0;
    size_t i = 0;
    for (; s[i] >= '0' && s[i] <= '9'; i++) {
        if (x > (UINT64_MAX - 9) / 10)
            return imp_fail(m, RVT_ERR_RANGE, c->at[col], "%s: number too large", what);
        x = x * 10 + (uint64_t)(s[i] - '0');
    }
    if (!i || s[i])
        return imp_fail(m, RVT_ERR_FORMAT, c->at[col], "%s: '%.40s' is not a decimal number",
                        what, s);
    *v = x;
    return check_max(m, c, col, what, x, max);
}

static int imp_open(imp *m, const char *path)
{
    const char *why = "";
    m->own_fd = strcmp(path, "-") != 0;
    m->fd = rvt_open_input(path, &why);
    if (m->fd < 0) {
        if (m->cfg->diag) {
            char msg[300];
            snprintf(msg, sizeof msg, "cannot open: %s", why);
            m->cfg->diag(m->cfg->diag_ctx, RVT_DIAG_ERROR, UINT64_MAX, msg);
        }
        return RVT_ERR_IO;
    }
    return RVT_OK;
}

int rvt_import_file(rvt_import_fmt fmt, const char *path, const rvt_import_cfg *cfg,
                    const rvt_irec_sink *sink, rvt_import_result *res)
{
    static int (*const run[])(imp *) = { imp_refcsv, imp_spikecsv, imp_spikelog, imp_pcs };
    rvt_import_result dummy;
    if (!res)
        res = &dummy;
    memset(res, 0, sizeof *res);
    res->itype_width = 4;
    if ((unsigned)fmt >= 4 || !path || !cfg || !sink || !sink->put)
        return RVT_ERR_INVAL;
    if (fmt == RVT_IMPORT_PCS && !cfg->image)
        return RVT_ERR_INVAL;
    imp *m = calloc(1, sizeof *m);
    if (!m)
        return RVT_ERR_NOMEM;
    m->cfg = cfg;
    m->sink = sink;
    m->res = res;
    m->xlen = cfg->xlen ? cfg->xlen : cfg->image && rvt_image_xlen(cfg->image)
                                          ? rvt_image_xlen(cfg->image) : 64;
    int rc = imp_open(m, path);
    if (rc == RVT_OK)
        rc = run[fmt](m);
    /* Streaming semantics: the records parsed before a bad line reach the
     * sink before the error is returned, as they would had the batch been
     * full (a sink's own failure already emptied the batch). */
    int frc = imp_flush(m);
    if (rc >= 0)
        rc = frc;
    if (rc >= 0 && sink->end)
        rc = sink->end(sink->ctx);
    if (m->own_fd && m->fd >= 0)
        close(m->fd);
    free(m);
    return rc < 0 ? rc : RVT_OK;
}
