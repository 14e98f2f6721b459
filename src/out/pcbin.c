/* Binary PC lists (rvtrace/pcbin.h): the header and the reader. */
#include <string.h>
#include "rvtrace/pcbin.h"
#include "rvtrace/status.h"

void rvt_pcbin_header(uint8_t hdr[RVT_PCBIN_HEADER], unsigned xlen)
{
    memcpy(hdr, RVT_PCBIN_MAGIC, 6);
    hdr[6] = RVT_PCBIN_VERSION;
    hdr[7] = xlen == 32 ? 32 : 64;
}

static int fault(uint64_t *bad_offset, uint64_t at, int st)
{
    if (bad_offset)
        *bad_offset = at;
    return st;
}

int rvt_pcbin_open(rvt_pcbin *pl, const uint8_t *buf, size_t len, uint64_t *bad_offset)
{
    if (!pl || (!buf && len))
        return RVT_ERR_INVAL;
    size_t magic = len < 6 ? len : 6;
    if (memcmp(buf, RVT_PCBIN_MAGIC, magic))
        return fault(bad_offset, 0, RVT_ERR_FORMAT);
    if (len < RVT_PCBIN_HEADER)
        return fault(bad_offset, len, RVT_ERR_TRUNC);
    if (buf[6] != RVT_PCBIN_VERSION)
        return fault(bad_offset, 6, RVT_ERR_VERSION);
    if (buf[7] != 32 && buf[7] != 64)
        return fault(bad_offset, 7, RVT_ERR_FORMAT);
    size_t w = buf[7] / 8, body = len - RVT_PCBIN_HEADER;
    if (body % w)   /* the last PC is cut short: where it starts */
        return fault(bad_offset, len - body % w, RVT_ERR_TRUNC);
    *pl = (rvt_pcbin){ .data = buf + RVT_PCBIN_HEADER, .count = body / w, .xlen = buf[7] };
    return 0;
}

static uint64_t le(const uint8_t *p, size_t w)
{
    uint64_t v = 0;
    for (size_t i = w; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

size_t rvt_pcbin_read(const rvt_pcbin *pl, uint64_t first, uint64_t *pcs, size_t n)
{
    if (!pl || !pcs || first >= pl->count)
        return 0;
    if (n > pl->count - first)
        n = (size_t)(pl->count - first);
    size_t w = pl->xlen / 8;
    const uint8_t *p = pl->data + first * w;
    for (size_t i = 0; i < n; i++, p += w)
        pcs[i] = le(p, w);
    return n;
}
