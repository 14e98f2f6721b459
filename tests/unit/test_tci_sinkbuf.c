/* A Trace RAM Sink's buffer as a stream (src/transport/sink_buf.c; TCI 1.0
 * "Trace RAM Sink", trRamWPLow; Encapsulation 1.0 2.3).  Vectors built by
 * hand: srcID, timestamp and type widths 0, so N = 31 + T + S = 31 and a
 * synchronisation sequence is 31 null.idle (0x00) and one null.alignment
 * (0x80); a packet P(k) is header 0x02 (length 2, flow 0, extend 0) and
 * the payload 0x11+k 0x21+k (low five bits non-zero: not null bytes). */
#include "tharness.h"
#include "rvtrace/transport.h"

#define RING 64u
#define START 0x1000u

static size_t put_sync(uint8_t *s, size_t n)
{
    memset(s + n, 0x00, 31);
    s[n + 31] = 0x80;
    return n + 32;
}

static size_t put_pkt(uint8_t *s, size_t n, unsigned k)
{
    s[n] = 0x02;
    s[n + 1] = (uint8_t)(0x11 + k);
    s[n + 2] = (uint8_t)(0x21 + k);
    return n + 3;
}

/* The stream an encoder wrote: sync P0 P1 P2 P3 sync P4 = 79 bytes. */
static size_t stream(uint8_t *s)
{
    size_t n = put_sync(s, 0);
    for (unsigned k = 0; k < 4; k++)
        n = put_pkt(s, n, k);
    n = put_sync(s, n);
    return put_pkt(s, n, 4);
}

static rvt_sink_state state(uint64_t wp, bool wrap, bool stop)
{
    rvt_sink_state s = { .start = START, .limit = START + RING - 4, .wp = wp, .wrap = wrap,
                         .stop_on_wrap = stop };
    return s;
}

/* 79 bytes into a 64-byte ring: bytes 64..78 overwrite offsets 0..14, so
 * trRamWP = start + 15 with trRamWrap set; the oldest byte is stream byte
 * 15, inside the first sync sequence (17 of its nulls are left: too few).
 * The first sync point after it is P4's header, stream byte 76, i.e. 61
 * bytes into the oldest-first order; P0..P3 lost their sync sequence. */
static void wrapped(void)
{
    uint8_t s[128], ring[RING];
    size_t n = stream(s);
    CHECK_EQ(n, 79);
    memcpy(ring, s, RING);
    memcpy(ring, s + RING, n - RING);
    rvt_sink_state st = state(START + 15, true, false);
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    CHECK_EQ(rvt_sink_size(&st), 64);
    rvt_sink_view v;
    CHECK_EQ(rvt_sink_order(&st, "encap", &c, ring, RING, &v), 0);
    CHECK_MEM(ring, s + 15, RING);     /* oldest first */
    CHECK_EQ(v.rotated, 15);
    CHECK_EQ(v.begin, 61);
    CHECK_EQ(v.end, 64);
    CHECK_EQ(rvt_sink_file_offset(&v, v.begin, RING), 12);   /* 76 - 64 */
    rvt_transport *t = rvt_tp_new("encap", &c, ring + v.begin, v.end - v.begin, NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.len, 2);
    CHECK_EQ(f.payload[0], 0x15);
    CHECK_EQ(f.payload[1], 0x25);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    rvt_tp_free(t);
}

/* Not wrapped: [start, wp) from its first byte, nothing moved. */
static void unwrapped(void)
{
    uint8_t s[128], ring[RING] = { 0 };
    stream(s);
    memcpy(ring, s, 44);               /* sync P0..P3 */
    rvt_sink_state st = state(START + 44, false, false);
    rvt_sink_view v;
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), 0);
    CHECK_EQ(v.begin, 0);
    CHECK_EQ(v.end, 44);
    CHECK_EQ(v.rotated, 0);
    CHECK_MEM(ring, s, 44);
}

/* Stopped on wrap (trRamStopOnWrap): the word at trRamLimit was written,
 * trRamWP went back to trRamStart with trRamWrap set and the sink
 * stopped: the whole buffer is the stream from its start. */
static void stopped(void)
{
    uint8_t s[128], ring[RING];
    stream(s);
    memcpy(ring, s, RING);
    rvt_sink_state st = state(START, true, true);
    rvt_sink_view v;
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), 0);
    CHECK_EQ(v.begin, 0);
    CHECK_EQ(v.end, 64);
    CHECK_MEM(ring, s, RING);
}

/* Stopped on wrap with the last packet cut short (TCI 1.0: "the very
 * last message ... may not be complete"): sync (32 bytes) P0..P9 (30)
 * fill 62 bytes, P10's header 0x02 and first payload byte 0x1b fill the
 * ring's last two; its second payload byte was lost.  The stream ends at
 * byte 62, after P9; 2 bytes cut. */
static void stopped_cut(void)
{
    uint8_t ring[RING];
    size_t n = put_sync(ring, 0);
    for (unsigned k = 0; k < 10; k++)
        n = put_pkt(ring, n, k);
    CHECK_EQ(n, 62);
    ring[62] = 0x02;
    ring[63] = 0x11 + 10;
    rvt_sink_state st = state(START, true, true);
    rvt_sink_view v;
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), 0);
    CHECK_EQ(v.begin, 0);
    CHECK_EQ(v.end, 62);
    CHECK_EQ(v.cut, 2);
    /* the same ring not stopped on wrap: from P0, the first byte after the
     * sync sequence (32), to the ring's end (nothing cut: only a sink
     * stopped on wrap leaves a packet incomplete) */
    st.stop_on_wrap = false;
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), 0);
    CHECK_EQ(v.begin, 32);
    CHECK_EQ(v.end, 64);
    CHECK_EQ(v.cut, 0);
}

static void bad(void)
{
    uint8_t ring[RING] = { 0 };
    rvt_sink_view v;
    rvt_sink_state st = state(START, true, false);
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING - 4, &v), RVT_ERR_FORMAT);
    st.wp = START + RING;              /* trRamWP never reaches limit + 4 */
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), RVT_ERR_FORMAT);
    st.wp = START - 4;
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), RVT_ERR_FORMAT);
    st = state(START, true, false);
    st.limit = START + 2;              /* trRamLimitLow bits 1:0 are 0 */
    CHECK_EQ(rvt_sink_size(&st), 0);
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), RVT_ERR_INVAL);
    st = state(START + 8, true, false);
    memset(ring, 0x02, sizeof ring);   /* no run of 32 nulls anywhere */
    CHECK_EQ(rvt_sink_order(&st, "encap", NULL, ring, RING, &v), RVT_ERR_NOSYNC);
    CHECK_EQ(v.begin, v.end);
}

/* rvt_sink_take: the stream moved to the buffer's start, *len its
 * length, and the sentence a reader is told (TCI 1.0: what a wrap lost). */
static void taken(void)
{
    uint8_t s[128], ring[RING];
    char msg[256];
    size_t n = stream(s), len = RING;
    memcpy(ring, s, RING);
    memcpy(ring, s + RING, n - RING);
    rvt_sink_state st = state(START + 15, true, false);   /* as in wrapped() */
    rvt_sink_view v;
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, sizeof msg), 0);
    CHECK_EQ(len, 3);                  /* P4 alone, from stream byte 76 */
    CHECK_MEM(ring, s + 76, 3);
    CHECK_STR(msg, "sink buffer wrapped (trRamWP 0x100f): 61 bytes before the first "
                   "synchronisation point lost");
    /* not wrapped: nothing to say, [start, wp) kept */
    stream(s);
    memcpy(ring, s, RING);
    st = state(START + 44, false, false);
    len = RING;
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, sizeof msg), 0);
    CHECK_EQ(len, 44);
    CHECK_STR(msg, "");
    /* stopped on wrap, read whole */
    st = state(START, true, true);
    len = RING;
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, NULL, 0), 0);
    CHECK_EQ(len, RING);
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, sizeof msg), 0);
    CHECK_STR(msg, "sink buffer filled and stopped on wrap: read whole");
    /* failures name the sizes; a short message buffer is cut, not overrun */
    len = RING - 4;
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, sizeof msg), RVT_ERR_FORMAT);
    CHECK_STR(msg, "sink buffer of 60 bytes does not fit sink_start 0x1000, sink_limit 0x103c, "
                   "sink_wp 0x1000 in FILE.attrs");
    CHECK_EQ(len, RING - 4);           /* untouched on failure */
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, 5), RVT_ERR_FORMAT);
    CHECK_STR(msg, "sink");
    st = state(START + 8, true, false);
    memset(ring, 0x02, sizeof ring);
    len = RING;
    CHECK_EQ(rvt_sink_take(&st, "encap", NULL, ring, &len, &v, msg, sizeof msg), RVT_ERR_NOSYNC);
    CHECK_STR(msg, "sink buffer wrapped, and no synchronisation point in it: all 64 bytes lost");
    CHECK_EQ(rvt_sink_take(NULL, "encap", NULL, ring, &len, &v, msg, sizeof msg), RVT_ERR_INVAL);
}

/* The .attrs lines and their keys. */
static void attrs(void)
{
    rvt_sink_state a = state(START + 15, true, false), b = { 0 };
    char buf[512];
    CHECK(rvt_sink_state_format(&a, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "sink_wp=0x100f\n") != NULL);
    for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '#')
            CHECK_EQ(rvt_sink_state_set(&b, line), 0);
    CHECK(b.present);
    CHECK_EQ(b.start, a.start);
    CHECK_EQ(b.limit, a.limit);
    CHECK_EQ(b.wp, a.wp);
    CHECK_EQ(b.wrap, 1);
    CHECK_EQ(b.stop_on_wrap, 0);
    CHECK_EQ(rvt_sink_state_set(&b, "sink_wrap=2"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_sink_state_set(&b, "sink_nope=1"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_sink_state_set(&b, "sink_wp=-1"), RVT_ERR_INVAL);
    /* sidecar readers skip them as the container's; the transport's own
     * settings are not sink keys */
    CHECK(rvt_tp_config_key("sink_wp=0x10"));
    CHECK(rvt_tp_config_name("sink_stop_on_wrap"));
    CHECK(!rvt_sink_state_name("encap_src_bits"));
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    CHECK_EQ(rvt_tp_config_set(&c, "sink_wp=0x10", NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_sink_state_format(&a, buf, 8), RVT_ERR_RANGE);
}

int main(void)
{
    wrapped();
    unwrapped();
    stopped();
    stopped_cut();
    bad();
    taken();
    attrs();
    return TH_DONE();
}
