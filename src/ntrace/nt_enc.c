/* N-Trace encoder: ingress blocks (E-Trace 4.2 via N-Trace ch. 2) to
 * messages, following chapters 8-10 and the 10.2 pseudo-code. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/ntrace.h"
#include "ntrace/nt_addr.h"
#include "flow/flow_stack.h"
#include "ntrace/nt_return.h"
#include "util/bitio.h"
#include "ingress/steps.h"

/* What the last block left to report once the next PC is known (table 3:
 * "an address emitted is known at the next ingress port cycle"). */
enum pend { P_NONE, P_INDIRECT, P_DIRECT, P_RETURN, P_ICNT_SYNC };

struct rvt_nt_encoder {
    rvt_nt_cfg cfg;
    rvt_nt_byte_sink sink;
    void *sink_ctx;
    rvt_nt_enc_stats st;
    unsigned src_bits;
    bool enabled;             /* trigger[0]/[1] on/off state (4.2.4) */
    bool active;              /* a sync went out and no ProgTraceCorrelation since */
    bool in_halt;             /* the last record was halted or in reset */
    bool ended;
    bool notify;              /* table 25 SYNC=6 marker due (trigger[2]) */
    uint64_t notify_pc, notify_time;
    bool repeat_br, repeat_hist;   /* 9.3 / 7.11 kinds in use */
    bool hist_runs;                /* 9.3 with the shortest patterns */
    unsigned need_sync;       /* SYNC code of the next ProgTraceSync, 0xff = none */
    uint64_t icnt;            /* half-words since the last I-CNT report (8.4) */
    uint64_t icnt_limit;      /* 8.4.4: MSB of the NTRACE_MAX_ICNT counter */
    uint64_t hist;            /* 8.3: shift register with stop bit */
    unsigned hist_data_bits;  /* history bits before a ResourceFull */
    uint64_t ref;             /* 8.1: reference address */
    enum pend pend;
    unsigned pend_btype;
    uint64_t pend_ret;        /* predicted return address (P_RETURN) */
    uint64_t pend_time;
    rvt_flow_stack stack;     /* 9.2: mode 1 counts, modes 2/3 keep addresses */
    uint64_t stack_slot[NT_RETURN_DEPTH_MAX];
    uint64_t ret_mask;
    unsigned last_priv;
    uint64_t last_ctx;
    bool have_owner;
    uint64_t last_ts;         /* 8.7 */
    /* periodic sync (trTeInstSyncMode/Max) */
    uint64_t sync_count, sync_period;
    bool sync_due;
    /* 9.3: history bits already taken out of `hist` and not yet sent: a
     * pattern (with stop bit) of run_p bits, run_cnt times; while run_on,
     * `hist` holds the run_r bits that match the pattern's start so far. */
    uint64_t run_pat, run_cnt;
    unsigned run_p, run_r;
    bool run_on;
    /* 7.11: a held branch repeat */
    uint8_t last_br_tcode;    /* 7.11: the fields RepeatBranch compares */
    uint64_t last_br_btype, last_br_icnt, last_br_hist, last_br_target;
    bool last_br_valid;
    uint64_t br_repeat;
    uint64_t br_repeat_time;
};

static bool htm(const rvt_nt_encoder *e) { return e->cfg.inst_mode == RVT_NT_MODE_HTM; }

rvt_nt_encoder *rvt_nt_encoder_new(const rvt_nt_cfg *cfg, rvt_nt_byte_sink sink,
                                   void *sink_ctx, int *status)
{
    rvt_nt_encoder *e = calloc(1, sizeof *e);
    int st = RVT_ERR_NOMEM;
    if (e) {
        e->cfg = *cfg;
        st = sink ? rvt_nt_cfg_check(&e->cfg) : RVT_ERR_INVAL;
    }
    if (st < 0) {
        free(e);
        if (status)
            *status = st;
        return NULL;
    }
    e->sink = sink;
    e->sink_ctx = sink_ctx;
    e->src_bits = rvt_nt_cfg_src_bits(&e->cfg);
    e->enabled = !e->cfg.start_disabled;
    /* table 25: the trace starts as on exit from debug mode (SYNC=3, the
     * 8.4.4 example); a first block that is not traced is 8.6's "trace
     * starts disabled" */
    e->need_sync = RVT_NT_SYNC_DEBUG_EXIT;
    e->in_halt = true;
    e->icnt_limit = 1ull << (e->cfg.icnt_bits - 1);
    e->hist = 1;
    e->hist_data_bits = e->cfg.hist_bits - 1;
    /* 9.2 mode 1 is a counter: the stack without its addresses */
    rvt_flow_stack_init(&e->stack, e->cfg.implicit_return >= 2 ? e->stack_slot : NULL,
                        NT_RETURN_DEPTH_MAX, e->cfg.implicit_return ? e->cfg.return_depth : 0);
    e->ret_mask = e->cfg.implicit_return == 2 ? rvt_mask(e->cfg.return_bits) : ~0ull;
    e->sync_period = 1ull << (e->cfg.sync_max + 4);
    e->repeat_br = e->cfg.repeat_history && (e->cfg.repeat_kinds & 1);
    e->repeat_hist = e->cfg.repeat_history && (e->cfg.repeat_kinds & 6);
    e->hist_runs = e->cfg.repeat_history && (e->cfg.repeat_kinds & 4);
    if (status)
        *status = 0;
    return e;
}

void rvt_nt_encoder_free(rvt_nt_encoder *e) { free(e); }

void rvt_nt_encoder_stats(const rvt_nt_encoder *e, rvt_nt_enc_stats *out) { *out = e->st; }

/* ---- emission ---- */

static int emit(rvt_nt_encoder *e, rvt_nt_msg *m, uint64_t time)
{
    uint8_t buf[RVT_NT_MAX_MSG];
    if (e->src_bits)
        rvt_nt_set(m, RVT_NT_F_SRC, e->cfg.src_id);
    if (e->cfg.timestamps) {
        /* 8.7: absolute in synchronisation messages, else relative */
        bool abs = rvt_nt_is_sync(m->tcode);
        rvt_nt_set(m, RVT_NT_F_TSTAMP, abs ? time : time - e->last_ts);
        e->last_ts = time;
    }
    int n = rvt_nt_msg_encode(m, &e->cfg, buf, sizeof buf);
    if (n < 0)
        return n;
    e->st.messages++;
    e->st.bytes += (uint64_t)n;
    e->st.by_tcode[m->tcode & 63]++;
    if (e->cfg.sync_mode == 1 && ++e->sync_count >= e->sync_period)
        e->sync_due = true;
    return e->sink(e->sink_ctx, buf, (size_t)n);
}

/* A message with no field present.  f[] is left unset on purpose (one
 * message per taken branch in BTM: clearing 136 bytes each time showed in
 * profiles); only fields whose `present` bit is set are ever read. */
static inline rvt_nt_msg msg(unsigned tcode)
{
    rvt_nt_msg m;
    m.tcode = (uint8_t)tcode;
    m.nvar = 0;
    m.present = 0;
    m.offset = 0;
    m.len = 0;
    return m;
}

static inline uint64_t field_or0(const rvt_nt_msg *m, int field)
{
    return rvt_nt_has(m, field) ? m->f[field] : 0;
}

/* 7.8: ResourceFull with `count` copies of the history `rdata` (RCODE 1
 * for one, RCODE 2 + HREPEAT for more). */
static int send_hist(rvt_nt_encoder *e, uint64_t rdata, uint64_t count)
{
    if (!count)
        return 0;
    rvt_nt_msg m = msg(RVT_NT_RESOURCE_FULL);
    rvt_nt_set(&m, RVT_NT_F_RCODE, count > 1 ? RVT_NT_RCODE_HREPEAT : RVT_NT_RCODE_HIST);
    rvt_nt_set(&m, RVT_NT_F_RDATA, rdata);
    if (count > 1)
        rvt_nt_set(&m, RVT_NT_F_HREPEAT, count);
    e->last_br_valid = false;
    return emit(e, &m, e->last_ts);
}

/* End the held run: its bits go out before any later message. */
static int flush_rf(rvt_nt_encoder *e)
{
    if (!e->run_on)
        return 0;
    e->run_on = false;
    return send_hist(e, e->run_pat, e->run_cnt);
}

static int flush_repeat(rvt_nt_encoder *e)
{
    if (!e->br_repeat)
        return 0;
    rvt_nt_msg m = msg(RVT_NT_REPEAT_BRANCH);
    rvt_nt_set(&m, RVT_NT_F_BCNT, e->br_repeat);
    e->br_repeat = 0;
    return emit(e, &m, e->br_repeat_time);
}

/* Any message other than a held one ends the held groups. */
static int send(rvt_nt_encoder *e, rvt_nt_msg *m, uint64_t time)
{
    int st = flush_rf(e);
    if (st >= 0)
        st = flush_repeat(e);
    e->last_br_valid = false;
    return st < 0 ? st : emit(e, m, time);
}

/* 7.11: a branch message identical to the previous one (I-CNT, HIST and
 * target) becomes a count in RepeatBranch. */
static int send_branch(rvt_nt_encoder *e, rvt_nt_msg *m, uint64_t target, uint64_t time)
{
    if (e->repeat_br && e->last_br_valid && !e->run_on &&
        e->last_br_tcode == m->tcode && e->last_br_target == target &&
        e->last_br_btype == field_or0(m, RVT_NT_F_BTYPE) &&
        e->last_br_icnt == m->f[RVT_NT_F_ICNT] &&
        e->last_br_hist == field_or0(m, RVT_NT_F_HIST)) {
        e->br_repeat++;
        e->br_repeat_time = time;
        return 0;
    }
    int st = send(e, m, time);
    e->last_br_tcode = m->tcode;
    e->last_br_btype = field_or0(m, RVT_NT_F_BTYPE);
    e->last_br_icnt = m->f[RVT_NT_F_ICNT];
    e->last_br_hist = field_or0(m, RVT_NT_F_HIST);
    e->last_br_target = target;
    e->last_br_valid = true;
    return st;
}

static void reset_counts(rvt_nt_encoder *e)
{
    e->icnt = 0;       /* 8.4.3 */
    e->hist = 1;       /* 8.3 */
}

static void set_sync_fields(rvt_nt_encoder *e, rvt_nt_msg *m, unsigned sync, uint64_t addr)
{
    rvt_nt_set(m, RVT_NT_F_SYNC, sync);
    rvt_nt_set(m, RVT_NT_F_FADDR, nt_faddr(addr));
    e->ref = addr;
    if (sync != RVT_NT_SYNC_ICNT && sync != RVT_NT_SYNC_TRIGGER && sync != RVT_NT_SYNC_EVENT) {
        /* table 25: these reset the encoder state (9.2: stack and count) */
        rvt_flow_stack_clear(&e->stack);
        e->sync_count = 0;
        e->sync_due = false;
    }
}

static int send_owner(rvt_nt_encoder *e, const rvt_irec *r, bool force)
{
    if (!e->cfg.context)
        return 0;
    unsigned prv = r->priv > 3 ? 3 : r->priv;
    bool ctx_changed = !e->have_owner || r->context != e->last_ctx;
    if (!force && !ctx_changed && prv == e->last_priv)
        return 0;
    e->have_owner = true;
    e->last_priv = prv;
    e->last_ctx = r->context;
    rvt_nt_msg m = msg(RVT_NT_OWNERSHIP);
    /* 7.1 table 12: FORMAT 10 carries scontext, 00 only V/PRV */
    bool full = force || ctx_changed;
    rvt_nt_set(&m, RVT_NT_F_PROCESS,
               nt_process(full ? NT_PROC_SCONTEXT : NT_PROC_PRIV, prv, 0, r->context));
    return send(e, &m, r->time);
}

static int send_start_sync(rvt_nt_encoder *e, const rvt_irec *r)
{
    rvt_nt_msg m = msg(RVT_NT_PROG_TRACE_SYNC);
    reset_counts(e);
    e->pend = P_NONE;
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);     /* 7.5: I-CNT 0 at (re)start */
    set_sync_fields(e, &m, e->need_sync, r->iaddr);
    e->need_sync = 0xff;
    e->active = true;
    int st = send(e, &m, r->time);
    return st < 0 ? st : send_owner(e, r, true);
}

/* The message of table 3 for an indirect flow change (or a periodic/
 * I-CNT sync) whose target is now known. */
static int send_indirect(rvt_nt_encoder *e, uint64_t target, unsigned btype, unsigned sync)
{
    bool hist = htm(e);
    rvt_nt_msg m;
    if (sync != 0xff) {
        m = msg(hist ? RVT_NT_INDIRECT_BRANCH_HIST_SYNC : RVT_NT_INDIRECT_BRANCH_SYNC);
    } else {
        /* ch. 10 rule 4: HTM with an empty HIST may use IndirectBranch */
        hist = hist && e->hist != 1;
        m = msg(hist ? RVT_NT_INDIRECT_BRANCH_HIST : RVT_NT_INDIRECT_BRANCH);
    }
    rvt_nt_set(&m, RVT_NT_F_BTYPE, btype);
    rvt_nt_set(&m, RVT_NT_F_ICNT, e->icnt);
    if (hist)
        rvt_nt_set(&m, RVT_NT_F_HIST, e->hist);
    reset_counts(e);
    if (sync != 0xff) {
        set_sync_fields(e, &m, sync, target);
        return send(e, &m, e->pend_time);
    }
    rvt_nt_set(&m, RVT_NT_F_UADDR, e->cfg.no_addr_diff ? nt_faddr(target) : nt_uaddr(e->ref, target));
    e->ref = e->cfg.no_addr_diff ? 0 : target;
    return send_branch(e, &m, target, e->pend_time);
}

static int send_direct(rvt_nt_encoder *e, uint64_t target, unsigned sync)
{
    rvt_nt_msg m = msg(sync != 0xff ? RVT_NT_DIRECT_BRANCH_SYNC : RVT_NT_DIRECT_BRANCH);
    rvt_nt_set(&m, RVT_NT_F_ICNT, e->icnt);
    reset_counts(e);
    if (sync != 0xff) {
        set_sync_fields(e, &m, sync, target);
        return send(e, &m, e->pend_time);
    }
    return send_branch(e, &m, target, e->pend_time);
}

/* Resolve what the previous block left pending, now that `next` is known. */
static int resolve(rvt_nt_encoder *e, uint64_t next, uint64_t time)
{
    unsigned sync = e->sync_due ? RVT_NT_SYNC_PERIODIC : 0xff;
    enum pend p = e->pend;
    e->pend = P_NONE;
    if (p == P_RETURN && (next & e->ret_mask) == (e->pend_ret & e->ret_mask))
        p = P_NONE;                         /* 9.2: the prediction held */
    switch (p) {
    case P_RETURN:
    case P_INDIRECT:
        return send_indirect(e, next, p == P_RETURN ? RVT_NT_BTYPE_JUMP : e->pend_btype, sync);
    case P_DIRECT:
        return send_direct(e, next, sync);
    case P_ICNT_SYNC:
        /* 8.4.4: HTM I-CNT overflow as a SYNC=4 message */
        return send_indirect(e, next, RVT_NT_BTYPE_JUMP, sync != 0xff ? sync : RVT_NT_SYNC_ICNT);
    default:
        if (sync == 0xff)
            return 0;
        e->pend_time = time;
        return send_indirect(e, next, RVT_NT_BTYPE_JUMP, sync);
    }
}

/* 8.3: one direct-branch bit.  While a run is held, a bit that continues
 * its pattern only advances the match; the first one that does not ends
 * the run (the matched bits stay in `hist`, in order). */
static int hist_push(rvt_nt_encoder *e, unsigned bit)
{
    int st = 0;
    if (e->run_on && e->hist_runs) {
        if (bit == ((e->run_pat >> (e->run_p - 1 - e->run_r)) & 1)) {
            e->hist = e->hist << 1 | bit;
            if (++e->run_r < e->run_p)
                return 0;
            e->hist = 1;
            e->run_r = 0;
            if (++e->run_cnt < 0xffffffffu)
                return 0;
            /* 9.3: an HREPEAT at its maximum goes out; the run goes on */
            st = send_hist(e, e->run_pat, e->run_cnt);
            e->run_cnt = 0;
            return st;
        }
        st = flush_rf(e);
    }
    e->hist = e->hist << 1 | bit;
    return st;
}

/* Longest run of the newest bits of `data` (nb bits) that repeats with a
 * period p <= nb/2; returns its length, *period the smallest such p. */
static unsigned periodic_suffix(uint64_t data, unsigned nb, unsigned *period)
{
    unsigned best = 0;
    for (unsigned p = 1; p <= nb / 2; p++) {
        uint64_t x = (data ^ (data >> p)) & rvt_mask(nb - p);
        unsigned len = p + (x ? (unsigned)__builtin_ctzll(x) : nb - p);
        if (len > best) {
            best = len;
            *period = p;
        }
    }
    return best;
}

/* 9.3 with whole windows (rvtRepeatKinds 2, refcode's way): cut the full
 * register at a multiple of its period so that consecutive chunks of a
 * periodic history are equal, and count equal chunks. */
static int hist_full_windows(rvt_nt_encoder *e, uint64_t data)
{
    unsigned nb = e->hist_data_bits, take = nb;
    for (unsigned p = 1; p <= nb / 2; p++) {
        if (((data ^ (data >> p)) & rvt_mask(nb - p)) == 0) {
            take = nb / p * p;
            break;
        }
    }
    uint64_t chunk = (1ull << take) | (data >> (nb - take));
    e->hist = (1ull << (nb - take)) | (data & rvt_mask(nb - take));
    if (e->run_on && e->run_pat == chunk && e->run_cnt < 0xffffffffu) {
        e->run_cnt++;
        return 0;
    }
    int st = flush_rf(e);
    if (st >= 0)
        st = flush_repeat(e);
    e->last_br_valid = false;
    e->run_on = true;
    e->run_pat = chunk;
    e->run_cnt = 1;
    return st;
}

/* 8.3.1 / 9.3: HIST is full.  Without repeats its bits go out as RCODE 1.
 * With them (rvtRepeatKinds 4), the newest bits that repeat a short pattern become a held run
 * (pattern + count, RCODE 2), whatever precedes them goes out as RCODE 1,
 * and later bits that continue the pattern only count; a window with no
 * such pattern is held as a run of itself, so equal windows fold too.
 * 9.3 allows any split that keeps the concatenated history. */
static int hist_full(rvt_nt_encoder *e)
{
    unsigned nb = e->hist_data_bits, p = nb;
    uint64_t data = e->hist & rvt_mask(nb);
    if (e->repeat_hist && !e->hist_runs)
        return hist_full_windows(e, data);
    int st = flush_repeat(e);
    e->last_br_valid = false;
    e->hist = 1;
    if (st < 0 || !e->repeat_hist)
        return st < 0 ? st : send_hist(e, (1ull << nb) | data, 1);
    unsigned len = periodic_suffix(data, nb, &p);
    /* A run is taken when the whole window repeats, or when a tail of 20+
     * bits repeats a pattern of at most 4 (loop counters, alternations):
     * cutting before longer patterns sends an extra RCODE 1 that a run
     * which soon breaks does not repay (long.elf: 0.197 b/i with any tail
     * of 20 bits, 0.159 with whole windows only, 0.151 with this rule). */
    if (len < 2 * p || (len < nb && (p > 4 || len < 20))) {
        len = nb;
        p = nb;
    }
    if (len < nb)
        st = send_hist(e, (1ull << (nb - len)) | (data >> len), 1);
    e->run_on = true;
    e->run_p = p;
    e->run_pat = (1ull << p) | ((data >> (len - p)) & rvt_mask(p));
    e->run_cnt = len / p;
    e->run_r = len % p;
    e->hist = (1ull << e->run_r) | (data & rvt_mask(e->run_r));
    return st;
}

static void push(rvt_nt_encoder *e, uint64_t ret)
{
    rvt_flow_stack_push(&e->stack, ret);    /* a no-op in mode 0 (capacity 0) */
}

/* Table 4 for a return or a swap's pop half. */
static void ret(rvt_nt_encoder *e)
{
    uint64_t a;
    if (rvt_flow_stack_pop(&e->stack, &a)) {
        if (e->cfg.implicit_return >= 2) {
            e->pend = P_RETURN;
            e->pend_ret = a;
        }                               /* mode 1, counted: always implicit */
    } else {
        e->pend = P_INDIRECT;
        e->pend_btype = RVT_NT_BTYPE_JUMP;
    }
}

static int send_icnt_full(rvt_nt_encoder *e)
{
    rvt_nt_msg m = msg(RVT_NT_RESOURCE_FULL);
    rvt_nt_set(&m, RVT_NT_F_RCODE, RVT_NT_RCODE_ICNT);
    rvt_nt_set(&m, RVT_NT_F_RDATA, e->icnt);
    e->icnt = 0;
    return send(e, &m, e->pend_time);
}

/* Classify the block's last instruction (tables 3 and 4). */
static int classify(rvt_nt_encoder *e, const rvt_irec *r)
{
    unsigned t = r->itype;
    uint64_t next = r->iaddr + 2ull * r->iretire;
    /* 9.1: a sequentially inferable jump whose constant load is in the
     * same I-CNT span needs no message. */
    bool seq = e->cfg.seq_jump && r->sijump && e->icnt > (1u << r->ilastsize);
    if (e->cfg.all_jumps && (r->itype == RVT_ITYPE_INF_CALL || r->itype == RVT_ITYPE_INF_JUMP ||
                             r->itype == RVT_ITYPE_INF_TAIL)) {
        /* ch. 2: with trTeInstEnAllJumps direct jumps are taken branches */
        if (r->itype == RVT_ITYPE_INF_CALL)
            push(e, next);
        t = RVT_ITYPE_T_BRANCH;
    } else if (e->cfg.itype_bits == 3 && t >= 8) {
        t = rvt_isa_itype3((rvt_itype)t);
    }
    switch (t) {
    case RVT_ITYPE_NT_BRANCH:
    case RVT_ITYPE_T_BRANCH:
        if (htm(e))
            return hist_push(e, t == RVT_ITYPE_T_BRANCH);
        if (t == RVT_ITYPE_T_BRANCH)
            e->pend = P_DIRECT;
        break;
    case RVT_ITYPE_EXCEPTION:
    case RVT_ITYPE_INTERRUPT:
        e->pend = P_INDIRECT;
        e->pend_btype = t == RVT_ITYPE_EXCEPTION ? RVT_NT_BTYPE_EXCEPTION : RVT_NT_BTYPE_INTERRUPT;
        break;
    case RVT_ITYPE_UNINF_CALL:
        push(e, next);
        if (!seq) {
            e->pend = P_INDIRECT;
            e->pend_btype = RVT_NT_BTYPE_JUMP;
        }
        break;
    case RVT_ITYPE_INF_CALL:
        push(e, next);
        break;
    case RVT_ITYPE_SWAP:
        ret(e);
        push(e, next);
        break;
    case RVT_ITYPE_RETURN:
        if (seq)
            break;
        ret(e);
        break;
    case RVT_ITYPE_XRET:
    case RVT_ITYPE_UNINF_JUMP3:
    case RVT_ITYPE_UNINF_TAIL:
    case RVT_ITYPE_UNINF_JUMP:
        if (!seq || t == RVT_ITYPE_XRET) {
            e->pend = P_INDIRECT;
            e->pend_btype = RVT_NT_BTYPE_JUMP;
        }
        break;
    default:
        break;      /* 0, 7, 11, 15: only I-CNT */
    }
    return 0;
}

static int correlation(rvt_nt_encoder *e, unsigned evcode);

/* Trace stops: ProgTraceCorrelation (ch. 10 rule 6, 7.12), and `sync`
 * is the reason the next traced block restarts it with (table 25). */
static int stop(rvt_nt_encoder *e, unsigned evcode, unsigned sync)
{
    int st = correlation(e, evcode);
    e->active = false;
    e->need_sync = sync;
    return st;
}

/* A record no message covers: the hart is halted or in reset, trigger[1]
 * turned trace off, or the filters did not qualify the block. */
static int untraced(rvt_nt_encoder *e, const rvt_irec *r)
{
    bool halt = r->flags & RVT_IREC_F_HALTED, reset = r->flags & RVT_IREC_F_RESET;
    bool was_halted = e->in_halt;
    e->in_halt = halt || reset;
    if (e->in_halt) {
        unsigned sync = reset ? RVT_NT_SYNC_RESET : RVT_NT_SYNC_DEBUG_EXIT;
        /* 7.12: EVCODE 0 is entry into debug mode and is required for it
         * ("do not send 4 instead").  Reset is not debug mode; table 25
         * SYNC=1 describes it as the core "reset without stopping", so the
         * hart is still running and the stop is EVCODE 4 (program trace
         * disabled), whose I-CNT/HIST give the last PC before the reset as
         * table 25 asks; the restart is SYNC=1 with I-CNT 0 (7.5). */
        if (e->active)
            return stop(e, reset ? RVT_NT_EV_DISABLED : RVT_NT_EV_DEBUG, sync);
        e->need_sync = sync;
        e->pend_time = r->time;
        /* 8.6 table 26 "hart stops with trace disabled": EVCODE 0, I-CNT 0 */
        return halt && !was_halted ? correlation(e, RVT_NT_EV_DEBUG) : 0;
    }
    if (e->active)          /* table 25 SYNC=5: a gap of disabled trace */
        return stop(e, RVT_NT_EV_DISABLED, RVT_NT_SYNC_ENABLE);
    if (!was_halted)
        return 0;
    /* 8.6 table 26 "trace starts disabled" (also after debug mode or reset,
     * table 25 SYNC=3 "unless trace starts disabled"): EVCODE 4 now, SYNC=5
     * when trace is enabled */
    e->need_sync = RVT_NT_SYNC_ENABLE;
    e->pend_time = r->time;
    return correlation(e, RVT_NT_EV_DISABLED);
}

/* Table 25 SYNC=6 (Trace Event, a debug watchpoint with action=4): a
 * marker that does not reset the encoder state.  7.5: it is a
 * ProgTraceSync whose I-CNT "may not be 0 and may be used to identify the
 * exact PC location when that particular trigger/event happened": I-CNT
 * counts the half-words since the last I-CNT report up to and including
 * the instruction at F-ADDR, the last one of the notified block.  Ch. 10
 * rule 7 resets I-CNT; HIST is not in the message and keeps running, and
 * so do the return stack and the periodic sync count.  Sent once the
 * block's own flow change is reported, so no branch message is left with
 * I-CNT 0. */
static int flush_notify(rvt_nt_encoder *e)
{
    if (!e->notify)
        return 0;
    e->notify = false;
    rvt_nt_msg m = msg(RVT_NT_PROG_TRACE_SYNC);
    rvt_nt_set(&m, RVT_NT_F_ICNT, e->icnt);
    e->icnt = 0;
    set_sync_fields(e, &m, RVT_NT_SYNC_EVENT, e->notify_pc);   /* 8.1: new reference */
    return send(e, &m, e->notify_time);
}

static void note_notify(rvt_nt_encoder *e, const rvt_irec *r)
{
    uint64_t last = 2ull << r->ilastsize;
    e->notify = true;
    /* the block's last instruction; a trap before any retirement names
     * the instruction that did not retire */
    e->notify_pc = r->iretire ? r->iaddr + 2ull * r->iretire - last : r->iaddr;
    e->notify_time = r->time;
}

/* A block is traced iff trace is on (triggers), it is qualified and the
 * hart is neither halted nor in reset (docs/ntrace.md). */
static int put_one(rvt_nt_encoder *e, const rvt_irec *r)
{
    int st = 0;
    if (r->flags & RVT_IREC_F_TRIG_START)
        e->enabled = true;
    if (!e->enabled || (r->flags & (RVT_IREC_F_UNQUAL | RVT_IREC_F_HALTED | RVT_IREC_F_RESET))) {
        st = untraced(e, r);
        if (r->flags & RVT_IREC_F_TRIG_STOP)
            e->enabled = false;
        return st;
    }
    e->in_halt = false;
    if (e->need_sync != 0xff) {
        st = send_start_sync(e, r);
    } else {
        st = resolve(e, r->iaddr, r->time);
        if (st >= 0)
            st = flush_notify(e);
        if (st >= 0 && e->hist_data_bits && (e->hist >> e->hist_data_bits))
            st = hist_full(e);
        if (st >= 0)
            st = send_owner(e, r, false);
    }
    if (st < 0)
        return st;
    e->st.instructions += r->ninstr;
    e->st.halfwords += r->iretire;
    e->icnt += r->iretire;
    e->pend_time = r->time;
    if (e->cfg.sync_mode == 2 && r->time - e->last_ts >= e->sync_period)
        e->sync_due = true;
    if (e->cfg.sync_mode == 3 && (e->sync_count += r->iretire) >= e->sync_period)
        e->sync_due = true;
    st = classify(e, r);
    if (st >= 0 && e->icnt >= e->icnt_limit && e->pend == P_NONE) {
        /* 8.4.4: BTM or empty HIST: ResourceFull RCODE 0; else SYNC=4 */
        if (!htm(e) || e->hist == 1)
            st = send_icnt_full(e);
        else
            e->pend = P_ICNT_SYNC;
    }
    if (r->flags & RVT_IREC_F_TRIG_NOTIFY)
        note_notify(e, r);
    if (st >= 0 && (r->flags & RVT_IREC_F_TRIG_STOP)) {
        st = stop(e, RVT_NT_EV_DISABLED, RVT_NT_SYNC_ENABLE);   /* ch. 10 rule 6 */
        e->enabled = false;
    }
    return st;
}

int rvt_nt_encoder_put(rvt_nt_encoder *e, const rvt_irec *recs, size_t n)
{
    e->st.records += n;
    for (size_t i = 0; i < n; i++) {
        if (!rvt_irec_ok(&recs[i]))
            return RVT_ERR_INVAL;
        int st = put_one(e, &recs[i]);
        if (st < 0)
            return st;
    }
    return 0;
}

int rvt_nt_encoder_lost(rvt_nt_encoder *e)
{
    /* 7.4: Error (queue overrun, program trace lost), then SYNC=7 */
    rvt_nt_msg m = msg(RVT_NT_ERROR);
    rvt_nt_set(&m, RVT_NT_F_ETYPE, 0);
    rvt_nt_set(&m, RVT_NT_F_ECODE, 4);
    e->pend = P_NONE;
    reset_counts(e);
    e->run_on = false;
    e->br_repeat = 0;
    e->notify = false;      /* its I-CNT went with the lost messages */
    if (e->active)
        e->need_sync = RVT_NT_SYNC_OVERRUN;
    return send(e, &m, e->pend_time);
}

static int correlation(rvt_nt_encoder *e, unsigned evcode)
{
    int st = 0;
    if (e->pend == P_DIRECT)
        st = send_direct(e, 0, 0xff);   /* DirectBranch needs no address */
    e->pend = P_NONE;                   /* an indirect jump ends the I-CNT */
    if (st >= 0)
        st = flush_notify(e);
    if (st < 0)
        return st;
    /* 7.12: EVCODE 0 at the end; CDF=1 with HIST in HTM */
    rvt_nt_msg m = msg(RVT_NT_PROG_TRACE_CORRELATION);
    rvt_nt_set(&m, RVT_NT_F_EVCODE, evcode);
    rvt_nt_set(&m, RVT_NT_F_CDF, htm(e));
    rvt_nt_set(&m, RVT_NT_F_ICNT, e->icnt);
    if (htm(e))
        rvt_nt_set(&m, RVT_NT_F_HIST, e->hist);
    reset_counts(e);
    return send(e, &m, e->pend_time);
}

int rvt_nt_encoder_end(rvt_nt_encoder *e)
{
    if (e->ended)
        return 0;
    e->ended = true;
    if (!e->active)
        return 0;
    return correlation(e, RVT_NT_EV_DEBUG);
}

static int sink_put(void *ctx, const rvt_irec *recs, size_t n)
{
    return rvt_nt_encoder_put(ctx, recs, n);
}

/* Nothing is pending that a plain traced instruction would act on
 * (put_one): no flow change to resolve, no marker, no sync due, HIST not
 * full, trace on and running. */
static bool quiet(const rvt_nt_encoder *e)
{
    return e->enabled && e->active && !e->in_halt && e->need_sync == 0xff && e->pend == P_NONE &&
           !e->notify && !e->sync_due && !(e->hist_data_bits && (e->hist >> e->hist_data_bits));
}

/* k plain steps of hw half-words after the one at `time` (the last put)
 * counted at once, when none of them would send a message: in a quiet
 * encoder a plain instruction only adds to I-CNT (8.4; HIST takes only
 * branches, 8.3), so only the I-CNT limit (8.4.4) and the periodic sync
 * counts (cycles, I-CNT) can make one of them act. */
static bool absorb_plain(rvt_nt_encoder *e, uint64_t k, uint64_t hw, uint64_t time)
{
    if (!quiet(e) || e->icnt + hw >= e->icnt_limit)
        return false;
    if (e->cfg.sync_mode == 2 && time + k - e->last_ts >= e->sync_period)
        return false;
    if (e->cfg.sync_mode == 3 && e->sync_count + hw >= e->sync_period)
        return false;
    if (e->cfg.sync_mode == 3)
        e->sync_count += hw;
    e->st.records += k;
    e->st.instructions += k;
    e->st.halfwords += hw;
    e->icnt += hw;
    e->pend_time = time + k;
    return true;
}

#define STEPS_HEAD 2        /* steps put one by one before the rest is tried at once */

/* rvt_irec_steps: the first step resolves what the block before left
 * pending; once the encoder is quiet, all steps but the last are counted
 * at once and the last is put as a record (the state it leaves is then
 * exactly put_one's); else the rest as records. */
static int sink_steps(void *ctx, const rvt_irec *prev, size_t n, const uint8_t *sizes)
{
    rvt_nt_encoder *e = ctx;
    rvt_step_base s = rvt_step_base_of(prev);
    /* half-words of steps [i + 1, n - 1) once step i is put */
    uint64_t hw = rvt_steps_halfwords(sizes, 0, n) - (1u << rvt_step_size(sizes, n - 1));
    rvt_irec r;
    size_t i = 0;
    for (; i < n && i < STEPS_HEAD; i++) {
        rvt_step_put(&r, &s, 0, false, rvt_step_size(sizes, i), 0);
        int st = rvt_nt_encoder_put(e, &r, 1);
        if (st < 0)
            return st;
        hw -= r.iretire;
        if (i + 2 < n) {
            uint64_t k = n - 2 - i;
            if (absorb_plain(e, k, hw, s.time)) {
                s.next += 2 * hw;
                s.time += k;
                i = n - 2;
            }
        }
    }
    return rvt_steps_put(sink_put, e, &s, sizes, i, n);
}

static int sink_end(void *ctx)
{
    return rvt_nt_encoder_end(ctx);
}

rvt_irec_sink rvt_nt_encoder_sink(rvt_nt_encoder *e)
{
    rvt_irec_sink s = { e, sink_put, NULL, sink_end };
    return s;
}

rvt_irec_steps rvt_nt_encoder_steps(rvt_nt_encoder *e)
{
    return (rvt_irec_steps){ e, sink_steps };
}
