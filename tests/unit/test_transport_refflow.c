/* The refflow and mseo transports and the E-Trace reader built on them:
 * byte-level resynchronisation with the skipped bytes counted, N-Trace
 * idles (PIB padding 0xFF, N-Trace 3.1) passed over, the SRC field. */
#include "tharness.h"
#include "rvtrace/etrace.h"
#include "rvtrace/transport.h"

static void refflow_resync(void)
{
    /* 00: length 0, no packet; 41 03: te_inst (2 << 5 = 0x40) of 1 byte;
     * 42 FF FF: te_inst of 2 bytes ending the stream */
    const uint8_t in[] = { 0x00, 0x41, 0x03, 0x42, 0xFF, 0xFF };
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, in, sizeof in);
    unsigned type;
    const uint8_t *pl;
    size_t n;
    uint64_t off;
    CHECK_EQ(rvt_te_reader_frame(&r, &type, &pl, &n, &off), RVT_ERR_FORMAT);
    CHECK_EQ(off, 0);
    CHECK_EQ(r.skipped, 1);
    CHECK_EQ(rvt_te_reader_frame(&r, &type, &pl, &n, &off), 1);
    CHECK_EQ(off, 1);
    CHECK_EQ(type, RVT_TE_MSG_INST);
    CHECK_EQ(n, 1);
    CHECK_EQ(rvt_te_reader_frame(&r, &type, &pl, &n, &off), 1);
    CHECK_EQ(off, 3);
    rvt_te_reader_reject(&r, off);      /* it ended the stream: stay there */
    CHECK_EQ(r.pos, sizeof in);
    CHECK_EQ(r.skipped, 1);

    /* 42 41 07 | 41 03: a rejected 2-byte frame at 0 gives its payload
     * back, and the frame at 1 (41 07) is read */
    const uint8_t in2[] = { 0x42, 0x41, 0x07, 0x41, 0x03 };
    rvt_te_reader_init(&r, &a, in2, sizeof in2);
    CHECK_EQ(rvt_te_reader_frame(&r, &type, &pl, &n, &off), 1);
    rvt_te_reader_reject(&r, off);
    CHECK_EQ(r.pos, 1);
    CHECK_EQ(r.skipped, 1);
    CHECK_EQ(rvt_te_reader_frame(&r, &type, &pl, &n, &off), 1);
    CHECK_EQ(off, 1);
    CHECK_EQ(pl[0], 0x07);

    /* the same through the transport interface */
    rvt_transport *t = rvt_tp_new("refflow", NULL, in2, sizeof in2, NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.size, 3);
    rvt_tp_reject(t, &f);
    CHECK_EQ(rvt_tp_get_offset(t), 1);
    CHECK_EQ(rvt_tp_skipped(t), 1);
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 1);
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 3);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    rvt_tp_free(t);
}

static void mseo(void)
{
    /* PIB padding FF FF, then a message with a 4-bit SRC after TCODE 3:
     * byte 0 = MDO 000011 (TCODE 3) MSEO 00 = 0x0C; byte 1 = MDO bits
     * 6..11: SRC 0101 = 5 in the low 4, then 00: MDO 000101, MSEO 11
     * = 0x17.  Then 0A (MSEO 10: starts no message) is skipped up to the
     * byte after the next MSEO 11 (0x03, 3.4). */
    const uint8_t in[] = { 0xFF, 0xFF, 0x0C, 0x17, 0xFF, 0x0A, 0x03, 0x0C, 0x17 };
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = 4;
    rvt_transport *t = rvt_tp_new("mseo", &c, in, sizeof in, NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 2);
    CHECK_EQ(f.type, 3);
    CHECK_EQ(f.src, 5);
    CHECK_EQ(f.len, 2);
    CHECK_EQ(rvt_tp_next(t, &f), RVT_ERR_FORMAT);
    CHECK_EQ(f.offset, 5);
    CHECK_EQ(rvt_tp_get_offset(t), 7);
    CHECK_EQ(rvt_tp_skipped(t), 2);
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 7);
    CHECK_EQ(rvt_tp_next(t, &f), 0);
    /* sync points: 2 (after idle FF), 5 would be MSEO 10: no; 7 after 03 */
    rvt_tp_sync_set(t, 0);
    CHECK_EQ(rvt_tp_sync_forward(t), 0);
    CHECK_EQ(rvt_tp_get_offset(t), 2);
    rvt_tp_sync_set(t, 3);
    CHECK_EQ(rvt_tp_sync_forward(t), 0);
    uint64_t s;
    CHECK_EQ(rvt_tp_get_sync_offset(t, &s), 0);
    CHECK_EQ(s, 7);
    rvt_tp_free(t);
}

int main(void)
{
    refflow_resync();
    mseo();
    return TH_DONE();
}
