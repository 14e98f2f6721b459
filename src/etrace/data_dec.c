/* Data-trace decoder (E-Trace ch. 7): te_data packets back to the accesses
 * the encoder saw.  te_inst packets in the same stream are skipped, except
 * that a format 3 packet restarts the compression state as it does in the
 * encoder (7.1.3).  After an error the state is dropped and packets that
 * need a reference are reported and skipped until a full packet.
 *
 * Split interface (attrs->split_loads, 4.3; data_split_dec.c): an access
 * is reported when its response completes it, in response order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "etrace/data_int.h"
#include "util/bitio.h"

struct rvt_te_data_decoder {
    rvt_te_dmodel m;
    rvt_te_data_fn fn;
    void *ctx;
    rvt_diag_fn diag;
    void *diag_ctx;
    int errors;
    bool lost;          /* after an error: skip quietly until a reference */
    bool mid_stream;    /* streams start mid-way: lost from their start */
    bool synced;        /* a sync reset the references, and no error since */
};

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
    d->m.a = *a;
    d->fn = fn;
    d->ctx = ctx;
    rvt_te_split_init(&d->m.split);
    return d;
}

void rvt_te_data_decoder_mid_stream(rvt_te_data_decoder *d)
{
    if (d)
        d->mid_stream = true;   /* as after a reported error: skip until a reference */
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
    d->synced = false;
    memset(&d->m.st, 0, sizeof d->m.st);
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
    const rvt_te_attrs *a = &d->m.a;
    unsigned s = p->size, bits = 8u << s;
    bool al = !(p->format & 1);
    r->dtype = (uint8_t)(p->format >> 1);
    r->dsize = (uint8_t)s;
    if (c.addr != DM_NONE)
        r->addr = rvt_te_daddr_decode(c.addr, p->address, d->m.st.addr[s], a->iaddress_width,
                                      al ? s : 0);
    if (c.data != DM_NONE)
        r->data = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->m.st.data[s], bits);
    d->m.st.addr[s] = r->addr;
    d->m.st.data[s] = r->data;
    d->m.st.valid[s] = d->m.st.dvalid[s] = true;
}

/* Table 7.6: an atomic's address is aligned (and shifted by its size); a
 * difference from an unaligned reference that leaves it unaligned cannot
 * come from an encoder (a misaligned AMO does not retire). */
static int rebuild_atomic(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                          rvt_drec *r)
{
    const rvt_te_attrs *a = &d->m.a;
    unsigned s = p->size + 2u, bits = 8u << s;
    r->dtype = (uint8_t)(RVT_DTYPE_AMO_SWAP + p->subtype);
    r->dsize = (uint8_t)s;
    if (c.addr != DM_NONE)
        r->addr = rvt_te_daddr_decode(c.addr, p->address, d->m.st.addr[s], a->iaddress_width, s);
    if (r->addr & rvt_mask(s))
        return RVT_ERR_FORMAT;
    if (c.data != DM_NONE) {
        r->data = p->operand & rvt_mask(bits);
        r->data2 = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->m.st.data[s], bits);
    }
    d->m.st.addr[s] = r->addr;
    d->m.st.data[s] = r->data2;
    d->m.st.valid[s] = d->m.st.dvalid[s] = true;
    return 0;
}

static void rebuild_csr(rvt_te_data_decoder *d, const rvt_te_dpkt *p, rvt_te_dcoding c,
                        rvt_drec *r)
{
    const rvt_te_attrs *a = &d->m.a;
    unsigned bits = rvt_te_csr_len_width(a) == 3 ? 64 : 32;
    r->dtype = (uint8_t)(RVT_DTYPE_CSR_RW + p->subtype);
    r->dsize = bits == 64 ? 3 : 2;
    if (c.addr != DM_NONE)
        r->addr = c.addr == DM_DIFF ? (d->m.st.csr_addr + p->address) & 0xfff : p->address;
    if (c.data != DM_NONE) {
        r->data2 = rvt_te_dval_decode(c.data, p->data, data_bits(a, p), d->m.st.csr_data, bits);
        bool ro = !a->no_address && (r->addr >> 10) == 3;
        r->data = ro ? r->data2 : p->operand & rvt_mask(bits);   /* table 7.12 */
    }
    d->m.st.csr_addr = r->addr;
    d->m.st.csr_data = r->data2;
    d->m.st.csr_valid = true;
}

static int unpack(rvt_te_data_decoder *d, const uint8_t *pl, size_t n, uint64_t offset,
                  rvt_te_dpkt *p, rvt_te_dcoding *c, int *ph)
{
    int st = rvt_te_dunpack_split(&d->m.a, pl, n, d->m.split.sizes, p);
    if (st == 0) {
        *ph = rvt_te_dphase_of(&d->m.a, p);
        st = *ph == RVT_TE_PH_UNIFIED ? rvt_te_dcoding_of(&d->m.a, p->format, p->diff, c)
                                      : rvt_te_split_coding(&d->m.a, p, *ph, c);
    }
    if (st < 0) {
        bool orphan = d->m.a.split_loads && (pl[0] & 7) == RVT_TE_DF_SPLIT_ATOMIC_DATA;
        report(d, offset, orphan ? "split atomic data for an unknown index" : "bad packet", st);
        return st;
    }
    const char *bad = rvt_te_split_misuse(&d->m.split, p, *ph);
    if (bad) {
        report(d, offset, bad, RVT_ERR_FORMAT);
        if (*ph == RVT_TE_PH_REQ)
            d->m.split.busy[p->index] = false;   /* the new request replaces it */
        else
            return RVT_ERR_FORMAT;
    }
    rvt_te_dsplit_track(&d->m.a, p, d->m.split.sizes);
    return 0;
}

static int data_packet(rvt_te_data_decoder *d, const uint8_t *pl, size_t n, uint64_t offset)
{
    rvt_te_dpkt p;
    rvt_te_dcoding c;
    int ph = RVT_TE_PH_UNIFIED;
    if (unpack(d, pl, n, offset, &p, &c, &ph) < 0)
        return 0;
    bool csr = p.format == RVT_TE_DF_CSR;
    unsigned s = rvt_te_daccess_size(&d->m, &p, ph);
    /* After a sync the references are zero: the reference flow sends the
     * first packets of each size differentially against zero, where 7.1.3
     * has full ones (docs/conformance-etrace.md); accepted.  Not after an
     * error or at the start, where the references are unknown. */
    bool aref = d->synced || (csr ? d->m.st.csr_valid : d->m.st.valid[s & 3]);
    bool dref = d->synced || (csr ? d->m.st.csr_valid : d->m.st.dvalid[s & 3]);
    if ((!aref && c.addr == DM_DIFF) || (!dref && (c.data == DM_XOR || c.data == DM_DIFF))) {
        if (!d->lost)
            report(d, offset, "compressed packet without a reference", RVT_ERR_NOSYNC);
        rvt_te_split_skip(&d->m, &p, c, ph);
        return 0;       /* lost with the packet already reported */
    }
    d->lost = false;
    rvt_drec r;
    memset(&r, 0, sizeof r);
    int st = 0;
    if (ph == RVT_TE_PH_REQ) {
        if (rvt_te_split_hold(&d->m, &p, c, false) < 0)
            report(d, offset, "misaligned atomic", RVT_ERR_FORMAT);
        return 0;
    }
    if (ph == RVT_TE_PH_RESP)
        st = rvt_te_split_complete(&d->m, &p, c, &r);
    else if (csr)
        rebuild_csr(d, &p, c, &r);
    else if (p.format == RVT_TE_DF_ATOMIC)
        st = rebuild_atomic(d, &p, c, &r);
    else
        rebuild_ls(d, &p, c, &r);
    if (st != 0) {
        if (st < 0)
            report(d, offset, ph == RVT_TE_PH_RESP ? "response does not match its request"
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
        memset(&d->m.st, 0, sizeof d->m.st);
        d->synced = true;
        return 0;
    }
    if (((frame[0] >> 5) & 3) != RVT_TE_MSG_DATA)
        return 0;
    return data_packet(d, frame + 1, n - 1, offset);
}

int rvt_te_data_decoder_run(rvt_te_data_decoder *d, const uint8_t *buf, size_t len)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, &d->m.a, buf, len);
    unsigned type;
    const uint8_t *pl;
    size_t n;
    uint64_t off, last = 0;
    int st;
    d->errors = 0;
    d->lost = d->mid_stream;
    d->synced = false;
    memset(&d->m.st, 0, sizeof d->m.st);    /* a new stream starts unsynchronised */
    rvt_te_split_init(&d->m.split);
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
    /* 4.3: every request has a response; the stream was cut */
    if (rvt_te_split_outstanding(&d->m.split))
        report(d, last, "split transfers without a response at the end", RVT_ERR_TRUNC);
    return d->errors;
}
