/* Figure 8.1 for one instruction (the "current" one, seeing the previous
 * and next), format 0/1/2 selection (8.1), resynchronisation (8.2),
 * implicit return (3.2.5) and sequentially inferable jumps (3.2.4); and the
 * reduction of ingress blocks to the instructions that matter (8.3). */
#include <string.h>
#include "rvtrace/etrace.h"
#include "util/bitio.h"
#include "etrace/enc_state.h"

static bool itype_uninferable(unsigned it)
{
    /* Table 4.1: 3 xret, 6 (3-bit) uninferable jump, 8 call, 10 tail,
     * 12 swap, 13 return, 14 other uninferable jump. */
    return it == 3 || it == 6 || it == 8 || it == 10 || it == 12 || it == 13 || it == 14;
}

static bool ppch(const te_ins *prev, const te_ins *c)
{
    /* 8: privilege change, or a context change to report precisely (4.4). */
    return c->priv != prev->priv || c->ctype >= 2;
}

/* Was the jump p (whose target is c) an uninferable discontinuity that
 * must be reported?  Implicit returns and sequentially inferable jumps are
 * not (3.2.4, 3.2.5). */
static bool reported_discon(rvt_te_encoder *e, const te_ins *p, const te_ins *c, bool *ir_fail)
{
    *ir_fail = false;
    if (!itype_uninferable(p->itype))
        return false;
    if ((e->a.options & RVT_TE_OPT_SIJUMP) && p->sijump && !p->had_f3 &&
        (p->itype == 8 || p->itype == 10 || p->itype == 14 || p->itype == 6))
        return false;
    if (p->itype == 13 && (e->a.options & RVT_TE_OPT_IMPLICIT_RETURN)) {
        if (!e->ir_max)
            return false;        /* the reference flow: every return implicit */
        if (e->ir_depth == 0)
            return true;
        if (!e->stack || e->stack[e->ir_depth - 1] == c->addr)
            return false;
        *ir_fail = true;         /* 6.6.3: misprediction, report the depth */
    }
    return true;
}

static void ir_push(rvt_te_encoder *e, uint64_t ret)
{
    if (!e->ir_max)
        return;
    if (e->ir_depth == e->ir_max) {
        /* Full: drop the oldest, as the decoder of 11.1 does. */
        if (e->stack)
            memmove(e->stack, e->stack + 1, (e->ir_max - 1) * sizeof *e->stack);
        e->ir_depth--;
    }
    if (e->stack)
        e->stack[e->ir_depth] = ret;
    e->ir_depth++;
}

static uint64_t addr_bits_val(const rvt_te_encoder *e, uint64_t v)
{
    return (v >> e->a.iaddress_lsb) & rvt_mask(e->a.iaddress_width - e->a.iaddress_lsb);
}

/* A format 1 or 2 packet reporting c (8.1). */
static int emit_addr(rvt_te_encoder *e, const te_ins *c, bool updiscon, bool irreport, uint64_t depth)
{
    rvt_te_pkt p = { 0 };
    bool full = e->a.options & RVT_TE_OPT_FULL_ADDRESS;
    p.address = addr_bits_val(e, full ? c->addr : c->addr - e->last_addr);
    if (!full) {
        /* The delta is of the shifted addresses (11.1 adds address << lsb). */
        p.address = ((c->addr >> e->a.iaddress_lsb) - (e->last_addr >> e->a.iaddress_lsb)) &
                    rvt_mask(e->a.iaddress_width - e->a.iaddress_lsb);
    }
    if (e->branches) {
        p.format = 1;
        p.branches = (uint8_t)e->branches;
        p.branch_map = e->map;
    } else {
        p.format = 2;
    }
    rvt_te_pkt_set_flags(&e->a, &p, c->notify, updiscon, irreport, depth);
    e->branches = 0;
    e->map = 0;
    e->last_addr = c->addr;
    e->branch_since_return = false;
    return te_enc_emit(e, &p);
}

static int emit_full_map(rvt_te_encoder *e)
{
    rvt_te_pkt p = { .format = 1, .branches = 0, .branch_map = e->map };
    e->branches = 0;
    e->map = 0;
    return te_enc_emit(e, &p);
}

/* 6.6.3: before a format 3 (or the end), report the call depth unless the
 * decoder will stop in the right call anyway. */
static bool depth_needed(const rvt_te_encoder *e, bool after_return)
{
    if (!(e->a.options & RVT_TE_OPT_IMPLICIT_RETURN) || !e->ir_max || e->ir_depth == 0)
        return false;
    if (after_return)
        return true;
    return e->returns_since_call && !e->branch_since_return;
}

/* Packet counting follows the reference flow: a sync after more than
 * 2^(resync_max+4) packets; half-words: once the interval is reached. */
static bool resync_reached(const rvt_te_encoder *e, uint64_t cnt)
{
    if (e->a.resync_mode == RVT_TE_RESYNC_PACKETS)
        return cnt > e->resync_max;
    return e->a.resync_mode != RVT_TE_RESYNC_OFF && cnt >= e->resync_max;
}

static bool resync_due_after(const rvt_te_encoder *e, const te_ins *c, bool packet)
{
    uint64_t cnt = e->resync_cnt;
    if (e->a.resync_mode == RVT_TE_RESYNC_PACKETS)
        cnt += packet;
    else if (e->a.resync_mode == RVT_TE_RESYNC_HALFWORDS)
        cnt += c->halfwords;
    else
        return false;
    return resync_reached(e, cnt);
}

static void after(rvt_te_encoder *e, const te_ins *c)
{
    if (c->itype == 8 || c->itype == 9) {
        ir_push(e, c->next_seq);
        e->returns_since_call = false;
    }
    if (e->a.resync_mode == RVT_TE_RESYNC_HALFWORDS)
        e->resync_cnt += c->halfwords;
    if (resync_reached(e, e->resync_cnt))
        e->resync_due = true;
}

static void take_branch(rvt_te_encoder *e, const te_ins *c)
{
    if (!c->is_branch)
        return;
    /* 6.7.2: bit set = not taken; bit 0 the oldest. */
    if (!c->branch_taken)
        e->map |= 1u << e->branches;
    e->branches++;
    e->branch_since_return = true;
}

int te_enc_step(rvt_te_encoder *e, te_ins *p, te_ins *c, const te_ins *n)
{
    int st = 0;
    if (e->start || !p) {
        e->start = false;
        c->had_f3 = 1;
        st = te_enc_sync(e, c);
    } else if (p->trap) {
        c->had_f3 = 1;
        st = te_enc_trap(e, c, p);
    } else if (ppch(p, c) || (e->resync_due && e->branches == 0)) {
        c->had_f3 = 1;
        st = te_enc_sync(e, c);
    } else {
        take_branch(e, c);
        bool ir_fail;
        bool pud = reported_discon(e, p, c, &ir_fail);
        bool implicit_ret = !pud && p->itype == 13 && (e->a.options & RVT_TE_OPT_IMPLICIT_RETURN);
        uint64_t fail_depth = e->ir_depth;
        if (implicit_ret && e->ir_depth) {
            e->ir_depth--;
            e->returns_since_call = true;
        }
        bool next_f3 = c->trap || (n && ppch(c, n)) || !n;
        bool resync_br = e->resync_due && e->branches > 0;
        if (!n)
            e->end_upd = pud;
        if (pud || c->trap || !n || (n && ppch(c, n) && e->branches) || resync_br) {
            bool upd = pud && (c->trap || (n && ppch(c, n)) || resync_due_after(e, c, true));
            bool irr = ir_fail;
            uint64_t depth = fail_depth;
            if (!irr && (next_f3 || resync_due_after(e, c, true)) && depth_needed(e, implicit_ret)) {
                irr = true;
                depth = e->ir_depth;
            }
            st = emit_addr(e, c, upd, irr, depth);
        } else if (e->branches == 31) {
            st = emit_full_map(e);
        } else if (c->notify) {
            st = emit_addr(e, c, false, false, 0);
        }
        if (p->itype == 13 && pud) {
            e->returns_since_call = true;
            e->branch_since_return = false;
        }
    }
    after(e, c);
    return st;
}
