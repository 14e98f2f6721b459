/* A Trace RAM Sink's circular buffer as a stream (TCI 1.0 "Trace RAM
 * Sink"): the buffer [trRamStart, trRamLimit + 4) and its write pointer
 * put in oldest-first order, and the point a decoder may start at.
 *
 * TCI 1.0, trRamWPLow: trRamWrap is set when trRamWP wraps; "when trace
 * capture was wrapped around (trRamWrap = 1) beginning of trace is not
 * available and oldest packets/messages in the trace buffer (starting at
 * address in trRamWP) will most likely not be complete.  Trace decoders
 * must look for the start of a message.  Also when trace is stopped on
 * wrap around, the very last message recorded in trace memory may not be
 * complete."  So: a wrapped buffer is rotated so that the byte at trRamWP
 * comes first and is read from the protocol's first synchronisation
 * point (Encapsulation 1.0 2.3, N-Trace 3.4); a buffer that stopped on
 * wrap (trRamStopOnWrap) holds the stream from its start and is read
 * whole; an unwrapped one holds [trRamStart, trRamWP). */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "transport/tp_int.h"

typedef struct sink_key {
    const char *name;
    size_t off;
    bool flag;
} sink_key;

static const sink_key sink_keys[] = {
    { "sink_start", offsetof(rvt_sink_state, start), false },
    { "sink_limit", offsetof(rvt_sink_state, limit), false },
    { "sink_wp", offsetof(rvt_sink_state, wp), false },
    { "sink_wrap", offsetof(rvt_sink_state, wrap), true },
    { "sink_stop_on_wrap", offsetof(rvt_sink_state, stop_on_wrap), true },
};

static const sink_key *find_sink_key(const char *name, size_t n)
{
    for (size_t i = 0; i < sizeof sink_keys / sizeof sink_keys[0]; i++)
        if (strlen(sink_keys[i].name) == n && !strncmp(sink_keys[i].name, name, n))
            return &sink_keys[i];
    return NULL;
}

bool rvt_sink_state_name(const char *name)
{
    return name && find_sink_key(name, strlen(name));
}

int rvt_sink_state_set(rvt_sink_state *s, const char *kv)
{
    const char *eq = kv ? strchr(kv, '=') : NULL;
    const sink_key *k = eq ? find_sink_key(kv, (size_t)(eq - kv)) : NULL;
    if (!s || !k || !eq[1] || eq[1] == '-')
        return RVT_ERR_INVAL;
    char *end;
    unsigned long long v = strtoull(eq + 1, &end, 0);
    if (*end || (k->flag && v > 1))
        return RVT_ERR_INVAL;
    char *p = (char *)s + k->off;
    if (k->flag)
        *(bool *)p = v != 0;
    else
        *(uint64_t *)p = v;
    s->present = true;
    return 0;
}

int rvt_sink_state_format(const rvt_sink_state *s, char *buf, size_t n)
{
    if (!s || !buf)
        return RVT_ERR_INVAL;
    int w = snprintf(buf, n,
                     "# Trace RAM Sink buffer (TCI 1.0; docs/tci.md)\n"
                     "sink_start=0x%llx\nsink_limit=0x%llx\nsink_wp=0x%llx\nsink_wrap=%u\n"
                     "sink_stop_on_wrap=%u\n",
                     (unsigned long long)s->start, (unsigned long long)s->limit,
                     (unsigned long long)s->wp, s->wrap, s->stop_on_wrap);
    return w < 0 || (size_t)w >= n ? RVT_ERR_RANGE : w;
}

uint64_t rvt_sink_size(const rvt_sink_state *s)
{
    /* trRamLimit is the address of the buffer's last 32-bit word */
    if (!s || s->limit < s->start || (s->start | s->limit) & 3)
        return 0;
    return s->limit - s->start + 4;
}

/* Reverse buf[a..b) in place. */
static void reverse(uint8_t *buf, size_t a, size_t b)
{
    while (b > a + 1) {
        uint8_t t = buf[a];
        buf[a++] = buf[--b];
        buf[b] = t;
    }
}

/* Rotate left by k in place (no second buffer: a 1 GiB sink stays 1 GiB). */
static void rotate_left(uint8_t *buf, size_t len, size_t k)
{
    if (k == 0 || k >= len)
        return;
    reverse(buf, 0, k);
    reverse(buf, k, len);
    reverse(buf, 0, len);
}

/* A buffer stopped on wrap: "the very last message recorded in trace
 * memory may not be complete" (TCI 1.0 "Trace RAM Sink"), so the stream
 * ends where its last complete packet ends (v->end) and the bytes of an
 * incomplete one after it are cut (v->cut): a reader sees the stream stop
 * at a packet boundary, without the encoder's end marker. */
static int cut_incomplete_tail(const char *tp, const rvt_tp_config *c, const uint8_t *buf,
                               size_t len, rvt_sink_view *v)
{
    int st = 0;
    rvt_transport *t = rvt_tp_new(tp ? tp : "encap", c, buf, len, &st);
    if (!t)
        return st;
    rvt_tp_frame f;
    uint64_t good = 0;
    while ((st = rvt_tp_next(t, &f)) != 0) {
        if (st > 0)
            good = f.offset + f.size;
        else if (st == RVT_ERR_TRUNC)
            break;          /* only the last packet can run off the end */
    }
    rvt_tp_free(t);
    if (st == RVT_ERR_TRUNC) {
        v->cut = len - good;
        v->end = good;
    }
    return 0;
}

int rvt_sink_order(const rvt_sink_state *s, const char *tp, const rvt_tp_config *c, uint8_t *buf,
                   size_t len, rvt_sink_view *v)
{
    uint64_t size = rvt_sink_size(s);
    if (!v || !buf || !size)
        return RVT_ERR_INVAL;
    memset(v, 0, sizeof *v);
    /* trRamWP lies in [trRamStart, trRamLimit + 4): it is set to trRamStart
     * after the word at trRamLimit is written */
    if (len != size || s->wp < s->start || s->wp - s->start >= size)
        return RVT_ERR_FORMAT;
    size_t wp = (size_t)(s->wp - s->start);
    if (!s->wrap) {
        v->end = wp;
        return 0;
    }
    rotate_left(buf, len, wp);
    v->end = len;
    v->rotated = wp;
    if (s->stop_on_wrap)    /* stopped when full: the oldest byte is the stream's first */
        return cut_incomplete_tail(tp, c, buf, len, v);
    int st = 0;
    rvt_transport *t = rvt_tp_new(tp ? tp : "encap", c, buf, len, &st);
    if (!t)
        return st;
    st = rvt_tp_sync_forward(t);
    v->begin = rvt_tp_get_offset(t);
    rvt_tp_free(t);
    return st == RVT_ERR_EOS ? RVT_ERR_NOSYNC : st;
}

/* rvt_sink_take's words for a failed rvt_sink_order (status st). */
static void say_failure(const rvt_sink_state *s, size_t len, int st, char *msg, size_t n)
{
    if (st == RVT_ERR_NOSYNC)
        snprintf(msg, n, "sink buffer wrapped, and no synchronisation point in it: all %zu bytes lost",
                 len);
    else
        snprintf(msg, n, "sink buffer of %zu bytes does not fit sink_start 0x%llx, sink_limit 0x%llx, "
                 "sink_wp 0x%llx in FILE.attrs", len, (unsigned long long)s->start,
                 (unsigned long long)s->limit, (unsigned long long)s->wp);
}

/* rvt_sink_take's words for a buffer read after it wrapped (TCI 1.0:
 * what was lost, and whether the last packet may be cut short). */
static void say_wrap(const rvt_sink_state *s, const rvt_sink_view *v, char *msg, size_t n)
{
    if (!s->wrap)
        snprintf(msg, n, "%s", "");
    else if (s->stop_on_wrap && v->cut)
        snprintf(msg, n, "sink buffer filled and stopped on wrap: read whole but the last %llu "
                 "bytes (a packet cut short)", (unsigned long long)v->cut);
    else if (s->stop_on_wrap)
        snprintf(msg, n, "sink buffer filled and stopped on wrap: read whole");
    else
        snprintf(msg, n, "sink buffer wrapped (trRamWP 0x%llx): %llu bytes before the first "
                 "synchronisation point lost", (unsigned long long)s->wp,
                 (unsigned long long)v->begin);
}

int rvt_sink_take(const rvt_sink_state *s, const char *tp, const rvt_tp_config *c, uint8_t *buf,
                  size_t *len, rvt_sink_view *v, char *msg, size_t n)
{
    char none[1];
    if (!msg || !n) {
        msg = none;
        n = sizeof none;
    }
    msg[0] = 0;
    if (!s || !len)
        return RVT_ERR_INVAL;
    int st = rvt_sink_order(s, tp, c, buf, *len, v);
    if (st < 0) {
        say_failure(s, *len, st, msg, n);
        return st;
    }
    say_wrap(s, v, msg, n);
    memmove(buf, buf + v->begin, (size_t)(v->end - v->begin));
    *len = (size_t)(v->end - v->begin);
    return 0;
}

uint64_t rvt_sink_file_offset(const rvt_sink_view *v, uint64_t off, uint64_t size)
{
    if (!v || !size || off >= size)
        return off;
    return (off + v->rotated) % size;
}
