/* E-Trace branch-trace encoder: the reference algorithm of chapter 8
 * (figure 8.1), run on a three-instruction window (previous, current,
 * next).  Blocks (4.2) are reduced to their first and last instructions,
 * the only ones that can change the encoder's state (8.3). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "util/bitio.h"
#include "etrace/attrs_int.h"
#include "etrace/enc_state.h"
#include "ingress/steps.h"


static uint64_t resync_limit(const rvt_te_attrs *a)
{
    if (a->resync_interval)
        return a->resync_interval;
    return 1ull << (a->resync_max + 4);    /* table 2.1 ResyncMax */
}

/* The bits above a field of this width (none when it is 64 or more). */
static uint64_t over(unsigned width)
{
    return width >= 64 ? 0 : ~0ull << width;
}

/* check_fields' widths as masks, for te_enc_fits_plain. */
static void set_over(rvt_te_encoder *e)
{
    const rvt_te_attrs *a = &e->a;
    e->over_addr = over(a->iaddress_width);
    e->over_priv = over(a->privilege_width);
    e->over_context = a->nocontext ? 0 : over(a->context_width);
    e->over_time = a->version == RVT_TE_V20 && !a->notime ? over(a->time_width) : 0;
}

rvt_te_encoder *rvt_te_encoder_new(const rvt_te_attrs *a, rvt_te_byte_fn out, void *ctx, int *status)
{
    rvt_te_attrs filled;
    int st = rvt_te_attrs_filled(a, &filled);
    a = &filled;
    rvt_te_encoder *e = NULL;
    if (st == 0 && !out)
        st = RVT_ERR_INVAL;
    if (st == 0 && !(e = calloc(1, sizeof *e)))
        st = RVT_ERR_NOMEM;
    if (st < 0) {
        if (status)
            *status = st;
        return NULL;
    }
    e->a = *a;
    e->out = out;
    e->ctx = ctx;
    e->resync_max = resync_limit(a);
    set_over(e);
    /* 3.2.5: a stack of return addresses, or only a count of calls */
    uint64_t max = rvt_flow_stack_entries(a->return_stack_size, a->call_counter_size, 0);
    uint64_t *slot = a->return_stack_size ? calloc(max, sizeof *slot) : NULL;
    rvt_flow_stack_init(&e->ret, slot, max, max);
    if (a->return_stack_size && !slot) {
        free(e);
        if (status)
            *status = RVT_ERR_NOMEM;
        return NULL;
    }
    st = te_bpjtc_init(&e->t, a);
    if (st < 0) {
        rvt_te_encoder_free(e);
        if (status)
            *status = st;
        return NULL;
    }
    e->prev = &e->win[0];
    e->cur = &e->win[1];
    e->nxt = &e->win[2];
    e->start = true;
    if (status)
        *status = 0;
    return e;
}

void rvt_te_encoder_free(rvt_te_encoder *e)
{
    if (!e)
        return;
    free(e->ret.slot);
    te_bpjtc_free(&e->t);
    free(e);
}

const rvt_te_enc_stats *rvt_te_encoder_stats(const rvt_te_encoder *e) { return &e->stats; }

/* ---- packet output ---- */

int te_enc_emit(rvt_te_encoder *e, const rvt_te_pkt *p)
{
    uint8_t buf[40];
    int n = rvt_te_frame(&e->a, p, buf, sizeof buf);
    if (n < 0)
        return n;
    e->stats.packets++;
    e->ir_seen = 0;
    e->hidden_jump = false;
    e->span_n = 0;
    e->stats.bytes += (uint64_t)n;
    e->stats.per_format[p->format & 3]++;
    if (e->a.resync_mode == RVT_TE_RESYNC_PACKETS)
        e->resync_cnt++;
    return e->out(e->ctx, buf, (size_t)n);
}

int te_enc_support(rvt_te_encoder *e, bool enable, unsigned qual)
{
    rvt_te_pkt p = { .format = 3, .subformat = 3, .enable = enable, .qual_status = (uint8_t)qual };
    p.options = e->a.options & (e->a.version == RVT_TE_V20 ? 0x1fu : 0x3fu);
    return te_enc_emit(e, &p);
}

static uint64_t addr_field(const rvt_te_encoder *e, uint64_t addr)
{
    return (addr >> e->a.iaddress_lsb) & rvt_mask(e->a.iaddress_width - e->a.iaddress_lsb);
}

/* Reset everything a synchronisation packet resets (3.2.5-3.2.7, 8.2). */
static void sync_reset(rvt_te_encoder *e, const te_ins *c)
{
    uint64_t addr = c->addr;
    e->sync_time = c->time;
    e->branches = 0;
    e->map = 0;
    e->resync_cnt = 0;
    e->resync_due = false;
    rvt_flow_stack_clear(&e->ret);
    e->last_addr = addr;
    e->rep_step = e->steps;
    e->returns_since_call = false;
    te_bpjtc_reset(&e->t);      /* 3.2.6: entries to 01; 3.2.7: invalidated */
    e->pbc = 0;
    e->bp_all_ok = true;
}

/* The branch a format 3 packet reports (its `branch` field) still trains
 * the freshly reset predictor, as the decoder's replay of it does. */
static void sync_branch(rvt_te_encoder *e, const te_ins *c)
{
    if (e->t.bp && c->is_branch)
        te_bp_update(&e->t, c->addr, c->branch_taken);
}

static void f3_common(rvt_te_encoder *e, rvt_te_pkt *p, const te_ins *c)
{
    p->format = 3;
    p->branch = c->branch_taken ? 0 : 1;     /* 6.2.1 */
    p->privilege = c->priv;
    p->context = c->context & rvt_mask(e->a.context_width);
    p->time = c->time & rvt_mask(e->a.time_width);
    p->address = addr_field(e, c->addr);
}

int te_enc_sync(rvt_te_encoder *e, const te_ins *c)
{
    rvt_te_pkt p = { 0 };
    f3_common(e, &p, c);
    p.subformat = 0;
    int st = te_enc_emit(e, &p);
    sync_reset(e, c);
    sync_branch(e, c);
    return st;
}

/* 3.2.3: the handler address is left out only where the decoder knows it
 * from an earlier trap of the same privilege and cause; otherwise the
 * mode is switched off around this packet by support packets (6.5). */
static int emit_trap(rvt_te_encoder *e, const rvt_te_pkt *p, uint64_t handler)
{
    uint64_t *known = &e->t.tvec[te_tvec_key(p->privilege, p->interrupt, p->ecause)];
    bool implicit = e->a.options & RVT_TE_OPT_IMPLICIT_EXCEPT;
    if (!implicit || *known == (handler | 1))
        return te_enc_emit(e, p);
    *known = handler | 1;
    e->a.options &= ~RVT_TE_OPT_IMPLICIT_EXCEPT;
    int st = te_enc_support(e, true, RVT_TE_QUAL_NO_CHANGE);
    if (st >= 0)
        st = te_enc_emit(e, p);
    e->a.options |= RVT_TE_OPT_IMPLICIT_EXCEPT;
    if (st >= 0)
        st = te_enc_support(e, true, RVT_TE_QUAL_NO_CHANGE);
    return st;
}

int te_enc_trap(rvt_te_encoder *e, const te_ins *c, const te_ins *prev, bool epc_form)
{
    rvt_te_pkt p = { 0 };
    f3_common(e, &p, c);
    p.subformat = 1;
    p.ecause = prev->cause & rvt_mask(e->a.ecause_width);
    p.interrupt = prev->trap == 2;
    p.thaddr = !epc_form;
    if (e->a.version == RVT_TE_V11) {
        /* 6.3.1: the address of an illegal instruction, else the trap value. */
        p.tval = (!p.interrupt && prev->cause == 2) ? prev->trap_epc : prev->tval;
    } else {
        p.tval = p.interrupt ? 0 : prev->tval;
    }
    p.tval &= rvt_mask(e->a.iaddress_width);
    if (epc_form) {
        /* 2.0 table 6.3: thaddr 0, the EPC; the handler follows in a sync */
        p.address = addr_field(e, prev->trap_epc);
        int st = te_enc_emit(e, &p);
        return st < 0 ? st : te_enc_sync(e, c);
    }
    int st = emit_trap(e, &p, c->addr);
    sync_reset(e, c);
    sync_branch(e, c);
    return st;
}

/* ---- ingress blocks (4.2) to instruction views (8.3) ---- */

/* End of trace (3.1.6, chapter 8's support packet list): the last traced
 * instruction is reported (te_enc_step with no next instruction), then a
 * support packet whose qual_status says whether that packet would have
 * been sent anyway (6.5.1: ended_upd) or only because tracing ended
 * (ended_rep).  The next traced instruction starts a new trace. */
static int flush_end(rvt_te_encoder *e)
{
    if (!e->has_cur)
        return 0;
    e->end_upd = false;
    int st = te_enc_step(e, e->has_prev ? e->prev : NULL, e->cur, NULL);
    e->has_cur = e->has_prev = false;
    if (st < 0)
        return st;
    st = te_enc_support(e, false, e->end_upd ? RVT_TE_QUAL_ENDED_UPD : RVT_TE_QUAL_ENDED_REP);
    e->start = true;
    return st;
}

/* The view just written to e->nxt enters the window. */
static int push_view(rvt_te_encoder *e)
{
    int st = 0;
    te_ins *v = e->nxt;
    if (e->has_cur) {
        st = te_enc_step(e, e->has_prev ? e->prev : NULL, e->cur, v);
        e->nxt = e->prev;
        e->prev = e->cur;
        e->has_prev = true;
    } else {
        if (e->start) {
            memset(e->t.tvec, 0, sizeof e->t.tvec);     /* 3.2.3: learned anew */
            st = te_enc_support(e, true, RVT_TE_QUAL_NO_CHANGE);
        }
        e->nxt = e->cur;
    }
    e->cur = v;
    e->has_cur = true;
    e->stats.instructions++;
    return st;
}

/* The fields every view of record r shares. */
static void view_init(te_ins *v, const rvt_irec *r)
{
    v->priv = r->priv;
    v->context = r->context;
    v->time = r->time;
    v->ctype = r->ctype;
    v->itype = 0;
    v->sijump = 0;
    v->trap = 0;
    v->is_branch = v->branch_taken = 0;
    v->notify = 0;
    v->no_prev = 0;
    v->next_seq = 0;
}

/* Is block r traced?  Trace is on (trigger[0] turns it on, and its own
 * block is traced; trigger[1] turns it off after its block, 4.2.4), the
 * block is qualified (chapter 8 "Qualified?") and the hart is neither
 * halted nor in reset (table 4.5; chapter 8: those behave as an
 * unqualified instruction, and tracing restarts with a synchronisation
 * packet once they are deasserted). */
static bool traced(rvt_te_encoder *e, const rvt_irec *r)
{
    if (r->flags & RVT_IREC_F_TRIG_START)
        e->trig_off = false;
    return !e->trig_off && !(r->flags & (RVT_IREC_F_UNQUAL | RVT_IREC_F_HALTED | RVT_IREC_F_RESET));
}

/* tried: te_enc_absorb_many has just refused r, so te_enc_absorb would
 * too unless r is not one instruction, which only te_enc_absorb takes. */
static int put_block(rvt_te_encoder *e, const rvt_irec *r, bool tried)
{
    if (r->iretire == 0) {
        if ((r->itype == 1 || r->itype == 2) && e->has_cur) {
            e->cur->trap = r->itype;       /* exc_only: after the last retired */
            e->cur->cause = r->cause;
            e->cur->tval = r->tval;
            e->cur->trap_epc = r->iaddr;
        }
        return 0;
    }
    if ((!tried || r->ninstr != 1) && te_enc_absorb(e, r)) {
        e->stats.instructions++;
        e->stats.halfwords += r->iretire;
        return 0;
    }
    unsigned last_hw = 1u << r->ilastsize;
    int st = 0;
    te_ins *v = e->nxt;
    view_init(v, r);
    if (r->iretire > last_hw) {
        v->addr = v->lo = r->iaddr;
        v->halfwords = r->iretire - last_hw;
        st = push_view(e);
        if (st < 0)
            return st;
        v = e->nxt;
        view_init(v, r);
        v->ctype = 0;
        e->stats.instructions += r->ninstr > 2 ? r->ninstr - 2 : 0;
    }
    v->addr = v->lo = r->iaddr + 2ull * (r->iretire - last_hw);
    v->halfwords = last_hw;
    v->next_seq = v->addr + 2ull * last_hw;
    v->sijump = r->sijump;
    /* 4.2.4 trace-notify: the last instruction of the block. */
    v->notify = (r->flags & RVT_IREC_F_TRIG_NOTIFY) != 0;
    if (r->itype == 1 || r->itype == 2) {
        v->trap = r->itype;
        v->cause = r->cause;
        v->tval = r->tval;
        v->trap_epc = v->addr;
    } else {
        v->itype = r->itype;
        v->is_branch = r->itype == 4 || r->itype == 5;
        v->branch_taken = r->itype == 5;
    }
    st = push_view(e);
    e->stats.halfwords += r->iretire;
    return st;
}

/* A value its packet field cannot hold would be cut silently and the
 * stream misread: refuse it, naming the field and the value. */
static int fits(rvt_te_encoder *e, const char *field, const char *param, unsigned width, uint64_t v)
{
    if (width >= 64 || v >> width == 0)
        return 0;
    snprintf(e->why, sizeof e->why, "%s %" PRIu64 " (0x%" PRIx64 ") does not fit %s=%u", field, v, v,
             param, width);
    return RVT_ERR_RANGE;
}

/* The fields a record can reach (table 9.1 widths; context and time only
 * when the packets carry them, 6.1). */
static int check_fields(rvt_te_encoder *e, const rvt_irec *r)
{
    const rvt_te_attrs *a = &e->a;
    bool trap = r->itype == 1 || r->itype == 2;
    uint64_t last_hw = 1ull << r->ilastsize;    /* the block's last instruction */
    uint64_t last = r->iaddr + 2ull * (r->iretire > last_hw ? r->iretire - last_hw : 0);
    int st = fits(e, "address", "iaddress_width", a->iaddress_width, last);
    if (st == 0)
        st = fits(e, "privilege", "privilege_width", a->privilege_width, r->priv);
    if (st == 0 && trap)
        st = fits(e, "ecause", "ecause_width", a->ecause_width, r->cause);
    if (st == 0 && trap)
        st = fits(e, "tval", "iaddress_width", a->iaddress_width, r->tval);
    if (st == 0 && !a->nocontext)
        st = fits(e, "context", "context_width", a->context_width, r->context);
    if (st == 0 && a->version == RVT_TE_V20 && !a->notime)
        st = fits(e, "time", "time_width", a->time_width, r->time);
    return st;
}

const char *rvt_te_encoder_why(const rvt_te_encoder *e) { return e->why; }

static int put_one(rvt_te_encoder *e, const rvt_irec *r, bool tried)
{
    int fit = check_fields(e, r);
    if (fit < 0)
        return fit;
    rvt_irec quiet;
    if (e->a.nocontext && r->ctype) {
        /* 6.1: without a context field there is nothing to report of a
         * context change (table 4.4), so it costs no packet */
        quiet = *r;
        quiet.ctype = 0;
        r = &quiet;
        tried = false;      /* te_enc_absorb_many saw the context change */
    }
    /* The first untraced block after traced ones ends the trace. */
    int st = traced(e, r) ? put_block(e, r, tried) : flush_end(e);
    if (st >= 0 && (r->flags & RVT_IREC_F_TRIG_STOP)) {
        st = flush_end(e);
        e->trig_off = true;
    }
    return st;
}

/* Runs of plain instructions the current view absorbs are taken in one
 * call (te_enc_absorb_many); the rest one by one. */
int rvt_te_encoder_put(rvt_te_encoder *e, const rvt_irec *recs, size_t n)
{
    size_t i = 0;
    while (i < n) {
        bool tried = e->has_cur;
        if (tried && (i += te_enc_absorb_many(e, recs + i, n - i)) == n)
            break;
        if (!rvt_irec_ok(&recs[i]))
            return RVT_ERR_INVAL;
        int st = put_one(e, &recs[i++], tried);
        if (st < 0)
            return st;
    }
    return 0;
}

int rvt_te_encoder_end(rvt_te_encoder *e)
{
    return flush_end(e);
}

static int sink_put(void *ctx, const rvt_irec *recs, size_t n)
{
    return rvt_te_encoder_put(ctx, recs, n);
}

/* Steps [i, n) of hw half-words after r (step i, made) absorbed at
 * once, if the current view takes them (te_enc_absorb_span). */
static bool absorb_steps(rvt_te_encoder *e, const rvt_irec *r, const uint8_t *sizes, size_t i, size_t n,
                         uint64_t hw)
{
    rvt_irec last = rvt_step_last(r, sizes, i, n, hw);
    return te_enc_absorb_span(e, r, &last, n - i, hw);
}

#define STEPS_HEAD 3        /* steps put one by one before the view can take the rest */

/* rvt_irec_steps: the first steps as records until the current view
 * can take all the rest at once (after a jump, two: the jump's target
 * and one more, as te_enc_absorb would); else the rest as records. */
static int sink_steps(void *ctx, const rvt_irec *prev, size_t n, const uint8_t *sizes)
{
    rvt_te_encoder *e = ctx;
    rvt_step_base s = rvt_step_base_of(prev);
    uint64_t hw = rvt_steps_halfwords(sizes, 0, n);     /* of steps [i, n) */
    rvt_irec r;
    size_t i = 0;
    for (; i < n && i < STEPS_HEAD; i++) {
        rvt_step_put(&r, &s, 0, false, rvt_step_size(sizes, i), 0);
        if (i + 1 < n && absorb_steps(e, &r, sizes, i, n, hw))
            return 0;
        int st = rvt_te_encoder_put(e, &r, 1);
        if (st < 0)
            return st;
        hw -= r.iretire;
    }
    return rvt_steps_put(sink_put, e, &s, sizes, i, n);
}

static int sink_end(void *ctx)
{
    return rvt_te_encoder_end(ctx);
}

rvt_irec_sink rvt_te_encoder_sink(rvt_te_encoder *e)
{
    rvt_irec_sink s = { e, sink_put, NULL, sink_end };
    return s;
}

rvt_irec_steps rvt_te_encoder_steps(rvt_te_encoder *e)
{
    return (rvt_irec_steps){ e, sink_steps };
}
