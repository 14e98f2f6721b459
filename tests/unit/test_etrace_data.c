/* te_data packets (E-Trace ch. 7) byte-exact, derived by hand from tables
 * 7.1-7.13 with rvtrace's widths (docs/format-te.md "te_data"): 64-bit
 * addresses, data_width_p 64, DataCompress 3 (2-bit diff), 3-bit format,
 * 2-bit size, fields LSB first, the packet sign-compressed like te_inst,
 * header byte 3<<5 | payload length.  Then the encoder's choice of coding
 * and the decoder's inverse, and hostile frames. */
#include "tharness.h"
#include "rvtrace/etrace.h"

static rvt_te_attrs attrs(unsigned no_addr, unsigned no_data)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.no_address = no_addr;
    a.no_data = no_data;
    return a;
}

/* Pack p, compare with want, unpack and compare the fields. */
static void check_pkt(const rvt_te_attrs *a, const rvt_te_dpkt *p, const uint8_t *want, size_t n)
{
    uint8_t buf[40];
    int len = rvt_te_dframe(a, p, buf, sizeof buf);
    CHECK_EQ(len, n);
    if (len == (int)n)
        CHECK_MEM(buf, want, n);
    rvt_te_dpkt q;
    CHECK_EQ(rvt_te_dunpack(a, want + 1, n - 1, &q), 0);
    CHECK_EQ(q.format, p->format);
    CHECK_EQ(q.subtype, p->subtype);
    CHECK_EQ(q.size, p->size);
    CHECK_EQ(q.diff, p->diff);
    CHECK_EQ(q.datalen, p->datalen);
    CHECK_EQ(q.oplen, p->oplen);
    CHECK_EQ(q.data, p->data);
    CHECK_EQ(q.operand, p->operand);
    CHECK_EQ(q.address, p->address);
}

static void table_7_1(void)
{
    /* Load word (size 2) at 0x80001000, data 0x1234, full (diff 00).
     * format 000 bits 0-2; size 10 bits 3-4; diff 00 bits 5-6; data_len
     * (size = 2 bits) 01 bits 7-8; data 16 bits 9-24; address
     * 0x80001000>>2 = 0x20000400 from bit 25 (addr bits 10, 29 -> packet
     * bits 35, 54).  byte0 = bit4|bit7 = 0x90; byte1 = 0x34<<1 & 0xfe =
     * 0x68; byte2 = data bits 7-14 = 0x24; byte3 = 0; byte4 = bit 35 =
     * 0x08; byte5 = 0; byte6 = bit 54 = 0x40.  Top bits all 0 -> keep one
     * zero (bit 55): 7 bytes, header 0x67. */
    rvt_te_attrs a = attrs(0, 0);
    rvt_te_dpkt p = { .format = 0, .size = 2, .diff = 0, .datalen = 1, .data = 0x1234,
                      .address = 0x20000400 };
    static const uint8_t want[] = { 0x67, 0x90, 0x68, 0x24, 0x00, 0x08, 0x00, 0x40 };
    check_pkt(&a, &p, want, sizeof want);
    /* Next word at +4 with data 0x1235: diff 01 (differential address,
     * XOR data).  byte0 = size bit4 | diff bit5 = 0x30; data_len 00; data
     * 0x01 at bit 9 -> byte1 0x02; address 1 at bit 17 -> byte2 0x02.
     * 3 bytes, header 0x63. */
    rvt_te_dpkt q = { .format = 0, .size = 2, .diff = 1, .datalen = 0, .data = 1, .address = 1 };
    static const uint8_t want2[] = { 0x63, 0x30, 0x02, 0x02 };
    check_pkt(&a, &q, want2, sizeof want2);
}

static void table_7_2(void)
{
    /* Address only: store doubleword at 0x80000003 (unaligned: byte
     * address), full.  format 011 bits 0-1, size 11 bits 3-4, diff 0 bit 5,
     * address from bit 6: bits 0,1 -> 6,7; bit 31 -> 37.  byte0 = 0x1b |
     * 0xc0 = 0xdb; byte4 = bit 37 = 0x20.  5 bytes, header 0x65. */
    rvt_te_attrs a = attrs(0, 1);
    rvt_te_dpkt p = { .format = 3, .size = 3, .diff = 0, .address = 0x80000003 };
    static const uint8_t want[] = { 0x65, 0xdb, 0x00, 0x00, 0x00, 0x20 };
    check_pkt(&a, &p, want, sizeof want);
}

static void table_7_3(void)
{
    /* Data only: load byte 0xff, full.  format, size, diff (2 bits) all
     * zero in bits 0-6; data (64 bits) from bit 7: bits 7-14 set.
     * byte0 = 0x80, byte1 = 0x7f; bit 15 = 0 is the kept sign bit.  2
     * bytes, header 0x62. */
    rvt_te_attrs a = attrs(1, 0);
    rvt_te_dpkt p = { .format = 0, .size = 0, .diff = 0, .data = 0xff };
    static const uint8_t want[] = { 0x62, 0x80, 0x7f };
    check_pkt(&a, &p, want, sizeof want);
}

static void table_7_6_to_7_8(void)
{
    /* 7.6: amoadd.w (subtype 001), size 0, operand 5, loaded 0x10, address
     * 0x80002000.  format 110 -> bits 1,2; subtype bit 3; size bit 6 = 0;
     * diff bits 7-8; op_len (2 bits) 9-10 = 0; operand bits 11-18 = 5 ->
     * bits 11, 13; data_len 19-20 = 0; data 21-28 = 0x10 -> bit 25;
     * address 0x80002000>>2 = 0x20000800 from bit 29 -> bits 40, 58.
     * byte0 0x0e, byte1 0x28, byte3 0x02, byte5 0x01, byte7 0x04: 8 bytes. */
    rvt_te_attrs a = attrs(0, 0);
    rvt_te_dpkt p = { .format = 6, .subtype = 1, .size = 0, .diff = 0, .oplen = 0, .operand = 5,
                      .datalen = 0, .data = 0x10, .address = 0x20000800 };
    static const uint8_t want[] = { 0x68, 0x0e, 0x28, 0x00, 0x02, 0x00, 0x01, 0x00, 0x04 };
    check_pkt(&a, &p, want, sizeof want);
    /* 7.7: amoswap.d address only, 0x80003000>>3 = 0x10000600.  byte0 =
     * 0x06 | size bit 6 = 0x46; diff bit 7 = 0; address from bit 8: bits
     * 9,10,28 -> 17,18,36: byte2 0x06, byte4 0x10.  5 bytes. */
    rvt_te_attrs ao = attrs(0, 1);
    rvt_te_dpkt q = { .format = 6, .subtype = 0, .size = 1, .address = 0x10000600 };
    static const uint8_t want2[] = { 0x65, 0x46, 0x00, 0x06, 0x00, 0x10 };
    check_pkt(&ao, &q, want2, sizeof want2);
    /* 7.8: amoor.w data only, operand 0xff, data 1.  byte0 = 0x06 |
     * subtype 011<<3 = 0x1e; diff 7-8, op_len 9-10 zero; operand bits
     * 11-18; data from bit 19 = 1: byte1 0xf8, byte2 0x0f.  3 bytes. */
    rvt_te_attrs dn = attrs(1, 0);
    rvt_te_dpkt r = { .format = 6, .subtype = 3, .size = 0, .operand = 0xff, .data = 1 };
    static const uint8_t want3[] = { 0x63, 0x1e, 0xf8, 0x0f };
    check_pkt(&dn, &r, want3, sizeof want3);
}

static void table_7_11_to_7_13(void)
{
    /* 7.11: csrrw mscratch (0x340), read 7, written 0x100 (operand).
     * format 101 -> 0x05; subtype 00; diff 00; data_len (3 bits, 64-bit
     * CSRs) 7-9 = 0; data 10-17 = 7 -> 0x1c in byte1; addr_msbs 0xd at
     * 18-23 -> bits 18,20,21 = 0x34; op_len 24-26 = 1 -> 0x01; operand
     * 16 bits from 27: 0x100 -> bit 35 = 0x08; addr_lsbs 0 at 43-48
     * compresses away.  5 bytes. */
    rvt_te_attrs a = attrs(0, 0);
    rvt_te_dpkt p = { .format = 5, .subtype = 0, .diff = 0, .datalen = 0, .data = 7,
                      .oplen = 1, .operand = 0x100, .address = 0x340 };
    static const uint8_t want[] = { 0x65, 0x05, 0x1c, 0x34, 0x01, 0x08 };
    check_pkt(&a, &p, want, sizeof want);
    /* 7.12: csrrs cycle (0xc00, addr[11:10] = 11: no operand), read
     * 0x1234.  byte0 = 0x05 | subtype bit 3 | data_len 1 at bit 7 = 0x8d;
     * data 10-25: bits 12,14,15 -> 0xd0, bits 19,22 -> 0x48; addr_msbs
     * 0x30 at 26-31 -> 0xc0; addr_lsbs 0 at 32-37: one zero byte left.
     * 5 bytes. */
    rvt_te_dpkt q = { .format = 5, .subtype = 1, .diff = 0, .datalen = 1, .data = 0x1234,
                      .address = 0xc00 };
    static const uint8_t want2[] = { 0x65, 0x8d, 0xd0, 0x48, 0xc0, 0x00 };
    check_pkt(&a, &q, want2, sizeof want2);
    /* 7.13: csrrc mstatus (0x300), address only.  byte0 = 0x05 | subtype
     * 10 (bit 4) = 0x15; diff bit 5 = 0; msbs 0xc at 6-11 -> bits 8,9 =
     * 0x03; lsbs compress away.  2 bytes. */
    rvt_te_attrs ao = attrs(0, 1);
    rvt_te_dpkt r = { .format = 5, .subtype = 2, .diff = 0, .address = 0x300 };
    static const uint8_t want3[] = { 0x62, 0x15, 0x03 };
    check_pkt(&ao, &r, want3, sizeof want3);
}

typedef struct cap {
    uint8_t bytes[256];
    size_t n;
    rvt_drec got[8];
    size_t ngot;
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
    (void)off;
    cap *c = ctx;
    if (c->ngot < 8)
        c->got[c->ngot++] = *d;
    return 0;
}

static void encoder_and_decoder(void)
{
    /* The two packets of table_7_1: the first is a sync, the second picks
     * XOR (1 data byte) over full data (2 bytes); XOR and differential tie
     * and XOR comes first.  A te_inst format 3 frame in between restarts
     * the state, so the third access is full again. */
    rvt_te_attrs a = attrs(0, 0);
    cap c = { .n = 0 };
    int st;
    rvt_te_data_encoder *e = rvt_te_data_encoder_new(&a, cap_bytes, &c, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    rvt_drec d[2] = {
        { .addr = 0x80001000, .data = 0x1234, .dtype = RVT_DTYPE_LOAD, .dsize = 2 },
        { .addr = 0x80001004, .data = 0x1235, .dtype = RVT_DTYPE_LOAD, .dsize = 2 },
    };
    CHECK_EQ(rvt_te_data_encoder_put(e, d, 2), 0);
    static const uint8_t want[] = { 0x67, 0x90, 0x68, 0x24, 0x00, 0x08, 0x00, 0x40,
                                    0x63, 0x30, 0x02, 0x02 };
    CHECK_EQ(c.n, sizeof want);
    CHECK_MEM(c.bytes, want, sizeof want);
    static const uint8_t sync[] = { 0x42, 0x03, 0x00 };   /* te_inst, format 3 */
    cap_bytes(&c, sync, sizeof sync);
    rvt_te_data_encoder_observe(e, sync, sizeof sync);
    CHECK_EQ(rvt_te_data_encoder_put(e, d, 1), 0);
    CHECK_MEM(c.bytes + sizeof want + sizeof sync, want, 8);
    CHECK_EQ(rvt_te_data_encoder_stats(e)->packets, 3);
    rvt_te_data_encoder_free(e);

    rvt_te_data_decoder *dd = rvt_te_data_decoder_new(&a, cap_drec, &c, &st);
    CHECK(dd != NULL);
    if (!dd)
        return;
    CHECK_EQ(rvt_te_data_decoder_run(dd, c.bytes, c.n), 0);
    CHECK_EQ(c.ngot, 3);
    CHECK_EQ(c.got[1].addr, 0x80001004);
    CHECK_EQ(c.got[1].data, 0x1235);
    CHECK_EQ(c.got[2].addr, 0x80001000);
    /* Without the first packet, the XOR packet has no reference. */
    c.ngot = 0;
    CHECK_EQ(rvt_te_data_decoder_run(dd, c.bytes + 8, 4), 1);
    CHECK_EQ(c.ngot, 0);
    /* A header promising more bytes than there are. */
    static const uint8_t cut[] = { 0x67, 0x90, 0x68 };
    CHECK_EQ(rvt_te_data_decoder_run(dd, cut, sizeof cut), 1);
    /* Reserved split-load format, and a payload longer than its fields. */
    static const uint8_t split[] = { 0x61, 0x04 };
    CHECK_EQ(rvt_te_data_decoder_run(dd, split, sizeof split), 1);
    static const uint8_t longp[] = { 0x65, 0x15, 0x03, 0x00, 0x00, 0x00 };
    rvt_te_attrs ao = attrs(0, 1);
    rvt_te_dpkt p;
    CHECK_EQ(rvt_te_dunpack(&ao, longp + 1, 5, &p), RVT_ERR_FORMAT);
    rvt_te_data_decoder_free(dd);
}

/* Accesses and errors of one stream decoded with DataCompress dc. */
static int decode_with(unsigned dc, const uint8_t *s, size_t n, size_t *ngot)
{
    rvt_te_attrs a = attrs(0, 0);
    a.data_compress = dc;
    cap c = { .n = 0 };
    int st;
    rvt_te_data_decoder *dd = rvt_te_data_decoder_new(&a, cap_drec, &c, &st);
    if (!dd)
        return -100;
    int errs = rvt_te_data_decoder_run(dd, s, n);
    rvt_te_data_decoder_free(dd);
    *ngot = c.ngot;
    return errs;
}

static void data_compress_codes(void)
{
    /* Table 2.2 DataCompress: 0 full addresses and data only, 1 XOR,
     * 2 differential, 3 either.  Frames by hand (table 7.1, LSB first):
     * aligned store (format 010 = bits 2:0 0b010), size 00, diff (bits
     * 6:5), data_len 0 bits, data 8 bits 0, address 64 bits 0; sign
     * compression leaves byte 0 alone: diff 00 = 0x02, 01 (diff/XOR) =
     * 0x22, 10 (diff/full) = 0x42, 11 (diff/diff) = 0x62; header 0x61.
     * The second packet is diff code X after a full one (the reference).
     * Found by the etrace_data fuzz target: the decoder took any code, so
     * DataCompress 0 produced accesses no conforming encoder could send. */
    uint8_t s[4] = { 0x61, 0x02, 0x61, 0x00 };
    static const struct { uint8_t code; unsigned dc; bool ok; } cases[] = {
        { 0x42, 0, false }, { 0x22, 0, false }, { 0x62, 0, false },
        { 0x42, 1, true }, { 0x22, 1, true }, { 0x62, 1, false },
        { 0x42, 2, true }, { 0x22, 2, false }, { 0x62, 2, true },
        { 0x42, 3, true }, { 0x22, 3, true }, { 0x62, 3, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        s[3] = cases[i].code;
        size_t ngot = 0;
        int errs = decode_with(cases[i].dc, s, sizeof s, &ngot);
        CHECK_EQ(errs, cases[i].ok ? 0 : 1);
        CHECK_EQ(ngot, cases[i].ok ? 2u : 1u);
    }
}

static void misaligned_atomic(void)
{
    /* noData (tables 7.2, 7.7), 64-bit addresses, LSB first.  An unaligned
     * 8-byte store (format 011, size 11, diff 0) at address A: bits 2:0
     * 011, 4:3 11, 5 0, address from bit 6.  A = 1: 0x5B (one byte, the
     * rest is zero fill); A = 8: 0x1B 0x02.  Then an 8-byte amoswap
     * (format 110, subtype 000, size 1, diff 1, address difference 0):
     * 0xC6, and a zero byte so that the fill is 0.  Table 7.6: the atomic's
     * address is aligned; after A = 1 the difference gives 1, which no
     * encoder can send (found by the etrace_data fuzz target). */
    static const uint8_t bad[] = { 0x61, 0x5B, 0x62, 0xC6, 0x00 };
    static const uint8_t good[] = { 0x62, 0x1B, 0x02, 0x62, 0xC6, 0x00 };
    rvt_te_attrs a = attrs(0, 1);
    cap c = { .n = 0 };
    int st;
    rvt_te_data_decoder *dd = rvt_te_data_decoder_new(&a, cap_drec, &c, &st);
    CHECK(dd != NULL);
    if (!dd)
        return;
    CHECK_EQ(rvt_te_data_decoder_run(dd, bad, sizeof bad), 1);
    CHECK_EQ(c.ngot, 1);
    CHECK_EQ(c.got[0].addr, 1);
    c.ngot = 0;
    CHECK_EQ(rvt_te_data_decoder_run(dd, good, sizeof good), 0);
    CHECK_EQ(c.ngot, 2);
    CHECK_EQ(c.got[0].addr, 8);
    CHECK_EQ(c.got[1].addr, 8);
    CHECK_EQ(c.got[1].dtype, RVT_DTYPE_AMO_SWAP);
    CHECK_EQ(c.got[1].dsize, 3);
    rvt_te_data_decoder_free(dd);
}

static void text_form(void)
{
    char line[128];
    rvt_drec d = { .addr = 0x340, .data = 0x100, .data2 = 7, .dtype = RVT_DTYPE_CSR_RW, .dsize = 3 };
    rvt_te_drec_format(&d, 0, line, sizeof line);
    CHECK_STR(line, "csr_rw 8 340 100 7");
    rvt_te_drec_format(&d, RVT_TE_DREC_NO_DATA, line, sizeof line);
    CHECK_STR(line, "csr_rw 8 340 - -");
    rvt_drec l = { .addr = 0x80000003, .data = 0xff, .dtype = RVT_DTYPE_LOAD, .dsize = 0 };
    rvt_te_drec_format(&l, RVT_TE_DREC_NO_ADDR, line, sizeof line);
    CHECK_STR(line, "load 1 - ff");
}

int main(void)
{
    table_7_1();
    table_7_2();
    table_7_3();
    table_7_6_to_7_8();
    table_7_11_to_7_13();
    encoder_and_decoder();
    data_compress_codes();
    misaligned_atomic();
    text_form();
    return TH_DONE();
}
