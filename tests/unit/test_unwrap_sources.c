/* An encapsulated capture of several sources taken apart by the library
 * (rvt_unwrap_encap with RVT_UNWRAP_ALL; issue 14: the per-source lanes
 * the CLI used to build itself): one stream per srcID in the order they
 * first appear, each with its offsets back to the file's bytes and its
 * packets' timestamps; merged (a dump's view: every source in stream
 * order, each packet's srcID); one source kept; rvt_trace_open handing
 * each source out.
 *
 * The capture, by hand from Encapsulation 1.0 with S = 8 srcID bits (1
 * byte), T = 2 timestamp bytes, a 0-bit type (te_inst only, 3.3):
 *   0-34   sync sequence: N = 31 + T + S = 34 null.idle, then null.alignment
 *          0x80 (2.3)
 *   35-37  01 03 AA        header length 1, no extend; srcID 3; payload AA
 *   38-43  82 05 34 12 B1 B2   length 2, extend; srcID 5; timestamp 0x1234
 *                          (LSB first, 2.1.1); payload B1 B2
 *   44-48  81 03 02 01 CC  length 1, extend; srcID 3; timestamp 0x0102; CC
 * Each payload back in the reference-flow framing: header 2 << 5 | length
 * (te_inst), then the payload. */
#include <stdlib.h>
#include <unistd.h>
#include "tharness.h"
#include "rvtrace/trace.h"

static uint8_t cap[49];

static void build(void)
{
    static const uint8_t pk[] = { 0x01, 0x03, 0xAA, 0x82, 0x05, 0x34, 0x12, 0xB1, 0xB2,
                                  0x81, 0x03, 0x02, 0x01, 0xCC };
    memset(cap, 0, 35);
    cap[34] = 0x80;
    memcpy(cap + 35, pk, sizeof pk);
}

static rvt_tp_config config(void)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = 8;
    c.ts_bytes = 2;
    return c;
}

static rvt_unwrapped *unwrap(long source, bool merged, rvt_unwrap_stats *s)
{
    rvt_tp_config c = config();
    rvt_unwrap_opts o = { .source = source, .merged = merged };
    int st = 1;
    rvt_unwrapped *u = rvt_unwrap_encap(&c, cap, sizeof cap, &o, &st);
    CHECK(u != NULL);
    CHECK_EQ(st, 0);
    rvt_unwrapped_stats(u, s);
    return u;
}

static void check_stream(const rvt_unwrapped *u, size_t i, const uint8_t *want, size_t n,
                         uint32_t want_src)
{
    size_t len = 99;
    uint32_t src = 99;
    const uint8_t *b = rvt_unwrapped_source(u, i, &len, &src);
    CHECK(b != NULL);
    CHECK_EQ(len, n);
    CHECK_EQ(src, want_src);
    if (b && len == n)
        CHECK_MEM(b, want, n);
}

static void all_sources(void)
{
    rvt_unwrap_stats s;
    rvt_unwrapped *u = unwrap(RVT_UNWRAP_ALL, false, &s);
    CHECK_EQ(rvt_unwrapped_count(u), 2);
    CHECK_EQ(s.sources, 2);
    CHECK_EQ(s.other_sources, 0);
    CHECK_EQ(s.bad, 0);
    static const uint8_t s3[] = { 0x41, 0xAA, 0x41, 0xCC }, s5[] = { 0x42, 0xB1, 0xB2 };
    check_stream(u, 0, s3, sizeof s3, 3);
    check_stream(u, 1, s5, sizeof s5, 5);
    /* a frame's header byte: its packet's header; a payload byte: itself */
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, 0), 35);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, 1), 37);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, 2), 44);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, 3), 48);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 1, 0), 38);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 1, 2), 43);
    CHECK_EQ(rvt_unwrapped_offset(u, 2), 44);          /* stream 0's */
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, UINT64_MAX), UINT64_MAX);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 2, 7), 7);  /* no such stream */
    /* timestamps (2.1.1): none with srcID 3's first packet; 0x0102 is due
     * at its second (offset 2), from the packet at 44 */
    size_t next = 0;
    uint64_t ts = 0, at = 0;
    CHECK(!rvt_unwrapped_time(u, 0, &next, 0, &ts, &at));
    CHECK(!rvt_unwrapped_time(u, 0, &next, 1, &ts, &at));
    CHECK(rvt_unwrapped_time(u, 0, &next, 3, &ts, &at));
    CHECK_EQ(ts, 0x0102);
    CHECK_EQ(at, 44);
    CHECK(!rvt_unwrapped_time(u, 0, &next, 3, &ts, &at));
    next = 0;
    CHECK(rvt_unwrapped_time(u, 1, &next, 0, &ts, &at));
    CHECK_EQ(ts, 0x1234);
    CHECK_EQ(at, 38);
    CHECK(!rvt_unwrapped_time(u, 1, NULL, 0, &ts, &at));
    /* taken: the caller's bytes; the map stays */
    size_t len = 0;
    uint8_t *mine = rvt_unwrapped_take(u, 1, &len);
    CHECK(mine != NULL);
    CHECK_EQ(len, sizeof s5);
    if (mine && len == sizeof s5)
        CHECK_MEM(mine, s5, len);
    free(mine);
    CHECK(rvt_unwrapped_take(u, 1, &len) == NULL);
    CHECK_EQ(len, 0);
    CHECK(rvt_unwrapped_source(u, 1, &len, NULL) == NULL);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 1, 2), 43);
    rvt_unwrapped_free(u);
}

static void merged(void)
{
    rvt_unwrap_stats s;
    rvt_unwrapped *u = unwrap(RVT_UNWRAP_ALL, true, &s);
    CHECK_EQ(rvt_unwrapped_count(u), 1);
    CHECK_EQ(s.sources, 2);
    static const uint8_t all[] = { 0x41, 0xAA, 0x42, 0xB1, 0xB2, 0x41, 0xCC };
    check_stream(u, 0, all, sizeof all, 3);
    CHECK_EQ(rvt_unwrapped_src_at(u, 0, 0), 3);
    CHECK_EQ(rvt_unwrapped_src_at(u, 0, 2), 5);
    CHECK_EQ(rvt_unwrapped_src_at(u, 0, 4), 5);
    CHECK_EQ(rvt_unwrapped_src_at(u, 0, 5), 3);
    CHECK_EQ(rvt_unwrapped_src_at(u, 1, 0), -1);
    CHECK_EQ(rvt_unwrapped_source_offset(u, 0, 5), 44);
    rvt_unwrapped_free(u);
}

static void one_source(void)
{
    rvt_unwrap_stats s;
    rvt_unwrapped *u = unwrap(5, false, &s);
    static const uint8_t s5[] = { 0x42, 0xB1, 0xB2 }, s3[] = { 0x41, 0xAA, 0x41, 0xCC };
    CHECK_EQ(rvt_unwrapped_count(u), 1);
    check_stream(u, 0, s5, sizeof s5, 5);
    CHECK_EQ(s.other_sources, 2);
    CHECK_EQ(s.sources, 1);
    rvt_unwrapped_free(u);
    u = unwrap(-1, false, &s);                /* the first seen: 3 */
    check_stream(u, 0, s3, sizeof s3, 3);
    CHECK_EQ(s.source, 3);
    CHECK_EQ(s.other_sources, 1);
    rvt_unwrapped_free(u);
    u = unwrap(7, false, &s);                 /* none: one empty stream */
    CHECK_EQ(rvt_unwrapped_count(u), 1);
    CHECK_EQ(s.sources, 0);
    check_stream(u, 0, s3, 0, 0);
    rvt_unwrapped_free(u);
}

static void bad_arguments(void)
{
    rvt_tp_config c = config();
    int st = 0;
    rvt_unwrap_opts o = { .source = RVT_UNWRAP_ALL - 1 };
    CHECK(rvt_unwrap_encap(NULL, cap, sizeof cap, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK(rvt_unwrap_encap(&c, NULL, 5, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK(rvt_unwrap_encap(&c, cap, sizeof cap, &o, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK_EQ(rvt_unwrapped_count(NULL), 0);
    CHECK(rvt_unwrapped_source(NULL, 0, NULL, NULL) == NULL);
    CHECK(rvt_unwrapped_take(NULL, 0, NULL) == NULL);
    CHECK_EQ(rvt_unwrapped_src_at(NULL, 0, 0), -1);
    CHECK_EQ(rvt_unwrapped_source_offset(NULL, 0, 9), 9);
    size_t next = 0;
    uint64_t ts, at;
    CHECK(!rvt_unwrapped_time(NULL, 0, &next, 0, &ts, &at));
    rvt_unwrapped_free(NULL);
}

/* rvt_trace_open: the sidecar names the container and widths. */
static void trace_open(void)
{
    char dir[] = "/tmp/rvt_unwrapXXXXXX", path[64], side[80];
    if (!mkdtemp(dir)) {
        TH_FAIL("mkdtemp");
        return;
    }
    snprintf(path, sizeof path, "%s/cap.te", dir);
    snprintf(side, sizeof side, "%s.attrs", path);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(cap, 1, sizeof cap, f) == sizeof cap);
    if (f)
        fclose(f);
    f = fopen(side, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("container=encap\nencap_src_bits=8\nencap_ts_bytes=2\n", f);
        fclose(f);
    }
    rvt_trace *t;
    rvt_trace_opts o = { .encap_all_sources = true };
    CHECK_EQ(rvt_trace_open(path, &o, &t), 0);
    const rvt_unwrapped *u = rvt_trace_unwrapped(t);
    CHECK_EQ(rvt_unwrapped_count(u), 2);
    uint32_t src = 0;
    size_t n = 0;
    CHECK(rvt_unwrapped_source(u, 1, &n, &src) != NULL);
    CHECK_EQ(src, 5);
    CHECK_EQ(n, 3);
    rvt_trace_bytes(t, &n);
    CHECK_EQ(n, 4);                            /* stream 0: srcID 3 */
    rvt_trace_free(t);
    o = (rvt_trace_opts){ .encap_all_sources = true, .encap_source_given = true, .encap_source = 5 };
    CHECK_EQ(rvt_trace_open(path, &o, &t), 0);
    CHECK_EQ(rvt_unwrapped_count(rvt_trace_unwrapped(t)), 1);
    rvt_trace_bytes(t, &n);
    CHECK_EQ(n, 3);
    rvt_trace_free(t);
    unlink(side);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    build();
    all_sources();
    merged();
    one_source();
    bad_arguments();
    trace_open();
    return TH_DONE();
}
