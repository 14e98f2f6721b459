/* Data-trace encoder (E-Trace ch. 7): on the unified interface of 4.4
 * each access becomes one te_data packet; with attrs->split_loads a load
 * or atomic becomes a request packet at retirement (tables 7.4, 7.9) and
 * a response packet when its data returns (7.5, 7.10), linked by the
 * index.  After a sync (a te_inst format 3 packet on the same stream, or
 * every RVT_TE_DATA_RESYNC packets) the first packet of each access size
 * carries the full address and the first one the full data (7.1.3);
 * afterwards the encoder tries every coding the options allow
 * (differential address, XOR or differential data) and sends the shortest
 * packet, preferring full values on a tie.
 *
 * Either interface's records are accepted: split phases into a unified
 * encoder make one unified packet at the response; a unified load or
 * atomic into a split encoder makes a request and an okay response at
 * once, on the lowest free index. */
#include <stdlib.h>
#include <string.h>
#include "etrace/data_int.h"
#include "etrace/signc.h"
#include "util/bitio.h"

struct rvt_te_data_encoder {
    rvt_te_dmodel m;
    rvt_te_byte_fn out;
    void *ctx;
    rvt_te_encoder *inst;
    uint64_t since_sync;
    rvt_te_data_stats stats;
};

/* What a packet carries: the unified forms, or a split phase (a K_RESP
 * record is the completed access). */
enum dkind { K_LS, K_ATOMIC, K_CSR, K_REQ, K_RESP };

static int kind_of(const rvt_drec *d)
{
    if (d->dtype <= RVT_DTYPE_STORE)
        return K_LS;
    if (d->dtype >= RVT_DTYPE_CSR_RW && d->dtype <= RVT_DTYPE_CSR_RC)
        return K_CSR;
    if (d->dtype >= RVT_DTYPE_AMO_SWAP && d->dtype <= RVT_DTYPE_AMO_MIN)
        return K_ATOMIC;
    return -1;
}

rvt_te_data_encoder *rvt_te_data_encoder_new(const rvt_te_attrs *a, rvt_te_byte_fn out, void *ctx,
                                             int *status)
{
    int st = rvt_te_data_attrs_check(a);
    rvt_te_data_encoder *e = NULL;
    if (st == 0 && !(e = calloc(1, sizeof *e)))
        st = RVT_ERR_NOMEM;
    if (status)
        *status = st;
    if (!e)
        return NULL;
    e->m.a = *a;
    e->out = out;
    e->ctx = ctx;
    rvt_te_split_init(&e->m.split);
    return e;
}

void rvt_te_data_encoder_sync(rvt_te_data_encoder *e)
{
    memset(&e->m.st, 0, sizeof e->m.st);
    e->since_sync = 0;
    e->stats.syncs++;
}

void rvt_te_data_encoder_observe(rvt_te_data_encoder *e, const uint8_t *frame, size_t n)
{
    if (rvt_te_frame_is_sync(frame, n))
        rvt_te_data_encoder_sync(e);
}

/* Data field: with an address, data_len + the significant bytes; in the
 * data-only forms the data_width_p-bit field (tables 7.3, 7.8). */
static void put_data(const rvt_te_attrs *a, unsigned mode, uint64_t v, uint64_t prev,
                     unsigned bits, uint64_t *field, uint8_t *len)
{
    unsigned nb;
    uint64_t x = rvt_te_dval_encode(mode, v, prev, bits, &nb);
    if (a->no_address) {
        *field = x & rvt_mask(a->data_width);
    } else {
        *field = x & rvt_mask(8 * nb);
        *len = (uint8_t)(nb - 1);
    }
}

static uint8_t op_len(uint64_t v, unsigned bits)
{
    unsigned nb;
    rvt_te_dval_encode(DM_FULL, v, 0, bits, &nb);
    return (uint8_t)(nb - 1);
}

/* Fill p for one coding; 1 if the coding cannot express d, <0 on a
 * record the packets cannot carry. */
int rvt_te_dbuild_ls(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &m->a;
    unsigned s = d->dsize, bits = 8u << s;
    if (bits > a->data_width)
        return RVT_ERR_RANGE;
    bool al = (d->addr & rvt_mask(s)) == 0;
    p->size = (uint8_t)s;
    if (c.addr != DM_NONE)
        p->address = rvt_te_daddr_encode(c.addr, d->addr, m->st.addr[s], a->iaddress_width, s, &al);
    p->format = (uint8_t)((d->dtype == RVT_DTYPE_STORE ? 2 : 0) | (al ? 0 : 1));
    if (c.data != DM_NONE)
        put_data(a, c.data, d->data, m->st.data[s], bits, &p->data, &p->datalen);
    return 0;
}

int rvt_te_dbuild_atomic(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                         rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &m->a;
    unsigned s = d->dsize, bits = 8u << s;
    if (s < 2 || s > 3 || bits > a->data_width)
        return RVT_ERR_RANGE;           /* 7.2.1: 32 or 64 bits */
    p->format = RVT_TE_DF_ATOMIC;
    p->subtype = (uint8_t)(d->dtype - RVT_DTYPE_AMO_SWAP);
    p->size = (uint8_t)(s - 2);
    if (c.addr != DM_NONE) {
        bool al;
        p->address = rvt_te_daddr_encode(c.addr, d->addr, m->st.addr[s], a->iaddress_width, s, &al);
        if (!al)    /* table 7.6: the address is aligned and shifted by size */
            return c.addr == DM_FULL ? RVT_ERR_RANGE : 1;
    }
    if (c.data != DM_NONE) {
        p->operand = d->data & rvt_mask(bits);
        p->oplen = op_len(p->operand, bits);
        put_data(a, c.data, d->data2, m->st.data[s], bits, &p->data, &p->datalen);
    }
    return 0;
}

static int build_csr(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c, rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &m->a;
    unsigned bits = rvt_te_csr_len_width(a) == 3 ? 64 : 32;
    uint64_t csr = d->addr & 0xfff;
    p->format = RVT_TE_DF_CSR;
    p->subtype = (uint8_t)(d->dtype - RVT_DTYPE_CSR_RW);
    if (d->addr > 0xfff)
        return RVT_ERR_RANGE;
    if (a->no_data) {
        p->address = c.addr == DM_DIFF ? (csr - m->st.csr_addr) & 0xfff : csr;
        return 0;
    }
    p->address = csr;
    /* Table 7.12 has no operand: it must equal the read value, as for
     * every access to a read-only CSR that does not trap. */
    if (!a->no_address && (csr >> 10) == 3 && d->data != d->data2)
        return RVT_ERR_RANGE;
    unsigned nb;
    uint64_t x = rvt_te_dval_encode(c.data, d->data2, m->st.csr_data, bits, &nb);
    p->data = x & rvt_mask(8 * nb);
    p->datalen = (uint8_t)(nb - 1);
    p->operand = d->data & rvt_mask(bits);
    p->oplen = op_len(p->operand, bits);
    return 0;
}

static int build(const rvt_te_data_encoder *e, const rvt_drec *d, int kind, rvt_te_dcoding c,
                 rvt_te_dpkt *p)
{
    memset(p, 0, sizeof *p);
    if (kind == K_REQ)
        return rvt_te_dbuild_req(&e->m, d, c, p);
    if (kind == K_RESP)
        return rvt_te_dbuild_resp(&e->m, d, c, p);
    int st = kind == K_LS ? rvt_te_dbuild_ls(&e->m, d, c, p)
           : kind == K_ATOMIC ? rvt_te_dbuild_atomic(&e->m, d, c, p) : build_csr(&e->m, d, c, p);
    if (st != 0)
        return st;
    int diff = rvt_te_diff_of(&e->m.a, p->format, c);
    if (diff < 0)
        return 1;
    p->diff = (uint8_t)diff;
    return 0;
}

static void remember(rvt_te_data_encoder *e, const rvt_drec *d, int kind)
{
    if (kind == K_CSR) {
        e->m.st.csr_addr = d->addr & 0xfff;
        e->m.st.csr_data = d->data2;
        e->m.st.csr_valid = true;
        return;
    }
    unsigned s = d->dsize & 3;
    if (kind != K_RESP) {
        e->m.st.addr[s] = d->addr;
        e->m.st.valid[s] = true;
    }
    if (kind != K_REQ && d->lresp != RVT_LRESP_ERROR) {
        e->m.st.data[s] = (kind_of(d) == K_ATOMIC ? d->data2 : d->data) & rvt_mask(8u << s);
        e->m.st.dvalid[s] = true;
    }
}

/* May coding c be used: the packet's shape (which of address and data it
 * carries), the options, and a reference for what it compresses. */
static bool usable(const rvt_te_data_encoder *e, const rvt_drec *d, int kind, rvt_te_dcoding c)
{
    const rvt_te_attrs *a = &e->m.a;
    bool want_addr = kind == K_REQ || (kind != K_RESP && !a->no_address);
    bool want_data = kind == K_RESP ? d->lresp != RVT_LRESP_ERROR
                   : kind != K_REQ && !a->no_data;
    if ((c.addr != DM_NONE) != want_addr || (c.data != DM_NONE) != want_data)
        return false;
    bool aref = kind == K_CSR ? e->m.st.csr_valid : e->m.st.valid[d->dsize & 3];
    bool dref = kind == K_CSR ? e->m.st.csr_valid : e->m.st.dvalid[d->dsize & 3];
    if (a->data_compress == 0)
        aref = dref = false;
    if (c.addr == DM_DIFF && !aref)
        return false;
    if ((c.data == DM_XOR || c.data == DM_DIFF) && !dref)
        return false;
    return rvt_te_dcoding_allowed(a, &c) == 0;
}

/* The shortest frame over the codings the options and state allow. */
static int encode_one(rvt_te_data_encoder *e, const rvt_drec *d, int kind, uint8_t *best)
{
    const rvt_te_attrs *a = &e->m.a;
    if (d->dsize > 3)
        return RVT_ERR_INVAL;
    static const uint8_t amodes[] = { DM_FULL, DM_DIFF, DM_NONE };
    static const uint8_t dmodes[] = { DM_FULL, DM_XOR, DM_DIFF, DM_NONE };
    int best_n = 0;
    for (unsigned i = 0; i < 3; i++) {
        for (unsigned j = 0; j < 4; j++) {
            rvt_te_dcoding c = { amodes[i], dmodes[j] };
            if (!usable(e, d, kind, c))
                continue;
            rvt_te_dpkt p;
            int st = build(e, d, kind, c, &p);
            if (st < 0)
                return st;
            if (st > 0)
                continue;
            uint8_t frame[RVT_TE_MAX_PAYLOAD + 1];
            int n = rvt_te_dframe(a, &p, frame, sizeof frame);
            if (n < 0)
                return n;
            if (best_n == 0 || n < best_n) {
                best_n = n;
                memcpy(best, frame, (size_t)n);
            }
        }
    }
    return best_n ? best_n : RVT_ERR_RANGE;
}

/* One packet of the given kind. */
static int emit(rvt_te_data_encoder *e, const rvt_drec *d, int kind)
{
    if (e->since_sync >= RVT_TE_DATA_RESYNC)
        rvt_te_data_encoder_sync(e);
    uint8_t frame[RVT_TE_MAX_PAYLOAD + 1];
    int len = encode_one(e, d, kind, frame);
    if (len < 0)
        return len;
    remember(e, d, kind);
    e->since_sync++;
    e->stats.packets++;
    e->stats.bytes += (uint64_t)len;
    return e->out(e->ctx, frame, (size_t)len);
}

/* A response record: the response packet, or on the unified interface the
 * unified packet of the completed access (which cannot say "failed"). */
static int put_response(rvt_te_data_encoder *e, const rvt_drec *r)
{
    rvt_drec d;
    int st = rvt_te_split_response(&e->m, r, &d);
    if (st != 0)
        return st < 0 ? st : 0;
    e->stats.accesses++;
    if (!e->m.a.split_loads)
        return d.lresp == RVT_LRESP_ERROR ? RVT_ERR_RANGE : emit(e, &d, kind_of(&d));
    return emit(e, &d, K_RESP);
}

static int put_request(rvt_te_data_encoder *e, const rvt_drec *r)
{
    int st = rvt_te_split_request(&e->m, r);
    return st < 0 || !e->m.a.split_loads ? st : emit(e, r, K_REQ);
}

/* A unified load or atomic on the split interface: a request and its
 * response back to back. */
static int put_as_split(rvt_te_data_encoder *e, const rvt_drec *r)
{
    rvt_drec pair[2];
    int st = rvt_te_split_pair(&e->m, r, pair);
    if (st >= 0)
        st = put_request(e, &pair[0]);
    return st < 0 ? st : put_response(e, &pair[1]);
}

static int put_one(rvt_te_data_encoder *e, const rvt_drec *r)
{
    if (r->flags & RVT_DREC_F_RESPONSE)
        return put_response(e, r);
    if (r->flags & RVT_DREC_F_SPLIT_REQ)
        return put_request(e, r);
    if (e->m.a.split_loads && rvt_te_drec_splits(r))
        return put_as_split(e, r);
    int kind = kind_of(r);
    if (kind < 0)
        return RVT_ERR_INVAL;
    e->stats.accesses++;
    return emit(e, r, kind);
}

int rvt_te_data_encoder_put(rvt_te_data_encoder *e, const rvt_drec *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int st = put_one(e, &recs[i]);
        if (st < 0)
            return st;
    }
    return 0;
}

const rvt_te_data_stats *rvt_te_data_encoder_stats(const rvt_te_data_encoder *e)
{
    return &e->stats;
}

void rvt_te_data_encoder_free(rvt_te_data_encoder *e)
{
    free(e);
}

/* ---- the combined sink: blocks to the te_inst encoder, accesses here ---- */
static int sink_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_te_data_encoder *e = ctx;
    return e->inst ? rvt_te_encoder_put(e->inst, recs, n) : 0;
}

static int sink_data(void *ctx, const rvt_drec *recs, size_t n)
{
    return rvt_te_data_encoder_put(ctx, recs, n);
}

static int sink_end(void *ctx)
{
    rvt_te_data_encoder *e = ctx;
    return e->inst ? rvt_te_encoder_end(e->inst) : 0;
}

rvt_irec_sink rvt_te_data_sink(rvt_te_data_encoder *e, rvt_te_encoder *inst)
{
    e->inst = inst;
    rvt_irec_sink s = { e, sink_put, sink_data, sink_end };
    return s;
}
