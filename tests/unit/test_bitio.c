/* The shared LSB-first bit codec. */
#include <string.h>
#include "tharness.h"
#include "util/bitio.h"
#include "etrace/signc.h"
#include "guard_page.h"

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

/* rvt_le_load: n bytes (0..8) ending where readable memory ends (a read
 * past them faults), little-endian, the bytes above them 0. */
static void le_load_at_end(guard_page *g)
{
    static const uint8_t b[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
    static const uint64_t want[9] = {
        0, 0x11, 0x2211, 0x332211, 0x44332211, 0x5544332211, 0x665544332211,
        0x77665544332211, 0x8877665544332211ull,
    };
    for (size_t n = 0; n <= 8; n++)
        CHECK_EQ(rvt_le_load(guard_page_tail(g, b, n), n), want[n]);
}

/* The reader (its 128-bit window, then a byte at a time) against one bit
 * at a time: payloads of every length 1..31 at the end of readable
 * memory, both fills, runs of random fields of 0..64 bits across the
 * 64-bit word, the window's end and the payload's end. */
static void bitr_matches_bit_model(guard_page *g)
{
    uint64_t seed = 0x5deece66dull;
    for (size_t len = 1; len <= 31; len++) {
        for (int run = 0; run < 64; run++) {
            uint8_t src[31];
            unsigned fill = run & 1;
            for (size_t i = 0; i < len; i++)
                src[i] = (uint8_t)th_xorshift64(&seed);
            rvt_bitr r;
            rvt_bitr_init(&r, guard_page_tail(g, src, len), len, fill);
            size_t pos = 0;
            for (int f = 0; f < 10; f++) {
                unsigned n = (unsigned)(th_xorshift64(&seed) % 65);
                uint64_t want = 0;
                for (unsigned b = 0; b < n; b++, pos++) {
                    uint64_t bit = pos < len * 8 ? (src[pos / 8] >> (pos % 8)) & 1 : fill;
                    want |= bit << b;
                }
                CHECK_EQ(rvt_bitr_get(&r, n), want);
                CHECK_EQ(r.pos, pos);
            }
        }
    }
}

/* Fields of a payload's first `len` bytes at a guard page read in turn:
 * each step's width, its value worked out by hand, and whether the reader
 * is past the payload's end after it. */
typedef struct read_step {
    unsigned n;
    uint64_t want;
    bool past_end;
} read_step;

static void read_steps(guard_page *g, const uint8_t *b, size_t len, unsigned fill,
                       const read_step *st, size_t k)
{
    rvt_bitr r;
    rvt_bitr_init(&r, guard_page_tail(g, b, len), len, fill);
    size_t pos = 0;
    for (size_t i = 0; i < k; i++) {
        CHECK_EQ(rvt_bitr_get(&r, st[i].n), st[i].want);
        pos += st[i].n;
        CHECK_EQ(r.pos, pos);
        CHECK_EQ(rvt_bitr_past_end(&r), st[i].past_end);
    }
}

/* Fields across bit 64 and across the window's end (bit 128), worked out
 * by hand: byte i holds i + 1. */
static void bitr_crossing_by_hand(guard_page *g)
{
    static const uint8_t b[17] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
                                   0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11 };
    /* 10 bytes, fill 1: bits 0-59 are bytes 0-6 and byte 7's low nibble
     * (0x8 -> 0); bits 60-67: byte 7's high nibble 0, byte 8's low nibble
     * 9; bits 68-83: byte 8's high nibble 0, byte 9 (0x0a), 4 fill bits. */
    static const read_step ten[] = { { 60, 0x807060504030201ull, false }, { 8, 0x90, false },
                                     { 16, 0xf0a0, true } };
    read_steps(g, b, 10, 1, ten, 3);
    /* 17 bytes, fill 0: bits 64-123 are bytes 8-14 and byte 15's low
     * nibble (0x10 -> 0); bits 124-135 (past the window): byte 15's high
     * nibble 1, byte 16 (0x11); then fill. */
    static const read_step seventeen[] = { { 64, 0x0807060504030201ull, false },
                                           { 60, 0x0f0e0d0c0b0a09ull, false }, { 12, 0x111, false },
                                           { 8, 0, true } };
    read_steps(g, b, 17, 0, seventeen, 4);
    /* A 0-bit field right at the window's end (bit 128; the fuzz target
     * bitio found the window read one word past its array there), then
     * byte 16. */
    static const read_step at_end[] = { { 64, 0x0807060504030201ull, false },
                                        { 64, 0x100f0e0d0c0b0a09ull, false }, { 0, 0, false },
                                        { 8, 0x11, false } };
    read_steps(g, b, 17, 0, at_end, 4);
}

int main(void)
{
    guard_page g;
    if (guard_page_open(&g) != 0) {
        TH_FAIL("no guard page");
        return TH_DONE();
    }
    le_load_at_end(&g);
    bitr_matches_bit_model(&g);
    bitr_crossing_by_hand(&g);
    guard_page_close(&g);
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
