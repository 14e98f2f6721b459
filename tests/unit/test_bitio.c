/* The shared LSB-first bit codec. */
#include <string.h>
#include "tharness.h"
#include "util/bitio.h"
#include "etrace/signc.h"

/* rvt_bitw_put (word at a time where 8 bytes fit, byte by byte near the
 * end of the buffer) against one bit at a time, for runs of random fields
 * of 0..64 bits up to and past the buffer's end. */
static void bitw_matches_bit_model(void)
{
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int run = 0; run < 2000; run++) {
        size_t cap = 1 + th_xorshift64(&seed) % 24;
        uint8_t got[24], want[24] = { 0 };
        rvt_bitw w;
        rvt_bitw_init(&w, got, cap);
        size_t pos = 0;
        bool over = false;
        for (int f = 0; f < 12; f++) {
            unsigned n = (unsigned)(th_xorshift64(&seed) % 65);
            uint64_t v = th_xorshift64(&seed);
            rvt_bitw_put(&w, v, n);
            if (pos + n > cap * 8)
                over = true;
            else
                for (unsigned b = 0; b < n; b++, pos++)
                    want[pos / 8] |= (uint8_t)(((v >> b) & 1) << (pos % 8));
            if (over)
                break;
        }
        CHECK_EQ(w.overflow, over);
        CHECK_MEM(got, want, cap);
    }
}

/* E-Trace sign-based compression (6.x: the top bits equal to the sign
 * bit go, one stays, the last byte is padded with it) against the rule
 * applied one bit at a time, for every length of 1..200 bits. */
static void sign_compress_matches_rule(void)
{
    uint64_t seed = 0x0123456789abcdefull;
    for (size_t nbits = 1; nbits <= 200; nbits++) {
        for (int run = 0; run < 40; run++) {
            uint8_t buf[32] = { 0 }, want[32];
            /* long runs of the sign bit are the interesting inputs: fill
             * with the sign, then set a few random low bits */
            unsigned sign = run & 1;
            for (size_t b = 0; b < nbits; b++)
                if (sign)
                    buf[b / 8] |= (uint8_t)(1u << (b % 8));
            size_t flips = th_xorshift64(&seed) % 4;
            for (size_t k = 0; k < flips && nbits > 1; k++) {
                size_t b = th_xorshift64(&seed) % (nbits - 1);
                buf[b / 8] ^= (uint8_t)(1u << (b % 8));
            }
            memcpy(want, buf, sizeof buf);
            size_t keep = nbits;
            while (keep > 1 && ((want[(keep - 2) / 8] >> ((keep - 2) % 8)) & 1) == sign)
                keep--;
            size_t bytes = (keep + 7) / 8;
            for (size_t b = keep; b < bytes * 8; b++)
                want[b / 8] = (uint8_t)((want[b / 8] & ~(1u << (b % 8))) | sign << (b % 8));
            CHECK_EQ(rvt_te_sign_compress(buf, nbits), bytes);
            CHECK_MEM(buf, want, bytes);
        }
    }
}

int main(void)
{
    bitw_matches_bit_model();
    sign_compress_matches_rule();

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
