/* Streaming .rvi reader (docs/format-rvi.md).  Reads through a 64 KiB
 * buffer; every error names the byte offset it refers to and is sticky. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "rvtrace/ingress.h"
#include "rvtrace/io.h"
#include "ingress/rvi_format.h"

#define RVI_RBUF (64u * 1024u)

struct rvt_rvi_reader {
    int fd;
    bool own_fd;
    bool eof;
    bool done;               /* end marker read */
    int err;                 /* sticky error */
    unsigned xlen, flags, version;
    uint64_t base;           /* file offset of buf[0] */
    size_t pos, len;
    uint64_t rec_off;        /* offset of the current record / error */
    uint64_t count;
    bool have_prev;
    rvt_irec prev;
    rvt_diag_fn diag;
    void *diag_ctx;
    uint8_t buf[RVI_RBUF];
};

static int rd_fail(rvt_rvi_reader *r, int status, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int rd_fail(rvt_rvi_reader *r, int status, uint64_t off, const char *fmt, ...)
{
    r->err = status;
    r->rec_off = off;
    if (r->diag) {
        char msg[256];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        r->diag(r->diag_ctx, RVT_DIAG_ERROR, off, msg);
    }
    return status;
}

/* Make n bytes available at buf+pos; returns how many are (< n at EOF). */
static size_t rd_fill(rvt_rvi_reader *r, size_t n)
{
    if (r->len - r->pos >= n || r->eof)
        return r->len - r->pos;
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->base += r->pos;
    r->len -= r->pos;
    r->pos = 0;
    while (r->len < n && !r->eof) {
        ssize_t k = read(r->fd, r->buf + r->len, RVI_RBUF - r->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            rd_fail(r, RVT_ERR_IO, r->base + r->len, "read error: %s", strerror(errno));
            r->eof = true;
        } else if (k == 0) {
            r->eof = true;
        } else {
            r->len += (size_t)k;
        }
    }
    return r->len - r->pos;
}

static uint64_t rd_off(const rvt_rvi_reader *r)
{
    return r->base + r->pos;
}

static int rd_header(rvt_rvi_reader *r)
{
    size_t have = rd_fill(r, RVI_HEADER_LEN);
    if (r->err)
        return r->err;
    const uint8_t *h = r->buf;
    if (memcmp(h, RVI_MAGIC, have < 4 ? have : 4) != 0)
        return rd_fail(r, RVT_ERR_FORMAT, 0, "bad magic (not an .rvi file)");
    if (have < RVI_HEADER_LEN)
        return rd_fail(r, RVT_ERR_TRUNC, 0, "truncated header (%zu of %u bytes)", have,
                       RVI_HEADER_LEN);
    r->version = rvi_get16(h + 4);
    if (r->version != RVI_VERSION)
        return rd_fail(r, RVT_ERR_VERSION, 4, "unknown version %u (this reader knows %u)",
                       r->version, RVI_VERSION);
    r->xlen = h[6];
    if (r->xlen != 0 && r->xlen != 32 && r->xlen != 64)
        return rd_fail(r, RVT_ERR_FORMAT, 6, "bad xlen %u", r->xlen);
    r->flags = h[7];
    if (r->flags & ~(unsigned)RVT_RVI_F_KNOWN)
        return rd_fail(r, RVT_ERR_FORMAT, 7, "unknown header flags 0x%02x", r->flags);
    uint32_t hlen = rvi_get32(h + 8);
    if (hlen < RVI_HEADER_LEN || hlen > RVI_HEADER_MAX)
        return rd_fail(r, RVT_ERR_FORMAT, 8, "bad header length %" PRIu32, hlen);
    /* Version 1 writers write 16 bytes; longer headers are skipped. */
    if (rd_fill(r, hlen) < hlen)
        return rd_fail(r, RVT_ERR_TRUNC, 0, "truncated header (%" PRIu32 " bytes)", hlen);
    r->pos += hlen;
    return RVT_OK;
}

rvt_rvi_reader *rvt_rvi_reader_open_diag(const char *path, rvt_diag_fn diag, void *diag_ctx,
                                         int *status)
{
    rvt_rvi_reader *r = calloc(1, sizeof *r);
    int st = r ? RVT_OK : RVT_ERR_NOMEM;
    if (r) {
        r->diag = diag;
        r->diag_ctx = diag_ctx;
        const char *why = "";
        r->own_fd = strcmp(path, "-") != 0;
        r->fd = rvt_open_input(path, &why);
        if (r->fd < 0)
            st = rd_fail(r, RVT_ERR_IO, UINT64_MAX, "cannot open: %s", why);
        else
            st = rd_header(r);
        if (st < 0) {
            rvt_rvi_reader_close(r);
            r = NULL;
        }
    }
    if (status)
        *status = st;
    return r;
}

rvt_rvi_reader *rvt_rvi_reader_open(const char *path, int *status)
{
    return rvt_rvi_reader_open_diag(path, NULL, NULL, status);
}

void rvt_rvi_reader_set_diag(rvt_rvi_reader *r, rvt_diag_fn fn, void *ctx)
{
    r->diag = fn;
    r->diag_ctx = ctx;
}

unsigned rvt_rvi_reader_xlen(const rvt_rvi_reader *r)
{
    return r->xlen;
}

unsigned rvt_rvi_reader_flags(const rvt_rvi_reader *r)
{
    return r->flags;
}

uint64_t rvt_rvi_reader_offset(const rvt_rvi_reader *r)
{
    return r->rec_off;
}

/* A block's sizes, in both forms (at_*: the fields' offsets). */
static int check_sizes(rvt_rvi_reader *r, const rvt_irec *b, uint64_t at_ninstr, uint64_t at_iretire)
{
    /* every instruction is at least one half-word (E-Trace 4.2) */
    if (b->ninstr > b->iretire)
        return rd_fail(r, RVT_ERR_FORMAT, at_ninstr, "ninstr %" PRIu32 " > iretire %" PRIu32,
                       b->ninstr, b->iretire);
    /* table 4.3: the last instruction alone is 2^ilastsize half-words */
    if (b->ninstr && b->iretire < (1u << b->ilastsize))
        return rd_fail(r, RVT_ERR_FORMAT, at_iretire,
                       "iretire %" PRIu32 " < the last instruction's %u half-words (ilastsize %u)",
                       b->iretire, 1u << b->ilastsize, b->ilastsize);
    return RVT_OK;
}

static int check_block(rvt_rvi_reader *r, const rvt_irec *b, uint64_t p)
{
    /* p: offset of the payload; field offsets from rvi_format.h */
    if (b->itype > 15)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_ITYPE, "itype %u > 15", b->itype);
    if (b->ilastsize > 3)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_ILASTSIZE, "ilastsize %u > 3", b->ilastsize);
    if (b->priv > 7)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_PRIV, "priv %u > 7", b->priv);
    if (b->ctype > 3)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_CTYPE, "ctype %u > 3", b->ctype);
    if (b->sijump > 1)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_SIJUMP, "sijump %u > 1", b->sijump);
    if (b->flags & ~RVI_IREC_FLAGS_KNOWN)
        return rd_fail(r, RVT_ERR_FORMAT, p + RB_FLAGS, "unknown flags 0x%02x", b->flags);
    return check_sizes(r, b, p + RB_NINSTR, p + RB_IRETIRE);
}

static int rd_block(rvt_rvi_reader *r, const uint8_t *q, uint64_t p, rvt_irec *b)
{
    b->iaddr = rvi_get64(q + RB_IADDR);
    b->tval = rvi_get64(q + RB_TVAL);
    b->context = rvi_get64(q + RB_CONTEXT);
    b->time = rvi_get64(q + RB_TIME);
    b->iretire = rvi_get32(q + RB_IRETIRE);
    b->ninstr = rvi_get32(q + RB_NINSTR);
    b->cause = rvi_get16(q + RB_CAUSE);
    b->itype = q[RB_ITYPE];
    b->ilastsize = q[RB_ILASTSIZE];
    b->priv = q[RB_PRIV];
    b->ctype = q[RB_CTYPE];
    b->sijump = q[RB_SIJUMP];
    b->flags = q[RB_FLAGS];
    return check_block(r, b, p);
}

static int rd_short(rvt_rvi_reader *r, const uint8_t *q, uint64_t p, rvt_irec *b)
{
    if (!r->have_prev)
        return rd_fail(r, RVT_ERR_FORMAT, p - 1, "short block before any full block");
    const rvt_irec *v = &r->prev;
    uint8_t bits = q[RS_BITS];
    memset(b, 0, sizeof *b);
    b->itype = bits & 15;
    b->ilastsize = (bits >> 4) & 3;
    b->sijump = (bits >> 6) & 1;
    b->flags = bits & 0x80 ? RVT_IREC_F_CYCLE_END : 0;
    b->iretire = q[RS_IRETIRE];
    b->ninstr = q[RS_NINSTR];
    b->iaddr = v->iaddr + (uint64_t)(int64_t)(int32_t)rvi_get32(q + RS_DADDR);
    b->time = v->time + rvi_get32(q + RS_DTIME);
    b->priv = v->priv;
    b->context = v->context;
    return check_sizes(r, b, p + RS_NINSTR, p + RS_IRETIRE);
}

static bool is_load_or_amo(unsigned dtype)
{
    return dtype == RVT_DTYPE_LOAD || dtype >= RVT_DTYPE_AMO_SWAP;
}

/* 0x04: exactly one split phase; a request has no lresp, a response an
 * okay or error lresp (table 4.9); only loads and atomics split (4.3). */
static int rd_split(rvt_rvi_reader *r, const uint8_t *q, uint64_t p, rvt_drec *d)
{
    d->lrid = rvi_get16(q + RD_LRID);
    d->lresp = q[RD_LRESP];
    unsigned ph = d->flags & (RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE);
    if (d->flags & ~RVT_DREC_F_KNOWN || ph == 0 || ph == (RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE))
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_FLAGS, "split record flags 0x%02x", d->flags);
    if (!is_load_or_amo(d->dtype))
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_DTYPE, "split record of dtype %u", d->dtype);
    bool resp = ph == RVT_DREC_F_RESPONSE;
    if (resp ? d->lresp != RVT_LRESP_OKAY && d->lresp != RVT_LRESP_ERROR : d->lresp != 0)
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_LRESP, "lresp %u in a split %s", d->lresp,
                       resp ? "response" : "request");
    return RVT_OK;
}

static int rd_data(rvt_rvi_reader *r, const uint8_t *q, uint64_t p, rvt_drec *d, bool split)
{
    d->iaddr = rvi_get64(q + RD_IADDR);
    d->addr = rvi_get64(q + RD_ADDR);
    d->data = rvi_get64(q + RD_DATA);
    d->data2 = rvi_get64(q + RD_DATA2);
    d->dtype = q[RD_DTYPE];
    d->dsize = q[RD_DSIZE];
    d->dblock = q[RD_DBLOCK];
    d->flags = q[RD_FLAGS];
    d->lrid = 0;
    d->lresp = 0;
    /* E-Trace table 4.9: 2, 3, 7 and 15 are reserved */
    if (d->dtype > 14 || d->dtype == 2 || d->dtype == 3 || d->dtype == 7)
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_DTYPE, "reserved dtype %u", d->dtype);
    if (d->dsize > 4)
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_DSIZE, "dsize %u > 4", d->dsize);
    if (split)
        return rd_split(r, q, p, d);
    if (d->flags > RVT_DREC_F_SC_FAIL)
        return rd_fail(r, RVT_ERR_FORMAT, p + RD_FLAGS, "unknown flags 0x%02x", d->flags);
    return RVT_OK;
}

static int rd_end(rvt_rvi_reader *r, const uint8_t *q, uint64_t p)
{
    uint64_t n = rvi_get64(q);
    if (n != r->count)
        return rd_fail(r, RVT_ERR_FORMAT, p, "end marker counts %" PRIu64 " records, file has %"
                       PRIu64, n, r->count);
    r->done = true;
    if (rd_fill(r, 1 + RVI_END_LEN + 1) > 1 + RVI_END_LEN)
        return rd_fail(r, RVT_ERR_FORMAT, p + RVI_END_LEN, "data after the end marker");
    r->pos += 1 + RVI_END_LEN;
    return 0;
}

static size_t payload_len(unsigned kind)
{
    switch (kind) {
    case RVI_END: return RVI_END_LEN;
    case RVI_BLOCK: return RVI_BLOCK_LEN;
    case RVI_BLOCK_SHORT: return RVI_SHORT_LEN;
    case RVI_DATA: return RVI_DATA_LEN;
    case RVI_SPLIT: return RVI_SPLIT_LEN;
    default: return SIZE_MAX;
    }
}

int rvt_rvi_reader_next(rvt_rvi_reader *r, rvt_irec *irec, rvt_drec *drec, bool *is_data)
{
    if (r->err)
        return r->err;
    if (r->done)
        return 0;
    uint64_t off = rd_off(r);
    r->rec_off = off;
    if (rd_fill(r, 1) < 1)
        return r->err ? r->err : rd_fail(r, RVT_ERR_TRUNC, off, "missing end marker");
    unsigned kind = r->buf[r->pos];
    size_t need = payload_len(kind);
    if (need == SIZE_MAX)
        return rd_fail(r, RVT_ERR_FORMAT, off, "unknown record kind 0x%02x", kind);
    size_t have = rd_fill(r, 1 + need);
    if (r->err)
        return r->err;
    if (have < 1 + need)
        return rd_fail(r, RVT_ERR_TRUNC, off, "truncated record of kind 0x%02x (%zu of %zu bytes)",
                       kind, have, 1 + need);
    const uint8_t *q = r->buf + r->pos + 1;
    int rc;
    bool data = kind == RVI_DATA || kind == RVI_SPLIT;
    *is_data = data;
    if (kind == RVI_END)
        return rd_end(r, q, off + 1);
    if (data)
        rc = rd_data(r, q, off + 1, drec, kind == RVI_SPLIT);
    else
        rc = kind == RVI_BLOCK ? rd_block(r, q, off + 1, irec) : rd_short(r, q, off + 1, irec);
    if (rc < 0)
        return rc;
    if (!data) {
        r->prev = *irec;
        r->have_prev = true;
    }
    r->pos += 1 + need;
    r->count++;
    return 1;
}

void rvt_rvi_reader_close(rvt_rvi_reader *r)
{
    if (!r)
        return;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    free(r);
}
