/* Split load interface, decoder side (E-Trace 4.3): a request packet
 * (tables 7.4, 7.9) is held by its index until the response (7.5, 7.10)
 * that completes it; the data decoder (data_dec.c) reports the completed
 * access as the unified one (docs/etrace.md "Split loads"). */
#include <string.h>
#include "etrace/data_int.h"
#include "util/bitio.h"

/* req[].dtype of a request that could not be rebuilt: its response goes
 * quietly. */
#define LOST_REQ 0xffu

int rvt_te_dphase_of(const rvt_te_attrs *a, const rvt_te_dpkt *p)
{
    if (!a->split_loads)
        return RVT_TE_PH_UNIFIED;
    if (p->format == RVT_TE_DF_SPLIT_LOAD_DATA || p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA)
        return RVT_TE_PH_RESP;
    return p->format <= RVT_TE_DF_LOAD_UNALIGNED || p->format == RVT_TE_DF_ATOMIC
               ? RVT_TE_PH_REQ : RVT_TE_PH_UNIFIED;
}

/* A request's 1-bit diff codes its address (7.4, 7.9), a response's resp
 * its data (7.5, 7.10); resp codes the options rule out are as corrupt as
 * reserved diff codes. */
int rvt_te_split_coding(const rvt_te_attrs *a, const rvt_te_dpkt *p, int ph, rvt_te_dcoding *c)
{
    static const uint8_t dm[4] = { DM_NONE, DM_XOR, DM_FULL, DM_DIFF };
    c->addr = ph == RVT_TE_PH_REQ ? (p->diff ? DM_DIFF : DM_FULL) : DM_NONE;
    c->data = ph == RVT_TE_PH_REQ ? DM_NONE : dm[p->resp & 3];
    return rvt_te_dcoding_allowed(a, c);
}

/* Checked before any state changes: table 4.9 allows one transfer in
 * progress per index. */
const char *rvt_te_split_misuse(const rvt_te_split *t, const rvt_te_dpkt *p, int ph)
{
    if (ph == RVT_TE_PH_REQ && t->busy[p->index])
        return "index reused while its transfer is outstanding";
    if (ph == RVT_TE_PH_RESP && !t->busy[p->index])
        return "response for an unknown index";
    return NULL;
}

/* A request the decoder cannot rebuild (no reference after an error, or a
 * misaligned atomic) is kept as LOST_REQ with its size, so that its
 * response still moves the data reference as in the encoder and is then
 * dropped. */
int rvt_te_split_hold(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c, bool lost)
{
    const rvt_te_attrs *a = &m->a;
    bool atomic = p->format == RVT_TE_DF_ATOMIC;
    unsigned s = atomic ? p->size + 2u : p->size;
    rvt_drec *r = &m->split.req[p->index];
    memset(r, 0, sizeof *r);
    m->split.busy[p->index] = true;
    r->dsize = (uint8_t)s;
    r->dtype = LOST_REQ;
    if (lost)
        return 0;
    bool shifted = atomic || p->format == RVT_TE_DF_LOAD_ALIGNED;
    uint64_t addr = rvt_te_daddr_decode(c.addr, p->address, m->st.addr[s], a->iaddress_width,
                                        shifted ? s : 0);
    if (atomic && (addr & rvt_mask(s)))
        return RVT_ERR_FORMAT;      /* table 7.9: aligned */
    r->dtype = (uint8_t)(atomic ? RVT_DTYPE_AMO_SWAP + p->subtype : RVT_DTYPE_LOAD);
    r->lrid = p->index;
    r->addr = addr;
    if (atomic)
        r->data = p->operand & rvt_mask(8u << s);
    m->st.addr[s] = r->addr;
    m->st.valid[s] = true;
    return 0;
}

int rvt_te_split_complete(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c, rvt_drec *r)
{
    const rvt_te_attrs *a = &m->a;
    *r = m->split.req[p->index];
    m->split.busy[p->index] = false;
    bool atomic = p->format == RVT_TE_DF_SPLIT_ATOMIC_DATA, lost = r->dtype == LOST_REQ;
    if (!lost && (atomic != (r->dtype != RVT_DTYPE_LOAD) || (!atomic && p->size != r->dsize)))
        return RVT_ERR_FORMAT;      /* not the request this index names */
    r->lresp = c.data == DM_NONE ? RVT_LRESP_ERROR : RVT_LRESP_OKAY;
    if (c.data == DM_NONE)
        return lost;
    unsigned s = r->dsize, bits = 8u << s;
    unsigned fbits = atomic ? 8u * (p->datalen + 1u) : a->data_width;
    uint64_t v = rvt_te_dval_decode(c.data, p->data, fbits, m->st.data[s], bits);
    if (atomic)
        r->data2 = v;
    else
        r->data = v;
    m->st.data[s] = v;
    m->st.dvalid[s] = true;
    return lost;
}

void rvt_te_split_skip(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c, int ph)
{
    if (ph == RVT_TE_PH_REQ)
        rvt_te_split_hold(m, p, c, true);
    else if (ph == RVT_TE_PH_RESP)
        m->split.busy[p->index] = false;
}

/* A response's access is its request's. */
unsigned rvt_te_daccess_size(const rvt_te_dmodel *m, const rvt_te_dpkt *p, int ph)
{
    if (ph == RVT_TE_PH_RESP)
        return m->split.req[p->index].dsize;
    return p->format == RVT_TE_DF_ATOMIC ? p->size + 2u : p->size;
}
