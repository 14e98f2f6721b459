/* Split data interface of the hart (E-Trace 4.3, table 4.9): a load or
 * atomic is reported as a request at retirement (lrid, address, size,
 * operand) and a response later (lid, lresp, load data).  The model: a
 * window of cfg.split_loads IDs; when every ID is outstanding, half of
 * them (rounded up) respond, in an order drawn from a fixed-seed
 * generator, before the next request takes the lowest free ID.  So the
 * responses come out of order, deterministically, and an ID is reused
 * only after its response (table 4.9: one load in progress per ID). */
#include "hart_int.h"

/* xorshift32: reproducible, no global state. */
static uint32_t next_rand(rvt_hart *h)
{
    uint32_t x = h->split_rng ? h->split_rng : 0x2545f491u;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    h->split_rng = x;
    return x;
}

static void respond(rvt_hart *h, unsigned id)
{
    rvt_drec *d = hart_dslot(h);
    if (!d)
        return;
    *d = h->split_pend[id];
    h->split_busy &= ~(1u << id);
    h->st.data_records++;
}

/* Deliver n pending responses, each the next outstanding ID at or after a
 * random start. */
static void deliver(rvt_hart *h, unsigned n)
{
    unsigned w = h->cfg.split_loads;
    while (n-- && h->split_busy) {
        unsigned id = next_rand(h) % w;
        while (!(h->split_busy & (1u << id)))
            id = (id + 1) % w;
        respond(h, id);
    }
}

void hart_split_make_room(rvt_hart *h)
{
    unsigned w = h->cfg.split_loads;
    uint32_t all = w >= 32 ? ~0u : (1u << w) - 1;
    if ((h->split_busy & all) == all)
        deliver(h, (w + 1) / 2);
}

void hart_split_issue(rvt_hart *h, rvt_drec *d)
{
    unsigned id = 0;
    while (h->split_busy & (1u << id))
        id++;
    /* The response: the whole access again (rvt_drec: readers see it
     * complete), with lid and an okay lresp -- a load that faults does
     * not retire, so no error responses come from this model. */
    rvt_drec *r = &h->split_pend[id];
    *r = *d;
    r->flags |= RVT_DREC_F_RESPONSE;
    r->lrid = (uint16_t)id;
    r->lresp = RVT_LRESP_OKAY;
    h->split_busy |= 1u << id;
    /* The request: no load data yet (an atomic keeps its operand). */
    d->flags |= RVT_DREC_F_SPLIT_REQ;
    d->lrid = (uint16_t)id;
    if (d->dtype == RVT_DTYPE_LOAD)
        d->data = 0;
    else
        d->data2 = 0;
}

void hart_split_finish(rvt_hart *h)
{
    deliver(h, RVT_HART_SPLIT_MAX);
}
