/* Figure 8.1 for one instruction (the "current" one, seeing the previous
 * and next), format 0/1/2 selection (8.1), resynchronisation (8.2),
 * implicit return (3.2.5) and sequentially inferable jumps (3.2.4); and the
 * reduction of ingress blocks to the instructions that matter (8.3). */
#include "rvtrace/etrace.h"
#include "util/bitio.h"
#include "etrace/enc_state.h"

static bool itype_uninferable(unsigned it)
{
    /* Table 4.1: 3 xret, 6 (3-bit) uninferable jump, 8 call, 10 tail,
     * 12 swap, 13 return, 14 other uninferable jump. */
    return (0x7548u >> (it & 15)) & 1;
}

static bool ppch(const te_ins *prev, const te_ins *c)
{
    /* 8: privilege change, or a context change to report precisely (4.4). */
    return c->priv != prev->priv || c->ctype >= 2;
}

/* 3.2.4: any uninferable jump (not an xret) whose target the preceding
 * lui/auipc gives; the decoder needs that instruction, which it does not
 * know when a start or trap packet reported the jump itself (11.1 sets
 * last_pc = pc there; a sync it follows to keeps it). */
static bool sequentially_inferred(const rvt_te_encoder *e, const te_ins *p)
{
    return (e->a.options & RVT_TE_OPT_SIJUMP) && p->sijump && !p->no_prev && p->itype != 3;
}

/* Was the jump p (whose target is c) an uninferable discontinuity that
 * must be reported?  Implicit returns and sequentially inferable jumps are
 * not (3.2.4, 3.2.5). */
static bool reported_discon(rvt_te_encoder *e, const te_ins *p, const te_ins *c, bool *ir_fail)
{
    *ir_fail = false;
    if (!itype_uninferable(p->itype))
        return false;
    if (sequentially_inferred(e, p))
        return false;
    /* With neither counter nor stack (the reference flow's mode, docs/
     * conformance-etrace.md) every return and co-routine swap is implicit. */
    if ((p->itype == 13 || (p->itype == 12 && !e->ret.max)) &&
        (e->a.options & RVT_TE_OPT_IMPLICIT_RETURN)) {
        if (!e->ret.max)
            return false;
        if (rvt_flow_stack_depth(&e->ret) == 0)
            return true;
        if (!e->ret.slot || rvt_flow_stack_peek(&e->ret) == c->addr)
            return false;
        *ir_fail = true;         /* 6.6.3: misprediction, report the depth */
    }
    return true;
}

static uint64_t addr_bits_val(const rvt_te_encoder *e, uint64_t v)
{
    return (v >> e->a.iaddress_lsb) & rvt_mask(e->a.iaddress_width - e->a.iaddress_lsb);
}

static void reset_branches(rvt_te_encoder *e)
{
    e->branches = 0;
    e->map = 0;
    e->pbc = 0;
    e->bp_all_ok = true;
}

static int packed_len(const rvt_te_encoder *e, const rvt_te_pkt *p)
{
    uint8_t buf[40];
    return rvt_te_pack(&e->a, p, buf, sizeof buf);
}

/* A jump target reported by the encoder: its cache index on a hit (3.2.7). */
typedef struct te_jump {
    bool hit;
    uint32_t index;
} te_jump;

/* A packet reporting c (8.1): format 1 or 2; format 0 subformat 0 while
 * counting predicted branches (6.8, bp_fail: c is a branch that failed the
 * prediction); format 0 subformat 1 when c is a cached jump target and
 * that packet is no longer than the address (6.8: the encoder's choice). */
static int emit_addr(rvt_te_encoder *e, const te_ins *c, bool updiscon, bool irreport, uint64_t depth,
                     te_jump j, bool bp_fail)
{
    rvt_te_pkt p = { 0 };
    if (e->a.options & RVT_TE_OPT_FULL_ADDRESS) {
        p.address = addr_bits_val(e, c->addr);
    } else {
        /* The delta is of the shifted addresses (11.1 adds address << lsb). */
        p.address = ((c->addr >> e->a.iaddress_lsb) - (e->last_addr >> e->a.iaddress_lsb)) &
                    rvt_mask(e->a.iaddress_width - e->a.iaddress_lsb);
    }
    if (e->pbc) {
        p.format = 0;
        p.subformat = 0;
        p.branch_count = (uint32_t)(e->pbc - 31);
        p.branch_fmt = bp_fail ? 3 : 2;      /* table 6.9: addr-fail / addr */
        p.has_address = 1;
    } else if (e->branches) {
        p.format = 1;
        p.branches = (uint8_t)e->branches;
        p.branch_map = e->map;
    } else {
        p.format = 2;
    }
    rvt_te_pkt_set_flags(&e->a, &p, c->notify, updiscon, irreport, depth);
    if (j.hit && !e->pbc && !c->notify && !updiscon) {
        /* Tables 6.10/6.11 carry neither notify nor updiscon. */
        rvt_te_pkt q = { .format = 0, .subformat = 1, .index = j.index,
                         .branches = (uint8_t)e->branches, .branch_map = e->map };
        rvt_te_pkt_set_flags(&e->a, &q, false, false, irreport, depth);
        if (packed_len(e, &q) <= packed_len(e, &p))
            p = q;
    }
    reset_branches(e);
    e->last_addr = c->addr;
    e->rep_step = e->steps;
    e->branch_since_return = false;
    return te_enc_emit(e, &p);
}

/* Table 6.8: the predicted branches, then a failed one, no address. */
static int emit_count(rvt_te_encoder *e)
{
    rvt_te_pkt p = { .format = 0, .subformat = 0, .branch_count = (uint32_t)(e->pbc - 31) };
    reset_branches(e);
    return te_enc_emit(e, &p);
}

static int emit_full_map(rvt_te_encoder *e)
{
    rvt_te_pkt p = { .format = 1, .branches = 0, .branch_map = e->map };
    reset_branches(e);
    return te_enc_emit(e, &p);
}

/* Has the decoder's walk to the reported address c passed c's address
 * since the last packet or branch?  Only there (every branch processed)
 * can it stop early (11.1 follow_execution_path); an earlier pass at
 * another depth needs a return popping a call made before it, and is the
 * one case 6.6.3's depth report tells apart. */
static bool span_has(const rvt_te_encoder *e, uint64_t addr)
{
    if (e->span_n > TE_SPAN_MAX)
        return true;
    for (unsigned i = 0; i < e->span_n; i++)
        if (addr >= e->span_lo[i] && addr < e->span_hi[i])
            return true;
    return false;
}

static void span_add(rvt_te_encoder *e, const te_ins *c)
{
    uint64_t lo = c->lo, hi = c->lo + 2 * c->halfwords;
    if (e->span_n && e->span_n <= TE_SPAN_MAX && e->span_hi[e->span_n - 1] == lo) {
        e->span_hi[e->span_n - 1] = hi;        /* straight on */
    } else if (e->span_n < TE_SPAN_MAX) {
        e->span_lo[e->span_n] = lo;
        e->span_hi[e->span_n++] = hi;
    } else {
        e->span_n = TE_SPAN_MAX + 1;
    }
}

/* 6.6.3: before a format 3 (or the end), report the call depth unless the
 * decoder will stop in the right call anyway.  Unlike 6.6.3's "if it is
 * non-zero", a depth of 0 is reported too: after implicit returns from a
 * recursion the address can occur first at a greater depth, where the
 * decoder (11.1 follow_execution_path) would otherwise stop.  Beyond
 * 6.6.3's exceptions, no depth either when c's address did not occur
 * since the last packet or branch: the first occurrence is c itself.
 * (The depth costs the whole address: irreport sits above it, 6.6.3.) */
static bool depth_needed(const rvt_te_encoder *e, const te_ins *c, bool after_return)
{
    if (!(e->a.options & RVT_TE_OPT_IMPLICIT_RETURN) || !e->ret.max)
        return false;
    if (after_return)
        return true;
    return e->returns_since_call && !e->branch_since_return && span_has(e, c->addr);
}

/* updiscon (6.6.2 and its 2.0 text "Format 2 notify and updiscon
 * fields") tells the decoder that the reported address is the target of
 * the uninferable jump although a format 3 follows, so that it does not
 * stop where the address occurred earlier with every branch processed
 * (11.1 follow_execution_path's inferred_address stop, the loop of
 * 6.6.2's case 2).  Where c's address did not occur since the last packet
 * or branch, the first occurrence the decoder's walk meets is the jump's
 * target itself (11.1 stops there: stop_here), so there is no case 2 to
 * tell apart and the bit stays equal to notify, where it compresses away
 * with the address (as the depth of depth_needed).  The reference flow's
 * rule (trap_noupd) sets it whenever the next packet is a format 3. */
static bool updiscon_needed(const rvt_te_encoder *e, const te_ins *c)
{
    return e->a.trap_noupd || span_has(e, c->addr);
}

/* Packet counting follows the reference flow: a sync after more than
 * 2^(resync_max+4) packets; half-words: once the interval is reached. */
static bool resync_reached(const rvt_te_encoder *e, uint64_t cnt)
{
    if (e->a.resync_mode == RVT_TE_RESYNC_PACKETS)
        return cnt > e->resync_max;
    return e->a.resync_mode != RVT_TE_RESYNC_OFF && cnt >= e->resync_max;
}

/* The resync count once c is past (table 2.1 ResyncMode 3: half-words
 * retired; 2: clock cycles, from the cycle count the hart gives each
 * block, rvt_irec.time; packets are counted as they go out). */
static uint64_t resync_cnt_after(const rvt_te_encoder *e, const te_ins *c)
{
    if (e->a.resync_mode == RVT_TE_RESYNC_HALFWORDS)
        return e->resync_cnt + c->halfwords;
    if (e->a.resync_mode == RVT_TE_RESYNC_CYCLES)
        return c->time - e->sync_time;
    return e->resync_cnt;
}

static bool resync_due_after(const rvt_te_encoder *e, const te_ins *c, bool packet)
{
    if (e->a.resync_mode == RVT_TE_RESYNC_OFF)
        return false;
    return resync_reached(e, resync_cnt_after(e, c) + (e->a.resync_mode == RVT_TE_RESYNC_PACKETS && packet));
}

/* The span since the last packet or branch serves the depth reports
 * (implicit return) and updiscon_needed (not for the reference flow's
 * rule, trap_noupd, which does not ask). */
static void after(rvt_te_encoder *e, const te_ins *c)
{
    if (e->ret.max || !e->a.trap_noupd)
        span_add(e, c);
    if (c->itype == 8 || c->itype == 9) {
        /* Full: drop the oldest, as the decoder of 11.1 does. */
        rvt_flow_stack_push(&e->ret, c->next_seq);
        e->returns_since_call = false;
    }
    e->resync_cnt = resync_cnt_after(e, c);
    if (resync_reached(e, e->resync_cnt))
        e->resync_due = true;
}

enum { BP_NONE, BP_FAIL, BP_FULL };

static void map_branch(rvt_te_encoder *e, const te_ins *c)
{
    /* 6.7.2: bit set = not taken; bit 0 the oldest. */
    if (!c->branch_taken)
        e->map |= 1u << e->branches;
    e->branches++;
}

/* Record c's branch outcome.  With branch prediction (3.2.6, 6.8) a map
 * of 31 correctly predicted branches turns into a count that goes on
 * while predictions hold: BP_FAIL when c breaks it, BP_FULL when the
 * 32-bit branch_count field is about to overflow. */
static int take_branch(rvt_te_encoder *e, const te_ins *c)
{
    if (!c->is_branch)
        return BP_NONE;
    e->branch_since_return = true;
    e->hidden_jump = false;
    e->span_n = 0;
    if (!e->t.bp) {
        map_branch(e, c);
        return BP_NONE;
    }
    bool ok = te_bp_predict(&e->t, c->addr) == (bool)c->branch_taken;
    te_bp_update(&e->t, c->addr, c->branch_taken);
    if (e->pbc) {
        if (!ok)
            return BP_FAIL;
        e->pbc++;
        return e->pbc - 31 == UINT32_MAX ? BP_FULL : BP_NONE;
    }
    map_branch(e, c);
    e->bp_all_ok &= ok;
    if (e->branches == 31 && e->bp_all_ok) {
        e->pbc = 31;
        e->branches = 0;
        e->map = 0;
    }
    return BP_NONE;
}

/* May a resync (8.2, the encoder's free choice of point) be a format 3 at
 * c?  Not when a jump the decoder infers (implicit return, 3.2.5;
 * sequentially inferable jump, 3.2.4) ran since the last packet or branch:
 * c's address may then have occurred before in this span with the same
 * branches left, and the decoder (11.1) would stop at that first
 * occurrence; without such a jump a repeated address needs a branch in
 * between, which the branch count tells apart.  Nor right after a failed
 * return prediction, which only a format 0/1/2 packet reports (6.6.3).
 * When the last packet reported p itself, the decoder stands at p and
 * reaches c in one step (and 11.1's inferred-address walk needs the sync
 * right there, after a resync's address report). */
static bool resync_point(rvt_te_encoder *e, const te_ins *p, const te_ins *c)
{
    bool ir_fail = false;
    bool inferred = itype_uninferable(p->itype) && !reported_discon(e, p, c, &ir_fail);
    if (e->rep_step + 1 != e->steps && inferred)
        e->hidden_jump = true;
    return !e->hidden_jump && !ir_fail;
}

/* A format 3 sync at c: a privilege or context change (8), or a due
 * resync with nothing left to report, where one may go (resync_point,
 * always asked: it tracks the jumps the decoder infers). */
static bool sync_at(rvt_te_encoder *e, const te_ins *p, const te_ins *c)
{
    bool point = resync_point(e, p, c);
    return ppch(p, c) || (point && e->resync_due && te_enc_unreported(e) == 0);
}

/* 8.2: "when the resync timer value has been exactly reached, a format 1
 * will be generated if the branch map is not empty"; the format 3 follows
 * once it is exceeded.  Counting half-words or cycles, both happen when
 * the interval is reached (resync_due). */
static bool resync_br(const rvt_te_encoder *e)
{
    return e->a.resync_mode == RVT_TE_RESYNC_PACKETS && e->resync_cnt == e->resync_max;
}

/* Report c because a resync is due (8.2: the last instruction before the
 * format 3, with its branches)?  Only when the sync can follow at n: not
 * after a jump the decoder infers (resync_point), nor when c is a return
 * that fails its prediction, which a format 0/1/2 packet at n reports
 * first; 6.6.2 lets a packet whose address follows no uninferable jump be
 * followed only by a format 3 (else the decoder looks for a later
 * occurrence). */
static bool resync_report(rvt_te_encoder *e, const te_ins *c, const te_ins *n, bool unrep)
{
    if (!(e->resync_due || resync_br(e)) || !unrep || e->hidden_jump)
        return false;
    bool ir_fail = false;
    if (n)
        reported_discon(e, c, n, &ir_fail);
    return !ir_fail;
}

/* Does c trap itself: an ecall/ebreak, or the instruction an interrupt
 * came after, whose row the reference marks as the trap (trap_epc == addr)? */
static bool own_trap(const te_ins *c)
{
    return c && c->trap && c->trap_epc == c->addr;
}

/* Is c the last instruction before a trap (6.6.2: updiscon case 2)?
 * trap_noupd (reference flow, docs/conformance-etrace.md) puts the trap
 * on the row that is marked as one (encoder_model.py: updiscon when the
 * next row is an exception): not on an ecall/ebreak that is itself the
 * target of the jump, but on the instruction before an ecall/ebreak. */
static bool trap_follows(const rvt_te_encoder *e, const te_ins *c, const te_ins *n)
{
    if (!e->a.trap_noupd)
        return c->trap;
    return (c->trap && !own_trap(c)) || own_trap(n);
}

/* 2.0 layout, table 6.3 thaddr: an exception taken by the target of an
 * uninferable discontinuity (p, which retired last, jumped to the EPC) is
 * reported with thaddr 0 and the EPC, which the decoder could not infer;
 * the handler address follows in a format 3 sync. */
static bool epc_at_discon(rvt_te_encoder *e, const te_ins *p)
{
    if (e->a.version != RVT_TE_V20 || p->trap != 1)
        return false;
    te_ins target = { .addr = p->trap_epc };
    bool ir_fail;
    return reported_discon(e, p, &target, &ir_fail);
}

/* The common case, decided without the rest of figure 8.1: c follows p
 * in sequence or by an inferable jump, is no trap or notification, no
 * privilege or context change is at either side, no resync is due and
 * the map has room, nor can a branch at c fill the predicted-branch count
 * (BP_FULL); then c is reported only for its branch (a full map, or a
 * failed prediction ending a count), as the rest of figure 8.1 would:
 * with no discontinuity at p nothing else there applies. */
static bool quiet_step(const rvt_te_encoder *e, const te_ins *p, const te_ins *c, const te_ins *n)
{
    return p && n && !e->start && !p->trap && !itype_uninferable(p->itype) && !c->trap && !c->notify &&
           !e->resync_due && !resync_br(e) && e->branches != 31 && !ppch(p, c) && !ppch(c, n) &&
           !(c->is_branch && e->pbc && e->pbc - 31 == UINT32_MAX - 1);
}

/* With retirement width 1 (4.2.1) every instruction is a record of its
 * own, and te_enc_step would see each plain one.  When the step at the
 * current view c (seeing p before it and r after it) is a quiet one that
 * changes nothing a later step reads, c and r are merged into one view,
 * as 8.3 reduces a block: it stands for lo..r and reports as r.  The
 * quiet step's effects are deferred, not lost: its step count now, its
 * span and resync count when the merged view is stepped (equal to doing
 * them one by one while no resync comes due in between, which is checked).
 * p only matters to that step through its privilege and being neither a
 * trap nor an uninferable jump, which the merged view's p shares. */
/* Does te_enc_absorb take an instruction of this itype: none, or an
 * inferable jump or call (table 4.1: 9, 11, 15)?  A jump the decoder
 * infers changes no state but the return stack a call pushes, which
 * after() does for the merged view as for the call's own; as the
 * previous instruction of the next step it counts as plain (figure 8.1
 * asks only whether it was uninferable, a return or a trap). */
static inline bool absorb_itype(unsigned itype)
{
    return (0x8a01u >> itype) & 1;
}

/* The record half of te_enc_absorb: r is one instruction, plain or an
 * inferable jump (absorb_itype; no trap, flag but CYCLE_END, no context
 * change to report), that follows the current view c in sequence at its
 * privilege. */
static inline bool absorb_rec_ok(const te_ins *c, const rvt_irec *r)
{
    return r->itype <= 15 && absorb_itype(r->itype) && r->ilastsize <= 3 && r->iretire == (1u << r->ilastsize) &&
           !(r->flags & ~RVT_IREC_F_CYCLE_END) && r->ctype < 2 && r->priv == c->priv &&
           c->lo + 2 * c->halfwords == r->iaddr;
}

/* The state half: the step at c would be a quiet one (quiet_step) and
 * stays so with one more instruction in c (no resync comes due). */
static inline bool absorb_state_ok(const rvt_te_encoder *e)
{
    const te_ins *p = e->prev, *c = e->cur;
    if (!e->has_prev || !e->has_cur)
        return false;
    if (c->itype || c->is_branch || c->trap || c->notify || c->ctype >= 2 || c->priv != p->priv ||
        p->trap || itype_uninferable(p->itype))
        return false;
    return !e->start && !e->resync_due && !resync_br(e) && e->branches != 31 &&
           !resync_reached(e, resync_cnt_after(e, c));
}

static inline void absorb_into(rvt_te_encoder *e, te_ins *c, const rvt_irec *r)
{
    e->steps++;
    c->addr = r->iaddr;
    c->halfwords += r->iretire;
    c->next_seq = r->iaddr + r->iretire * 2ull;
    c->context = r->context;
    c->time = r->time;
    c->ctype = e->a.nocontext ? 0 : r->ctype;     /* as put_one's quiet copy */
    c->itype = r->itype;        /* a jump ends what the view can take */
}

bool te_enc_absorb(rvt_te_encoder *e, const rvt_irec *r)
{
    if (!e->has_cur || !absorb_rec_ok(e->cur, r) || !absorb_state_ok(e))
        return false;
    absorb_into(e, e->cur, r);
    return true;
}

/* te_enc_absorb over recs[0..n) as long as it takes them, as
 * rvt_te_encoder_put would one by one, without its calls per record:
 * absorbing changes no state absorb_state_ok reads but the resync count
 * (re-checked when it counts half-words or cycles).  A plain record
 * (ninstr 1) passes rvt_irec_ok; its only field checks are the widths. */
size_t te_enc_absorb_many(rvt_te_encoder *e, const rvt_irec *recs, size_t n)
{
    if (e->trig_off || !absorb_state_ok(e))
        return 0;
    te_ins *c = e->cur;
    bool recount = e->a.resync_mode == RVT_TE_RESYNC_HALFWORDS || e->a.resync_mode == RVT_TE_RESYNC_CYCLES;
    size_t i = 0;
    for (; i < n; i++) {
        const rvt_irec *r = &recs[i];
        if (!absorb_rec_ok(c, r) || r->ninstr != 1 || !te_enc_fits_plain(e, r) || (recount && i && resync_reached(e, resync_cnt_after(e, c))))
            break;
        absorb_into(e, c, r);
        e->stats.halfwords += r->iretire;
        if (c->itype) {         /* absorb_state_ok refuses more after a jump */
            i++;
            break;
        }
    }
    e->stats.instructions += i;
    return i;
}

/* te_enc_absorb on each of m >= 2 plain records in sequence from first
 * to last (one instruction each, hw half-words in all, the same privilege
 * and context, time rising by one; rvt_irec_steps), all at once.  The
 * resync count only rises with them (half-words, cycles) or stays
 * (packets): if it has not come due before the last one, it did not
 * before any; their addresses and times rising, the first and the last
 * fitting their fields means all do.  False: none taken. */
bool te_enc_absorb_span(rvt_te_encoder *e, const rvt_irec *first, const rvt_irec *last, size_t m, uint64_t hw)
{
    if (m < 2 || e->trig_off || !e->has_cur || last->iaddr < first->iaddr || last->time < first->time)
        return false;
    if (!absorb_rec_ok(e->cur, first) || !absorb_state_ok(e) || !te_enc_fits_plain(e, first) ||
        !te_enc_fits_plain(e, last))
        return false;
    te_ins *c = e->cur, before_last = *c;     /* c with all but the last absorbed */
    before_last.halfwords += hw - last->iretire;
    before_last.time = last->time - 1;
    if (resync_reached(e, resync_cnt_after(e, &before_last)))
        return false;
    absorb_into(e, c, last);
    c->halfwords += hw - last->iretire;
    e->steps += m - 1;
    e->stats.instructions += m;
    e->stats.halfwords += hw;
    return true;
}

int te_enc_step(rvt_te_encoder *e, te_ins *p, te_ins *c, const te_ins *n)
{
    int st = 0;
    e->steps++;
    if (quiet_step(e, p, c, n)) {
        if (c->is_branch) {
            int bp = take_branch(e, c);
            if (bp == BP_FAIL)
                st = emit_count(e);
            else if (e->branches == 31)
                st = emit_full_map(e);
        }
        after(e, c);
        return st;
    }
    if (e->start || !p) {
        e->start = false;
        c->no_prev = 1;
        st = te_enc_sync(e, c);
    } else if (p->trap) {
        c->no_prev = 1;
        st = te_enc_trap(e, c, p, epc_at_discon(e, p));
    } else if (sync_at(e, p, c)) {
        st = te_enc_sync(e, c);
    } else {
        bool ir_fail;
        bool pud = reported_discon(e, p, c, &ir_fail);
        if (ir_fail && (e->ir_seen >> (rvt_flow_stack_depth(&e->ret) & 63) & 1)) {
            /* 6.6.3 names the failed return by its depth only: after an
             * implicit return at the same depth in this packet's span the
             * decoder could not tell them apart, so a notification packet
             * at the return (4.2.4 style) starts a new span first. */
            te_ins at = *p;
            at.notify = 1;
            uint64_t rep = e->rep_step;
            if ((st = emit_addr(e, &at, false, false, 0, (te_jump){ false, 0 }, false)) < 0)
                return st;
            e->rep_step = rep;          /* c is not reported by it */
        }
        int bp = take_branch(e, c);
        bool implicit_ret = !pud && p->itype == 13 && (e->a.options & RVT_TE_OPT_IMPLICIT_RETURN) &&
                            !sequentially_inferred(e, p);
        uint64_t fail_depth = rvt_flow_stack_depth(&e->ret), popped;
        if (implicit_ret && rvt_flow_stack_pop(&e->ret, &popped)) {
            e->ir_seen |= 1ull << (fail_depth & 63);
            e->returns_since_call = true;
            e->branch_since_return = false;     /* 6.6.3: branches since the last return */
        }
        te_jump j = { false, 0 };
        if (pud && e->t.jtc)
            j.hit = te_jtc_see(&e->t, c->addr, &j.index);
        bool next_f3 = c->trap || (n && ppch(c, n)) || !n;
        bool unrep = te_enc_unreported(e) > 0;
        /* 6.6.2 case 4: a notification (trigger[2]) at the target of an
         * uninferable discontinuity is that discontinuity's packet, with
         * notify == address[MSB]; only an address the packet would not
         * report otherwise inverts it. */
        if (pud)
            c->notify = 0;
        if (pud || c->trap || !n || (n && ppch(c, n) && unrep) || resync_report(e, c, n, unrep) ||
            c->notify || bp == BP_FULL) {
            bool f3_next = pud && (trap_follows(e, c, n) || (n && ppch(c, n)) || resync_due_after(e, c, true));
            bool upd = f3_next && updiscon_needed(e, c);
            bool irr = ir_fail;
            uint64_t depth = fail_depth;
            if (!irr && (next_f3 || resync_due_after(e, c, true)) && depth_needed(e, c, implicit_ret)) {
                irr = true;
                depth = rvt_flow_stack_depth(&e->ret);
            }
            /* 6.5.1: the end of trace is ended_upd when this packet would
             * have been sent anyway for an uninferable discontinuity, but
             * ended_rep when a format 3 would follow it (the paragraph
             * after table 6.4: updiscon tells the decoder so, and where
             * updiscon_needed leaves the bit out the decoder's walk has no
             * earlier occurrence to stop at). */
            if (!n)
                e->end_upd = pud && !f3_next;
            st = emit_addr(e, c, upd, irr, depth, j, bp == BP_FAIL);
        } else if (bp == BP_FAIL) {
            st = emit_count(e);
        } else if (e->branches == 31) {
            st = emit_full_map(e);
        }
        if (ir_fail && !e->t.bp && !e->t.jtc) {
            /* A failed prediction leaves the stale entry on top (6.6.3: it
             * is reported, not popped), so every return under it fails
             * too, each costing the whole address (irreport sits above
             * it): a sync (8.2, the encoder's choice of time) empties the
             * stack.  Not with a predictor or cache, which it resets. */
            e->resync_due = true;
        }
        if (p->itype == 13 && pud) {
            e->returns_since_call = true;
            e->branch_since_return = false;
        }
    }
    after(e, c);
    return st;
}
