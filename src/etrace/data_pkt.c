/* te_data payload codec (E-Trace ch. 7, tables 7.1-7.13, unified or
 * split interface): one field walk shared by packing and unpacking, the same
 * sign-based compression as te_inst.  Which fields a packet has depends on
 * its format and on the run-time options noData/noAddress (table 2.2),
 * which are not in the packet (ch. 7 introduction).  Choices where the
 * tables are open: docs/conformance-etrace.md "Data trace". */
#include <string.h>
#include "rvtrace/etrace.h"
#include "util/bitio.h"
#include "etrace/signc.h"
#include "etrace/data_int.h"
#include "etrace/frame.h"

typedef struct dwalk {
    rvt_bitrw io;
    const rvt_te_attrs *a;
    const uint8_t *sizes;   /* outstanding split atomics (7.10), or NULL */
} dwalk;

#define F(field, n) (p->field = (__typeof__(p->field))rvt_bitrw_field(&k->io, p->field, (n)))

int rvt_te_data_attrs_check(const rvt_te_attrs *a)
{
    if (a->data_width != 32 && a->data_width != 64)
        return RVT_ERR_INVAL;
    if (a->data_compress > 3 || a->no_data > 1 || a->no_address > 1)
        return RVT_ERR_INVAL;
    if (a->no_data && a->no_address)
        return RVT_ERR_INVAL;       /* nothing left to trace */
    /* The split forms carry an address in the request and data in the
     * response (tables 7.4/7.5, 7.9/7.10): rvtrace pairs them with both
     * options off only (docs/conformance-etrace.md). */
    if (a->split_loads > 1 || a->index_width > RVT_TE_MAX_INDEX_WIDTH ||
        (a->split_loads && (a->no_data || a->no_address)))
        return RVT_ERR_INVAL;
    if (a->iaddress_width < 12 || a->iaddress_width > 64)
        return RVT_ERR_INVAL;
    return 0;
}

unsigned rvt_te_ddiff_width(const rvt_te_attrs *a)
{
    /* 7.1.3: one bit when only one data compression is offered. */
    return a->data_compress == 3 ? 2 : 1;
}

unsigned rvt_te_csr_len_width(const rvt_te_attrs *a)
{
    /* 7.3.2: 2 bits for 32-bit CSRs, 3 for 64-bit. */
    return a->iaddress_width > 32 ? 3 : 2;
}

static unsigned size_width(const rvt_te_attrs *a)
{
    /* 7.1.2: 2 bits while data_width_p < 128 (sizes 0..3). */
    (void)a;
    return 2;
}

/* A load's or store's size field (7.1.2: 2^size bytes), no wider than
 * the data (data_width_p). */
static int walk_size(dwalk *k, rvt_te_dpkt *p)
{
    F(size, size_width(k->a));
    return (8u << p->size) > k->a->data_width ? RVT_ERR_FORMAT : 0;
}

/* Tables 7.1-7.3; a load on the split interface is table 7.4 (the
 * request: index, then a 1-bit diff and the address). */
static int walk_ls(dwalk *k, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = k->a;
    if (walk_size(k, p) < 0)
        return RVT_ERR_FORMAT;
    if (a->split_loads && p->format <= RVT_TE_DF_LOAD_UNALIGNED) {
        F(index, a->index_width);
        F(diff, 1);
    } else if (a->no_data) {
        F(diff, 1);
    } else if (a->no_address) {
        F(diff, rvt_te_ddiff_width(a));
        F(data, a->data_width);
        return 0;
    } else {
        F(diff, 2);
        F(datalen, p->size);         /* table 7.1: size bits */
        F(data, 8u * (p->datalen + 1u));
    }
    F(address, a->iaddress_width);
    return 0;
}

/* An atomic's size: p->size is 0 (32-bit) or 1 (64-bit) as in 1.1.1's
 * tables 7.6-7.9 (1 bit, 2^(size+2) bytes); the 2.0 layout, which the
 * reference flow writes, has the load/store form (size_width bits,
 * 2^size bytes), so the field holds size + 2.  op_len and data_len are
 * 2 + size bits in 1.1.1 and `size` bits in 2.0: the same widths. */
static int walk_atomic_size(dwalk *k, rvt_te_dpkt *p)
{
    if (k->a->version != RVT_TE_V20) {
        F(size, 1);
        return 0;
    }
    uint64_t s = rvt_bitrw_field(&k->io, p->size + 2u, size_width(k->a));
    if (s < 2 || s > 3)
        return RVT_ERR_FORMAT;      /* atomics are 32 or 64 bits */
    p->size = (uint8_t)(s - 2);
    return 0;
}

/* Tables 7.6-7.8. */
static int walk_atomic(dwalk *k, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = k->a;
    F(subtype, 3);
    if (walk_atomic_size(k, p) < 0)
        return RVT_ERR_FORMAT;
    if (p->subtype == 7 || (32u << p->size) > a->data_width)
        return RVT_ERR_FORMAT;
    unsigned lw = 2u + p->size;
    if (a->split_loads) {
        /* Table 7.9: the request has no data, so its diff codes the
         * address alone, 1 bit as in 7.4 (docs/conformance-etrace.md). */
        F(index, a->index_width);
        F(diff, 1);
        F(oplen, lw);
        F(operand, 8u * (p->oplen + 1u));
        F(address, a->iaddress_width);
        return 0;
    }
    if (a->no_data) {
        F(diff, 1);
        F(address, a->iaddress_width);
        return 0;
    }
    F(diff, a->no_address ? rvt_te_ddiff_width(a) : 2);
    F(oplen, lw);
    F(operand, 8u * (p->oplen + 1u));
    if (a->no_address) {
        F(data, a->data_width);
        return 0;
    }
    F(datalen, lw);                  /* as table 7.10: 2 + size bits */
    F(data, 8u * (p->datalen + 1u));
    F(address, a->iaddress_width);
    return 0;
}

/* Tables 7.11-7.13: the 6 address LSBs go last, where they compress. */
static int walk_csr(dwalk *k, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = k->a;
    F(subtype, 2);
    if (p->subtype == 3)
        return RVT_ERR_FORMAT;
    uint64_t msbs = (p->address >> 6) & 63, lsbs = p->address & 63;
    unsigned lw = rvt_te_csr_len_width(a);
    if (a->no_data) {
        F(diff, 1);
        msbs = rvt_bitrw_field(&k->io, msbs, 6);
        lsbs = rvt_bitrw_field(&k->io, lsbs, 6);
        p->address = msbs << 6 | lsbs;
        return 0;
    }
    F(diff, rvt_te_ddiff_width(a));
    F(datalen, lw);
    F(data, 8u * (p->datalen + 1u));
    if (!a->no_address)
        msbs = rvt_bitrw_field(&k->io, msbs, 6);
    /* Table 7.12: no operand for a read-only CSR (addr[11:10] = 11). */
    if (a->no_address || (msbs >> 4) != 3) {
        F(oplen, lw);
        F(operand, 8u * (p->oplen + 1u));
    }
    if (!a->no_address) {
        lsbs = rvt_bitrw_field(&k->io, lsbs, 6);
        p->address = msbs << 6 | lsbs;
    }
    return 0;
}

/* Table 7.5: no data after an error response (resp 00). */
static int walk_split_load(dwalk *k, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = k->a;
    if (walk_size(k, p) < 0)
        return RVT_ERR_FORMAT;
    F(index, a->index_width);
    F(resp, 2);
    if (p->resp != RVT_TE_RESP_ERROR)
        F(data, a->data_width);
    return 0;
}

/* Table 7.10: no size field; data_len is 2 + the request's size bits. */
static int walk_split_atomic(dwalk *k, rvt_te_dpkt *p)
{
    F(index, k->a->index_width);
    if (k->io.r) {
        bool table = k->sizes && k->a->index_width <= RVT_TE_MAX_INDEX_WIDTH;
        unsigned s = table ? k->sizes[p->index] : RVT_TE_NO_ATOMIC;
        if (s > 1)
            return RVT_ERR_FORMAT;      /* no atomic request with this index */
        p->size = (uint8_t)s;
    }
    F(resp, 2);
    if (p->resp != RVT_TE_RESP_ERROR) {
        F(datalen, 2u + p->size);
        F(data, 8u * (p->datalen + 1u));
    }
    return 0;
}

static int dwalk_all(dwalk *k, rvt_te_dpkt *p)
{
    F(format, 3);
    if (k->a->split_loads) {
        if (p->format == RVT_TE_DF_SPLIT_LOAD_DATA)
            return walk_split_load(k, p);
        if (p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA)
            return walk_split_atomic(k, p);
    }
    switch (p->format) {
    case RVT_TE_DF_LOAD_ALIGNED: case RVT_TE_DF_LOAD_UNALIGNED:
    case RVT_TE_DF_STORE_ALIGNED: case RVT_TE_DF_STORE_UNALIGNED:
        return walk_ls(k, p);
    case RVT_TE_DF_ATOMIC:
        return walk_atomic(k, p);
    case RVT_TE_DF_CSR:
        return walk_csr(k, p);
    default:
        /* Split-load/split-atomic data (tables 7.5, 7.10) on an encoder
         * of the unified interface (7.1.1: it supports one or the other). */
        return RVT_ERR_FORMAT;
    }
}

int rvt_te_dpack(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *buf, size_t cap)
{
    uint8_t tmp[64];
    rvt_bitw w;
    rvt_bitw_init(&w, tmp, sizeof tmp);
    memset(tmp, 0, sizeof tmp);
    rvt_te_dpkt copy = *p;
    if (p->index >> a->index_width)
        return RVT_ERR_RANGE;
    dwalk k = { { &w, NULL }, a, NULL };
    int st = dwalk_all(&k, &copy);
    if (st < 0)
        return st;
    if (w.overflow)
        return RVT_ERR_RANGE;
    return rvt_te_payload_put(tmp, w.pos, buf, cap);
}

int rvt_te_dframe(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *buf, size_t cap)
{
    int st = rvt_te_frame_room(cap);
    return st ? st : rvt_te_frame_close(RVT_TE_MSG_DATA, rvt_te_dpack(a, p, buf + 1, cap - 1), buf);
}

int rvt_te_dunpack(const rvt_te_attrs *a, const uint8_t *buf, size_t len, rvt_te_dpkt *p)
{
    return rvt_te_dunpack_split(a, buf, len, NULL, p);
}

int rvt_te_dunpack_split(const rvt_te_attrs *a, const uint8_t *buf, size_t len,
                         const uint8_t *sizes, rvt_te_dpkt *p)
{
    if (len == 0 || len > RVT_TE_MAX_PAYLOAD)
        return RVT_ERR_FORMAT;
    memset(p, 0, sizeof *p);
    rvt_bitr r;
    rvt_bitr_init(&r, buf, len, buf[len - 1] >> 7);
    dwalk k = { { NULL, &r }, a, sizes };
    int st = dwalk_all(&k, p);
    if (st < 0)
        return st;
    if ((r.pos + 7) / 8 < len)
        return RVT_ERR_FORMAT;      /* longer than its fields */
    return 0;
}

void rvt_te_dsplit_track(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *sizes)
{
    if (!a->split_loads || a->index_width > RVT_TE_MAX_INDEX_WIDTH || (p->index >> a->index_width))
        return;
    if (p->format == RVT_TE_DF_ATOMIC)
        sizes[p->index] = p->size;
    else if (p->format == RVT_TE_DF_SPLIT_LOAD_DATA || p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA ||
             p->format <= RVT_TE_DF_LOAD_UNALIGNED)
        sizes[p->index] = RVT_TE_NO_ATOMIC;
}

bool rvt_te_frame_is_sync(const uint8_t *frame, size_t n)
{
    /* Header msg_type 2, then the 2-bit te_inst format in payload bits 1:0. */
    return n >= 2 && ((frame[0] >> 5) & 3) == RVT_TE_MSG_INST && (frame[1] & 3) == 3;
}
