/* Encapsulation 1.0 (ch. 2-3) packer, writer and reader: every expected
 * byte is derived by hand from the spec text, the derivation beside it. */
#include "tharness.h"
#include "rvtrace/transport.h"

static rvt_tp_config cfg(unsigned src_bits, unsigned ts_bytes, unsigned type_bits)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = src_bits;
    c.ts_bytes = ts_bytes;
    c.type_bits = type_bits;
    return c;
}

/* E-Trace 2.0 "Siemens transport" worked example: a 5-byte te_inst payload
 * 32 04 00 00 02, srcID 6 bits = 1, no timestamp, a 2-bit type '10'.
 *   payload bits = type 2 + trace_payload 40 = 42; srcID%8 = 6
 *   header.length = ceiling((42 + 6) / 8) = 6            (2.1.5)
 *   header = length 6 | flow 0 << 5 | extend 0 << 7 = 0x06 (2.1.1)
 *   S = int(6 / 8) = 0, so packet length = 1 + 0 + 0 + 6 = 7
 *   after the header, LSB first: srcID 000001 in bits 0-5, type 2 = '10'
 *   in bits 6-7 (bit 6 = 0, bit 7 = 1): 0x81; then the payload bytes,
 *   byte-aligned again: 32 04 00 00 02. */
static void worked_example(void)
{
    rvt_tp_config c = cfg(6, 0, 2);
    const uint8_t pl[] = { 0x32, 0x04, 0x00, 0x00, 0x02 };
    const uint8_t want[] = { 0x06, 0x81, 0x32, 0x04, 0x00, 0x00, 0x02 };
    uint8_t b[64];
    CHECK_EQ(rvt_encap_pack(&c, 1, 2, 0, NULL, pl, sizeof pl, b, sizeof b), 7);
    CHECK_MEM(b, want, sizeof want);

    int st;
    rvt_transport *t = rvt_tp_new("encap", &c, want, sizeof want, &st);
    CHECK(t != NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 0);
    CHECK_EQ(f.size, 7);
    CHECK_EQ(f.src, 1);
    CHECK_EQ(f.type, 2);
    CHECK_EQ(f.has_timestamp, 0);
    CHECK_EQ(f.len, 5);
    CHECK_MEM(f.payload, pl, 5);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    rvt_tp_free(t);
}

/* More vectors from 2.1.1-2.1.5. */
static void hand_vectors(void)
{
    uint8_t b[64];
    /* srcID 0 bits, no type: header.length = payload bytes = 1 -> 01 AB */
    rvt_tp_config c0 = cfg(0, 0, 0);
    const uint8_t ab[] = { 0xAB };
    CHECK_EQ(rvt_encap_pack(&c0, 0, 0, 0, NULL, ab, 1, b, sizeof b), 2);
    CHECK_EQ(b[0], 0x01);
    CHECK_EQ(b[1], 0xAB);
    /* flow 2 in header bits 5-6: 0x01 | 2 << 5 = 0x41 */
    CHECK_EQ(rvt_encap_pack(&c0, 0, 0, 2, NULL, ab, 1, b, sizeof b), 2);
    CHECK_EQ(b[0], 0x41);

    /* srcID 16 bits = 0x1234, type 1 bit = 1 (E-Trace data, 3.3), payload
     * 5A 01: S = 2, srcID%8 = 0, length = ceiling((1 + 16) / 8) = 3 ->
     * header 03; srcID LSB first 34 12; then bit 0 = type 1, bits 1-8 =
     * 0x5A, bits 9-16 = 0x01: (0x5A << 1 | 1) & 0xFF = B5, 0x5A >> 7 |
     * 0x01 << 1 = 02, 0x01 >> 7 = 00 (padding).  1 + 2 + 3 = 6 bytes. */
    rvt_tp_config c16 = cfg(16, 0, 1);
    const uint8_t pl2[] = { 0x5A, 0x01 };
    const uint8_t want16[] = { 0x03, 0x34, 0x12, 0xB5, 0x02, 0x00 };
    CHECK_EQ(rvt_encap_pack(&c16, 0x1234, 1, 0, NULL, pl2, 2, b, sizeof b), 6);
    CHECK_MEM(b, want16, sizeof want16);

    /* timestamp: T = 2, srcID 8 bits = 5, no type, ts 0xBEEF, payload 11:
     * length = 1, extend = 1 -> header 0x81; then 05, EF BE, 11;
     * packet length = 1 + S 1 + T 2 * 1 + 1 = 5 */
    rvt_tp_config ct = cfg(8, 2, 0);
    uint64_t ts = 0xBEEF;
    const uint8_t p11[] = { 0x11 };
    const uint8_t wantt[] = { 0x81, 0x05, 0xEF, 0xBE, 0x11 };
    CHECK_EQ(rvt_encap_pack(&ct, 5, 0, 0, &ts, p11, 1, b, sizeof b), 5);
    CHECK_MEM(b, wantt, sizeof wantt);
    CHECK_EQ(rvt_encap_pack(&c0, 0, 0, 0, &ts, p11, 1, b, sizeof b), RVT_ERR_INVAL);

    /* 2.1.4: R = 248 - Y - srcID%8.  srcID 6, no type: 30 bytes give
     * ceiling((240 + 6) / 8) = 31, 31 bytes would need 32 */
    rvt_tp_config c6 = cfg(6, 0, 0);
    uint8_t big[31] = { 0 };
    CHECK_EQ(rvt_encap_pack(&c6, 0, 0, 0, NULL, big, 30, b, sizeof b), 32);
    CHECK_EQ(b[0], 31);
    CHECK_EQ(rvt_encap_pack(&c6, 0, 0, 0, NULL, big, 31, b, sizeof b), RVT_ERR_RANGE);
    /* type 1 bit with srcID 0: 31 bytes + 1 bit = 249 > 248 */
    rvt_tp_config c1 = cfg(0, 0, 1);
    CHECK_EQ(rvt_encap_pack(&c1, 0, 0, 0, NULL, big, 31, b, sizeof b), RVT_ERR_RANGE);
    CHECK_EQ(rvt_encap_pack(&c1, 0, 2, 0, NULL, big, 1, b, sizeof b), RVT_ERR_RANGE);
    CHECK_EQ(rvt_encap_pack(&c6, 64, 0, 0, NULL, big, 1, b, sizeof b), RVT_ERR_RANGE);
    CHECK_EQ(rvt_encap_pack(&c0, 0, 0, 0, NULL, big, 0, b, sizeof b), RVT_ERR_RANGE);

    /* 2.3: N = 31 + T + S */
    CHECK_EQ(rvt_encap_null_run(&c0), 31);
    CHECK_EQ(rvt_encap_null_run(&c6), 31);
    rvt_tp_config c16t = cfg(16, 2, 0);
    CHECK_EQ(rvt_encap_null_run(&c16t), 35);
}

typedef struct sinkbuf {
    uint8_t b[8192];
    size_t n;
} sinkbuf;

static int to_buf(void *ctx, const uint8_t *bytes, size_t n)
{
    sinkbuf *s = ctx;
    if (s->n + n > sizeof s->b)
        return RVT_ERR_IO;
    memcpy(s->b + s->n, bytes, n);
    s->n += n;
    return 0;
}

/* The writer starts with a sync sequence of N + 1 nulls: N null.idle
 * (0x00) and a null.alignment (extend 1, length 0: 0x80). */
static void writer_sync(void)
{
    rvt_tp_config c = cfg(8, 0, 0);
    c.src_id = 3;
    sinkbuf s = { .n = 0 };
    int st;
    rvt_encap_writer *w = rvt_encap_writer_new(&c, to_buf, &s, &st);
    CHECK(w != NULL);
    const uint8_t p1[] = { 0x22 }, p2[] = { 0x33 };
    CHECK_EQ(rvt_encap_write(w, 0, NULL, p1, 1), 0);
    CHECK_EQ(rvt_encap_write(w, 0, NULL, p2, 1), 0);
    /* N = 31 + 0 + 1 = 32 idles, 80, then 01 03 22 and 01 03 33 */
    CHECK_EQ(s.n, 32 + 1 + 3 + 3);
    for (int i = 0; i < 32; i++)
        CHECK_EQ(s.b[i], 0x00);
    CHECK_EQ(s.b[32], 0x80);
    const uint8_t tail[] = { 0x01, 0x03, 0x22, 0x01, 0x03, 0x33 };
    CHECK_MEM(s.b + 33, tail, sizeof tail);
    rvt_encap_writer_free(w);

    /* interval 10 bytes: 36 bytes out since the first sequence, so the
     * second packet gets its own */
    c.sync_interval = 10;
    s.n = 0;
    w = rvt_encap_writer_new(&c, to_buf, &s, &st);
    rvt_encap_write(w, 0, NULL, p1, 1);
    rvt_encap_write(w, 0, NULL, p2, 1);
    CHECK_EQ(s.n, 2 * (33 + 3));
    CHECK_EQ(s.b[36 + 32], 0x80);
    CHECK_EQ(rvt_encap_writer_bytes(w), 72);
    rvt_encap_writer_free(w);
}

/* One writer, several sources (run --harts N: a funnel's worth): after
 * rvt_encap_writer_set_src(w, 5) the packets carry srcID 5.  With 8 srcID
 * bits (2.1.2) the srcID is the byte after the header, as in writer_sync:
 * 01 03 22, then 01 05 33.  256 does not fit 8 bits: RVT_ERR_RANGE, and
 * the next packet keeps srcID 5. */
static void writer_set_src(void)
{
    rvt_tp_config c = cfg(8, 0, 0);
    c.src_id = 3;
    sinkbuf s = { .n = 0 };
    int st;
    rvt_encap_writer *w = rvt_encap_writer_new(&c, to_buf, &s, &st);
    CHECK(w != NULL);
    const uint8_t p1[] = { 0x22 }, p2[] = { 0x33 }, p3[] = { 0x44 };
    CHECK_EQ(rvt_encap_write(w, 0, NULL, p1, 1), 0);
    CHECK_EQ(rvt_encap_writer_set_src(w, 5), 0);
    CHECK_EQ(rvt_encap_write(w, 0, NULL, p2, 1), 0);
    CHECK_EQ(rvt_encap_writer_set_src(w, 256), RVT_ERR_RANGE);
    CHECK_EQ(rvt_encap_write(w, 0, NULL, p3, 1), 0);
    const uint8_t tail[] = { 0x01, 0x03, 0x22, 0x01, 0x05, 0x33, 0x01, 0x05, 0x44 };
    CHECK_EQ(s.n, 33 + sizeof tail);
    CHECK_MEM(s.b + 33, tail, sizeof tail);
    CHECK_EQ(rvt_encap_writer_set_src(NULL, 1), RVT_ERR_INVAL);
    rvt_encap_writer_free(w);
}

/* Nulls between packets are passed over; two sources demultiplex by srcID. */
static void reader_nulls_and_sources(void)
{
    rvt_tp_config c = cfg(8, 0, 0);
    const uint8_t in[] = { 0x00, 0x80, 0x01, 0x01, 0xAA, 0x00, 0x01, 0x02, 0xBB, 0x80, 0x01, 0x01, 0xCC };
    rvt_transport *t = rvt_tp_new("encap", &c, in, sizeof in, NULL);
    rvt_tp_frame f;
    const unsigned srcs[] = { 1, 2, 1 }, offs[] = { 2, 6, 10 };
    const uint8_t vals[] = { 0xAA, 0xBB, 0xCC };
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(rvt_tp_next(t, &f), 1);
        CHECK_EQ(f.src, srcs[i]);
        CHECK_EQ(f.offset, offs[i]);
        CHECK_EQ(f.len, 1);
        CHECK_EQ(f.payload[0], vals[i]);
    }
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    CHECK_EQ(rvt_tp_skipped(t), 0);
    rvt_tp_free(t);
}

/* Corruption: extend with T = 0 (2.1.1), a header too short for its
 * srcID bits and type, a packet cut short. */
static void reader_corrupt(void)
{
    rvt_tp_config c0 = cfg(0, 0, 0);
    const uint8_t ext[] = { 0x81, 0x11, 0x01, 0x22 };
    rvt_transport *t = rvt_tp_new("encap", &c0, ext, sizeof ext, NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), RVT_ERR_FORMAT);
    CHECK_EQ(f.offset, 0);
    CHECK_EQ(rvt_tp_get_offset(t), sizeof ext);    /* no sync point after it */
    CHECK_EQ(rvt_tp_skipped(t), sizeof ext);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    rvt_tp_free(t);

    /* srcID 6 + type 2 leave 0 payload bits in a 1-byte length */
    rvt_tp_config c = cfg(6, 0, 2);
    const uint8_t shorty[] = { 0x01, 0x81 };
    t = rvt_tp_new("encap", &c, shorty, sizeof shorty, NULL);
    CHECK_EQ(rvt_tp_next(t, &f), RVT_ERR_FORMAT);
    rvt_tp_free(t);

    const uint8_t cut[] = { 0x06, 0x81, 0x32 };
    t = rvt_tp_new("encap", &c, cut, sizeof cut, NULL);
    CHECK_EQ(rvt_tp_next(t, &f), RVT_ERR_TRUNC);
    CHECK_EQ(f.offset, 0);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    rvt_tp_free(t);

    /* an error resumes at the next sync point: 33 nulls (N + 1 = 32 for
     * S = T = 0, 2.3), then the packet at 34 */
    uint8_t resync[40] = { 0x81 };
    memset(resync + 1, 0, 33);
    resync[33] = 0x80;
    resync[34] = 0x01;
    resync[35] = 0x5C;
    t = rvt_tp_new("encap", &c0, resync, 36, NULL);
    CHECK_EQ(rvt_tp_next(t, &f), RVT_ERR_FORMAT);
    CHECK_EQ(rvt_tp_get_offset(t), 34);
    CHECK_EQ(rvt_tp_skipped(t), 34);
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 34);
    CHECK_EQ(f.payload[0], 0x5C);
    rvt_tp_free(t);
}

/* 2.3: in an unframed stream the sync sequence must end in null.alignment. */
static void unframed_alignment(void)
{
    rvt_tp_config c = cfg(0, 0, 0);
    uint8_t in[40] = { 0 };
    in[33] = 0x01;      /* after 33 null.idle: framed sync, not unframed */
    in[34] = 0x44;
    rvt_transport *t = rvt_tp_new("encap", &c, in, 35, NULL);
    CHECK_EQ(rvt_tp_sync_forward(t), 0);
    CHECK_EQ(rvt_tp_get_offset(t), 33);
    rvt_tp_free(t);
    c.unframed = true;
    t = rvt_tp_new("encap", &c, in, 35, NULL);
    CHECK_EQ(rvt_tp_sync_forward(t), RVT_ERR_EOS);
    uint64_t off;
    CHECK_EQ(rvt_tp_get_sync_offset(t, &off), RVT_ERR_NOSYNC);
    rvt_tp_free(t);
    in[32] = 0x80;
    t = rvt_tp_new("encap", &c, in, 35, NULL);
    CHECK_EQ(rvt_tp_sync_forward(t), 0);
    CHECK_EQ(rvt_tp_get_sync_offset(t, &off), 0);
    CHECK_EQ(off, 33);
    rvt_tp_free(t);
}

static void config_keys(void)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    const char *name = NULL;
    CHECK_EQ(rvt_tp_config_set(&c, "container=encap", &name), 0);
    CHECK_STR(name, "encap");
    CHECK_EQ(rvt_tp_config_set(&c, "encap_src_bits=6", NULL), 0);
    CHECK_EQ(rvt_tp_config_set(&c, "encap_sync_interval=4096", NULL), 0);
    CHECK_EQ(c.src_bits, 6);
    CHECK_EQ(c.sync_interval, 4096);
    CHECK_EQ(rvt_tp_config_set(&c, "encap_src_bits=17", NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_tp_config_set(&c, "container=zip", NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_tp_config_set(&c, "iaddress_width=32", NULL), RVT_ERR_INVAL);
    CHECK(rvt_tp_config_key("encap_ts_bytes=2"));
    CHECK(!rvt_tp_config_key("iaddress_width=32"));
    int st = 0;
    CHECK(rvt_tp_new("nosuch", NULL, NULL, 0, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK_EQ(rvt_tp_next(NULL, NULL), RVT_ERR_INVAL);
}

int main(void)
{
    worked_example();
    hand_vectors();
    writer_sync();
    writer_set_src();
    reader_nulls_and_sources();
    reader_corrupt();
    unframed_alignment();
    config_keys();
    return TH_DONE();
}
