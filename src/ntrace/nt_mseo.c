/* N-Trace MSEO byte codec (3.1-3.3). */
#include <string.h>
#include "ntrace/nt_mseo.h"
#include "util/bitio.h"

void nt_mw_init(nt_mw *w, uint8_t *buf, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->cap = cap;
}

static void mw_flush(nt_mw *w, unsigned mseo)
{
    if (w->n < w->cap)
        w->buf[w->n] = (uint8_t)(w->cur << 2 | mseo);
    else
        w->overflow = true;
    w->n++;
    w->cur = 0;
    w->bit = 0;
}

/* 3.3: MDO bits LSB first; a full byte goes out (MSEO 00) only when the next
 * bit arrives, so a field ending exactly on a byte can still mark it. */
static void mw_bits(nt_mw *w, uint64_t v, unsigned nbits)
{
    while (nbits) {
        if (w->bit == NT_MDO_BITS)
            mw_flush(w, NT_MSEO_CONT);
        unsigned take = NT_MDO_BITS - w->bit;
        if (take > nbits)
            take = nbits;
        w->cur |= (uint8_t)((v & rvt_mask(take)) << w->bit);
        w->bit += take;
        v = take >= 64 ? 0 : v >> take;
        nbits -= take;
    }
}

void nt_mw_fixed(nt_mw *w, uint64_t v, unsigned nbits)
{
    mw_bits(w, v, nbits);
}

static unsigned sig_bits(uint64_t v)
{
    return v ? 64u - (unsigned)__builtin_clzll(v) : 0;
}

static void mw_end_field(nt_mw *w, unsigned nbits, uint64_t v, bool last)
{
    /* 3.1: a variable field is at least one bit and ends on a byte boundary
     * (zero-filled above its highest bit). */
    if (w->bit == NT_MDO_BITS)
        mw_flush(w, NT_MSEO_CONT);
    if (nbits == 0 && w->bit == 0)
        nbits = 1;
    mw_bits(w, v, nbits);
    mw_flush(w, last ? NT_MSEO_MEND : NT_MSEO_VEND);
}

void nt_mw_var(nt_mw *w, uint64_t v, bool last)
{
    mw_end_field(w, sig_bits(v), v, last);
}

void nt_mw_addr(nt_mw *w, uint64_t v, unsigned width, bool extend, bool last)
{
    v &= rvt_mask(width);
    if (!extend) {
        nt_mw_var(w, v, last);
        return;
    }
    /* 8.2 rule 1: the decoder repeats the last MDO's top bit up to the
     * address width.  Pick the first byte end where that gives v back: an
     * extended run of ones, or an extra zero MDO that stops a 1 top bit. */
    unsigned start = w->bit == NT_MDO_BITS ? 0 : w->bit;
    unsigned W = NT_MDO_BITS - start;
    for (; W < width; W += NT_MDO_BITS) {
        uint64_t low = v & rvt_mask(W);
        uint64_t dec = (low >> (W - 1) & 1) ? low | (rvt_mask(width) & ~rvt_mask(W)) : low;
        if (dec == v)
            break;
    }
    if (W > width)
        W = width;  /* a field reaching the full width is never extended */
    mw_end_field(w, W, v, last);
}

/* The MDO bits of up to 8 bytes (little-endian in x) side by side: each
 * byte's 6 upper bits, LSB first (3.3). */
static uint64_t mdo_pack8(uint64_t x)
{
    uint64_t y = x >> 2 & 0x3f3f3f3f3f3f3f3full;
    y = (y & 0x003f003f003f003full) | (y & 0x3f003f003f003f00ull) >> 2;
    y = (y & 0x00000fff00000fffull) | (y & 0x0fff00000fff0000ull) >> 4;
    return (y & 0x0000000000ffffffull) | (y & 0x00ffffff00000000ull) >> 8;
}

/* nt_mr_load of a message of at most 8 bytes (most of them: a HIST
 * ResourceFull is 7), a word at a time: no branch per byte. */
static void mr_load8(nt_mr *r, const uint8_t *bytes, size_t len)
{
    uint64_t x = rvt_le_load(bytes, len);
    memset(r->mdo, 0, sizeof r->mdo);
    r->mdo[0] = mdo_pack8(x);
    r->nseg = 0;
    r->pos = 0;
    /* MSEO 01 and 11 end a field: bit 0 of the byte */
    for (uint64_t ends = x & 0x0101010101010101ull; ends; ends &= ends - 1)
        r->seg_end[r->nseg++] = (uint16_t)(NT_MDO_BITS * ((unsigned)__builtin_ctzll(ends) / 8 + 1));
}

void nt_mr_load(nt_mr *r, const uint8_t *bytes, size_t len)
{
    if (len <= 8) {
        mr_load8(r, bytes, len);
        return;
    }
    /* Word-wise packing: the decoder parses one message per taken branch
     * in BTM, so this is on its hot path. */
    memset(r->mdo, 0, sizeof r->mdo);
    r->nseg = 0;
    r->pos = 0;
    unsigned pos = 0;
    if (len > 48)
        len = 48;
    for (size_t i = 0; i < len; i++, pos += NT_MDO_BITS) {
        uint64_t v = bytes[i] >> 2;
        r->mdo[pos >> 6] |= v << (pos & 63);
        if ((pos & 63) > 64 - NT_MDO_BITS)
            r->mdo[(pos >> 6) + 1] |= v >> (64 - (pos & 63));
        unsigned mseo = bytes[i] & 3u;
        if ((mseo == NT_MSEO_VEND || mseo == NT_MSEO_MEND) && r->nseg < NT_MAX_SEGS)
            r->seg_end[r->nseg++] = (uint16_t)(pos + NT_MDO_BITS);
    }
}

/* nbits (1..64) from the bit position; never reads past mdo[5]. */
static uint64_t mr_get(nt_mr *r, unsigned nbits)
{
    unsigned p = r->pos, wi = p >> 6, sh = p & 63;
    uint64_t v = wi < 6 ? r->mdo[wi] >> sh : 0;
    if (sh && wi + 1 < 6)
        v |= r->mdo[wi + 1] << (64 - sh);
    r->pos += nbits;
    return nbits >= 64 ? v : v & rvt_mask(nbits);
}

static unsigned mr_seg_end(const nt_mr *r)
{
    for (unsigned i = 0; i < r->nseg; i++)
        if (r->seg_end[i] > r->pos)
            return r->seg_end[i];
    return 0;
}

bool nt_mr_fixed(nt_mr *r, unsigned nbits, uint64_t *v)
{
    unsigned end = mr_seg_end(r);
    if (!end || r->pos + nbits >= end)
        return false;   /* a fixed field is always followed by a variable one */
    *v = mr_get(r, nbits);
    return true;
}

bool nt_mr_var(nt_mr *r, uint64_t *v, unsigned *width)
{
    unsigned end = mr_seg_end(r);
    if (!end)
        return false;
    unsigned w = end - r->pos;
    *width = w;
    if (w <= 64) {
        *v = mr_get(r, w);
        return true;
    }
    *v = mr_get(r, 64);
    w -= 64;
    while (w) {                  /* above bit 63 only zero fill is legal */
        unsigned k = w > 64 ? 64 : w;
        if (mr_get(r, k))
            return false;
        w -= k;
    }
    *width = 64;
    return true;
}
