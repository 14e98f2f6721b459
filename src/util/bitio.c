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

/* Little-endian 64-bit store of any alignment (rvt_le64 is the load). */
static void store_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 8);
#else
    for (unsigned i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
#endif
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
    size_t byte = w->pos >> 3;
    unsigned off = w->pos & 7;
    w->pos += nbits;
    /* The bits not yet written are 0 (rvt_bitw_init cleared the buffer),
     * so OR-ing a whole word in is exact.  Where 8 bytes do not fit before
     * `cap`, byte by byte. */
    if (byte + 8 <= w->cap) {
        store_le64(w->buf + byte, rvt_le64(w->buf + byte) | v << off);
        if (off + nbits > 64)      /* the top `off` bits spill into byte 8 */
            w->buf[byte + 8] |= (uint8_t)(v >> (64 - off));
        return;
    }
    for (; nbits; byte++) {
        unsigned take = 8 - off < nbits ? 8 - off : nbits;
        w->buf[byte] |= (uint8_t)((v & ((1u << take) - 1)) << off);
        v >>= take;
        nbits -= take;
        off = 0;
    }
}

/* A byte at a time from the buffer, fill past its end. */
uint64_t rvt_bitr_get_far(rvt_bitr *r, unsigned nbits)
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
