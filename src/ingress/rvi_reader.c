/* Streaming .rvi reader (docs/format-rvi.md), versions 1 and 2.  Reads
 * through a 1 MiB buffer (one read() per MiB, no per-record syscall); the
 * batch call (_blocks) decodes version-2 steps in a tight loop straight
 * into the caller's array.  Every error names the byte offset it refers
 * to and is sticky. */
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
#include "ingress/rvi_runs.h"
#include "ingress/steps.h"

#define RVI_RBUF (1024u * 1024u)

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
    unsigned run_left, run_i;   /* steps of a 0x05 record not yet handed out */
    bool keep_runs;             /* rvt_rvi_reader_blocks stops at them (rvi_runs.h) */
    uint8_t run_bits[RVI_RUN_MAX / 8];
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
    if (r->version < RVI_VERSION_MIN || r->version > RVI_VERSION)
        return rd_fail(r, RVT_ERR_VERSION, 4, "unknown version %u (this reader knows %u to %u)",
                       r->version, RVI_VERSION_MIN, RVI_VERSION);
    r->xlen = h[6];
    if (r->xlen != 0 && r->xlen != 32 && r->xlen != 64)
        return rd_fail(r, RVT_ERR_FORMAT, 6, "bad xlen %u", r->xlen);
    r->flags = h[7];
    if (r->flags & ~(unsigned)RVT_RVI_F_KNOWN)
        return rd_fail(r, RVT_ERR_FORMAT, 7, "unknown header flags 0x%02x", r->flags);
    uint32_t hlen = rvi_get32(h + 8);
    if (hlen < RVI_HEADER_LEN || hlen > RVI_HEADER_MAX)
        return rd_fail(r, RVT_ERR_FORMAT, 8, "bad header length %" PRIu32, hlen);
    /* Writers write 16 bytes; longer headers are skipped. */
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

unsigned rvt_rvi_reader_version(const rvt_rvi_reader *r)
{
    return r->version;
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

/* v: the previous block */
static int rd_short(rvt_rvi_reader *r, const uint8_t *q, uint64_t p, const rvt_irec *v,
                    rvt_irec *b)
{
    if (!r->have_prev)
        return rd_fail(r, RVT_ERR_FORMAT, p - 1, "short block before any full block");
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

/* Version 2 step (rvi_format.h): the block after s whose kind byte is
 * bits, delta away from where s's instructions end; s moves past it. */
static inline void step_put(rvt_irec *b, rvt_step_base *s, unsigned bits, int64_t delta)
{
    rvt_step_put(b, s, bits & RVI_STEP_ITYPE, (bits & RVI_STEP_SIJUMP) != 0, (bits & RVI_STEP_ILAST) != 0,
                 delta);
}

static inline void step_rec(rvt_irec *b, const rvt_irec *prev, unsigned bits, int64_t delta)
{
    rvt_step_base s = rvt_step_base_of(prev);
    step_put(b, &s, bits, delta);
}

/* Length of a version-2 step (kind byte included) at buf+pos. */
static int step_len(rvt_rvi_reader *r, unsigned kind, uint64_t off, size_t *len)
{
    *len = 1;
    if (!(kind & RVI_STEP_JUMP))
        return RVT_OK;
    size_t have = rd_fill(r, 1 + RVI_VARINT_MAX);
    if (r->err)
        return r->err;
    int64_t d;
    int n = rvi_get_varint(r->buf + r->pos + 1, have - 1, &d);
    if (n < 0)
        return rd_fail(r, RVT_ERR_FORMAT, off + 1, "step address delta longer than 64 bits");
    if (n == 0)
        return rd_fail(r, RVT_ERR_TRUNC, off, "truncated step record (%zu bytes)", have);
    *len += (size_t)n;
    return RVT_OK;
}

/* Bytes of a version-2 run record whose count byte is c: kind, count,
 * then one bit per step for its c + 1 steps (rvi_format.h). */
static inline size_t run_rec_len(uint8_t c)
{
    return 2 + (c + 1u + 7) / 8;
}

/* Length of a version-2 run (kind byte included) at buf+pos. */
static int run_len(rvt_rvi_reader *r, uint64_t off, size_t *len)
{
    size_t have = rd_fill(r, 2);
    if (r->err)
        return r->err;
    if (have >= 2)
        *len = run_rec_len(r->buf[r->pos + 1]);
    if (have < 2 || rd_fill(r, *len) < *len)
        return r->err ? r->err : rd_fail(r, RVT_ERR_TRUNC, off, "truncated run record");
    return RVT_OK;
}

/* Length of the record of this kind at buf+pos, all of it buffered. */
static int record_len(rvt_rvi_reader *r, unsigned kind, uint64_t off, size_t *len)
{
    if (r->version >= 2 && kind >= RVI_STEP)
        return step_len(r, kind, off, len);
    if (r->version >= 2 && kind == RVI_RUN)
        return run_len(r, off, len);
    size_t need = payload_len(kind);
    if (need == SIZE_MAX)
        return rd_fail(r, RVT_ERR_FORMAT, off, "unknown record kind 0x%02x", kind);
    size_t have = rd_fill(r, 1 + need);
    if (r->err)
        return r->err;
    if (have < 1 + need)
        return rd_fail(r, RVT_ERR_TRUNC, off, "truncated record of kind 0x%02x (%zu of %zu bytes)",
                       kind, have, 1 + need);
    *len = 1 + need;
    return RVT_OK;
}

/* A step record whose varint (if any) is the n bytes at q. */
static int rd_step(rvt_rvi_reader *r, unsigned kind, const uint8_t *q, size_t n, uint64_t off,
                   rvt_irec *b)
{
    int64_t d = 0;
    if (!r->have_prev)
        return rd_fail(r, RVT_ERR_FORMAT, off, "step record before any full block");
    if (n)
        rvi_get_varint(q, n, &d);    /* step_len checked it */
    step_rec(b, &r->prev, kind, d);
    return RVT_OK;
}

/* A 0x05 record: its steps are handed out by run_take.  Bits past the
 * last step must be 0, so every run has one spelling. */
static int rd_run(rvt_rvi_reader *r, const uint8_t *q, uint64_t off)
{
    unsigned n = q[0] + 1u, nb = (n + 7) / 8;
    if (!r->have_prev)
        return rd_fail(r, RVT_ERR_FORMAT, off, "run record before any full block");
    if (n % 8 && q[nb] >> (n % 8))
        return rd_fail(r, RVT_ERR_FORMAT, off + 1 + nb, "bits set past the run's %u steps", n);
    memcpy(r->run_bits, q + 1, nb);
    r->run_left = n;
    r->run_i = 0;
    return RVT_OK;
}

/* Up to max steps of the pending run into out. */
static size_t run_take(rvt_rvi_reader *r, rvt_irec *out, size_t max)
{
    size_t k = r->run_left < max ? r->run_left : max;
    if (!k)
        return 0;
    rvt_step_base s = rvt_step_base_of(&r->prev);
    unsigned i = r->run_i;
    for (size_t j = 0; j < k; j++, i++)
        step_put(&out[j], &s, rvt_step_size(r->run_bits, i) ? RVI_STEP_ILAST : 0, 0);
    r->run_i = i;
    r->run_left -= (unsigned)k;
    r->prev = out[k - 1];
    r->count += k;
    return k;
}

/* One record of any kind (the buffered path).  A run record yields its
 * first step; the rest come from run_take. */
static int rd_record(rvt_rvi_reader *r, rvt_irec *irec, rvt_drec *drec, bool *is_data)
{
    uint64_t off = rd_off(r);
    r->rec_off = off;
    *is_data = false;
    if (rd_fill(r, 1) < 1)
        return r->err ? r->err : rd_fail(r, RVT_ERR_TRUNC, off, "missing end marker");
    unsigned kind = r->buf[r->pos];
    size_t len = 0;
    int rc = record_len(r, kind, off, &len);
    if (rc < 0)
        return rc;
    const uint8_t *q = r->buf + r->pos + 1;
    bool data = kind == RVI_DATA || kind == RVI_SPLIT;
    bool v2 = r->version >= 2 && (kind >= RVI_STEP || kind == RVI_RUN);
    *is_data = data;
    if (kind == RVI_END)
        return rd_end(r, q, off + 1);
    if (v2 && kind == RVI_RUN)
        rc = rd_run(r, q, off);
    else if (v2)
        rc = rd_step(r, kind, q, len - 1, off, irec);
    else if (data)
        rc = rd_data(r, q, off + 1, drec, kind == RVI_SPLIT);
    else
        rc = kind == RVI_BLOCK ? rd_block(r, q, off + 1, irec) : rd_short(r, q, off + 1, &r->prev, irec);
    if (rc < 0)
        return rc;
    r->pos += len;
    if (kind == RVI_RUN)
        return run_take(r, irec, 1) ? 1 : rd_fail(r, RVT_ERR_FORMAT, off, "empty run");
    if (!data) {
        r->prev = *irec;
        r->have_prev = true;
    }
    r->count++;
    return 1;
}

int rvt_rvi_reader_next(rvt_rvi_reader *r, rvt_irec *irec, rvt_drec *drec, bool *is_data)
{
    if (r->err)
        return r->err;
    *is_data = false;
    if (r->run_left)
        return (int)run_take(r, irec, 1);
    if (r->done)
        return 0;
    return rd_record(r, irec, drec, is_data);
}

/* Steps decoded straight from the buffer while a whole step surely fits
 * in it; anything else (and any bad step) is left to rd_record. */
static size_t fast_steps(rvt_rvi_reader *r, rvt_irec *out, size_t max)
{
    if (r->version < 2 || !r->have_prev)
        return 0;
    const uint8_t *b = r->buf;
    size_t pos = r->pos, k = 0, len = r->len;
    rvt_step_base s = rvt_step_base_of(&r->prev);
    while (k < max && len - pos > RVI_VARINT_MAX && b[pos] >= RVI_STEP) {
        unsigned kind = b[pos];
        int64_t d = 0;
        int n = 0;
        if ((kind & RVI_STEP_JUMP) && (n = rvi_get_varint(b + pos + 1, RVI_VARINT_MAX, &d)) <= 0)
            break;
        step_put(&out[k++], &s, kind, d);
        pos += 1 + (size_t)n;
    }
    if (k) {
        r->prev = out[k - 1];
        r->count += k;
        r->pos = pos;
    }
    return k;
}

/* Version-1 short blocks straight from the buffer (*k of out filled). */
static int fast_shorts(rvt_rvi_reader *r, rvt_irec *out, size_t max, size_t *k)
{
    const size_t len = 1 + RVI_SHORT_LEN;
    size_t i = *k;
    const rvt_irec *prev = &r->prev;
    int rc = RVT_OK;
    while (i < max && r->len - r->pos >= len && r->buf[r->pos] == RVI_BLOCK_SHORT) {
        r->rec_off = rd_off(r);
        if ((rc = rd_short(r, r->buf + r->pos + 1, r->rec_off + 1, prev, &out[i])) < 0)
            break;
        prev = &out[i++];
        r->pos += len;
    }
    if (i > *k) {
        r->prev = out[i - 1];
        r->count += i - *k;
        *k = i;
    }
    return rc;
}

/* A run record wholly in the buffer: its steps become pending (1), or
 * 0 if the next record is something else. */
static int fast_run(rvt_rvi_reader *r)
{
    const uint8_t *q = r->buf + r->pos;
    size_t have = r->len - r->pos;
    if (r->version < 2 || !r->have_prev || have < 2 || q[0] != RVI_RUN || have < run_rec_len(q[1]))
        return 0;
    r->rec_off = rd_off(r);
    int rc = rd_run(r, q + 1, r->rec_off);
    if (rc < 0)
        return rc;
    r->pos += run_rec_len(q[1]);
    return 1;
}

static bool next_is_data(rvt_rvi_reader *r)
{
    if (rd_fill(r, 1) < 1)
        return false;
    unsigned kind = r->buf[r->pos];
    return kind == RVI_DATA || kind == RVI_SPLIT;
}

int rvt_rvi_reader_blocks(rvt_rvi_reader *r, rvt_irec *recs, size_t max, size_t *n)
{
    size_t k = 0;
    int rc = r->err ? r->err : 1;
    while (rc == 1 && k < max) {
        if (r->keep_runs && r->run_left)
            break;                  /* rvi_reader_take_run hands them out */
        k += run_take(r, recs + k, max - k);
        if (k == max || r->done) {
            rc = r->done && !r->run_left ? 0 : 1;
            break;
        }
        if (r->len - r->pos < RVI_REC_MAX)
            rd_fill(r, RVI_REC_MAX);
        k += fast_steps(r, recs + k, max - k);
        if ((rc = fast_run(r)) != 0 || (rc = fast_shorts(r, recs, max, &k)) < 0) {
            rc = rc < 0 ? rc : 1;
            continue;
        }
        rc = 1;
        if (k == max || next_is_data(r))
            break;
        bool is_data;
        rc = rd_record(r, &recs[k], NULL, &is_data);
        k += rc == 1;
    }
    *n = k;
    return rc;
}

void rvi_reader_keep_runs(rvt_rvi_reader *r)
{
    r->keep_runs = true;
}

size_t rvi_reader_take_run(rvt_rvi_reader *r, rvt_irec *prev, uint8_t sizes[RVI_RUN_MAX / 8])
{
    size_t n = r->run_left;
    if (!n)
        return 0;
    *prev = r->prev;
    memset(sizes, 0, RVI_RUN_MAX / 8);
    if (r->run_i % 8 == 0)
        memcpy(sizes, r->run_bits + r->run_i / 8, (n + 7) / 8);
    else
        for (size_t j = 0; j < n; j++)
            sizes[j / 8] |= (uint8_t)(rvt_step_size(r->run_bits, r->run_i + j) << (j % 8));
    /* the last step becomes the previous block: where the others end */
    unsigned last = rvt_step_size(sizes, n - 1);
    rvt_step_base s = rvt_step_base_of(prev);
    s.next += 2 * (rvt_steps_halfwords(sizes, 0, n) - (1u << last));
    s.time += n - 1;
    rvt_step_put(&r->prev, &s, 0, false, last, 0);
    r->run_i += (unsigned)n;
    r->run_left = 0;
    r->count += n;
    return n;
}

void rvt_rvi_reader_close(rvt_rvi_reader *r)
{
    if (!r)
        return;
    if (r->own_fd && r->fd >= 0)
        close(r->fd);
    free(r);
}
