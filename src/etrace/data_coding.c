/* Data trace compression (E-Trace 7.1.3 and tables 7.1-7.13): what the
 * diff field codes mean, and full / XOR / differential values.  Shared by
 * the data encoder and decoder so both sides agree by construction. */
#include "etrace/data_int.h"
#include "util/bitio.h"

static bool has_both(const rvt_te_attrs *a, unsigned format)
{
    return format != RVT_TE_DF_CSR && !a->no_address && !a->no_data;
}

unsigned rvt_te_diff_width(const rvt_te_attrs *a, unsigned format)
{
    if (a->no_data)
        return 1;                       /* tables 7.2, 7.7, 7.13 */
    return has_both(a, format) ? 2 : rvt_te_ddiff_width(a);  /* 7.1/7.6; 7.3/7.8/7.11 */
}

/* Table 2.2 DataCompress: 0 sends full addresses and data only, 1 adds
 * XOR data, 2 differential data, 3 both; a differential address needs
 * some compression.  A code the options rule out cannot come from a
 * conforming encoder: the packet is corrupt. */
int rvt_te_dcoding_allowed(const rvt_te_attrs *a, const rvt_te_dcoding *c)
{
    if (a->data_compress == 0 && (c->addr == DM_DIFF || c->data == DM_XOR || c->data == DM_DIFF))
        return RVT_ERR_FORMAT;
    if ((c->data == DM_XOR && !(a->data_compress & 1)) ||
        (c->data == DM_DIFF && !(a->data_compress & 2)))
        return RVT_ERR_FORMAT;
    return 0;
}

static int coding_of(const rvt_te_attrs *a, unsigned format, unsigned diff, rvt_te_dcoding *c)
{
    if (a->no_data) {
        c->addr = diff ? DM_DIFF : DM_FULL;
        c->data = DM_NONE;
        return 0;
    }
    if (has_both(a, format)) {
        /* 00 full/full, 01 diff/XOR, 10 diff/full, 11 diff/diff */
        static const uint8_t dm[4] = { DM_FULL, DM_XOR, DM_FULL, DM_DIFF };
        c->addr = diff ? DM_DIFF : DM_FULL;
        c->data = dm[diff & 3];
        return 0;
    }
    /* Data only, or a CSR (whose address is always full, table 7.11). */
    c->addr = a->no_address ? DM_NONE : DM_FULL;
    if (rvt_te_ddiff_width(a) == 2) {
        if (diff == 2)
            return RVT_ERR_FORMAT;      /* reserved */
        c->data = diff == 0 ? DM_FULL : diff == 1 ? DM_XOR : DM_DIFF;
        return 0;
    }
    if (diff == 0) {
        c->data = DM_FULL;
        return 0;
    }
    if (a->data_compress == 0)
        return RVT_ERR_FORMAT;
    c->data = a->data_compress == 1 ? DM_XOR : DM_DIFF;
    return 0;
}

int rvt_te_dcoding_of(const rvt_te_attrs *a, unsigned format, unsigned diff, rvt_te_dcoding *c)
{
    int st = coding_of(a, format, diff, c);
    return st < 0 ? st : rvt_te_dcoding_allowed(a, c);
}

int rvt_te_diff_of(const rvt_te_attrs *a, unsigned format, rvt_te_dcoding c)
{
    unsigned n = 1u << rvt_te_diff_width(a, format);
    for (unsigned d = 0; d < n; d++) {
        rvt_te_dcoding k;
        if (rvt_te_dcoding_of(a, format, d, &k) == 0 && k.addr == c.addr && k.data == c.data)
            return (int)d;
    }
    return -1;
}

static unsigned bytes_unsigned(uint64_t v)
{
    unsigned n = 1;
    while (n < 8 && (v >> (8 * n)) != 0)
        n++;
    return n;
}

static unsigned bytes_signed(int64_t v)
{
    unsigned n = 1;
    while (n < 8 && rvt_sext((uint64_t)v, 8 * n) != v)
        n++;
    return n;
}

uint64_t rvt_te_dval_encode(unsigned mode, uint64_t v, uint64_t prev, unsigned bits,
                            unsigned *nbytes)
{
    uint64_t m = rvt_mask(bits);
    if (mode == DM_DIFF) {
        int64_t d = rvt_sext((v - prev) & m, bits);
        *nbytes = bytes_signed(d);
        return (uint64_t)d;
    }
    uint64_t x = (mode == DM_XOR ? v ^ prev : v) & m;
    *nbytes = bytes_unsigned(x);
    return x;
}

uint64_t rvt_te_dval_decode(unsigned mode, uint64_t field, unsigned fbits, uint64_t prev,
                            unsigned bits)
{
    uint64_t m = rvt_mask(bits);
    field &= rvt_mask(fbits);
    if (mode == DM_DIFF)
        return (prev + (uint64_t)rvt_sext(field, fbits)) & m;
    return (mode == DM_XOR ? prev ^ field : field) & m;
}

uint64_t rvt_te_daddr_encode(unsigned mode, uint64_t addr, uint64_t prev, unsigned aw,
                             unsigned shift, bool *aligned)
{
    uint64_t x = (mode == DM_DIFF ? addr - prev : addr) & rvt_mask(aw);
    *aligned = (x & rvt_mask(shift)) == 0;
    if (!*aligned)
        return x;
    /* Arithmetic shift: a negative difference keeps its sign bits, which
     * the packet compression then drops. */
    return (uint64_t)(rvt_sext(x, aw) >> shift) & rvt_mask(aw);
}

uint64_t rvt_te_daddr_decode(unsigned mode, uint64_t field, uint64_t prev, unsigned aw,
                             unsigned shift)
{
    uint64_t x = shift < 64 ? field << shift : 0;
    return (mode == DM_DIFF ? prev + x : x) & rvt_mask(aw);
}
