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
    rvt_te_attrs a;
    rvt_te_byte_fn out;
    void *ctx;
    rvt_te_encoder *inst;
    rvt_te_dstate st;
    uint64_t since_sync;
    rvt_te_data_stats stats;
    rvt_te_split split;
};

/* What a packet carries: the unified forms, or a split phase (the
 * response's load data is in d->data for both K_RESP kinds). */
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
    e->a = *a;
    e->out = out;
    e->ctx = ctx;
    rvt_te_split_init(&e->split);
    return e;
}

void rvt_te_data_encoder_sync(rvt_te_data_encoder *e)
{
    memset(&e->st, 0, sizeof e->st);
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
static int build_ls(const rvt_te_data_encoder *e, const rvt_drec *d, rvt_te_dcoding c,
                    rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &e->a;
    unsigned s = d->dsize, bits = 8u << s;
    if (bits > a->data_width)
        return RVT_ERR_RANGE;
    bool al = (d->addr & rvt_mask(s)) == 0;
    p->size = (uint8_t)s;
    if (c.addr != DM_NONE)
        p->address = rvt_te_daddr_encode(c.addr, d->addr, e->st.addr[s], a->iaddress_width, s, &al);
    p->format = (uint8_t)((d->dtype == RVT_DTYPE_STORE ? 2 : 0) | (al ? 0 : 1));
    if (c.data != DM_NONE)
        put_data(a, c.data, d->data, e->st.data[s], bits, &p->data, &p->datalen);
    return 0;
}

static int build_atomic(const rvt_te_data_encoder *e, const rvt_drec *d, rvt_te_dcoding c,
                        rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &e->a;
    unsigned s = d->dsize, bits = 8u << s;
    if (s < 2 || s > 3 || bits > a->data_width)
        return RVT_ERR_RANGE;           /* 7.2.1: 32 or 64 bits */
    p->format = RVT_TE_DF_ATOMIC;
    p->subtype = (uint8_t)(d->dtype - RVT_DTYPE_AMO_SWAP);
    p->size = (uint8_t)(s - 2);
    if (c.addr != DM_NONE) {
        bool al;
        p->address = rvt_te_daddr_encode(c.addr, d->addr, e->st.addr[s], a->iaddress_width, s, &al);
        if (!al)    /* table 7.6: the address is aligned and shifted by size */
            return c.addr == DM_FULL ? RVT_ERR_RANGE : 1;
    }
    if (c.data != DM_NONE) {
        p->operand = d->data & rvt_mask(bits);
        p->oplen = op_len(p->operand, bits);
        put_data(a, c.data, d->data2, e->st.data[s], bits, &p->data, &p->datalen);
    }
    return 0;
}

static int build_csr(const rvt_te_data_encoder *e, const rvt_drec *d, rvt_te_dcoding c,
                     rvt_te_dpkt *p)
{
    const rvt_te_attrs *a = &e->a;
    unsigned bits = rvt_te_csr_len_width(a) == 3 ? 64 : 32;
    uint64_t csr = d->addr & 0xfff;
    p->format = RVT_TE_DF_CSR;
    p->subtype = (uint8_t)(d->dtype - RVT_DTYPE_CSR_RW);
    if (d->addr > 0xfff)
        return RVT_ERR_RANGE;
    if (a->no_data) {
        p->address = c.addr == DM_DIFF ? (csr - e->st.csr_addr) & 0xfff : csr;
        return 0;
    }
    p->address = csr;
    /* Table 7.12 has no operand: it must equal the read value, as for
     * every access to a read-only CSR that does not trap. */
    if (!a->no_address && (csr >> 10) == 3 && d->data != d->data2)
        return RVT_ERR_RANGE;
    unsigned nb;
    uint64_t x = rvt_te_dval_encode(c.data, d->data2, e->st.csr_data, bits, &nb);
    p->data = x & rvt_mask(8 * nb);
    p->datalen = (uint8_t)(nb - 1);
    p->operand = d->data & rvt_mask(bits);
    p->oplen = op_len(p->operand, bits);
    return 0;
}

/* Tables 7.4 and 7.9: the unified builders without data, then the index
 * and the 1-bit diff of the address. */
static int build_req(const rvt_te_data_encoder *e, const rvt_drec *d, rvt_te_dcoding c,
                     rvt_te_dpkt *p)
{
    rvt_te_dcoding full = { c.addr, DM_FULL };
    bool atomic = d->dtype != RVT_DTYPE_LOAD;
    int st = atomic ? build_atomic(e, d, full, p) : build_ls(e, d, full, p);
    p->data = 0;
    p->datalen = 0;
    p->index = d->lrid;
    p->diff = c.addr == DM_DIFF;
    return st;
}

/* Tables 7.5 and 7.10: resp names the data coding, 00 an error. */
static int build_resp(const rvt_te_data_encoder *e, const rvt_drec *d, rvt_te_dcoding c,
                      rvt_te_dpkt *p)
{
    static const uint8_t resp[4] = { RVT_TE_RESP_FULL, RVT_TE_RESP_XOR, RVT_TE_RESP_DIFF,
                                     RVT_TE_RESP_ERROR };
    const rvt_te_attrs *a = &e->a;
    unsigned s = d->dsize, bits = 8u << s;
    bool atomic = d->dtype != RVT_DTYPE_LOAD;
    if (bits > a->data_width)
        return RVT_ERR_RANGE;
    p->format = atomic ? RVT_TE_DF_SPLIT_ATOMIC_DATA : RVT_TE_DF_SPLIT_LOAD_DATA;
    p->size = (uint8_t)(atomic ? s - 2 : s);
    p->index = d->lrid;
    p->resp = resp[c.data];
    if (c.data == DM_NONE)
        return 0;
    unsigned nb;
    uint64_t x = rvt_te_dval_encode(c.data, d->data, e->st.data[s], bits, &nb);
    /* 7.5: a data_width_p-bit field (the packet compression drops its
     * sign bits); 7.10: data_len + the significant bytes, as 7.6. */
    p->data = x & rvt_mask(atomic ? 8 * nb : a->data_width);
    p->datalen = (uint8_t)(nb - 1);
    return 0;
}

static int build(const rvt_te_data_encoder *e, const rvt_drec *d, int kind, rvt_te_dcoding c,
                 rvt_te_dpkt *p)
{
    memset(p, 0, sizeof *p);
    if (kind == K_REQ)
        return build_req(e, d, c, p);
    if (kind == K_RESP)
        return build_resp(e, d, c, p);
    int st = kind == K_LS ? build_ls(e, d, c, p)
           : kind == K_ATOMIC ? build_atomic(e, d, c, p) : build_csr(e, d, c, p);
    if (st != 0)
        return st;
    int diff = rvt_te_diff_of(&e->a, p->format, c);
    if (diff < 0)
        return 1;
    p->diff = (uint8_t)diff;
    return 0;
}

static void remember(rvt_te_data_encoder *e, const rvt_drec *d, int kind)
{
    if (kind == K_CSR) {
        e->st.csr_addr = d->addr & 0xfff;
        e->st.csr_data = d->data2;
        e->st.csr_valid = true;
        return;
    }
    unsigned s = d->dsize & 3;
    if (kind != K_RESP) {
        e->st.addr[s] = d->addr;
        e->st.valid[s] = true;
    }
    if (kind != K_REQ && d->lresp != RVT_LRESP_ERROR) {
        e->st.data[s] = (kind == K_ATOMIC ? d->data2 : d->data) & rvt_mask(8u << s);
        e->st.dvalid[s] = true;
    }
}

/* May coding c be used: the packet's shape (which of address and data it
 * carries), the options, and a reference for what it compresses. */
static bool usable(const rvt_te_data_encoder *e, const rvt_drec *d, int kind, rvt_te_dcoding c)
{
    const rvt_te_attrs *a = &e->a;
    bool want_addr = kind == K_REQ || (kind != K_RESP && !a->no_address);
    bool want_data = kind == K_RESP ? d->lresp != RVT_LRESP_ERROR
                   : kind != K_REQ && !a->no_data;
    if ((c.addr != DM_NONE) != want_addr || (c.data != DM_NONE) != want_data)
        return false;
    bool aref = kind == K_CSR ? e->st.csr_valid : e->st.valid[d->dsize & 3];
    bool dref = kind == K_CSR ? e->st.csr_valid : e->st.dvalid[d->dsize & 3];
    if (a->data_compress == 0)
        aref = dref = false;
    if (c.addr == DM_DIFF && !aref)
        return false;
    if ((c.data == DM_XOR || c.data == DM_DIFF) && !dref)
        return false;
    return !((c.data == DM_XOR && !(a->data_compress & 1)) ||
             (c.data == DM_DIFF && !(a->data_compress & 2)));
}

/* The shortest frame over the codings the options and state allow. */
static int encode_one(rvt_te_data_encoder *e, const rvt_drec *d, int kind, uint8_t *best)
{
    const rvt_te_attrs *a = &e->a;
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

/* The completed access of a response: its request with the load data. */
static rvt_drec completed(const rvt_drec *req, const rvt_drec *resp)
{
    rvt_drec d = *req;
    d.flags = 0;
    d.lresp = resp->lresp;
    if (req->dtype == RVT_DTYPE_LOAD)
        d.data = resp->lresp == RVT_LRESP_ERROR ? 0 : resp->data;
    else
        d.data2 = resp->lresp == RVT_LRESP_ERROR ? 0 : resp->data2;
    return d;
}

/* A response record: the response packet, or on the unified interface the
 * unified packet of the completed access (which cannot say "failed"). */
static int put_response(rvt_te_data_encoder *e, const rvt_drec *r)
{
    if (r->lrid >= rvt_te_split_ids(&e->a) ||
        (r->lresp != RVT_LRESP_OKAY && r->lresp != RVT_LRESP_ERROR))
        return RVT_ERR_INVAL;           /* table 4.9 lid and lresp */
    if (!e->split.busy[r->lrid])
        return 0;   /* its request was not traced (a filter in front, ch. 5) */
    e->split.busy[r->lrid] = false;
    rvt_drec d = completed(&e->split.req[r->lrid], r);
    e->stats.accesses++;
    if (!e->a.split_loads)
        return d.lresp == RVT_LRESP_ERROR ? RVT_ERR_RANGE : emit(e, &d, kind_of(&d));
    if (d.dtype != RVT_DTYPE_LOAD)
        d.data = d.data2;               /* K_RESP: the load data in data */
    d.lrid = r->lrid;
    return emit(e, &d, K_RESP);
}

static int put_request(rvt_te_data_encoder *e, const rvt_drec *r)
{
    if (!rvt_te_drec_splits(r) || r->lrid >= rvt_te_split_ids(&e->a) || e->split.busy[r->lrid] ||
        r->lresp != 0)
        return RVT_ERR_INVAL;           /* table 4.9: one load in progress per ID */
    e->split.busy[r->lrid] = true;
    e->split.req[r->lrid] = *r;
    return e->a.split_loads ? emit(e, r, K_REQ) : 0;
}

/* A unified load or atomic on the split interface: a request and its
 * response back to back, on the lowest free index (okay unless the record
 * is a decoded failed load, lresp 3). */
static int put_as_split(rvt_te_data_encoder *e, const rvt_drec *r)
{
    unsigned id = 0, ids = rvt_te_split_ids(&e->a);
    while (id < ids && e->split.busy[id])
        id++;
    if (id == ids)
        return RVT_ERR_RANGE;
    rvt_drec q = *r;
    q.flags = RVT_DREC_F_SPLIT_REQ;
    q.lrid = (uint16_t)id;
    q.lresp = 0;
    int st = put_request(e, &q);
    if (st < 0)
        return st;
    q.flags = RVT_DREC_F_RESPONSE;
    q.lresp = r->lresp == RVT_LRESP_ERROR ? RVT_LRESP_ERROR : RVT_LRESP_OKAY;
    return put_response(e, &q);
}

static int put_one(rvt_te_data_encoder *e, const rvt_drec *r)
{
    if (r->flags & RVT_DREC_F_RESPONSE)
        return put_response(e, r);
    if (r->flags & RVT_DREC_F_SPLIT_REQ)
        return put_request(e, r);
    if (e->a.split_loads && rvt_te_drec_splits(r))
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
