/* Streaming .rvi writer (docs/format-rvi.md).  Records are encoded into a
 * 256 KiB buffer and written with one write() per buffer, so the hart can
 * stream ~10^8 records/s without a syscall per record.  A block that only
 * differs from the previous one in iaddr, time, the retire counts and the
 * itype takes the 12-byte short form instead of 49 bytes; in version 2 a
 * single-instruction cycle right after the previous one is a 1-byte step
 * (plus a varint where it jumps), and runs of plain steps are one 0x05
 * record of a bit per instruction. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include "rvtrace/ingress.h"
#include "ingress/rvi_format.h"
#include "util/create.h"

#define RVI_WBUF (256u * 1024u)

struct rvt_rvi_writer {
    int fd;
    bool own_fd;
    int err;                 /* sticky first error */
    bool ended;
    bool flushed_any;
    bool have_prev;
    unsigned version;
    rvt_irec prev;
    unsigned run_n;          /* plain steps held back for a 0x05 record */
    uint8_t run_bits[RVI_RUN_MAX / 8];
    uint64_t count;
    size_t n;
    uint8_t buf[RVI_WBUF];
};

static int wr_flush(rvt_rvi_writer *w)
{
    size_t off = 0;
    while (off < w->n && w->err == RVT_OK) {
        ssize_t k = write(w->fd, w->buf + off, w->n - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            w->err = RVT_ERR_IO;
        else
            off += (size_t)k;
    }
    if (w->n)
        w->flushed_any = true;
    w->n = 0;
    return w->err;
}

/* Room for one more record of up to 64 bytes. */
static inline uint8_t *wr_room(rvt_rvi_writer *w)
{
    if (RVI_WBUF - w->n < 64 && wr_flush(w) < 0)
        return NULL;
    return w->buf + w->n;
}

rvt_rvi_writer *rvt_rvi_writer_open(const char *path, unsigned xlen, int *status)
{
    int st = RVT_OK;
    rvt_rvi_writer *w = NULL;
    if (!path || (xlen != 0 && xlen != 32 && xlen != 64)) {
        st = RVT_ERR_INVAL;
    } else if (!(w = calloc(1, sizeof *w))) {
        st = RVT_ERR_NOMEM;
    } else {
        w->own_fd = strcmp(path, "-") != 0;
        w->fd = w->own_fd ? rvt_file_create(path) : 1;
        if (w->fd < 0) {
            st = RVT_ERR_IO;
            free(w);
            w = NULL;
        } else {
            memcpy(w->buf, RVI_MAGIC, 4);
            w->version = RVI_VERSION;
            rvi_put16(w->buf + 4, RVI_VERSION);
            w->buf[6] = (uint8_t)xlen;
            w->buf[7] = 0;
            rvi_put32(w->buf + 8, RVI_HEADER_LEN);
            rvi_put32(w->buf + 12, 0);
            w->n = RVI_HEADER_LEN;
        }
    }
    if (status)
        *status = st;
    return w;
}

int rvt_rvi_writer_set_flags(rvt_rvi_writer *w, unsigned flags)
{
    if (flags & ~(unsigned)RVT_RVI_F_KNOWN)
        return RVT_ERR_INVAL;
    if (w->flushed_any || w->count)
        return RVT_ERR_STATE;      /* the header is already out */
    w->buf[7] = (uint8_t)flags;
    return RVT_OK;
}

int rvt_rvi_writer_set_version(rvt_rvi_writer *w, unsigned version)
{
    if (version < RVI_VERSION_MIN || version > RVI_VERSION)
        return RVT_ERR_INVAL;
    if (w->flushed_any || w->count)
        return RVT_ERR_STATE;      /* the header is already out */
    w->version = version;
    rvi_put16(w->buf + 4, (uint16_t)version);
    return RVT_OK;
}

static bool short_ok(const rvt_rvi_writer *w, const rvt_irec *r)
{
    const rvt_irec *p = &w->prev;
    int64_t da = (int64_t)(r->iaddr - p->iaddr);
    uint64_t dt = r->time - p->time;
    return w->have_prev && r->priv == p->priv && r->context == p->context && !r->ctype &&
           !r->tval && !r->cause && !(r->flags & ~RVT_IREC_F_CYCLE_END) &&
           r->iretire <= 255 && r->ninstr <= 255 && r->itype <= 15 && r->ilastsize <= 3 &&
           r->sijump <= 1 && da >= INT32_MIN && da <= INT32_MAX && r->time >= p->time &&
           dt <= UINT32_MAX;
}

static void put_short(uint8_t *b, const rvt_irec *r, const rvt_irec *p)
{
    b[0] = RVI_BLOCK_SHORT;
    b[1 + RS_BITS] = (uint8_t)(r->itype | r->ilastsize << 4 | r->sijump << 6 |
                               (r->flags & RVT_IREC_F_CYCLE_END ? 0x80 : 0));
    b[1 + RS_IRETIRE] = (uint8_t)r->iretire;
    b[1 + RS_NINSTR] = (uint8_t)r->ninstr;
    rvi_put32(b + 1 + RS_DADDR, (uint32_t)(r->iaddr - p->iaddr));
    rvi_put32(b + 1 + RS_DTIME, (uint32_t)(r->time - p->time));
}

static void put_block(uint8_t *b, const rvt_irec *r)
{
    uint8_t *q = b + 1;
    b[0] = RVI_BLOCK;
    rvi_put64(q + RB_IADDR, r->iaddr);
    rvi_put64(q + RB_TVAL, r->tval);
    rvi_put64(q + RB_CONTEXT, r->context);
    rvi_put64(q + RB_TIME, r->time);
    rvi_put32(q + RB_IRETIRE, r->iretire);
    rvi_put32(q + RB_NINSTR, r->ninstr);
    rvi_put16(q + RB_CAUSE, r->cause);
    q[RB_ITYPE] = r->itype;
    q[RB_ILASTSIZE] = r->ilastsize;
    q[RB_PRIV] = r->priv;
    q[RB_CTYPE] = r->ctype;
    q[RB_SIJUMP] = r->sijump;
    q[RB_FLAGS] = r->flags;
}

/* Version 2: r is a step after the previous block (rvi_format.h). */
static bool step_ok(const rvt_rvi_writer *w, const rvt_irec *r)
{
    const rvt_irec *p = &w->prev;
    return w->version >= 2 && w->have_prev && r->ninstr == 1 && r->ilastsize <= 1 &&
           r->iretire == 1u << r->ilastsize && r->time == p->time + 1 &&
           r->flags == RVT_IREC_F_CYCLE_END && r->priv == p->priv && r->context == p->context &&
           !r->ctype && !r->tval && !r->cause && r->itype <= 15 && r->sijump <= 1;
}

static uint64_t next_iaddr(const rvt_irec *p)
{
    return p->iaddr + 2 * (uint64_t)p->iretire;
}

/* The held-back plain steps: one 0x05 record, or single steps where
 * that is smaller. */
static int flush_run(rvt_rvi_writer *w)
{
    unsigned n = w->run_n;
    uint8_t *b = n ? wr_room(w) : NULL;
    if (!n)
        return RVT_OK;
    if (!b)
        return w->err;
    if (n >= RVI_RUN_MIN) {
        b[0] = RVI_RUN;
        b[1] = (uint8_t)(n - 1);
        memcpy(b + 2, w->run_bits, (n + 7) / 8);
        w->n += 2 + (n + 7) / 8;
    } else {
        for (unsigned i = 0; i < n; i++)
            b[i] = (uint8_t)(RVI_STEP | ((w->run_bits[0] >> i & 1) ? RVI_STEP_ILAST : 0));
        w->n += n;
    }
    w->run_n = 0;
    memset(w->run_bits, 0, sizeof w->run_bits);
    return RVT_OK;
}

/* A step: held back if plain (itype 0, sequential), else written. */
static int put_step(rvt_rvi_writer *w, const rvt_irec *r)
{
    int64_t delta = (int64_t)(r->iaddr - next_iaddr(&w->prev));
    if (!r->itype && !r->sijump && !delta) {
        w->run_bits[w->run_n / 8] |= (uint8_t)(r->ilastsize << (w->run_n % 8));
        return ++w->run_n == RVI_RUN_MAX ? flush_run(w) : RVT_OK;
    }
    uint8_t *b = flush_run(w) == RVT_OK ? wr_room(w) : NULL;
    if (!b)
        return w->err;
    b[0] = (uint8_t)(RVI_STEP | r->itype | (r->ilastsize ? RVI_STEP_ILAST : 0) |
                     (r->sijump ? RVI_STEP_SIJUMP : 0) | (delta ? RVI_STEP_JUMP : 0));
    w->n += 1 + (delta ? rvi_put_varint(b + 1, delta) : 0);
    return RVT_OK;
}

static int wr_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_rvi_writer *w = ctx;
    if (w->ended)
        return RVT_ERR_STATE;
    for (size_t i = 0; i < n; i++) {
        if (step_ok(w, &recs[i])) {
            if (put_step(w, &recs[i]) < 0)
                return w->err;
            w->prev = recs[i];
            continue;
        }
        uint8_t *b = flush_run(w) == RVT_OK ? wr_room(w) : NULL;
        if (!b)
            return w->err;
        if (short_ok(w, &recs[i])) {
            put_short(b, &recs[i], &w->prev);
            w->n += 1 + RVI_SHORT_LEN;
        } else {
            put_block(b, &recs[i]);
            w->n += 1 + RVI_BLOCK_LEN;
        }
        w->prev = recs[i];
        w->have_prev = true;
    }
    w->count += n;
    return RVT_OK;
}

static int wr_data(void *ctx, const rvt_drec *recs, size_t n)
{
    rvt_rvi_writer *w = ctx;
    if (w->ended)
        return RVT_ERR_STATE;
    for (size_t i = 0; i < n; i++) {
        uint8_t *b = flush_run(w) == RVT_OK ? wr_room(w) : NULL;
        if (!b)
            return w->err;
        const rvt_drec *d = &recs[i];
        uint8_t *q = b + 1;
        bool split = (d->flags & (RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE)) || d->lrid ||
                     d->lresp;
        b[0] = split ? RVI_SPLIT : RVI_DATA;
        rvi_put64(q + RD_IADDR, d->iaddr);
        rvi_put64(q + RD_ADDR, d->addr);
        rvi_put64(q + RD_DATA, d->data);
        rvi_put64(q + RD_DATA2, d->data2);
        q[RD_DTYPE] = d->dtype;
        q[RD_DSIZE] = d->dsize;
        q[RD_DBLOCK] = d->dblock;
        q[RD_FLAGS] = d->flags;
        if (split) {
            rvi_put16(q + RD_LRID, d->lrid);
            q[RD_LRESP] = d->lresp;
        }
        w->n += 1 + (split ? RVI_SPLIT_LEN : RVI_DATA_LEN);
    }
    w->count += n;
    return RVT_OK;
}

static int wr_end(void *ctx)
{
    rvt_rvi_writer *w = ctx;
    if (w->ended)
        return w->err;
    uint8_t *b = flush_run(w) == RVT_OK ? wr_room(w) : NULL;
    if (!b)
        return w->err;
    b[0] = RVI_END;
    rvi_put64(b + 1, w->count);
    w->n += 1 + RVI_END_LEN;
    w->ended = true;
    return wr_flush(w);
}

rvt_irec_sink rvt_rvi_writer_sink(rvt_rvi_writer *w)
{
    rvt_irec_sink s = { w, wr_put, wr_data, wr_end };
    return s;
}

int rvt_rvi_writer_close(rvt_rvi_writer *w)
{
    if (!w)
        return RVT_ERR_INVAL;
    int rc = wr_end(w);
    if (w->own_fd && close(w->fd) < 0 && rc == RVT_OK)
        rc = RVT_ERR_IO;
    free(w);
    return rc;
}
