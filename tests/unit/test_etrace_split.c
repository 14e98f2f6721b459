/* te_data on the split load interface (E-Trace 4.3, tables 7.4, 7.5, 7.9,
 * 7.10) byte-exact, derived by hand with rvtrace's widths
 * (docs/format-te.md "te_data"): split_loads=1, index_width=2, 64-bit
 * addresses, data_width_p 64, DataCompress 3, 3-bit format, fields LSB
 * first, the payload sign-compressed like te_inst (top bytes equal to the
 * sign of the last kept bit dropped), header 3<<5 | payload length.  Then
 * the encoder and decoder pairing requests and responses by index, and
 * the errors the split form adds. */
#include <string.h>
#include "tharness.h"
#include "rvtrace/etrace.h"

static rvt_te_attrs split_attrs(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.split_loads = 1;
    a.index_width = 2;
    return a;
}

/* Pack p, compare with want, unpack (with the 7.10 size table) and
 * compare the fields. */
static void check_pkt(const rvt_te_attrs *a, const rvt_te_dpkt *p, const uint8_t *want, size_t n,
                      const uint8_t *sizes)
{
    uint8_t buf[40];
    int len = rvt_te_dframe(a, p, buf, sizeof buf);
    CHECK_EQ(len, n);
    if (len == (int)n)
        CHECK_MEM(buf, want, n);
    rvt_te_dpkt q;
    CHECK_EQ(rvt_te_dunpack_split(a, want + 1, n - 1, sizes, &q), 0);
    CHECK_EQ(q.format, p->format);
    CHECK_EQ(q.subtype, p->subtype);
    CHECK_EQ(q.size, p->size);
    CHECK_EQ(q.index, p->index);
    CHECK_EQ(q.diff, p->diff);
    CHECK_EQ(q.resp, p->resp);
    CHECK_EQ(q.datalen, p->datalen);
    CHECK_EQ(q.oplen, p->oplen);
    CHECK_EQ(q.data, p->data);
    CHECK_EQ(q.operand, p->operand);
    CHECK_EQ(q.address, p->address);
}

/* 7.4 full, as the encoder test's first frame. */
static const uint8_t REQ_LOAD[] = { 0x65, 0x30, 0x00, 0x04, 0x00, 0x20 };
/* 7.9 differential, the encoder test's second frame. */
static const uint8_t REQ_AMO_DIFF[] = { 0x64, 0x8e, 0x53, 0x00, 0x40 };
/* 7.10 okay, full data. */
static const uint8_t RESP_AMO[] = { 0x66, 0xdf, 0x01, 0x00, 0x00, 0x00, 0xff };
/* 7.5 error for index 1. */
static const uint8_t RESP_LOAD_ERR[] = { 0x61, 0x34 };

static void table_7_4(void)
{
    /* Split load request: word (size 2) at 0x80001000, index 1, full.
     * format 000 bits 0-2; size 10 bits 3-4 (bit 4); index 01 bits 5-6
     * (bit 5); diff 0 bit 7; address 0x80001000>>2 = 0x20000400 from bit 8
     * (addr bit 10 -> bit 18, bit 29 -> bit 37).  byte0 = 0x30, byte1 = 0,
     * byte2 = bit 18 = 0x04, byte3 = 0, byte4 = bit 37 = 0x20; its MSB is 0
     * like every bit above: 5 bytes, header 0x65. */
    rvt_te_attrs a = split_attrs();
    rvt_te_dpkt p = { .format = 0, .size = 2, .index = 1, .diff = 0, .address = 0x20000400 };
    check_pkt(&a, &p, REQ_LOAD, sizeof REQ_LOAD, NULL);
    /* Differential: the next word 8 bytes on, index 2: index 10 (bit 6),
     * diff 1 (bit 7): byte0 = 0x10|0x40|0x80 = 0xd0; address (8>>2) = 2
     * at bit 8 -> byte1 0x02.  2 bytes, header 0x62. */
    rvt_te_dpkt q = { .format = 0, .size = 2, .index = 2, .diff = 1, .address = 2 };
    static const uint8_t want[] = { 0x62, 0xd0, 0x02 };
    check_pkt(&a, &q, want, sizeof want, NULL);
}

static void table_7_5(void)
{
    /* Split load data, okay: index 1, size 2, resp 10 (full), data 0x1234
     * in a data_width_p (64-bit) field.  format 100 bit 2; size bit 4;
     * index 01 bit 5; resp bits 7-8 = 0,1 (bit 8); data from bit 9.
     * byte0 = 0x04|0x10|0x20 = 0x34; byte1 = bit 8 | data bits 0-6 (0x34)
     * << 1 = 0x69; byte2 = data bits 7-14 = 0x24, MSB 0 and all above 0:
     * 3 bytes, header 0x63. */
    rvt_te_attrs a = split_attrs();
    rvt_te_dpkt p = { .format = RVT_TE_DF_SPLIT_LOAD_DATA, .size = 2, .index = 1,
                      .resp = RVT_TE_RESP_FULL, .data = 0x1234 };
    static const uint8_t want[] = { 0x63, 0x34, 0x69, 0x24 };
    check_pkt(&a, &p, want, sizeof want, NULL);
    /* Error (lresp 3 -> resp 00): no data field.  byte0 = 0x34 with resp
     * bit 7 = 0; nothing above: 1 byte, header 0x61. */
    rvt_te_dpkt e = { .format = RVT_TE_DF_SPLIT_LOAD_DATA, .size = 2, .index = 1,
                      .resp = RVT_TE_RESP_ERROR };
    check_pkt(&a, &e, RESP_LOAD_ERR, sizeof RESP_LOAD_ERR, NULL);
}

static void table_7_9(void)
{
    /* Split atomic request: amoadd.w (subtype 001), size 0, index 3,
     * diff 0, op_len 00 (2 + size bits), operand 0x05 (8 bits), address
     * 0x80002000>>2 = 0x20000800.  format 110 bits 1,2 = 0x06; subtype
     * bit 3 = 0x08; size bit 6 = 0; index 11 bits 7-8; diff bit 9 = 0;
     * op_len bits 10-11 = 0; operand bits 12-19 (bits 12, 14); address
     * from bit 20 (bit 11 -> 31, bit 29 -> 49).  byte0 = 0x8e; byte1 =
     * bit 8 | bit 12 | bit 14 = 0x51; byte2 = 0; byte3 = bit 31 = 0x80;
     * byte4 = byte5 = 0; byte6 = bit 49 = 0x02: 7 bytes, header 0x67. */
    rvt_te_attrs a = split_attrs();
    rvt_te_dpkt p = { .format = RVT_TE_DF_ATOMIC, .subtype = 1, .size = 0, .index = 3,
                      .diff = 0, .oplen = 0, .operand = 5, .address = 0x20000800 };
    static const uint8_t want[] = { 0x67, 0x8e, 0x51, 0x00, 0x80, 0x00, 0x00, 0x02 };
    check_pkt(&a, &p, want, sizeof want, NULL);
    /* Differential from a word at 0x80001000: (0x1000 >> 2) = 0x400 from
     * bit 20 -> bit 30; diff bit 9 -> byte1 0x53; byte3 = 0x40: 4 bytes. */
    rvt_te_dpkt q = p;
    q.diff = 1;
    q.address = 0x400;
    check_pkt(&a, &q, REQ_AMO_DIFF, sizeof REQ_AMO_DIFF, NULL);
}

static void table_7_10(void)
{
    /* Split atomic data: index 3, resp 10 (full), data_len 2 + size = 2
     * bits (the request at index 3 has size 0), data 0x80000000 (4 bytes,
     * data_len 11).  format 111 = 0x07; index 11 bits 3-4 = 0x18; resp
     * bit 6 = 0x40; data_len bits 7-8; data from bit 9 (bit 31 -> 40).
     * byte0 = 0xdf; byte1 = bit 8 = 0x01; bytes 2-4 = 0; byte5 = bit 40
     * = 1, the packet's last bit, which the padding sign-extends (bits
     * 41-47 = 1): 0xff, 6 bytes, header 0x66. */
    rvt_te_attrs a = split_attrs();
    uint8_t sizes[4] = { RVT_TE_NO_ATOMIC, RVT_TE_NO_ATOMIC, RVT_TE_NO_ATOMIC, 0 };
    rvt_te_dpkt p = { .format = RVT_TE_DF_SPLIT_ATOMIC_DATA, .size = 0, .index = 3,
                      .resp = RVT_TE_RESP_FULL, .datalen = 3, .data = 0x80000000 };
    check_pkt(&a, &p, RESP_AMO, sizeof RESP_AMO, sizes);
    /* Error: resp 00 and nothing after it (the rest sign-extends resp's
     * MSB, table 7.10): byte0 = 0x07|0x18 = 0x1f, 1 byte. */
    rvt_te_dpkt e = { .format = RVT_TE_DF_SPLIT_ATOMIC_DATA, .index = 3 };
    static const uint8_t want[] = { 0x61, 0x1f };
    check_pkt(&a, &e, want, sizeof want, sizes);
    /* Without an atomic outstanding at index 3 the width is unknown. */
    rvt_te_dpkt q;
    CHECK_EQ(rvt_te_dunpack_split(&a, RESP_AMO + 1, 6, NULL, &q), RVT_ERR_FORMAT);
    /* The same codes on a unified encoder are format errors (7.1.1). */
    rvt_te_attrs u;
    rvt_te_attrs_default(&u);
    CHECK_EQ(rvt_te_dunpack_split(&u, RESP_AMO + 1, 6, sizes, &q), RVT_ERR_FORMAT);
    /* The table follows the packets: a request sets, a response clears. */
    uint8_t t[4];
    memset(t, RVT_TE_NO_ATOMIC, sizeof t);
    rvt_te_dpkt r = { .format = RVT_TE_DF_ATOMIC, .size = 1, .index = 2 };
    rvt_te_dsplit_track(&a, &r, t);
    CHECK_EQ(t[2], 1);
    rvt_te_dsplit_track(&a, &e, t);
    r.format = RVT_TE_DF_SPLIT_ATOMIC_DATA;
    rvt_te_dsplit_track(&a, &r, t);
    CHECK_EQ(t[2], RVT_TE_NO_ATOMIC);
}

/* Every te_data kind of ch. 7 has its own name: with split_loads the
 * format codes 0, 1 and 6 are the requests of tables 7.4 and 7.9, 4 and 7
 * the responses of 7.5 and 7.10 (7.1.1); without it 0-3, 5, 6 are the
 * unified loads/stores, CSR and atomic forms.  rvt_te_dpkt_name() keeps
 * the unified names for the shared codes. */
static void kind_names(void)
{
    static const char *const split[8] = {
        "split_load_aligned", "split_load_unaligned", "store_aligned", "store_unaligned",
        "split_load_data", "csr", "split_atomic", "split_atomic_data",
    };
    static const char *const unified[8] = {
        "load_aligned", "load_unaligned", "store_aligned", "store_unaligned",
        NULL, "csr", "atomic", NULL,
    };
    rvt_te_attrs a = split_attrs(), u;
    rvt_te_attrs_default(&u);
    for (uint8_t f = 0; f < 8; f++) {
        rvt_te_dpkt p = { .format = f };
        CHECK_STR(rvt_te_dpkt_kind(&a, &p), split[f]);
        if (unified[f]) {
            CHECK_STR(rvt_te_dpkt_kind(&u, &p), unified[f]);
            CHECK_STR(rvt_te_dpkt_name(&p), unified[f]);
        }
    }
}

typedef struct cap {
    uint8_t bytes[256];
    size_t n;
    rvt_drec got[8];
    uint64_t off[8];
    size_t ngot;
    char msg[4][128];
    uint64_t err_off[4];
    size_t nerr;
} cap;

static int cap_bytes(void *ctx, const uint8_t *b, size_t n)
{
    cap *c = ctx;
    if (c->n + n <= sizeof c->bytes) {
        memcpy(c->bytes + c->n, b, n);
        c->n += n;
    }
    return 0;
}

static int cap_drec(void *ctx, const rvt_drec *d, uint64_t off)
{
    cap *c = ctx;
    if (c->ngot < 8) {
        c->off[c->ngot] = off;
        c->got[c->ngot++] = *d;
    }
    return 0;
}

static void cap_diag(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)level;
    cap *c = ctx;
    if (c->nerr < 4) {
        snprintf(c->msg[c->nerr], sizeof c->msg[0], "%s", msg);
        c->err_off[c->nerr++] = off;
    }
}

/* Decode a stream with split_attrs(); errors returned, accesses in c. */
static int decode(const uint8_t *s, size_t n, cap *c)
{
    rvt_te_attrs a = split_attrs();
    int st;
    memset(c, 0, sizeof *c);
    rvt_te_data_decoder *dd = rvt_te_data_decoder_new(&a, cap_drec, c, &st);
    if (!dd)
        return -100;
    rvt_te_data_decoder_set_diag(dd, cap_diag, c);
    int errs = rvt_te_data_decoder_run(dd, s, n);
    rvt_te_data_decoder_free(dd);
    return errs;
}

static void encoder_and_decoder(void)
{
    /* Ingress: a load request (lrid 1), an amoadd.w request (lrid 3),
     * the atomic's response, then the load's error response.  The load
     * request is the first of size 2: full (REQ_LOAD).  The atomic's
     * address has a size-2 reference now (0x80001000): the differential
     * 7.9 form is 3 bytes shorter (REQ_AMO_DIFF).  No data of size 2 has
     * been sent: the 7.10 response is full (RESP_AMO).  The error has no
     * data (RESP_LOAD_ERR). */
    rvt_te_attrs a = split_attrs();
    cap c;
    memset(&c, 0, sizeof c);
    int st;
    rvt_te_data_encoder *e = rvt_te_data_encoder_new(&a, cap_bytes, &c, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    const unsigned REQ = RVT_DREC_F_SPLIT_REQ, RSP = RVT_DREC_F_RESPONSE;
    rvt_drec d[4] = {
        { .addr = 0x80001000, .dtype = RVT_DTYPE_LOAD, .dsize = 2, .flags = REQ, .lrid = 1 },
        { .addr = 0x80002000, .data = 5, .dtype = RVT_DTYPE_AMO_ADD, .dsize = 2, .flags = REQ,
          .lrid = 3 },
        { .data2 = 0x80000000, .dtype = RVT_DTYPE_AMO_ADD, .dsize = 2, .flags = RSP, .lrid = 3,
          .lresp = RVT_LRESP_OKAY },
        { .flags = RSP, .lrid = 1, .lresp = RVT_LRESP_ERROR },
    };
    CHECK_EQ(rvt_te_data_encoder_put(e, d, 4), 0);
    uint8_t want[64];
    size_t n = 0;
    memcpy(want + n, REQ_LOAD, sizeof REQ_LOAD), n += sizeof REQ_LOAD;
    memcpy(want + n, REQ_AMO_DIFF, sizeof REQ_AMO_DIFF), n += sizeof REQ_AMO_DIFF;
    memcpy(want + n, RESP_AMO, sizeof RESP_AMO), n += sizeof RESP_AMO;
    memcpy(want + n, RESP_LOAD_ERR, sizeof RESP_LOAD_ERR), n += sizeof RESP_LOAD_ERR;
    CHECK_EQ(c.n, n);
    CHECK_MEM(c.bytes, want, n);
    CHECK_EQ(rvt_te_data_encoder_stats(e)->accesses, 2);
    CHECK_EQ(rvt_te_data_encoder_stats(e)->packets, 4);
    /* A response whose request the encoder never saw (filtered out in
     * front of it) makes no packet; a request needs a free ID that fits
     * index_width (table 4.9). */
    CHECK_EQ(rvt_te_data_encoder_put(e, &d[3], 1), 0);
    CHECK_EQ(c.n, n);
    rvt_drec big = d[0];
    big.lrid = 4;
    CHECK_EQ(rvt_te_data_encoder_put(e, &big, 1), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_data_encoder_put(e, &d[0], 1), 0);
    CHECK_EQ(rvt_te_data_encoder_put(e, &d[0], 1), RVT_ERR_INVAL);
    rvt_te_data_encoder_free(e);

    /* Decoded in response order, each as a complete access. */
    cap r;
    CHECK_EQ(decode(want, n, &r), 0);
    CHECK_EQ(r.ngot, 2);
    CHECK_EQ(r.got[0].dtype, RVT_DTYPE_AMO_ADD);
    CHECK_EQ(r.got[0].dsize, 2);
    CHECK_EQ(r.got[0].addr, 0x80002000);
    CHECK_EQ(r.got[0].data, 5);
    CHECK_EQ(r.got[0].data2, 0x80000000);
    CHECK_EQ(r.got[0].lresp, RVT_LRESP_OKAY);
    CHECK_EQ(r.off[0], sizeof REQ_LOAD + sizeof REQ_AMO_DIFF);
    CHECK_EQ(r.got[1].dtype, RVT_DTYPE_LOAD);
    CHECK_EQ(r.got[1].addr, 0x80001000);
    CHECK_EQ(r.got[1].lresp, RVT_LRESP_ERROR);
    char line[96];
    CHECK(rvt_te_drec_format(&r.got[1], 0, line, sizeof line) > 0);
    CHECK_STR(line, "load 4 80001000 error");
    CHECK(rvt_te_drec_format(&r.got[0], 0, line, sizeof line) > 0);
    CHECK_STR(line, "amo_add 4 80002000 5 80000000");
}

static void unified_records_on_split_encoder(void)
{
    /* A unified load into a split encoder: request on the lowest free
     * index (0) and an okay response at once.  7.4: index 00, else as
     * REQ_LOAD: byte0 = 0x10, 0x00, 0x04, 0x00, 0x20.  7.5: index 0, full,
     * data 0x1234: byte0 = 0x04|0x10 = 0x14, then as table_7_5. */
    rvt_te_attrs a = split_attrs();
    cap c;
    memset(&c, 0, sizeof c);
    int st;
    rvt_te_data_encoder *e = rvt_te_data_encoder_new(&a, cap_bytes, &c, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    rvt_drec d = { .addr = 0x80001000, .data = 0x1234, .dtype = RVT_DTYPE_LOAD, .dsize = 2 };
    CHECK_EQ(rvt_te_data_encoder_put(e, &d, 1), 0);
    static const uint8_t want[] = { 0x65, 0x10, 0x00, 0x04, 0x00, 0x20, 0x63, 0x14, 0x69, 0x24 };
    CHECK_EQ(c.n, sizeof want);
    CHECK_MEM(c.bytes, want, sizeof want);
    rvt_te_data_encoder_free(e);
    /* And split records into a unified encoder: one 7.1 packet at the
     * response (the bytes of test_etrace_data's table_7_1). */
    rvt_te_attrs u;
    rvt_te_attrs_default(&u);
    memset(&c, 0, sizeof c);
    e = rvt_te_data_encoder_new(&u, cap_bytes, &c, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    rvt_drec s[2] = {
        { .addr = 0x80001000, .dtype = RVT_DTYPE_LOAD, .dsize = 2, .flags = RVT_DREC_F_SPLIT_REQ,
          .lrid = 7 },
        { .data = 0x1234, .flags = RVT_DREC_F_RESPONSE, .lrid = 7, .lresp = RVT_LRESP_OKAY },
    };
    CHECK_EQ(rvt_te_data_encoder_put(e, s, 1), 0);
    CHECK_EQ(c.n, 0);
    CHECK_EQ(rvt_te_data_encoder_put(e, s + 1, 1), 0);
    static const uint8_t u71[] = { 0x67, 0x90, 0x68, 0x24, 0x00, 0x08, 0x00, 0x40 };
    CHECK_EQ(c.n, sizeof u71);
    CHECK_MEM(c.bytes, u71, sizeof u71);
    /* The unified packets cannot say "failed". */
    s[1].lresp = RVT_LRESP_ERROR;
    CHECK_EQ(rvt_te_data_encoder_put(e, s, 2), RVT_ERR_RANGE);
    rvt_te_data_encoder_free(e);
}

static void corrupt_streams(void)
{
    cap c;
    /* A response whose request never came: error at its offset (0). */
    CHECK_EQ(decode(RESP_LOAD_ERR, sizeof RESP_LOAD_ERR, &c), 1);
    CHECK_EQ(c.err_off[0], 0);
    CHECK(strstr(c.msg[0], "unknown index") != NULL);
    CHECK_EQ(c.ngot, 0);
    /* 7.10 with no atomic outstanding at its index. */
    CHECK_EQ(decode(RESP_AMO, sizeof RESP_AMO, &c), 1);
    CHECK(strstr(c.msg[0], "unknown index") != NULL);
    /* The same index requested twice: error at the second request (6);
     * then one response completes and the end finds none open. */
    uint8_t s[32];
    size_t n = 0;
    memcpy(s, REQ_LOAD, sizeof REQ_LOAD), n += sizeof REQ_LOAD;
    memcpy(s + n, REQ_LOAD, sizeof REQ_LOAD), n += sizeof REQ_LOAD;
    memcpy(s + n, RESP_LOAD_ERR, sizeof RESP_LOAD_ERR), n += sizeof RESP_LOAD_ERR;
    CHECK_EQ(decode(s, n, &c), 1);
    CHECK_EQ(c.err_off[0], sizeof REQ_LOAD);
    CHECK(strstr(c.msg[0], "reused") != NULL);
    CHECK_EQ(c.ngot, 1);
    /* A request whose response is cut short: the reader's error at the
     * response, and the open transfer reported at the last frame. */
    n = 0;
    memcpy(s, REQ_LOAD, sizeof REQ_LOAD), n += sizeof REQ_LOAD;
    static const uint8_t cut[] = { 0x63, 0x34, 0x69 };
    memcpy(s + n, cut, sizeof cut), n += sizeof cut;
    CHECK_EQ(decode(s, n, &c), 2);
    CHECK_EQ(c.err_off[0], sizeof REQ_LOAD);
    CHECK(strstr(c.msg[1], "without a response") != NULL);
    CHECK_EQ(c.err_off[1], sizeof REQ_LOAD);
    /* A differential request with no reference (table_7_4's second
     * packet, index 2) is lost; its full response (7.5, index 2: byte0 =
     * 0x04|0x10|0x40 = 0x54, then as table_7_5) is dropped quietly, not
     * taken for an unknown index. */
    static const uint8_t lost[] = { 0x62, 0xd0, 0x02, 0x63, 0x54, 0x69, 0x24 };
    CHECK_EQ(decode(lost, sizeof lost, &c), 1);
    CHECK_EQ(c.err_off[0], 0);
    CHECK(strstr(c.msg[0], "without a reference") != NULL);
    CHECK_EQ(c.ngot, 0);
    /* A resp code DataCompress rules out: XOR (01) under DataCompress 2.
     * 7.5 index 1, resp 01 (bit 7): byte0 = 0x34|0x80 = 0xb4, data 1 at
     * bit 9 -> byte1 0x02. */
    rvt_te_attrs a = split_attrs();
    a.data_compress = 2;
    memset(&c, 0, sizeof c);
    rvt_te_data_decoder *dd = rvt_te_data_decoder_new(&a, cap_drec, &c, NULL);
    CHECK(dd != NULL);
    if (dd) {
        rvt_te_data_decoder_set_diag(dd, cap_diag, &c);
        n = 0;
        memcpy(s, REQ_LOAD, sizeof REQ_LOAD), n += sizeof REQ_LOAD;
        static const uint8_t x[] = { 0x62, 0xb4, 0x02 };
        memcpy(s + n, x, sizeof x), n += sizeof x;
        CHECK(rvt_te_data_decoder_run(dd, s, n) >= 1);
        CHECK_EQ(c.err_off[0], sizeof REQ_LOAD);
        CHECK(strstr(c.msg[0], "bad packet") != NULL);
        rvt_te_data_decoder_free(dd);
    }
    /* Attributes: the split forms need both address and data. */
    rvt_te_attrs b = split_attrs();
    b.no_data = 1;
    CHECK_EQ(rvt_te_data_attrs_check(&b), RVT_ERR_INVAL);
    b = split_attrs();
    b.index_width = RVT_TE_MAX_INDEX_WIDTH + 1;
    CHECK_EQ(rvt_te_data_attrs_check(&b), RVT_ERR_INVAL);
    CHECK_EQ(rvt_te_attrs_set(&b, "index_width=3"), 0);
    CHECK_EQ(b.index_width, 3);
}

int main(void)
{
    table_7_4();
    table_7_5();
    table_7_9();
    table_7_10();
    kind_names();
    encoder_and_decoder();
    unified_records_on_split_encoder();
    corrupt_streams();
    return TH_DONE();
}
