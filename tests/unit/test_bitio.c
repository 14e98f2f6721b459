/* The shared LSB-first bit codec. */
#include "tharness.h"
#include "util/bitio.h"

int main(void)
{
    uint8_t buf[16];
    rvt_bitw w;
    rvt_bitw_init(&w, buf, sizeof buf);
    rvt_bitw_put(&w, 0x3, 2);        /* bits 0-1 */
    rvt_bitw_put(&w, 0x0, 2);        /* bits 2-3 */
    rvt_bitw_put(&w, 0x1, 1);        /* bit 4 */
    rvt_bitw_put(&w, 0x1abc, 13);    /* bits 5-17 */
    CHECK_EQ(w.pos, 18);
    CHECK_EQ(rvt_bitw_bytes(&w), 3);
    /* 0x1abc << 5 | 0x10 | 0x3 = 0x35793 */
    CHECK_EQ(buf[0], 0x93);
    CHECK_EQ(buf[1], 0x57);
    CHECK_EQ(buf[2], 0x03);

    rvt_bitr r;
    rvt_bitr_init(&r, buf, 3, 0);
    CHECK_EQ(rvt_bitr_get(&r, 2), 3);
    CHECK_EQ(rvt_bitr_get(&r, 2), 0);
    CHECK_EQ(rvt_bitr_get(&r, 1), 1);
    CHECK_EQ(rvt_bitr_get(&r, 13), 0x1abc);
    CHECK(!rvt_bitr_past_end(&r));
    /* Reading past the end yields the fill bit (sign re-extension). */
    rvt_bitr_init(&r, buf, 1, 1);
    CHECK_EQ(rvt_bitr_get(&r, 12), 0xf93);
    CHECK(rvt_bitr_past_end(&r));

    /* 64-bit fields across byte boundaries. */
    rvt_bitw_init(&w, buf, sizeof buf);
    rvt_bitw_put(&w, 1, 3);
    rvt_bitw_put(&w, 0xfedcba9876543210ull, 64);
    rvt_bitr_init(&r, buf, sizeof buf, 0);
    CHECK_EQ(rvt_bitr_get(&r, 3), 1);
    CHECK_EQ(rvt_bitr_get(&r, 64), 0xfedcba9876543210ull);

    /* Overflow is flagged, never written. */
    rvt_bitw_init(&w, buf, 1);
    rvt_bitw_put(&w, 0xfff, 12);
    CHECK(w.overflow);

    CHECK_EQ((uint64_t)rvt_sext(0x80, 8), (uint64_t)-128);
    CHECK_EQ(rvt_sext(0x7f, 8), 127);
    CHECK_EQ(rvt_mask(64), ~0ull);
    return TH_DONE();
}
