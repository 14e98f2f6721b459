/* N-Trace MSEO message splitting (N-Trace 3.1-3.4): idle bytes 0xFF are
 * skipped, a message runs from a byte with MSEO 00 to the byte with
 * MSEO 11, the reserved MSEO 10 and over-long messages are errors, and
 * after an error reading resumes after the next end-of-message byte. */
#include "transport/tp_int.h"

#define IDLE 0xFFu
#define MSEO_CONT 0u
#define MSEO_RESERVED 2u
#define MSEO_MEND 3u
#define MAX_MSG 48       /* rvtrace/ntrace.h RVT_NT_MAX_MSG */
#define TCODE_BITS 6

/* 3.4: the byte after MSEO 11 starts a message or is idle. */
static size_t after_end(const uint8_t *buf, size_t len, size_t p)
{
    while (p < len && (buf[p] & 3u) != MSEO_MEND)
        p++;
    return p < len ? p + 1 : p;
}

static int fail(const char **why, size_t *err_at, const char *text, size_t at, int st)
{
    *why = text;
    *err_at = at;
    return st;
}

int tp_mseo_step(const uint8_t *buf, size_t len, size_t *pos, size_t *start, size_t *mlen,
                 const char **why, size_t *err_at)
{
    size_t s = *pos;
    while (s < len && buf[s] == IDLE)
        s++;
    *pos = s;
    *start = s;
    *mlen = 0;
    if (s >= len)
        return 0;
    if ((buf[s] & 3u) != MSEO_CONT) {
        *pos = after_end(buf, len, s);
        if (*pos == s + 1 && (buf[s] & 3u) == MSEO_MEND)
            return fail(why, err_at, "end-of-message byte outside a message", s, RVT_ERR_FORMAT);
        return fail(why, err_at, "message does not start with MSEO 00", s, RVT_ERR_FORMAT);
    }
    for (size_t i = s;; i++) {
        if (i >= len) {
            *pos = len;
            return fail(why, err_at, "stream ends inside a message", s, RVT_ERR_TRUNC);
        }
        unsigned mseo = buf[i] & 3u;
        if (mseo == MSEO_RESERVED) {
            *pos = after_end(buf, len, i);
            return fail(why, err_at, "reserved MSEO value 10", i, RVT_ERR_FORMAT);
        }
        if (i - s + 1 > MAX_MSG) {
            /* 3: all-zero data looks like an endless variable field */
            *pos = after_end(buf, len, i);
            return fail(why, err_at, "message longer than 48 bytes", s, RVT_ERR_FORMAT);
        }
        if (mseo == MSEO_MEND) {
            *pos = i + 1;
            *mlen = i + 1 - s;
            return 1;
        }
    }
}

/* The SRC field follows the 6-bit TCODE in the MDO bits (3.3, 7.1). */
static uint32_t src_field(const uint8_t *m, size_t n, unsigned bits)
{
    uint32_t v = 0;
    for (unsigned b = 0; b < bits; b++) {
        unsigned mdo_bit = TCODE_BITS + b;
        size_t byte = mdo_bit / 6;
        if (byte >= n)
            break;
        v |= (uint32_t)((m[byte] >> (2 + mdo_bit % 6)) & 1u) << b;
    }
    return v;
}

static int mseo_next(rvt_transport *t, rvt_tp_frame *f)
{
    size_t start, n, err_at;
    const char *why;
    int st = tp_mseo_step(t->buf, t->len, &t->pos, &start, &n, &why, &err_at);
    if (st < 0) {
        f->offset = err_at;
        t->why = why;
        t->skipped += t->pos - start;
        return st;
    }
    if (st == 0)
        return 0;
    f->offset = start;
    f->size = n;
    f->payload = t->buf + start;
    f->len = n;
    f->type = t->buf[start] >> 2;          /* TCODE: the first 6 MDO bits */
    f->src = src_field(f->payload, n, t->cfg.src_bits);
    return 1;
}

static size_t mseo_sync_from(const rvt_transport *t, size_t from)
{
    for (size_t p = from; p < t->len; p++)
        if (p > 0 && t->buf[p] != IDLE && (t->buf[p] & 3u) == MSEO_CONT &&
            (t->buf[p - 1] & 3u) == MSEO_MEND)
            return p;
    return t->len;
}

const tp_ops tp_mseo_ops = { "mseo", mseo_next, mseo_sync_from };
