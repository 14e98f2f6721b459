/* The streaming reader: pulls bytes from a source into a window and
 * decodes one item at a time.  The format has no synchronisation marker;
 * after a corrupt item the reader skips to the next begin-group byte
 * (opcode 1), the only group boundary (TV ch. 3 notes), and goes on. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/tv.h"

#define RBUF 65536

struct rvt_tv_reader {
    rvt_tv_cfg cfg;
    rvt_tv_read_fn read;
    void *ctx;
    const uint8_t *mem;       /* in-memory input, or NULL */
    size_t mem_len;
    uint8_t *buf;
    size_t lo, hi;            /* window buf[lo..hi) */
    uint64_t base;            /* stream offset of buf[0] */
    bool eof;
    int prev_req;             /* mem_op of the item just before, or -1 */
    uint64_t index, skipped;
};

static rvt_tv_reader *alloc_reader(const rvt_tv_cfg *cfg, int *status)
{
    rvt_tv_cfg c;
    int st = rvt_tv_cfg_resolve(cfg, &c);
    rvt_tv_reader *r = NULL;
    if (st == RVT_OK && !(r = calloc(1, sizeof *r)))
        st = RVT_ERR_NOMEM;
    if (r) {
        r->cfg = c;
        r->prev_req = -1;
    }
    if (status)
        *status = st;
    return r;
}

rvt_tv_reader *rvt_tv_reader_new(const rvt_tv_cfg *cfg, rvt_tv_read_fn read, void *ctx,
                                  int *status)
{
    if (!read) {
        if (status)
            *status = RVT_ERR_INVAL;
        return NULL;
    }
    rvt_tv_reader *r = alloc_reader(cfg, status);
    if (r && !(r->buf = malloc(RBUF))) {
        free(r);
        r = NULL;
        if (status)
            *status = RVT_ERR_NOMEM;
    }
    if (r) {
        r->read = read;
        r->ctx = ctx;
    }
    return r;
}

rvt_tv_reader *rvt_tv_reader_new_mem(const rvt_tv_cfg *cfg, const uint8_t *buf, size_t len,
                                      int *status)
{
    rvt_tv_reader *r = alloc_reader(cfg, status);
    if (r) {
        r->mem = buf;
        r->mem_len = len;
        r->hi = len;
        r->eof = true;
    }
    return r;
}

void rvt_tv_reader_free(rvt_tv_reader *r)
{
    if (r)
        free(r->buf);
    free(r);
}

uint64_t rvt_tv_reader_skipped(const rvt_tv_reader *r) { return r->skipped; }

static const uint8_t *data(const rvt_tv_reader *r)
{
    return r->mem ? r->mem : r->buf;
}

/* Make at least `need` bytes available in the window, unless the input
 * ends first.  Returns 0 or a read error. */
static int fill(rvt_tv_reader *r, size_t need)
{
    while (!r->eof && r->hi - r->lo < need) {
        if (r->lo) {
            memmove(r->buf, r->buf + r->lo, r->hi - r->lo);
            r->base += r->lo;
            r->hi -= r->lo;
            r->lo = 0;
        }
        long n = r->read(r->ctx, r->buf + r->hi, RBUF - r->hi);
        if (n < 0)
            return (int)n;
        if (n == 0)
            r->eof = true;
        r->hi += (size_t)n;
    }
    return RVT_OK;
}

/* Skip the bad byte and everything up to the next begin-group opcode. */
static void resync(rvt_tv_reader *r)
{
    do {
        r->lo++;
        r->skipped++;
        if (r->lo == r->hi && fill(r, 1) < 0)
            return;
    } while (r->lo < r->hi && data(r)[r->lo] != RVT_TV_BEGIN);
    r->prev_req = -1;
}

int rvt_tv_reader_next(rvt_tv_reader *r, rvt_tv_item *it, uint64_t *err_offset)
{
    int st = fill(r, RVT_TV_ITEM_MAX);
    if (st < 0)
        return st;
    if (r->lo == r->hi)
        return RVT_ERR_EOS;
    uint64_t off = r->base + r->lo;
    it->offset = off;
    it->index = r->index;
    int n = rvt_tv_decode(&r->cfg, data(r) + r->lo, r->hi - r->lo, r->prev_req, it);
    if (n < 0) {
        if (err_offset)
            *err_offset = off;
        if (n == RVT_ERR_TRUNC) {   /* fill() got all there is: the input ends here */
            r->skipped += r->hi - r->lo;
            r->lo = r->hi;
        } else {
            resync(r);
        }
        return n;
    }
    r->lo += (size_t)n;
    r->index++;
    r->prev_req = it->op == RVT_TV_MEM_REQ ? it->mem_op : -1;
    return RVT_OK;
}
