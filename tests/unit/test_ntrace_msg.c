/* N-Trace transport and message codec against the spec's own examples
 * (3.5 table 6, 8.1 table 24, 8.2.1, 7.1 table 12) and hostile input. */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "ntrace/nt_addr.h"

static rvt_nt_msg ibh_example(void)
{
    rvt_nt_msg m = {0};
    m.tcode = RVT_NT_INDIRECT_BRANCH_HIST;
    rvt_nt_set(&m, RVT_NT_F_BTYPE, 0);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0x7D);
    rvt_nt_set(&m, RVT_NT_F_UADDR, 0x7);
    rvt_nt_set(&m, RVT_NT_F_HIST, 0xFFE);
    return m;
}

/* 3.5 table 6: TCODE 28 = 011100|00 -> 0x70; B-TYPE 00 + I-CNT bits 3:0
 * (1101) = 110100|00 -> 0xD0; I-CNT bits 9:4 = 000111|01 -> 0x1D (I-CNT =
 * 0x7D); U-ADDR 7 = 000111|01 -> 0x1D; HIST 0xFFE bits 5:0 = 111110|00 ->
 * 0xF8, bits 11:6 = 111111|11 -> 0xFF (last byte). */
static void test_spec_3_5_encode(void)
{
    static const uint8_t want[] = { 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF };
    rvt_nt_msg m = ibh_example();
    uint8_t out[RVT_NT_MAX_MSG];
    int n = rvt_nt_msg_encode(&m, NULL, out, sizeof out);
    CHECK_EQ(n, sizeof want);
    CHECK_MEM(out, want, sizeof want);
}

/* Same bytes with table 6's idle bytes around them: one message at offset 1. */
static void test_spec_3_5_decode(void)
{
    static const uint8_t in[] = { 0xFF, 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF, 0xFF };
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init(&r, in, sizeof in, NULL);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 1);
    CHECK_EQ(m.tcode, 28);
    CHECK_EQ(m.offset, 1);
    CHECK_EQ(m.len, 6);
    CHECK_EQ(m.f[RVT_NT_F_BTYPE], 0);
    CHECK_EQ(m.f[RVT_NT_F_ICNT], 0x7D);
    CHECK_EQ(m.f[RVT_NT_F_UADDR], 0x7);
    CHECK_EQ(m.f[RVT_NT_F_HIST], 0xFFE);
    CHECK(!rvt_nt_has(&m, RVT_NT_F_TSTAMP));
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 0);
    char line[200];
    rvt_nt_msg_format(&m, false, line, sizeof line);
}

/* 8.1 table 24: F-ADDR of 0x3FC04 is 0x1FE02; then U-ADDR 0x7B6 for
 * 0x3F368 (XOR 0xF6C >> 1) and 0x934 for 0x3E100 (XOR 0x1268 >> 1). */
static void test_spec_xor_examples(void)
{
    CHECK_EQ(nt_faddr(0x3FC04), 0x1FE02);
    CHECK_EQ(nt_uaddr(0x3FC04, 0x3F368), 0x7B6);
    CHECK_EQ(nt_uaddr(0x3F368, 0x3E100), 0x934);
    CHECK_EQ(nt_uaddr_apply(0x3FC04, 0x7B6), 0x3F368);
    CHECK_EQ(nt_uaddr_apply(0x3F368, 0x934), 0x3E100);
}

/* 8.2.1 first example: ProgTraceSync SYNC=3 I-CNT=0 puts F-ADDR on a byte
 * boundary (6 TCODE bits; 4 SYNC + 2 I-CNT bits, MSEO 01).  F-ADDR field
 * 0xF_1FFF_FFFF: four 111111|00, then 011111|00, then 111100 (MSB 1 ->
 * extended to bit 63: address 0xFFFF_FFFE_3FFF_FFFE), here the last byte
 * so MSEO 11. */
static void test_spec_msb_extension(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.extend_addr_msb = true;
    rvt_nt_msg m = {0};
    m.tcode = RVT_NT_PROG_TRACE_SYNC;
    rvt_nt_set(&m, RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, nt_faddr(0xFFFFFFFE3FFFFFFEull));
    static const uint8_t want[] = { 0x24, 0x0D, 0xFC, 0xFC, 0xFC, 0xFC, 0x7C, 0xF3 };
    uint8_t out[RVT_NT_MAX_MSG];
    int n = rvt_nt_msg_encode(&m, &cfg, out, sizeof out);
    CHECK_EQ(n, sizeof want);
    CHECK_MEM(out, want, sizeof want);
    rvt_nt_reader r;
    rvt_nt_msg d;
    rvt_nt_reader_init(&r, want, sizeof want, &cfg);
    CHECK_EQ(rvt_nt_reader_next(&r, &d), 1);
    CHECK_EQ(d.f[RVT_NT_F_FADDR] << 1, 0xFFFFFFFE3FFFFFFEull);
    /* Without extension the same field is just 0xF_1FFF_FFFF. */
    rvt_nt_reader_init(&r, want, sizeof want, NULL);
    CHECK_EQ(rvt_nt_reader_next(&r, &d), 1);
    CHECK_EQ(d.f[RVT_NT_F_FADDR], 0xF1FFFFFFFull);
}

/* 8.2.1 last example: ten 111111|00 then 000101 (MSB 0: no extension).
 * The spec prints the field as 0x5FFF_FFFF_FFFF but 10*6 one bits plus
 * 101 at bits 62:60 is 0x5FFF_FFFF_FFFF_FFFF (a 63-bit field). */
static void test_spec_msb_no_extension(void)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.extend_addr_msb = true;
    rvt_nt_msg m = {0};
    m.tcode = RVT_NT_PROG_TRACE_SYNC;
    rvt_nt_set(&m, RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, 0x5FFFFFFFFFFFFFFFull);
    uint8_t out[RVT_NT_MAX_MSG];
    int n = rvt_nt_msg_encode(&m, &cfg, out, sizeof out);
    CHECK_EQ(n, 2 + 11);
    for (int i = 2; i < 12; i++)
        CHECK_EQ(out[i], 0xFC);
    CHECK_EQ(out[12], 0x17);   /* 000101|11 */
}

/* 7.1 table 12 examples. */
static void test_spec_process(void)
{
    CHECK_EQ(nt_process(NT_PROC_SCONTEXT, 0, 1, 0x1D), 0x3B2);
    CHECK_EQ(nt_process(NT_PROC_PRIV, 3, 0, 0), 0xC);
}

/* Every message type round-trips through the codec, with SRC and TSTAMP. */
static void test_all_messages_roundtrip(void)
{
    static const uint8_t tcodes[] = { 2, 3, 4, 8, 9, 11, 12, 27, 28, 29, 30, 33 };
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.src_bits = 5;
    for (size_t i = 0; i < sizeof tcodes; i++) {
        for (int ts = 0; ts < 2; ts++) {
            rvt_nt_msg m = {0}, d;
            m.tcode = tcodes[i];
            rvt_nt_set(&m, RVT_NT_F_SRC, 21);
            switch (m.tcode) {
            case 2: rvt_nt_set(&m, RVT_NT_F_PROCESS, 0x3B2); break;
            case 3: rvt_nt_set(&m, RVT_NT_F_ICNT, 12345); break;
            case 8: rvt_nt_set(&m, RVT_NT_F_ETYPE, 0); rvt_nt_set(&m, RVT_NT_F_ECODE, 4); break;
            case 27: rvt_nt_set(&m, RVT_NT_F_RCODE, 2); rvt_nt_set(&m, RVT_NT_F_RDATA, 0x5);
                     rvt_nt_set(&m, RVT_NT_F_HREPEAT, 150); break;
            case 30: rvt_nt_set(&m, RVT_NT_F_BCNT, 97); break;
            case 33: rvt_nt_set(&m, RVT_NT_F_EVCODE, 0); rvt_nt_set(&m, RVT_NT_F_CDF, 1);
                     rvt_nt_set(&m, RVT_NT_F_ICNT, 6); rvt_nt_set(&m, RVT_NT_F_HIST, 1); break;
            default:
                if (rvt_nt_is_sync(m.tcode)) {
                    rvt_nt_set(&m, RVT_NT_F_SYNC, 2);
                    rvt_nt_set(&m, RVT_NT_F_FADDR, 0x7FFFFFFFFFFFFFFFull);
                } else {
                    rvt_nt_set(&m, RVT_NT_F_UADDR, 0);
                }
                if (m.tcode != 9 && m.tcode != 11)
                    rvt_nt_set(&m, RVT_NT_F_BTYPE, 3);
                rvt_nt_set(&m, RVT_NT_F_ICNT, (1u << 22) - 1);
                if (m.tcode == 28 || m.tcode == 29)
                    rvt_nt_set(&m, RVT_NT_F_HIST, 0xFFFFFFFF);
            }
            if (ts)
                rvt_nt_set(&m, RVT_NT_F_TSTAMP, ~0ull);
            uint8_t out[RVT_NT_MAX_MSG];
            int n = rvt_nt_msg_encode(&m, &cfg, out, sizeof out);
            CHECK(n > 1 && n <= 38 + 2);
            rvt_nt_reader r;
            rvt_nt_reader_init(&r, out, (size_t)(n > 0 ? n : 0), &cfg);
            CHECK_EQ(rvt_nt_reader_next(&r, &d), 1);
            CHECK_EQ(d.tcode, m.tcode);
            CHECK_EQ(d.present, m.present);
            CHECK_MEM(d.f, m.f, sizeof m.f);
        }
    }
}

/* 3.1: MSEO 10 is reserved; 3: all-zero data is an endless message; a
 * stray MSEO 11 byte; truncation.  Errors carry offsets and the reader
 * resynchronises after the next end-of-message byte. */
static void test_corrupt_transport(void)
{
    uint8_t buf[200];
    size_t n = 0;
    buf[n++] = 0x70; buf[n++] = 0xD2;          /* MSEO 10 at offset 1 */
    buf[n++] = 0x1D; buf[n++] = 0xFF;          /* ... message end */
    for (int i = 0; i < 100; i++) buf[n++] = 0; /* all zero, offset 4 */
    buf[n++] = 0x03;                            /* ends it */
    static const uint8_t good[] = { 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF };
    size_t good_at = n;
    memcpy(buf + n, good, sizeof good); n += sizeof good;
    buf[n++] = 0x70; buf[n++] = 0xD0;          /* truncated */
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init(&r, buf, n, NULL);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), RVT_ERR_FORMAT);
    CHECK_EQ(r.err_offset, 1);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), RVT_ERR_FORMAT);
    CHECK_EQ(r.err_offset, 4);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 1);
    CHECK_EQ(m.offset, good_at);
    CHECK_EQ(m.f[RVT_NT_F_HIST], 0xFFE);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), RVT_ERR_TRUNC);
    CHECK_EQ(r.err_offset, good_at + sizeof good);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 0);
    /* A field wider than 64 bits with set bits above bit 63. */
    uint8_t wide[14] = { 0x0C };   /* DirectBranch */
    for (int i = 1; i < 13; i++) wide[i] = 0xFC;
    wide[13] = 0xFF;
    rvt_nt_reader_init(&r, wide, sizeof wide, NULL);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), RVT_ERR_FORMAT);
}

/* 6.1: vendor-defined TCODEs are skipped by length and reported. */
static void test_vendor_message(void)
{
    /* TCODE 56 = 111000|00, two variable fields. */
    static const uint8_t in[] = { 0xE0, 0x05, 0x0C, 0x07, 0x70, 0xD0, 0x1D, 0x1D, 0xF8, 0xFF };
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init(&r, in, sizeof in, NULL);
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 1);
    CHECK_EQ(m.tcode, 56);
    CHECK_EQ(m.len, 4);
    CHECK_STR(rvt_nt_tcode_name(m.tcode), "VendorDefined");
    CHECK_EQ(rvt_nt_reader_next(&r, &m), 1);
    CHECK_EQ(m.tcode, 28);
}

int main(void)
{
    test_spec_3_5_encode();
    test_spec_3_5_decode();
    test_spec_xor_examples();
    test_spec_msb_extension();
    test_spec_msb_no_extension();
    test_spec_process();
    test_all_messages_roundtrip();
    test_corrupt_transport();
    test_vendor_message();
    return TH_DONE();
}
