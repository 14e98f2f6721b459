/* LSB-first bit packing shared by the E-Trace packet codec (fields packed
 * from bit 0 of the first payload byte, E-Trace ch. 6) and the N-Trace
 * message codec (fields packed LSB first into MDO bits, N-Trace 3.x).
 * Internal header: include as "util/bitio.h". */
#ifndef RVT_UTIL_BITIO_H
#define RVT_UTIL_BITIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writer over a caller-owned buffer.  Writing past `cap` bytes sets
 * `overflow` and drops the bits (never writes out of bounds). */
typedef struct rvt_bitw {
    uint8_t *buf;
    size_t cap;       /* bytes */
    size_t pos;       /* bits written */
    bool overflow;
} rvt_bitw;

void rvt_bitw_init(rvt_bitw *w, uint8_t *buf, size_t cap);
/* Append the low `nbits` (0..64) of v. */
void rvt_bitw_put(rvt_bitw *w, uint64_t v, unsigned nbits);
/* Bytes needed to hold what was written. */
static inline size_t rvt_bitw_bytes(const rvt_bitw *w) { return (w->pos + 7) / 8; }

/* Reader over `len` bytes.  Bits past the end read as `fill` (0 or 1): the
 * E-Trace decoder re-extends a sign-compressed packet this way (6.x). */
typedef struct rvt_bitr {
    const uint8_t *buf;
    size_t len;       /* bytes */
    size_t pos;       /* bits consumed */
    unsigned fill;    /* value of bits beyond the end */
} rvt_bitr;

void rvt_bitr_init(rvt_bitr *r, const uint8_t *buf, size_t len, unsigned fill);
/* Read `nbits` (0..64) LSB first. */
uint64_t rvt_bitr_get(rvt_bitr *r, unsigned nbits);
/* True if the reader went past the real data (into fill bits). */
static inline bool rvt_bitr_past_end(const rvt_bitr *r) { return r->pos > r->len * 8; }

/* Sign-extend the low `bits` of v. */
/* One description of a packet layout serves both directions: a walker
 * holds a writer (pack) or a reader (unpack), and each field goes through
 * rvt_bitrw_field, which writes v or returns what it read. */
typedef struct rvt_bitrw {
    rvt_bitw *w;
    rvt_bitr *r;
} rvt_bitrw;

static inline uint64_t rvt_bitrw_field(rvt_bitrw *k, uint64_t v, unsigned n)
{
    if (k->w) {
        rvt_bitw_put(k->w, v, n);
        return v & (n >= 64 ? ~0ull : (1ull << n) - 1);
    }
    return rvt_bitr_get(k->r, n);
}

static inline int64_t rvt_sext(uint64_t v, unsigned bits)
{
    if (bits == 0 || bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}

/* Mask of the low n bits (n may be 64). */
static inline uint64_t rvt_mask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

#endif
