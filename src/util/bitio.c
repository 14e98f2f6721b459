/* LSB-first bit writer and reader (see bitio.h). */
#include <string.h>
#include "util/bitio.h"

void rvt_bitw_init(rvt_bitw *w, uint8_t *buf, size_t cap)
{
    w->buf = buf;
    w->cap = cap;
    w->pos = 0;
    w->overflow = false;
    if (cap)
        memset(buf, 0, cap);
}

void rvt_bitw_put(rvt_bitw *w, uint64_t v, unsigned nbits)
{
    if (nbits == 0)
        return;
    if (nbits < 64)
        v &= (1ull << nbits) - 1;
    if (w->pos + nbits > w->cap * 8) {
        w->overflow = true;
        w->pos += nbits;
        return;
    }
    while (nbits) {
        size_t byte = w->pos >> 3;
        unsigned off = w->pos & 7;
        unsigned take = 8 - off < nbits ? 8 - off : nbits;
        w->buf[byte] |= (uint8_t)((v & ((1u << take) - 1)) << off);
        v >>= take;
        w->pos += take;
        nbits -= take;
    }
}

void rvt_bitr_init(rvt_bitr *r, const uint8_t *buf, size_t len, unsigned fill)
{
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->fill = fill ? 1 : 0;
}

uint64_t rvt_bitr_get(rvt_bitr *r, unsigned nbits)
{
    uint64_t v = 0;
    unsigned got = 0;
    while (got < nbits) {
        size_t byte = r->pos >> 3;
        unsigned off = r->pos & 7;
        unsigned take = 8 - off < nbits - got ? 8 - off : nbits - got;
        uint64_t bits;
        if (byte < r->len)
            bits = (r->buf[byte] >> off) & ((1u << take) - 1);
        else
            bits = r->fill ? (1u << take) - 1 : 0;
        v |= bits << got;
        got += take;
        r->pos += take;
    }
    return v;
}
