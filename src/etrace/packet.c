/* te_inst payload codec (E-Trace ch. 6): one field walk shared by packing
 * and unpacking, sign-based compression of the whole packet (ch. 6
 * introduction), and the inversion bits of 6.6.2, 6.6.3, 6.7 and 6.8.3. */
#include <stddef.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "util/bitio.h"
#include "etrace/signc.h"
#include "etrace/frame.h"

/* Largest packet: v1.1 format 3 subformat 1 with 64-bit context, cause and
 * addresses is 2+2+1+8+64+32+1+64+64 bits = 30 bytes, inside the 31-byte
 * limit of the 5-bit header length (RVT_TE_MAX_PAYLOAD, signc.h). */

typedef rvt_bitrw walker;

#define F(field, n) (p->field = (__typeof__(p->field))rvt_bitrw_field(k, p->field, (n)))

bool rvt_te_pkt_is_end(const rvt_te_pkt *p)
{
    return p->format == 3 && p->subformat == 3 && !p->enable &&
           (p->qual_status == RVT_TE_QUAL_ENDED_REP || p->qual_status == RVT_TE_QUAL_ENDED_UPD);
}

/* Table 6.6: 1 -> 1, 2-3 -> 3, 4-7 -> 7, 8-15 -> 15, 16-31 -> 31; 0 is the
 * full 31-bit map of table 6.7.  Static, so the walk inlines it (the
 * exported name may be interposed in the shared library). */
static unsigned map_len(unsigned branches)
{
    if (branches == 0 || branches >= 16) return 31;
    if (branches >= 8) return 15;
    if (branches >= 4) return 7;
    if (branches >= 2) return 3;
    return 1;
}

unsigned rvt_te_map_len(unsigned branches)
{
    return map_len(branches);
}

static unsigned addr_bits(const rvt_te_attrs *a)
{
    return a->iaddress_width - a->iaddress_lsb;
}

/* 6.8.1: with no subformat field the one optional format in use decides. */
static unsigned f0_implied_subformat(const rvt_te_attrs *a)
{
    return (a->options & RVT_TE_OPT_BRANCH_PRED) ? 0 : 1;
}

static void walk_tail(walker *k, const rvt_te_attrs *a, rvt_te_pkt *p)
{
    /* Tables 6.5, 6.6, 6.9: address, notify, updiscon, irreport, irdepth. */
    F(address, addr_bits(a));
    F(notify, 1);
    F(updiscon, 1);
    F(irreport, 1);
    F(irdepth, rvt_te_irdepth_width(a));
}

static void walk_support(walker *k, const rvt_te_attrs *a, rvt_te_pkt *p)
{
    F(enable, 1);
    F(encoder_mode, a->encoder_mode_width);
    F(qual_status, 2);
    if (a->version == RVT_TE_V11) {
        F(options, 6);              /* table 6.4: one bit per mode we have */
        return;
    }
    F(options, 5);                  /* ratified ioptions */
    F(denable, 1);
    F(dloss, 1);
    F(doptions, 4);
}

/* Implicit exception mode omits the handler address (1.1.1 6.3); the
 * ratified layout only when thaddr is 1 (2.0 "Format 3 subformat 1 -
 * Trap"): with thaddr 0 the field holds the EPC of an exception at the
 * target of an uninferable discontinuity, which the cause does not give. */
static bool trap_address_omitted(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    if (!(a->options & RVT_TE_OPT_IMPLICIT_EXCEPT))
        return false;
    return a->version != RVT_TE_V20 || p->thaddr;
}

static void walk_f3(walker *k, const rvt_te_attrs *a, rvt_te_pkt *p)
{
    F(subformat, 2);
    if (p->subformat == 3) {
        walk_support(k, a, p);
        return;
    }
    if (p->subformat != 2 || a->version == RVT_TE_V20)
        F(branch, 1);
    F(privilege, a->privilege_width);
    if (a->version == RVT_TE_V20 && !a->notime)
        F(time, a->time_width);
    if (!a->nocontext)
        F(context, a->context_width);
    if (p->subformat == 0) {
        F(address, addr_bits(a));
    } else if (p->subformat == 1) {
        F(ecause, a->ecause_width);
        F(interrupt, 1);
        if (a->version == RVT_TE_V20)
            F(thaddr, 1);
        if (!trap_address_omitted(a, p))
            F(address, addr_bits(a));
        if (a->version == RVT_TE_V11 || !p->interrupt)
            F(tval, a->iaddress_width);
    }
}

static int walk_f0(walker *k, const rvt_te_attrs *a, rvt_te_pkt *p)
{
    if (a->f0s_width)
        F(subformat, a->f0s_width);
    else if (!k->w)
        p->subformat = (uint8_t)f0_implied_subformat(a);
    if (p->subformat == 0) {
        /* Tables 6.8/6.9: no address when branch_fmt is 0. */
        F(branch_count, 32);
        F(branch_fmt, 2);
        p->has_address = p->branch_fmt != 0;
        if (p->branch_fmt == 1)
            return RVT_ERR_FORMAT;
        if (p->has_address)
            walk_tail(k, a, p);
        return 0;
    }
    if (p->subformat != 1)
        return RVT_ERR_FORMAT;
    /* Tables 6.10/6.11. */
    F(index, a->cache_size);
    F(branches, 5);
    if (p->branches)
        F(branch_map, map_len(p->branches));
    F(irreport, 1);
    F(irdepth, rvt_te_irdepth_width(a));
    p->has_address = 0;
    return 0;
}

static int walk(walker *k, const rvt_te_attrs *a, rvt_te_pkt *p)
{
    F(format, 2);
    switch (p->format) {
    case 3:
        walk_f3(k, a, p);
        p->has_address = p->subformat <= 1;
        return 0;
    case 2:
        walk_tail(k, a, p);
        p->has_address = 1;
        return 0;
    case 1:
        F(branches, 5);
        F(branch_map, map_len(p->branches));
        p->has_address = p->branches != 0;
        if (p->has_address)
            walk_tail(k, a, p);
        return 0;
    default:
        if (!(a->options & (RVT_TE_OPT_BRANCH_PRED | RVT_TE_OPT_JTC)))
            return RVT_ERR_FORMAT;
        return walk_f0(k, a, p);
    }
}

/* Sign-based compression: drop the repeated top bits of the packet, keep
 * one, and pad the last byte with it. */
size_t rvt_te_sign_compress(uint8_t *buf, size_t nbits)
{
    unsigned sign = (buf[(nbits - 1) / 8] >> ((nbits - 1) % 8)) & 1;
    uint8_t same = sign ? 0xFF : 0x00;
    /* below = how many bits under the sign bit may still go: find the top
     * bit that differs from the sign, a whole byte at a time where one is
     * all copies of it. */
    size_t below = nbits - 1;
    while (below > 0) {
        if ((below & 7) == 0 && buf[below / 8 - 1] == same) {
            below -= 8;
            continue;
        }
        if (((buf[(below - 1) / 8] >> ((below - 1) % 8)) & 1) != sign)
            break;
        below--;
    }
    size_t keep = below + 1;   /* the differing bit's bits and one sign bit */
    unsigned r = keep % 8;
    if (r) {                   /* pad the last byte with the sign */
        uint8_t pad = (uint8_t)(0xFFu << r);
        buf[keep / 8] = sign ? buf[keep / 8] | pad : buf[keep / 8] & (uint8_t)~pad;
    }
    return (keep + 7) / 8;
}

int rvt_te_payload_put(uint8_t *tmp, size_t nbits, uint8_t *buf, size_t cap)
{
    size_t n = rvt_te_sign_compress(tmp, nbits);
    if (n > RVT_TE_MAX_PAYLOAD)
        return RVT_ERR_RANGE;
    if (n > cap)
        return RVT_ERR_LIMIT;
    memcpy(buf, tmp, n);
    return (int)n;
}

int rvt_te_pack(const rvt_te_attrs *a, const rvt_te_pkt *p, uint8_t *buf, size_t cap)
{
    uint8_t tmp[64];
    rvt_bitw w;
    rvt_bitw_init(&w, tmp, sizeof tmp);
    rvt_te_pkt copy = *p;
    walker k = { &w, NULL };
    int st = walk(&k, a, &copy);
    if (st < 0)
        return st;
    if (w.overflow || w.pos == 0)
        return RVT_ERR_RANGE;
    return rvt_te_payload_put(tmp, w.pos, buf, cap);
}

/* format and subformat stored again as one 16-bit word.  Their readers
 * (rvt_te_pkt_is_end, rvt_te_pkt_flags, the decoder) test the pair, which
 * GCC does with one 16-bit load, and a load that spans two byte stores
 * is not forwarded from them: it waits for both to reach the cache, a
 * stall once a packet. */
_Static_assert(offsetof(rvt_te_pkt, subformat) == offsetof(rvt_te_pkt, format) + 1,
               "format and subformat are adjacent bytes");
static void store_format_pair(rvt_te_pkt *p)
{
    uint8_t pair[2] = { p->format, p->subformat };
    memcpy(&p->format, pair, sizeof pair);
}

/* flatten: the walk inlined here is specialised for reading (the writer
 * tests fold away, each field a shift and a mask of the reader's window). */
__attribute__((flatten))
int rvt_te_unpack(const rvt_te_attrs *a, const uint8_t *buf, size_t len, rvt_te_pkt *p)
{
    if (len == 0 || len > RVT_TE_MAX_PAYLOAD)
        return RVT_ERR_FORMAT;
    /* A copy of a zero packet, not memset: GCC emitted `rep stos` for the
     * memset, whose start-up was a tenth of the packet reader's time. */
    static const rvt_te_pkt none;
    *p = none;
    rvt_bitr r;
    /* The decoder re-extends with the most significant received bit. */
    rvt_bitr_init(&r, buf, len, buf[len - 1] >> 7);
    walker k = { NULL, &r };
    int st = walk(&k, a, p);
    if (st < 0)
        return st;
    store_format_pair(p);
    /* A payload longer than its fields is not something an encoder sends. */
    if ((r.pos + 7) / 8 < len)
        return RVT_ERR_FORMAT;
    return 0;
}

int rvt_te_frame(const rvt_te_attrs *a, const rvt_te_pkt *p, uint8_t *buf, size_t cap)
{
    int st = rvt_te_frame_room(cap);
    return st ? st : rvt_te_frame_close(RVT_TE_MSG_INST, rvt_te_pack(a, p, buf + 1, cap - 1), buf);
}

/* The bit before the first inversion bit: the MSB of the address (6.6.1),
 * or for format 0 subformat 1 of the branch map / branches (6.8.3). */
static unsigned lead_bit(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    if (p->format == 0 && p->subformat == 1) {
        if (p->branches)
            return (p->branch_map >> (map_len(p->branches) - 1)) & 1;
        return (p->branches >> 4) & 1;
    }
    return (unsigned)(p->address >> (addr_bits(a) - 1)) & 1;
}

/* The meanings as three bits: notify, updiscon, irreport from bit 0. */
static unsigned pkt_flag_bits(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    if (p->format == 3 || (p->format == 1 && !p->branches))
        return 0;
    if (p->format == 0 && p->subformat == 1)
        return (unsigned)(p->irreport != lead_bit(a, p)) << 2;
    if (p->format == 0 && !p->has_address)
        return 0;
    unsigned notify = p->notify != lead_bit(a, p);
    unsigned updiscon = p->updiscon != p->notify;
    unsigned irreport = p->irreport != p->updiscon;
    return notify | updiscon << 1 | irreport << 2;
}

/* The struct read from a table, not built: GCC built it byte by byte on
 * the stack and read it back as one word, a store-forwarding stall once a
 * packet (a fifth of the packet reader's time). */
rvt_te_flags rvt_te_pkt_flags(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    static const rvt_te_flags of_bits[8] = {
        { false, false, false }, { true, false, false }, { false, true, false }, { true, true, false },
        { false, false, true },  { true, false, true },  { false, true, true },  { true, true, true },
    };
    return of_bits[pkt_flag_bits(a, p)];
}

void rvt_te_pkt_set_flags(const rvt_te_attrs *a, rvt_te_pkt *p, bool notify,
                          bool updiscon, bool irreport, uint64_t depth)
{
    unsigned prev;
    if (p->format == 0 && p->subformat == 1) {
        prev = lead_bit(a, p);
    } else {
        p->notify = (uint8_t)(lead_bit(a, p) ^ notify);
        p->updiscon = (uint8_t)(p->notify ^ updiscon);
        prev = p->updiscon;
    }
    p->irreport = (uint8_t)(prev ^ irreport);
    unsigned w = rvt_te_irdepth_width(a);
    if (irreport)
        p->irdepth = depth & rvt_mask(w);
    else if (a->irdepth_ones)
        p->irdepth = rvt_mask(w);        /* the reference flow's fill */
    else
        p->irdepth = p->irreport ? rvt_mask(w) : 0;   /* 6.6.3: repeat the bit */
}
