/* Ingress records: E-Trace 4.2 instruction blocks and 4.4 data accesses,
 * batched and handed to the sink.
 *
 * Invariants: buf[] holds pushed blocks not yet sent; the newest one stays
 * buffered so an interrupt can still be attached to it (table 4.1 itype 2:
 * "an interrupt occurred following the final retired instruction in the
 * block"); dbuf[0..dpushed) are the data accesses of buf[nbuf-1] and must
 * reach the sink right after it (4.4 unified form). */
#include "hart_int.h"

static int send(rvt_hart *h, size_t nrec, size_t ndata)
{
    const rvt_irec_sink *s = h->sink;
    if (h->sink_err || !s)
        return h->sink_err;
    int rc = 0;
    if (nrec)
        rc = s->put(s->ctx, h->buf, nrec);
    if (rc >= 0 && ndata && s->data)
        rc = s->data(s->ctx, h->dbuf, ndata);
    if (rc < 0) {
        h->sink_err = rc;
        h->stop = RVT_HART_FATAL;
        hart_fatal(h, "trace sink failed: %s", rvt_status_str(rc));
    }
    return rc;
}

/* Make room for one more block, keeping the ordering rules above. */
static void make_room(rvt_hart *h)
{
    if (h->dpushed) {
        send(h, h->nbuf, h->dpushed);
        memmove(h->dbuf, h->dbuf + h->dpushed, (h->ndbuf - h->dpushed) * sizeof h->dbuf[0]);
        h->ndbuf -= h->dpushed;
        h->dpushed = 0;
        h->nbuf = 0;
        h->last_mergeable = false;
    } else if (h->nbuf == HART_BATCH) {
        send(h, HART_BATCH - 1, 0);
        h->buf[0] = h->buf[HART_BATCH - 1];
        h->nbuf = 1;
    }
}

static rvt_irec *push(rvt_hart *h, uint64_t iaddr, unsigned itype)
{
    make_room(h);
    rvt_irec *r = &h->buf[h->nbuf++];
    memset(r, 0, sizeof *r);
    r->iaddr = iaddr;
    r->itype = (uint8_t)itype;
    r->priv = (uint8_t)h->priv;
    r->time = h->cycles;
    r->context = h->trace_ctx;
    r->ctype = h->trace_ctype;
    h->trace_ctype = 0;
    h->dpushed = h->ndbuf;
    h->cyc_blocks++;
    h->st.records++;
    return r;
}

static void end_cycle_flags(rvt_hart *h)
{
    if (h->cyc_blocks && h->nbuf)
        h->buf[h->nbuf - 1].flags |= RVT_IREC_F_CYCLE_END;
    if (h->cyc_blocks || h->cyc_n)
        h->cycles++;
    h->cyc_blocks = 0;
    h->cyc_n = 0;
}

void hart_block_end(rvt_hart *h, unsigned itype, unsigned cause, uint64_t tval, bool sij)
{
    rvt_irec *r = push(h, h->blk_addr, itype);
    r->iretire = h->blk_hw;
    r->ninstr = h->blk_n;
    r->ilastsize = h->blk_last_len == 4;
    r->cause = (uint16_t)cause;
    r->tval = tval;
    r->sijump = sij;
    r->flags |= h->blk_flags;    /* trigger pulses (trigger.c) */
    h->blk_flags = 0;
    h->blk_n = 0;
    h->blk_hw = 0;
    h->last_mergeable = itype == 0;
    if (h->cyc_n >= h->width)
        end_cycle_flags(h);
}

/* End the cycle early: after a trap or an xRET no more instructions retire
 * in it, so that priv stays per cycle (table 4.1). */
void hart_cycle_end(rvt_hart *h)
{
    if (h->blk_n)
        hart_block_end(h, 0, 0, 0, false);
    end_cycle_flags(h);
}

/* docs/hart.md "Context": a satp write changed the address space.  The
 * writing instruction's block and cycle end with the old context; the
 * first record after it carries the new one with ctype 2, "report
 * context precisely" (E-Trace table 4.4: the address of the first
 * instruction in the new context). */
void hart_context_switch(rvt_hart *h)
{
    h->ctx_switch = false;
    hart_cycle_end(h);
    h->trace_ctx = h->ctx_next;
    h->trace_ctype = 2;
}

/* A trap that is not the itype of a retiring instruction: a faulting
 * instruction (itype 1) or an interrupt (itype 2).  It goes on the newest
 * block of the cycle; pc is the faulting / interrupted instruction. */
void hart_trap_block(rvt_hart *h, unsigned itype, unsigned cause, uint64_t tval, uint64_t pc)
{
    if (h->blk_n) {
        hart_block_end(h, itype, cause, tval, false);
    } else if (itype == RVT_ITYPE_INTERRUPT && h->last_mergeable && h->nbuf &&
               h->buf[h->nbuf - 1].itype == RVT_ITYPE_NONE) {
        rvt_irec *r = &h->buf[h->nbuf - 1];
        r->itype = (uint8_t)itype;
        r->cause = (uint16_t)cause;
        r->tval = tval;   /* that block ended its cycle: nothing more to count */
    } else {
        rvt_irec *r = push(h, pc, itype);
        r->cause = (uint16_t)cause;
        r->tval = tval;
    }
    h->last_mergeable = false;
    end_cycle_flags(h);
}

int hart_flush(rvt_hart *h)
{
    if (h->nbuf || h->ndbuf)
        send(h, h->nbuf, h->ndbuf);
    h->nbuf = h->ndbuf = h->dpushed = 0;
    h->last_mergeable = false;
    return h->sink_err;
}

void hart_drec(rvt_hart *h, uint64_t pc, unsigned dtype, uint64_t addr,
               unsigned size, uint64_t data, uint64_t data2, unsigned flags)
{
    if (h->cfg.on_commit) {
        hart_cm_mem(h, dtype, addr, size, data, data2, flags);
        if (!h->drec_sink)
            return;
    }
    bool split = h->cfg.split_loads &&
                 (dtype == RVT_DTYPE_LOAD || dtype >= RVT_DTYPE_AMO_SWAP);
    if (split)
        hart_split_make_room(h);
    rvt_drec *d = hart_dslot(h);
    if (!d)
        return;
    memset(d, 0, sizeof *d);
    d->iaddr = pc;
    d->addr = addr;
    d->data = data;
    d->data2 = data2;
    d->dtype = (uint8_t)dtype;
    d->dsize = (uint8_t)(size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3);
    d->dblock = (uint8_t)h->cyc_blocks;
    d->flags = (uint8_t)flags;
    h->st.data_records++;
    if (split)
        hart_split_issue(h, d);
}

rvt_drec *hart_dslot(rvt_hart *h)
{
    /* the open block holds at most retire_width (<= 8) accesses, each
     * with at most RVT_HART_SPLIT_MAX / 2 responses before it, so after
     * make_room() there is always space */
    if (h->ndbuf == HART_DBATCH)
        make_room(h);
    if (h->ndbuf == HART_DBATCH)
        return NULL;
    return &h->dbuf[h->ndbuf++];
}
