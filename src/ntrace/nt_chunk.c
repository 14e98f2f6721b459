/* Push chunks cut anywhere (nt_chunk.h).
 *
 * Why the segments frame as the whole stream does: the MSEO framing
 * (N-Trace 3.1-3.4, src/transport/mseo.c) stops right after every byte
 * whose MSEO is 11 -- the end of a message, an idle byte, or the end
 * byte it resumes after when a message was in error -- and never reads
 * past one without stopping.  So the bytes up to the last MSEO 11 of what
 * has come frame the same alone as in the whole stream, and the bytes
 * after it (no MSEO 11 among them) are the start of one frame.  That
 * frame is kept until its end comes, unless it is already longer than a
 * message can be: then its first RVT_NT_MAX_MSG + 1 bytes hold all the
 * framing will say of it (a first byte whose MSEO is not 00, a reserved
 * MSEO 10, or a message longer than the maximum), and the framing passes
 * over the rest up to the next MSEO 11, as the whole stream's would. */
#include <string.h>
#include "ntrace/nt_chunk.h"

#define MSEO_END 3u
#define DECIDES (RVT_NT_MAX_MSG + 1u)   /* bytes of a frame that decide its error */

static bool is_end(uint8_t b) { return (b & 3u) == MSEO_END; }

/* Index of the first byte with MSEO 11 in buf, len when none. */
static size_t first_end(const uint8_t *buf, size_t len)
{
    size_t i = 0;
    while (i < len && !is_end(buf[i]))
        i++;
    return i;
}

/* Index just past the last byte with MSEO 11 in buf, 0 when none. */
static size_t past_last_end(const uint8_t *buf, size_t len)
{
    size_t i = len;
    while (i > 0 && !is_end(buf[i - 1]))
        i--;
    return i;
}

/* The skip after an error goes on through buf's first MSEO 11 (if any):
 * how many bytes of buf it takes. */
static size_t skip_over(nt_chunker *c, const uint8_t *buf, size_t len)
{
    size_t e = first_end(buf, len);
    if (e == len)
        return len;
    c->skip = false;
    return e + 1;
}

/* The kept frame completed by buf's first e + 1 bytes (buf[e] is its end,
 * or e == len when buf has none and the frame is too long already): the
 * bytes that decide it, then a pass over the rest of it. */
static int finish_carried(nt_chunker *c, const uint8_t *buf, size_t len, size_t e, nt_segment_fn seg,
                          void *ctx, size_t *used)
{
    uint8_t frame[DECIDES];
    *used = e < len ? e + 1 : len;
    size_t whole = c->n + *used;            /* the frame as far as it goes here */
    size_t take = whole < DECIDES ? whole : DECIDES;
    memcpy(frame, c->carry, c->n);
    memcpy(frame + c->n, buf, take - c->n);
    c->n = 0;
    int st = seg(ctx, frame, take);
    if (!st && whole > take)
        st = seg(ctx, NULL, whole - take);
    c->skip = e == len;                     /* its end is still to come */
    return st;
}

int nt_chunker_feed(nt_chunker *c, const uint8_t *buf, size_t len, nt_segment_fn seg, void *ctx)
{
    int st = 0;
    size_t at = 0;
    if (c->skip) {
        at = skip_over(c, buf, len);
        st = seg(ctx, NULL, at);
    }
    if (!st && c->n && at < len) {
        size_t e = first_end(buf + at, len - at), used;
        if (e == len - at && c->n + e < DECIDES) {        /* still open, and may end well */
            memcpy(c->carry + c->n, buf + at, e);
            c->n += e;
            return 0;
        }
        st = finish_carried(c, buf + at, len - at, e, seg, ctx, &used);
        at += used;
        if (!st && c->skip)
            return 0;                                     /* the chunk is used up */
    }
    if (st || at == len)
        return st;
    size_t cut = at + past_last_end(buf + at, len - at);
    if (cut > at && (st = seg(ctx, buf + at, cut - at)) != 0)
        return st;
    size_t tail = len - cut;
    if (tail < DECIDES) {                                 /* kept for the next chunk */
        memcpy(c->carry, buf + cut, tail);
        c->n = tail;
        return 0;
    }
    st = seg(ctx, buf + cut, DECIDES);
    if (!st)
        st = seg(ctx, NULL, tail - DECIDES);
    c->skip = true;
    return st;
}

int nt_chunker_end(nt_chunker *c, nt_segment_fn seg, void *ctx)
{
    size_t n = c->n;
    c->n = 0;
    c->skip = false;
    return n ? seg(ctx, c->carry, n) : 0;
}
