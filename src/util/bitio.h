/* LSB-first bit packing shared by the E-Trace packet codec (fields packed
 * from bit 0 of the first payload byte, E-Trace ch. 6) and the N-Trace
 * message codec (fields packed LSB first into MDO bits, N-Trace 3.x).
 * Internal header: include as "util/bitio.h". */
#ifndef RVT_UTIL_BITIO_H
#define RVT_UTIL_BITIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/* Mask of the low n bits (n may be 64). */
static inline uint64_t rvt_mask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

/* The n bytes at p (n a constant, at most 8), little-endian, of any
 * alignment: one load on a little-endian host once inlined (memcpy),
 * bytes in order elsewhere. */
static inline uint64_t rvt_le_fixed(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&v, p, n);
#else
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
#endif
    return v;
}

static inline uint64_t rvt_le64(const uint8_t *p) { return rvt_le_fixed(p, 8); }

/* The n (0..8) bytes at p as a little-endian word, the bytes above them 0,
 * reading p[0..n-1] only (the last bytes of a buffer may be loaded):
 * two loads that overlap where n is not 4 or 8, whose common bytes are
 * the same bytes, so OR-ing them is exact; no branch per byte. */
static inline uint64_t rvt_le_load(const uint8_t *p, size_t n)
{
    if (n >= 4)
        return rvt_le_fixed(p, 4) | rvt_le_fixed(p + n - 4, 4) << (8 * (n - 4));
    if (n == 0)
        return 0;
    return p[0] | (uint64_t)p[n >> 1] << (8 * (n >> 1)) | (uint64_t)p[n - 1] << (8 * (n - 1));
}

/* Reader over `len` bytes.  Bits past the end read as `fill` (0 or 1): the
 * E-Trace decoder re-extends a sign-compressed packet this way (6.x).
 * The first RVT_BITR_WIN_BITS bits (the first 16 bytes, bytes past `len`
 * as fill) are loaded once by rvt_bitr_init, so a field inside them is a
 * shift and a mask with no branch per byte (E-Trace te_inst packets are 2
 * to 8 bytes, most fields fall in the first word); a field that reaches
 * past them is read a byte at a time (rvt_bitr_get_far), never reading a
 * byte past `len`. */
#define RVT_BITR_WIN_BITS 128

typedef struct rvt_bitr {
    uint64_t win[2];  /* bits 0..127 of the payload, fill past its end */
    const uint8_t *buf;
    size_t len;       /* bytes */
    size_t pos;       /* bits consumed */
    unsigned fill;    /* value of bits beyond the end */
} rvt_bitr;

/* The n bytes at p (n <= 8) with the bits above them all `fill`. */
static inline uint64_t rvt_bitr_fill_word(const uint8_t *p, size_t n, unsigned fill)
{
    uint64_t w = rvt_le_load(p, n);
    return fill ? w | ~rvt_mask(8 * (unsigned)n) : w;
}

static inline void rvt_bitr_init(rvt_bitr *r, const uint8_t *buf, size_t len, unsigned fill)
{
    size_t n0 = len < 8 ? len : 8;
    size_t n1 = len < 8 ? 0 : len - 8 < 8 ? len - 8 : 8;
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->fill = fill ? 1 : 0;
    r->win[0] = rvt_bitr_fill_word(buf, n0, r->fill);
    r->win[1] = rvt_bitr_fill_word(n1 ? buf + 8 : buf, n1, r->fill);
}

/* rvt_bitr_get of a field that reaches past the window. */
uint64_t rvt_bitr_get_far(rvt_bitr *r, unsigned nbits);

/* Read `nbits` (0..64) LSB first. */
static inline uint64_t rvt_bitr_get(rvt_bitr *r, unsigned nbits)
{
    size_t pos = r->pos;
    if (pos + nbits > RVT_BITR_WIN_BITS)
        return rvt_bitr_get_far(r, nbits);
    r->pos = pos + nbits;
    unsigned off = pos & 63;
    /* & 1: a 0-bit field at bit 128 (the window's end) would index a
     * third word; it reads win[0] instead, masked to nothing (an AND is
     * cheaper here than a second test). */
    uint64_t v = r->win[pos >> 6 & 1] >> off;
    if (off + nbits > 64)          /* crosses into win[1]: pos < 64 here */
        v |= r->win[1] << (64 - off);
    return v & rvt_mask(nbits);
}

/* True if the reader went past the real data (into fill bits). */
static inline bool rvt_bitr_past_end(const rvt_bitr *r) { return r->pos > r->len * 8; }

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
        return v & rvt_mask(n);
    }
    return rvt_bitr_get(k->r, n);
}

/* Sign-extend the low `bits` of v. */
static inline int64_t rvt_sext(uint64_t v, unsigned bits)
{
    if (bits == 0 || bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (m << 1) - 1;
    return (int64_t)((v ^ m) - m);
}

#endif
