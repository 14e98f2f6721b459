/* Split load interface, encoder side (E-Trace 4.3): the requests the data
 * encoder holds by index until their responses, the pairing of a unified
 * access into a request and a response, and the request (tables 7.4,
 * 7.9) and response (7.5, 7.10) packets.  The encoder (data_enc.c) picks
 * the coding and sends the packets. */
#include <string.h>
#include "etrace/data_int.h"
#include "util/bitio.h"

/* Tables 7.4 and 7.9: the unified builders without data, then the index
 * and the 1-bit diff of the address. */
int rvt_te_dbuild_req(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                      rvt_te_dpkt *p)
{
    rvt_te_dcoding full = { c.addr, DM_FULL };
    bool atomic = d->dtype != RVT_DTYPE_LOAD;
    int st = atomic ? rvt_te_dbuild_atomic(m, d, full, p) : rvt_te_dbuild_ls(m, d, full, p);
    p->data = 0;
    p->datalen = 0;
    p->index = d->lrid;
    p->diff = c.addr == DM_DIFF;
    return st;
}

/* Tables 7.5 and 7.10: resp names the data coding, 00 an error. */
int rvt_te_dbuild_resp(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                       rvt_te_dpkt *p)
{
    static const uint8_t resp[4] = { RVT_TE_RESP_FULL, RVT_TE_RESP_XOR, RVT_TE_RESP_DIFF,
                                     RVT_TE_RESP_ERROR };
    const rvt_te_attrs *a = &m->a;
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
    uint64_t x = rvt_te_dval_encode(c.data, atomic ? d->data2 : d->data, m->st.data[s], bits, &nb);
    /* 7.5: a data_width_p-bit field (the packet compression drops its
     * sign bits); 7.10: data_len + the significant bytes, as 7.6. */
    p->data = x & rvt_mask(atomic ? 8 * nb : a->data_width);
    p->datalen = (uint8_t)(nb - 1);
    return 0;
}

int rvt_te_split_request(rvt_te_dmodel *m, const rvt_drec *r)
{
    if (!rvt_te_drec_splits(r) || r->lrid >= rvt_te_split_ids(&m->a) || m->split.busy[r->lrid] ||
        r->lresp != 0)
        return RVT_ERR_INVAL;           /* table 4.9: one load in progress per ID */
    m->split.busy[r->lrid] = true;
    m->split.req[r->lrid] = *r;
    return 0;
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

int rvt_te_split_response(rvt_te_dmodel *m, const rvt_drec *r, rvt_drec *done)
{
    if (r->lrid >= rvt_te_split_ids(&m->a) ||
        (r->lresp != RVT_LRESP_OKAY && r->lresp != RVT_LRESP_ERROR))
        return RVT_ERR_INVAL;           /* table 4.9 lid and lresp */
    if (!m->split.busy[r->lrid])
        return 1;   /* its request was not traced (a filter in front, ch. 5) */
    m->split.busy[r->lrid] = false;
    *done = completed(&m->split.req[r->lrid], r);
    return 0;
}

/* Okay unless the record is a decoded failed load (lresp 3). */
int rvt_te_split_pair(const rvt_te_dmodel *m, const rvt_drec *r, rvt_drec pair[2])
{
    unsigned id = 0, ids = rvt_te_split_ids(&m->a);
    while (id < ids && m->split.busy[id])
        id++;
    if (id == ids)
        return RVT_ERR_RANGE;
    pair[0] = *r;
    pair[0].flags = RVT_DREC_F_SPLIT_REQ;
    pair[0].lrid = (uint16_t)id;
    pair[0].lresp = 0;
    pair[1] = pair[0];
    pair[1].flags = RVT_DREC_F_RESPONSE;
    pair[1].lresp = r->lresp == RVT_LRESP_ERROR ? RVT_LRESP_ERROR : RVT_LRESP_OKAY;
    return 0;
}
