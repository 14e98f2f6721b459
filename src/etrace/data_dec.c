/* Data-trace decoder (E-Trace ch. 7): te_data packets back to the accesses
 * the encoder saw.  te_inst packets in the same stream are skipped, except
 * that a format 3 packet restarts the compression state as it does in the
 * encoder (7.1.3).  After an error the state is dropped and packets that
 * need a reference are reported and skipped until a full packet.
 *
 * Split interface (attrs->split_loads, 4.3): a request packet (tables 7.4,
 * 7.9) is held by its index until the response (7.5, 7.10); the access is
 * reported when it completes, in response order, as the unified one
 * (docs/etrace.md "Split loads"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "etrace/data_int.h"
#include "util/bitio.h"

struct rvt_te_data_decoder {
    rvt_te_attrs a;
    rvt_te_data_fn fn;
    void *ctx;
    rvt_diag_fn diag;
    void *diag_ctx;
    rvt_te_dstate st;
    int errors;
    bool lost;          /* after an error: skip quietly until a reference */
    rvt_te_split split;
};

/* req[].dtype of a request skipped while lost: its response goes quietly. */
#define LOST_REQ 0xffu

rvt_te_data_decoder *rvt_te_data_decoder_new(const rvt_te_attrs *a, rvt_te_data_fn fn, void *ctx,
                                             int *status)
{
    int st = rvt_te_data_attrs_check(a);
    rvt_te_data_decoder *d = NULL;
    if (st == 0 && !(d = calloc(1, sizeof *d)))
        st = RVT_ERR_NOMEM;
    if (status)
        *status = st;
    if (!d)
        return NULL;
    d->a = *a;
    d->fn = fn;
    d->ctx = ctx;
    rvt_te_split_init(&d->split);
    return d;
}

void rvt_te_data_decoder_set_diag(rvt_te_data_decoder *d, rvt_diag_fn fn, void *ctx)
{
    d->diag = fn;
    d->diag_ctx = ctx;
}

void rvt_te_data_decoder_free(rvt_te_data_decoder *d)
{
    free(d);
}

static void report(rvt_te_data_decoder *d, uint64_t offset, const char *what, int st)
{
    d->errors++;
    d->lost = true;
    memset(&d->st, 0, sizeof d->st);
    if (d->diag) {
        char msg[128];
        snprintf(msg, sizeof msg, "te_data: %s (%s)", what, rvt_status_str(st));
        d->diag(d->diag_ctx, RVT_DIAG_ERROR, offset, msg);
    }
}

/* Data of a packet: data_len-sized, or data_width_p bits in the data-only
 * load/store/atomic forms. */
static unsigned data_bits(const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    if (a->no_address && p->format != RVT_TE_DF_CSR)
        return a->data_width;
    return 8u * (p->datalen + 1u);
}

static void rebuild_ls(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                       rvt_drec *r)
{
    const rvt_te_attrs *a = &d->a;
    unsigned s = p->size, bits = 8u << s;
    bool al = !(p->format & 1);
    r->dtype = (uint8_t)(p->format >> 1);
    r->dsize = (uint8_t)s;
    if (c.addr != DM_NONE)
        r->addr = rvt_te_daddr_decode(c.addr, p->address, d->st.addr[s], a->iaddress_width,
                                      al ? s : 0);
    if (c.data != DM_NONE)
        r->data = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->st.data[s], bits);
    d->st.addr[s] = r->addr;
    d->st.data[s] = r->data;
    d->st.valid[s] = d->st.dvalid[s] = true;
}

/* Table 7.6: an atomic's address is aligned (and shifted by its size); a
 * difference from an unaligned reference that leaves it unaligned cannot
 * come from an encoder (a misaligned AMO does not retire). */
static int rebuild_atomic(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                          rvt_drec *r)
{
    const rvt_te_attrs *a = &d->a;
    unsigned s = p->size + 2u, bits = 8u << s;
    r->dtype = (uint8_t)(RVT_DTYPE_AMO_SWAP + p->subtype);
    r->dsize = (uint8_t)s;
    if (c.addr != DM_NONE)
        r->addr = rvt_te_daddr_decode(c.addr, p->address, d->st.addr[s], a->iaddress_width, s);
    if (r->addr & rvt_mask(s))
        return RVT_ERR_FORMAT;
    if (c.data != DM_NONE) {
        r->data = p->operand & rvt_mask(bits);
        r->data2 = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->st.data[s], bits);
    }
    d->st.addr[s] = r->addr;
    d->st.data[s] = r->data2;
    d->st.valid[s] = d->st.dvalid[s] = true;
    return 0;
}

static void rebuild_csr(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                        rvt_drec *r)
{
    const rvt_te_attrs *a = &d->a;
    unsigned bits = rvt_te_csr_len_width(a) == 3 ? 64 : 32;
    r->dtype = (uint8_t)(RVT_DTYPE_CSR_RW + p->subtype);
    r->dsize = bits == 64 ? 3 : 2;
    if (c.addr != DM_NONE)
        r->addr = c.addr == DM_DIFF ? (d->st.csr_addr + p->address) & 0xfff : p->address;
    if (c.data != DM_NONE) {
        r->data2 = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->st.csr_data, bits);
        bool ro = !a->no_address && (r->addr >> 10) == 3;
        r->data = ro ? r->data2 : p->operand & rvt_mask(bits);   /* table 7.12 */
    }
    d->st.csr_addr = r->addr;
    d->st.csr_data = r->data2;
    d->st.csr_valid = true;
}

enum phase { PH_UNIFIED, PH_REQ, PH_RESP };

static int phase_of(const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    if (!a->split_loads)
        return PH_UNIFIED;
    if (p->format == RVT_TE_DF_SPLIT_LOAD_DATA || p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA)
        return PH_RESP;
    return p->format <= RVT_TE_DF_LOAD_UNALIGNED || p->format == RVT_TE_DF_ATOMIC ? PH_REQ
                                                                                    : PH_UNIFIED;
}

/* The coding of a split packet: a request's 1-bit diff codes its address
 * (7.4, 7.9), a response's resp its data (7.5, 7.10); resp codes the
 * options rule out are as corrupt as reserved diff codes. */
static int split_coding(const rvt_te_attrs *a, const rvt_te_dpkt *p, int ph, rvt_te_dcoding *c)
{
    static const uint8_t dm[4] = { DM_NONE, DM_XOR, DM_FULL, DM_DIFF };
    c->addr = ph == PH_REQ ? (p->diff ? DM_DIFF : DM_FULL) : DM_NONE;
    c->data = ph == PH_REQ ? DM_NONE : dm[p->resp & 3];
    if (a->data_compress == 0 && (c->addr == DM_DIFF || c->data == DM_XOR || c->data == DM_DIFF))
        return RVT_ERR_FORMAT;
    if ((c->data == DM_XOR && !(a->data_compress & 1)) ||
        (c->data == DM_DIFF && !(a->data_compress & 2)))
        return RVT_ERR_FORMAT;
    return 0;
}

/* Tables 7.4, 7.9: the request, kept until its response.  A request the
 * decoder cannot rebuild (no reference after an error, or a misaligned
 * atomic) is kept as LOST_REQ with its size, so that its response still
 * moves the data reference as in the encoder and is then dropped. */
static int split_request(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                         bool lost)
{
    const rvt_te_attrs *a = &d->a;
    bool atomic = p->format == RVT_TE_DF_ATOMIC;
    unsigned s = atomic ? p->size + 2u : p->size;
    rvt_drec *r = &d->split.req[p->index];
    memset(r, 0, sizeof *r);
    d->split.busy[p->index] = true;
    r->dsize = (uint8_t)s;
    r->dtype = LOST_REQ;
    if (lost)
        return 0;
    bool shifted = atomic || p->format == RVT_TE_DF_LOAD_ALIGNED;
    uint64_t addr = rvt_te_daddr_decode(c.addr, p->address, d->st.addr[s], a->iaddress_width,
                                        shifted ? s : 0);
    if (atomic && (addr & rvt_mask(s)))
        return RVT_ERR_FORMAT;      /* table 7.9: aligned */
    r->dtype = (uint8_t)(atomic ? RVT_DTYPE_AMO_SWAP + p->subtype : RVT_DTYPE_LOAD);
    r->lrid = p->index;
    r->addr = addr;
    if (atomic)
        r->data = p->operand & rvt_mask(8u << s);
    d->st.addr[s] = r->addr;
    d->st.valid[s] = true;
    return 0;
}

/* Tables 7.5, 7.10: the response completes the request with its index;
 * 1 for the response of a lost request (not reported). */
static int split_response(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                          rvt_drec *r)
{
    const rvt_te_attrs *a = &d->a;
    *r = d->split.req[p->index];
    d->split.busy[p->index] = false;
    bool atomic = p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA, lost = r->dtype == LOST_REQ;
    if (!lost && (atomic != (r->dtype != RVT_DTYPE_LOAD) || (!atomic && p->size != r->dsize)))
        return RVT_ERR_FORMAT;      /* not the request this index names */
    r->lresp = c.data == DM_NONE ? RVT_LRESP_ERROR : RVT_LRESP_OKAY;
    if (c.data == DM_NONE)
        return lost;
    unsigned s = r->dsize, bits = 8u << s;
    unsigned fbits = atomic ? 8u * (p->datalen + 1u) : a->data_width;
    uint64_t v = rvt_te_dval_decode(c.data, p->data, fbits, d->st.data[s], bits);
    if (atomic)
        r->data2 = v;
    else
        r->data = v;
    d->st.data[s] = v;
    d->st.dvalid[s] = true;
    return lost;
}

/* Split checks before any state changes: table 4.9 allows one transfer
 * in progress per index. */
static const char *split_misuse(const rvt_te_data_decoder *d, const rvt_te_dpkt *p, int ph)
{
    if (ph == PH_REQ && d->split.busy[p->index])
        return "index reused while its transfer is outstanding";
    if (ph == PH_RESP && !d->split.busy[p->index])
        return "response for an unknown index";
    return NULL;
}

static int unpack(rvt_te_data_decoder *d, const uint8_t *pl, size_t n, uint64_t offset,
                  rvt_te_dpkt *p, rvt_te_dcoding *c, int *ph)
{
    int st = rvt_te_dunpack_split(&d->a, pl, n, d->split.sizes, p);
    if (st == 0) {
        *ph = phase_of(&d->a, p);
        st = *ph == PH_UNIFIED ? rvt_te_dcoding_of(&d->a, p->format, p->diff, c)
                               : split_coding(&d->a, p, *ph, c);
    }
    if (st < 0) {
        bool orphan = d->a.split_loads && (pl[0] & 7) == RVT_TE_DF_SPLIT_ATOMIC_DATA;
        report(d, offset, orphan ? "split atomic data for an unknown index" : "bad packet", st);
        return st;
    }
    const char *bad = split_misuse(d, p, *ph);
    if (bad) {
        report(d, offset, bad, RVT_ERR_FORMAT);
        if (*ph == PH_REQ)
            d->split.busy[p->index] = false;   /* the new request replaces it */
        else
            return RVT_ERR_FORMAT;
    }
    rvt_te_dsplit_track(&d->a, p, d->split.sizes);
    return 0;
}

static int data_packet(rvt_te_data_decoder *d, const uint8_t *pl, size_t n, uint64_t offset)
{
    rvt_te_dpkt p;
    rvt_te_dcoding c;
    int ph = PH_UNIFIED;
    if (unpack(d, pl, n, offset, &p, &c, &ph) < 0)
        return 0;
    bool csr = p.format == RVT_TE_DF_CSR;
    unsigned s = p.format == RVT_TE_DF_ATOMIC ? p.size + 2u : p.size;
    if (ph == PH_RESP)
        s = d->split.req[p.index].dsize;
    bool aref = csr ? d->st.csr_valid : d->st.valid[s & 3];
    bool dref = csr ? d->st.csr_valid : d->st.dvalid[s & 3];
    if ((!aref && c.addr == DM_DIFF) || (!dref && (c.data == DM_XOR || c.data == DM_DIFF))) {
        if (!d->lost)
            report(d, offset, "compressed packet without a reference", RVT_ERR_NOSYNC);
        if (ph == PH_REQ)
            split_request(d, &p, c, true);
        else if (ph == PH_RESP)
            d->split.busy[p.index] = false;
        return 0;       /* lost with the packet already reported */
    }
    d->lost = false;
    rvt_drec r;
    memset(&r, 0, sizeof r);
    int st = 0;
    if (ph == PH_REQ) {
        if (split_request(d, &p, c, false) < 0)
            report(d, offset, "misaligned atomic", RVT_ERR_FORMAT);
        return 0;
    }
    if (ph == PH_RESP)
        st = split_response(d, &p, c, &r);
    else if (csr)
        rebuild_csr(d, &p, c, &r);
    else if (p.format == RVT_TE_DF_ATOMIC)
        st = rebuild_atomic(d, &p, c, &r);
    else
        rebuild_ls(d, &p, c, &r);
    if (st != 0) {
        if (st < 0)
            report(d, offset, ph == PH_RESP ? "response does not match its request"
                                            : "misaligned atomic", st);
        return 0;
    }
    return d->fn ? d->fn(d->ctx, &r, offset) : 0;
}

int rvt_te_data_decoder_frame(rvt_te_data_decoder *d, const uint8_t *frame, size_t n,
                              uint64_t offset)
{
    if (n < 2 || (size_t)(frame[0] & 31) + 1 != n) {
        report(d, offset, "bad frame", RVT_ERR_FORMAT);
        return 0;
    }
    if (rvt_te_frame_is_sync(frame, n)) {
        memset(&d->st, 0, sizeof d->st);
        return 0;
    }
    if (((frame[0] >> 5) & 3) != RVT_TE_MSG_DATA)
        return 0;
    return data_packet(d, frame + 1, n - 1, offset);
}

int rvt_te_data_decoder_run(rvt_te_data_decoder *d, const uint8_t *buf, size_t len)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, &d->a, buf, len);
    unsigned type;
    const uint8_t *pl;
    size_t n;
    uint64_t off, last = 0;
    int st;
    d->errors = 0;
    d->lost = false;
    memset(&d->st, 0, sizeof d->st);    /* a new stream starts unsynchronised */
    rvt_te_split_init(&d->split);
    while ((st = rvt_te_reader_frame(&r, &type, &pl, &n, &off)) != 0) {
        last = off;
        if (st < 0) {
            report(d, off, st == RVT_ERR_TRUNC ? "stream ends inside a packet" : "bad header", st);
            continue;
        }
        st = rvt_te_data_decoder_frame(d, pl - 1, n + 1, off);
        if (st < 0)
            return st;
    }
    unsigned open = 0;
    for (unsigned i = 0; i < RVT_TE_SPLIT_IDS; i++)
        open += d->split.busy[i];
    if (open)   /* 4.3: every request has a response; the stream was cut */
        report(d, last, "split transfers without a response at the end", RVT_ERR_TRUNC);
    return d->errors;
}
