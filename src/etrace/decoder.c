/* E-Trace flow decoder: the algorithm of chapter 11 (process_te_inst,
 * follow_execution_path, next_pc), extended with the return stack and
 * sequentially inferable jumps, reporting each retired instruction as an
 * rvt_flow_event.  Errors drop the decoder back to waiting for the next
 * format 3 synchronisation packet. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/transport.h"
#include "util/bitio.h"
#include "etrace/attrs_int.h"
#include "etrace/bpjtc.h"
#include "isa/insn_blocks.h"
#include "image/mem_view.h"
#include "flow/flow_insn.h"
#include "flow/flow_seq.h"
#include "flow/flow_stack.h"
#include "flow/flow_state.h"
#include "flow/flow_pull.h"
#include "etrace/te_pull.h"

/* Instructions followed for one packet, per branch outcome it gives and
 * one more (follow_limit), before giving up.  Brent's check (walk_loops)
 * ends a walk that repeats a state, and a step that uses an outcome
 * changes the state for good, so a walk goes on only as long as its
 * outcomes last -- up to 2^32 + 30 correct predictions in one branch count
 * (table 6.8), a delay loop of that many turns, which the decoder must
 * follow whole -- or along code that never repeats: no legitimate program
 * runs 2^24 instructions without a branch or a loop. */
#define TE_FOLLOW_LIMIT (UINT64_C(1) << 24)

/* 11.1's instruction classes (src/flow/flow_insn.h). */
#define TE_RULES (&rvt_flow_rules_etrace)

/* Uninferable jumps whose target the decoder infers. */
enum { TE_JUMP_NONE, TE_JUMP_SEQUENTIAL, TE_JUMP_RETURN };

/* A walk (follow, resolve_inferred) stopped between two blocks because
 * the pull API's caller has what it asked for (flow_pull.h): its state is
 * in the decoder (pc, branch outcomes, return stack, struct te_walk), and
 * the packet's processing goes on where it stopped (te_resume). */
#define TE_WALK_PAUSED 2

/* Where a paused packet goes on: the part of its processing after the
 * walk that paused. */
enum { TE_RESUME_NONE, TE_RESUME_F3, TE_RESUME_BRANCHES, TE_RESUME_RESOLVE_BRANCHES,
       TE_RESUME_RESOLVE_SUPPORT };

/* Branch outcomes a packet gave that the walk has not used yet: map
 * bits, then counted predictions (6.8).  A struct, so that the walk's
 * run of branches can keep them in locals (branch_chain). */
struct te_outcomes {
    unsigned branches;
    uint64_t map;               /* up to 31 + 31 + 1 bits */
    uint64_t pcount;            /* 6.8: correctly predicted branches to come */
    bool pfail;                 /* then one that failed its prediction */
};

struct rvt_te_decoder {
    rvt_te_attrs a;
    rvt_iblocks bc;            /* instructions and straight-line blocks */
    rvt_flow_fn fn;
    void *ctx;
    bool insn_events;
    bool runs;                 /* its RVT_EV_INSN events are straight-line runs
                                  (rvt_te_decoder_set_runs) */
    /* 11.1 start_of_trace is NO_SYNC/WAIT_SYNC, inferred_address RESOLVE */
    rvt_flow_sync sync;
    bool stop_at_last_branch;
    uint8_t inferred_jump;      /* the last next_pc took a TE_JUMP_* inferred jump */
    uint64_t pc, last_pc, address;
    struct te_outcomes oc;      /* branch outcomes not yet used */
    te_bpjtc t;                 /* predictor and jump target cache (3.2.6-7) */
    rvt_flow_stack ret;         /* implicit return (3.2.5) */
    struct te_walk {            /* the walk to a reported address */
        uint64_t address;       /* where it goes */
        uint64_t n;             /* instructions followed */
        uint64_t limit;         /* at most (follow_limit) */
        uint64_t pc, last_pc, pending;  /* cycle check (Brent) */
        rvt_flow_stack ret;
        uint64_t power, lam;
    } walk;
    uint8_t priv;
    bool ctx_known;             /* last_ctx holds the context last reported */
    uint64_t last_ctx;
    uint64_t time;              /* the last time reported, unwrapped (time_event) */
    uint16_t source;            /* rvt_te_decoder_set_source: its events' src */
    uint64_t offset;
    const rvt_te_pkt *pkt;
    rvt_te_pkt cur;             /* the packet read last (input_step) */
    uint8_t resume;             /* TE_RESUME_*: cur's walk paused */
    rvt_te_flags flags;
    int stop;                   /* nonzero value returned by the callback */
    bool ended;                 /* RVT_EV_END sent */
    bool end_marker;            /* the last te_inst packet ends the trace (6.5) */
    uint64_t complete_end;      /* where the last complete packet ends */
    rvt_te_dec_stats stats;
    rvt_dec_mem mem;            /* the view the block cache reads (mem.h) */
    rvt_te_reader rd;           /* the input of run / set_input */
    uint64_t rd_off;            /* offset of the packet last read */
    uint64_t rd_stop;           /* run_to: no packet read from here on */
    bool rd_truncated;          /* the last packet read was cut short */
    bool seam;                  /* set_input_piece: the first instruction
                                   retired is sealed (rvt_flow_pull_seal) */
    rvt_flow_pull pull;         /* set_input starts it: the pull API drives
                                   the walk (pulled) */
};

static inline bool pulled(const rvt_te_decoder *d)
{
    return rvt_flow_pull_started(&d->pull);
}

/* Hand an event to the caller; a non-zero answer stops the decoder. */
static inline int deliver(rvt_te_decoder *d, const rvt_flow_event *ev)
{
    int r = d->fn ? d->fn(d->ctx, ev) : 0;
    if (r && !d->stop)
        d->stop = r;
    return r;
}

static int event(rvt_te_decoder *d, unsigned kind, uint64_t pc, uint64_t aux, uint64_t aux2, const char *msg)
{
    rvt_flow_event ev = { .kind = (uint8_t)kind, .priv = d->priv, .src = d->source, .pc = pc, .aux = aux,
                          .aux2 = aux2, .offset = d->offset, .msg = msg };
    return deliver(d, &ev);
}

/* The hot path builds its event itself, so that it inlines into the walk
 * however many places call event() (a call per instruction cost the
 * decoder 15 % when event() stopped being inlined). */
static inline const rvt_insn *insn_at(rvt_te_decoder *d, uint64_t pc);

static inline void retire(rvt_te_decoder *d, uint64_t pc)
{
    d->stats.instructions++;
    if (d->insn_events) {
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = d->priv, .src = d->source, .pc = pc,
                              .offset = d->offset };
        if (pulled(d)) {  /* straight to the queue, no callback or lookup hook */
            rvt_flow_pull_run(&d->pull, &ev, pc, 1, pc, insn_at(d, pc));
        } else {
            if (d->runs) {      /* a run of one; half-words 0 when its code is not known */
                const rvt_insn *i = insn_at(d, pc);
                ev.aux = 1;
                ev.aux2 = i ? i->len / 2 : 0;
            }
            deliver(d, &ev);
        }
    }
}

/* Run mode (rvt_te_decoder_set_runs): positions 1..k of the straight-line
 * block b from pc, one RVT_EV_INSN for all of them (the caller counts
 * them). */
static void retire_run(rvt_te_decoder *d, const rvt_iblock *b, uint64_t pc, uint32_t k, uint64_t end)
{
    uint64_t first = pc + 2 + 2 * (b->lens & 1u);
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = d->priv, .src = d->source, .pc = first, .aux = k,
                          .aux2 = (end - first) / 2 + b->last->len / 2, .offset = d->offset };
    deliver(d, &ev);
}

/* retire() of next_pc's d->pc, after the instruction i at `from`: the
 * pull core is told how the walk got there (rvt_flow_pull_transfer,
 * rvt_flow_pull_run_on), so that it need not look the instruction up. */
static inline void retire_after(rvt_te_decoder *d, const rvt_insn *i, uint64_t from)
{
    if (!pulled(d)) {
        retire(d, d->pc);
        return;
    }
    d->stats.instructions++;
    rvt_flow_event at = { .kind = RVT_EV_INSN, .priv = d->priv, .src = d->source,
                          .offset = d->offset };
    if (rvt_flow_is_plain(i))
        rvt_flow_pull_run_on(&d->pull, &at, from, d->pc, 1, d->pc, NULL);
    else
        rvt_flow_pull_transfer(&d->pull, rvt_flow_block_end(i, TE_RULES, d->pc == from + i->len),
                               &at, d->pc);
}

static inline bool synced(const rvt_te_decoder *d) { return rvt_flow_synced(&d->sync); }

/* Lose synchronisation: report the error here, then wait for a format 3
 * packet, where the loss is reported (src/flow/flow_state.h). */
static int fail(rvt_te_decoder *d, int status, const char *msg)
{
    d->stats.errors++;
    event(d, RVT_EV_ERROR, d->pc, 0, 0, msg);
    rvt_flow_lose(&d->sync, "trace lost after a decode error; instructions lost: unknown "
                            "(aux2: packets skipped)");
    d->oc.branches = 0;
    d->oc.map = 0;
    d->oc.pcount = 0;
    d->oc.pfail = false;
    return status;
}

/* The loss policy (src/flow/flow_state.h): what was lost since the last
 * synchronisation, reported where output resumes (at `pc`). */
static void report_loss(rvt_te_decoder *d, uint64_t pc)
{
    uint64_t skipped;
    const char *why;
    if (rvt_flow_take_loss(&d->sync, &skipped, &why))
        event(d, RVT_EV_LOST, pc, UINT64_MAX, skipped, why);
}

/* A format 0/1/2 packet while waiting for a synchronisation packet: its
 * instructions are lost (E-Trace packets carry no instruction count). */
static void skip(rvt_te_decoder *d)
{
    d->stats.skipped++;
    rvt_flow_skip(&d->sync, 1, true, "trace lost before a synchronisation packet; "
                                     "instructions lost: unknown (aux2: packets skipped)");
}

static rvt_te_decoder *alloc_dec(const rvt_te_attrs *a, int *status)
{
    if (!a) {
        if (status)
            *status = RVT_ERR_INVAL;
        return NULL;
    }
    rvt_te_attrs filled;
    int st = rvt_te_attrs_filled(a, &filled);
    a = &filled;
    rvt_te_decoder *d = NULL;
    if (st == 0 && !(d = calloc(1, sizeof *d)))
        st = RVT_ERR_NOMEM;
    if (st == 0) {
        d->a = *a;
        /* The decoder keeps addresses even for a counter (it knows them);
         * 64 deep when the attributes give neither (the reference flow's
         * mode, docs/conformance-etrace.md). */
        uint64_t max = rvt_flow_stack_entries(a->return_stack_size, a->call_counter_size, 64);
        rvt_flow_stack_init(&d->ret, calloc(max, sizeof(uint64_t)), max, max);
        rvt_flow_stack_init(&d->walk.ret, calloc(max, sizeof(uint64_t)), max, max);
        if (!d->ret.slot || !d->walk.ret.slot || te_bpjtc_init(&d->t, a) < 0) {
            te_bpjtc_free(&d->t);
            free(d->walk.ret.slot);
            free(d->ret.slot);
            free(d);
            d = NULL;
            st = RVT_ERR_NOMEM;
        }
    }
    if (status)
        *status = st;
    if (d) {
        d->sync.state = RVT_FLOW_NO_SYNC;
        d->insn_events = true;
    }
    return d;
}

rvt_te_decoder *rvt_te_decoder_new_fn(const rvt_te_attrs *a, rvt_te_insn_fn insn, void *insn_ctx,
                                      rvt_flow_fn fn, void *ctx, int *status)
{
    rvt_te_decoder *d = alloc_dec(a, status);
    if (d) {
        /* Plain instructions move to pc + len unmasked (11.1 next_pc);
         * only jump targets wrap to iaddress_width. */
        rvt_iblk_init(&d->bc, insn, insn_ctx, UINT64_MAX);
        d->fn = fn;
        d->ctx = ctx;
    }
    return d;
}

/* Over an rvt_mem, or an image in every space: the decoder's own view. */
static rvt_te_decoder *new_over(const rvt_te_attrs *a, const rvt_mem *m, const rvt_image *img,
                                rvt_flow_fn fn, void *ctx, int *status)
{
    rvt_dec_mem dm = { 0 };
    int st = a ? rvt_dec_mem_open(&dm, m, img) : RVT_ERR_INVAL;
    rvt_te_decoder *d = st < 0 ? NULL : rvt_te_decoder_new_fn(a, rvt_memv_insn, dm.view, fn, ctx, &st);
    if (d)
        d->mem = dm;
    else
        rvt_dec_mem_close(&dm);
    if (status)
        *status = st;
    return d;
}

rvt_te_decoder *rvt_te_decoder_new(const rvt_te_attrs *a, rvt_image *img,
                                   rvt_flow_fn fn, void *ctx, int *status)
{
    return new_over(a, NULL, img, fn, ctx, status);
}

rvt_te_decoder *rvt_te_decoder_new_mem(const rvt_te_attrs *a, const rvt_mem *mem,
                                       rvt_flow_fn fn, void *ctx, int *status)
{
    return new_over(a, mem, NULL, fn, ctx, status);
}

void rvt_te_decoder_flush(rvt_te_decoder *d)
{
    if (d)
        rvt_dec_mem_flush(&d->mem, &d->bc);
}

void rvt_te_decoder_set_source(rvt_te_decoder *d, uint16_t src)
{
    if (d)
        d->source = src;
}

void rvt_te_decoder_set_events(rvt_te_decoder *d, bool on)
{
    if (d && !pulled(d))      /* the pull API needs every instruction */
        d->insn_events = on;
}

void rvt_te_decoder_set_runs(rvt_te_decoder *d, bool on)
{
    if (d && !pulled(d))
        d->runs = on;
}
int rvt_te_decoder_stats(const rvt_te_decoder *d, rvt_te_dec_stats *out)
{
    if (!d || !out)
        return RVT_ERR_INVAL;
    *out = d->stats;
    out->cache_flushes = d->bc.flushes;
    return 0;
}

void rvt_te_decoder_free(rvt_te_decoder *d)
{
    if (d) {
        free(d->ret.slot);
        free(d->walk.ret.slot);
        te_bpjtc_free(&d->t);
        rvt_dec_mem_close(&d->mem);
        rvt_flow_pull_free(&d->pull);
    }
    free(d);
}

/* ---- instruction classes: 11.1's, src/flow/flow_insn.h (TE_RULES) ---- */

static inline const rvt_insn *insn_at(rvt_te_decoder *d, uint64_t pc)
{
    return rvt_iblk_insn(&d->bc, pc);
}

/* 3.2.4: the target of an uninferable jump that the lui/auipc just
 * before it gives, whatever the mode. */
static bool sequential_target(rvt_te_decoder *d, const rvt_insn *i, uint64_t *target)
{
    /* last_pc == pc: nothing retired before (a sync, 11.1) */
    if (!rvt_flow_is_uninferable_jump(i, TE_RULES) || d->last_pc == d->pc)
        return false;
    return rvt_flow_seq_target(insn_at(d, d->last_pc), d->last_pc, i,
                               rvt_mask(d->a.iaddress_width), target);
}

static bool sequential_jump(rvt_te_decoder *d, const rvt_insn *i, uint64_t *target)
{
    return (d->a.options & RVT_TE_OPT_SIJUMP) && sequential_target(d, i, target);
}

/* Without sijump mode the encoder reports every uninferable jump (3.2.4),
 * so a sequentially inferable one must report the target its lui/auipc
 * gives.  Another address means the encoder inferred it: the stream was
 * written with sijump (sijump_p = 1) and the attributes say otherwise. */
static bool sijump_contradicted(rvt_te_decoder *d, const rvt_insn *i, uint64_t address)
{
    uint64_t target;
    return !(d->a.options & RVT_TE_OPT_SIJUMP) && sequential_target(d, i, &target) &&
           target != address;
}

static uint64_t pending(const rvt_te_decoder *d);

static bool implicit_return(rvt_te_decoder *d, const rvt_insn *i)
{
    uint64_t depth = rvt_flow_stack_depth(&d->ret);
    if (!(d->a.options & RVT_TE_OPT_IMPLICIT_RETURN) || !rvt_flow_is_return(i, TE_RULES) ||
        depth == 0)
        return false;
    /* The return reported explicitly (6.6.3): irdepth names its depth, and
     * it is the packet's last discontinuity, so only the branch at the
     * reported address (if any) is left.  An earlier return at the same
     * depth, or one whose prediction is the reported address, is not it. */
    if (d->pkt && d->flags.irreport && d->pkt->irdepth == depth &&
        rvt_flow_stack_peek(&d->ret) != d->address) {
        const rvt_insn *t = insn_at(d, d->address);
        uint64_t here = t && rvt_flow_is_branch(t) ? 1 : 0;
        if (pending(d) == here)
            return false;
    }
    return true;
}

static void push_return(rvt_te_decoder *d, uint64_t link)
{
    if (d->a.options & RVT_TE_OPT_IMPLICIT_RETURN)
        rvt_flow_stack_push(&d->ret, link);
}

/* Branch outcomes not yet used: map bits, then counted predictions. */
static uint64_t pending(const rvt_te_decoder *d)
{
    return d->oc.branches + d->oc.pcount + d->oc.pfail;
}

/* Can next_outcome give an outcome: a map bit, or with the predictor
 * (bp) a counted prediction or the one that failed. */
static inline bool outcome_known(const struct te_outcomes *o, bool bp)
{
    return o->branches || (bp && (o->pcount || o->pfail));
}

/* The next branch outcome (is_taken_branch of 11.1) when outcome_known:
 * the map's older bits first, then the predictor's guesses (6.8), and
 * the predictor learns it; entry is its entry for this branch (NULL:
 * no predictor), one look for both. */
static inline bool next_outcome(struct te_outcomes *o, uint8_t *entry)
{
    bool taken;
    if (o->branches) {
        taken = !(o->map & 1);
        o->map >>= 1;
        o->branches--;
    } else if (o->pcount) {
        taken = (*entry >> 1) & 1;
        o->pcount--;
    } else {
        taken = !((*entry >> 1) & 1);
        o->pfail = false;
    }
    if (entry)
        te_bp_learn(entry, taken);
    return taken;
}

static int take_branch(rvt_te_decoder *d, uint64_t pc, bool *taken)
{
    if (!outcome_known(&d->oc, d->t.bp))
        return fail(d, RVT_ERR_MISMATCH, "branch with no branch information left");
    *taken = next_outcome(&d->oc, d->t.bp ? te_bp_entry(&d->t, pc) : NULL);
    return 0;
}

/* Can settle_one turn o's pending predictions into a map bit: none
 * pending, or just one (with the predictor: 6.8). */
static bool settles(const struct te_outcomes *o, bool bp)
{
    return (!o->pcount && !o->pfail) || (!o->branches && o->pcount + o->pfail == 1 && bp);
}

/* settle's rule (when settles): the one pending prediction, for a branch
 * the predictor predicts `predicted` for, becomes a map bit. */
static void settle_one(struct te_outcomes *o, bool predicted)
{
    if (!o->pcount && !o->pfail)
        return;
    bool taken = predicted ^ o->pfail;
    o->map = !taken;
    o->branches = 1;
    o->pcount = 0;
    o->pfail = false;
}

/* A new packet's branches are newer than what is pending: a pending
 * prediction (at most the branch at the current pc) becomes a map bit,
 * with the predictor as it stands, since that branch runs next. */
static int settle(rvt_te_decoder *d)
{
    if (!settles(&d->oc, d->t.bp))
        return fail(d, RVT_ERR_MISMATCH, "unprocessed predicted branches");
    if (d->t.bp)
        settle_one(&d->oc, te_bp_predict(&d->t, d->pc));
    return 0;
}

/* next_pc of 11.1 for a jump or another discontinuity (not a branch):
 * sets d->pc; returns 1 when it stopped at an uninferable jump to
 * `address`, 0 otherwise, negative on error. */
static int next_pc_jump(rvt_te_decoder *d, const rvt_insn *i, uint64_t this_pc, uint64_t address)
{
    uint64_t target;
    int stop = 0;
    if (rvt_flow_is_inferable_jump(i, TE_RULES)) {
        d->pc = rvt_flow_inferable_target(i, this_pc) & rvt_mask(d->a.iaddress_width);
    } else if (sequential_jump(d, i, &target)) {
        d->pc = target;
        d->inferred_jump = TE_JUMP_SEQUENTIAL;
    } else if (implicit_return(d, i)) {
        rvt_flow_stack_pop(&d->ret, &d->pc);
        d->inferred_jump = TE_JUMP_RETURN;
    } else if (rvt_flow_is_uninferable_discon(i, TE_RULES)) {
        if (d->stop_at_last_branch)
            return fail(d, RVT_ERR_MISMATCH, "unexpected uninferable discontinuity");
        if (sijump_contradicted(d, i, address))
            return fail(d, RVT_ERR_MISMATCH, "a sequentially inferable jump left out of the trace: "
                        "the stream needs sijump (sijump_p=1), the attributes say sijump=0");
        d->pc = address;
        stop = 1;
        if (d->t.jtc) {
            uint32_t index;
            te_jtc_see(&d->t, address, &index);     /* 3.2.7, as the encoder */
        }
    } else {
        d->pc = this_pc + i->len;
    }
    if (rvt_flow_is_call(i, TE_RULES))
        push_return(d, this_pc + i->len);
    return stop;
}

/* next_pc of 11.1 from the instruction i at d->pc (NULL: no code):
 * returns 1 when it stopped at an uninferable jump to `address`, 0
 * otherwise, negative on error. */
static int next_pc(rvt_te_decoder *d, const rvt_insn *i, uint64_t address)
{
    if (!i || i->op == RVT_OP_ILLEGAL)
        return fail(d, RVT_ERR_NOCODE, "no instruction at the traced address");
    uint64_t this_pc = d->pc;
    int stop = 0;
    d->inferred_jump = TE_JUMP_NONE;
    /* Most instructions transfer no control, and most that do are
     * branches (none of which is a jump, a return or a trap, 11.1): those
     * two first, so that they skip the jump cases (their checks, taken
     * for every branch, cost the decoder 6 % in callgrind counts). */
    if (rvt_flow_is_plain(i)) {
        d->pc = this_pc + i->len;
    } else if (rvt_flow_is_branch(i)) {
        bool taken = false;
        int st = take_branch(d, this_pc, &taken);
        if (st < 0)
            return st;
        d->pc = taken ? this_pc + (uint64_t)i->imm : this_pc + i->len;
    } else {
        stop = next_pc_jump(d, i, this_pc, address);
        if (stop < 0)
            return stop;
    }
    d->last_pc = this_pc;
    retire_after(d, i, this_pc);
    return stop;
}

/* The walk stands at the start of block b (rvt_iblk_block at d->pc):
 * the instruction there, from the block when it is the block's only
 * one (a control transfer, or no code: NULL), else (a plain
 * instruction) looked up. */
static const rvt_insn *block_first(rvt_te_decoder *d, const rvt_iblock *b)
{
    if (b->n <= 1)
        return b->n ? b->last : NULL;
    return insn_at(d, d->pc);
}

/* Is the first instruction of block b a branch?  Only a block's last
 * instruction can be one (isa/insn_blocks.h), so a block of one: the
 * block tells, with no instruction lookup. */
static unsigned block_starts_branch(const rvt_iblock *b)
{
    return b->n == 1 && rvt_flow_is_branch(b->last);
}

/* May the reported address, just reached with every branch processed,
 * be the one a format 0/1/2 packet reports although no uninferable jump led
 * there (11.1's inferred_address)?  11.1 excludes every address reached by
 * an uninferable discontinuity; those the decoder follows itself are kept:
 * - after an implicit return only with irreport naming this depth: 6.6.3
 *   has the encoder report the depth there (rvtrace reports 0 too, docs/
 *   etrace.md), and without it a return at depth 0 reported explicitly
 *   can go to the same address after implicit returns from a recursion;
 *   the reference flow's mode without counter or stack reports no depth;
 * - after a sequentially inferable jump (3.2.4) as after any instruction. */
static bool may_be_inferred(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    uint64_t depth = rvt_flow_stack_depth(&d->ret);
    bool depth_ok = !d->flags.irreport || p->irdepth == depth;
    if (d->inferred_jump == TE_JUMP_RETURN) {
        bool no_depth = !d->a.return_stack_size && !d->a.call_counter_size;
        return no_depth ? depth_ok : d->flags.irreport && p->irdepth == depth;
    }
    const rvt_insn *li = insn_at(d, d->last_pc);
    return li && depth_ok && (d->inferred_jump == TE_JUMP_SEQUENTIAL ||
                              !rvt_flow_is_uninferable_discon(li, TE_RULES));
}

/* How far a walk with outcomes o may go (TE_FOLLOW_LIMIT): at most
 * 2^24 * 2^33, no overflow. */
static uint64_t follow_limit(const struct te_outcomes *o)
{
    return TE_FOLLOW_LIMIT * (1 + o->branches + o->pcount + o->pfail);
}

/* A walk towards a reported address is a function of (pc, last_pc,
 * branch outcomes left, return stack): once the state after a step that
 * did not end the walk repeats, the walk loops without end and the packet
 * contradicts the trace so far (a corrupt stream).  (A step that ends the
 * walk is no repeat: a return taken implicitly at depth 1 and one reported
 * at depth 0 reach the same state, and only the first goes on.)  Brent's
 * method: compare with a state saved at doubling intervals, so a loop is
 * found within about twice its length.  The state is sampled after each
 * instruction next_pc steps, not inside the straight runs retired in one
 * go: what happens from one sample to the next is still a function of
 * the sampled state (whether a run is taken whole depends on pc, the
 * outcomes left and the fixed address), so a repeat is still an endless
 * loop, and every loop has a control transfer, so it is still found.
 * o: the outcomes the walk has (its limit). */
static void walk_start(rvt_te_decoder *d, uint64_t address, const struct te_outcomes *o)
{
    d->walk.address = address;
    d->walk.n = 0;
    d->walk.limit = follow_limit(o);
    d->walk.power = 1;
    d->walk.lam = 0;
    d->walk.pc = UINT64_MAX;
}

static bool walk_loops(rvt_te_decoder *d)
{
    struct te_walk *w = &d->walk;
    uint64_t left = pending(d);
    if (w->pc == d->pc && w->last_pc == d->last_pc && w->pending == left &&
        rvt_flow_stack_same(&w->ret, &d->ret))
        return true;
    if (++w->lam == w->power) {
        w->pc = d->pc;
        w->last_pc = d->last_pc;
        w->pending = left;
        rvt_flow_stack_copy(&w->ret, &d->ret);
        w->power *= 2;
        w->lam = 0;
    }
    return false;
}

/* walk_loops after `steps` steps that each used a branch outcome
 * (branch_chain): pending() only falls during a walk, and such a state's
 * last_pc is that branch, which no later step reaches without using
 * another outcome, so it can neither repeat one saved nor be repeated.
 * Brent's counters move as walk_loops moves them, a state saved is one
 * that matches nothing: the check finds a loop where it did. */
static void walk_branch_steps(rvt_te_decoder *d, uint64_t steps)
{
    struct te_walk *w = &d->walk;
    while (steps >= w->power - w->lam) {
        steps -= w->power - w->lam;
        w->pc = UINT64_MAX;
        w->power *= 2;
        w->lam = 0;
    }
    w->lam += steps;
}

/* Retire the plain instructions of the straight-line block at pc in one
 * step, stopping before its last instruction (the one that may transfer
 * control: next_pc handles it), when no stop of the walk can fall among
 * them.  A walk stops at a branch (only a block's last instruction can be
 * one) or at the reported address with no branch outcome pending, so a
 * block is taken whole unless outcomes are used up and the address lies
 * inside it.  At most `budget` instructions.  Returns how many were
 * retired (fewer if an event callback asked to stop), 0 to go one
 * instruction at a time.  *next: the instruction the walk then stands on
 * when it transfers control (so it is a block of its own, which
 * straight would not take: next_pc goes on from it with no lookup),
 * else NULL.
 * b is the block at d->pc. */
static uint64_t straight(rvt_te_decoder *d, const rvt_iblock *b, uint64_t address, uint64_t budget,
                         const rvt_insn **next)
{
    *next = NULL;
    uint64_t pc = d->pc;
    if (b->n < 2 || b->n - 1 > budget)
        return 0;
    uint64_t end = rvt_iblk_last_pc(&d->bc, b, pc);
    if (end < pc || (pending(d) == 0 && address > pc && address < end))
        return 0;
    uint32_t k = b->n - 1;
    d->inferred_jump = TE_JUMP_NONE;
    if (!d->insn_events || pulled(d) || d->runs) {
        d->stats.instructions += k;
        if (pulled(d)) {
            /* the run in one go: positions 1..k of the block */
            rvt_flow_event at = { .kind = RVT_EV_INSN, .priv = d->priv, .src = d->source,
                                  .offset = d->offset };
            rvt_flow_pull_run_on(&d->pull, &at, pc, pc + 2 + 2 * (b->lens & 1u), k, end, b->last);
        } else if (d->insn_events) {
            retire_run(d, b, pc, k, end);       /* run mode: one event for them */
        }
        d->last_pc = end - b->prev->len;
        d->pc = end;
        if (!rvt_flow_is_plain(b->last))
            *next = b->last;
        return k;
    }
    for (uint32_t j = 0; j < k; j++) {
        d->last_pc = pc;
        pc += 2 + 2 * ((b->lens >> j) & 1u);
        d->pc = pc;
        retire(d, pc);
        if (d->stop)
            return j + 1;
    }
    return k;
}

/* The checks of follow_execution_path (11.1) after each instruction: 1
 * when the walk ends here, 0 to go on, negative on error.  st is
 * next_pc's: 1 after an uninferable discontinuity; here: 1 when the
 * instruction at d->pc is a branch. */
static int arrived(rvt_te_decoder *d, uint64_t address, const rvt_te_pkt *p, int st,
                   unsigned here)
{
    uint64_t left = pending(d);
    if (left == 1 && here && d->stop_at_last_branch) {
        d->stop_at_last_branch = false;
        return 1;
    }
    if (st) {
        if (left > here)
            return fail(d, RVT_ERR_MISMATCH, "unprocessed branches at the reported address");
        return 1;
    }
    if (d->pc != address || left != here)
        return 0;
    if (p->format == 3)
        return 1;
    if (d->stop_at_last_branch)
        return 0;
    if (d->flags.notify)
        return 1;
    if (!d->flags.updiscon && may_be_inferred(d, p)) {
        d->sync.state = RVT_FLOW_RESOLVE;
        return 1;
    }
    return 0;
}

/* Branch outcomes branch_chain may use: arrived() after a branch stops
 * the walk with stop_at_last_branch once one outcome is left (and a
 * branch comes next), so the chain leaves that one to follow; and
 * without the predictor only the map's outcomes (take_branch fails on the
 * others, and follow reports it). */
static inline uint64_t chain_left(const struct te_outcomes *o, bool bp, bool stop_at_last_branch)
{
    uint64_t left = bp ? o->branches + o->pcount + o->pfail : o->branches;
    return stop_at_last_branch && left ? left - 1 : left;
}

static inline uint64_t chain_outcomes(const rvt_te_decoder *d)
{
    return chain_left(&d->oc, d->t.bp, d->stop_at_last_branch);
}

/* May branch_chain take block b (at pc) whole, its branch included,
 * where follow would take it in two steps (straight, next_pc) with
 * arrived() 0 after the first?  Its last instruction is a branch, within
 * the budget and not wrapping, and arrived() cannot stop at the branch:
 * it does so (stop_at_last_branch aside: chain_outcomes) only at the
 * reported address with this outcome the last.  `outcomes`: those the
 * chain may still use (chain_outcomes, >= 1). */
static inline bool chain_takes(const rvt_iblock *b, uint64_t pc, uint64_t address,
                               uint64_t budget, uint64_t outcomes)
{
    return b->jclass == RVT_JC_BRANCH && b->n <= budget && b->last_pc >= pc &&
           (outcomes >= 2 || b->n == 1 || b->last_pc != address);
}

/* chain_fast's state: where the run of branches stands (locals). */
struct te_chain {
    const rvt_iblock *b;        /* the block at pc */
    uint64_t pc, last;          /* d->pc, d->last_pc */
    uint64_t room;              /* instructions the walk may still follow */
    uint64_t steps;             /* blocks taken (walk_branch_steps) */
};

/* chain_run's steps where nothing but the block can end the run: blocks
 * that end in a branch, using at most `outcomes` outcomes of one kind
 * (map bits, or with `counted` correct predictions, 6.8, from the
 * predictor table tab), at least one being left after them (so
 * chain_takes holds for any branch block with b->chains), and blocks that
 * end in a direct jump that links nothing (next_pc: its fixed target,
 * within the address width amask; no outcome, no return stack) to a
 * block that ends in a branch, with an outcome for it, in a cache slot
 * other than the jump's own; at most
 * `blocks` blocks, for which the budget (RVT_IBLK_MAX each) and the span
 * have room.  A step to the reported address ends it (returns true).
 * span's open block was opened by the span at ch->pc (one instruction),
 * so each block is written whole over it, once (rvt_flow_block_whole).
 * *map, ch: advanced; *used: the outcomes used.  Brent's check
 * (walk_branch_steps) counts the jumps as steps; its reasoning holds for
 * them as for branches: the state after such a jump is followed by a
 * step that uses an outcome (here or in chain_run's next step), so
 * pending falls and no later state repeats it (a jump followed by
 * anything else would change when a loop of jumps alone is found, and
 * so the events of a damaged stream: tests/unit/test_flow_pull.c). */
static inline __attribute__((always_inline)) bool
chain_fast(rvt_iblocks *c, struct te_chain *ch, uint64_t *map, uint64_t outcomes, uint64_t blocks,
           uint8_t *tab, unsigned lsb, uint64_t mask, uint64_t amask, uint64_t address,
           rvt_flow_span *span, bool counted, uint64_t *used)
{
    const rvt_iblock *b = ch->b;
    uint64_t pc = ch->pc, last = ch->last, m = *map, room = ch->room, k = blocks, o = outcomes;
    uint64_t key = c->space_key;
    /* the span's cursor and template in locals: a store into the array
     * may alias *span, and the compiler reloaded them every block */
    rvt_block *out = span ? span->blk : NULL;
    rvt_block tmpl = span ? span->tmpl : (rvt_block){ 0 };
    rvt_flow_tail tail = rvt_flow_tail_of(&tmpl);   /* end, priv, src: one store */
    bool there = false;
    while (k && b->chains) {
        bool taken = true;
        rvt_block_end end = RVT_BLK_JUMP;
        /* b's facts the step writes, read before the next block's lookup:
         * the cache is direct mapped (isa/insn_blocks.h), and a lookup that
         * misses refills the slot of the block it looks up in place, which
         * is b's own where the two addresses agree in the slot's bits
         * (a multiple of 2^(RVT_IBLK_BLOCK_BITS + 1) bytes apart: for a
         * branch's target, which is at most 4 KiB away, only in a build
         * with a smaller cache, fuzz/CMakeLists.txt) */
        const uint64_t b_last = b->last_pc;
        const uint32_t b_n = b->n;
        if (b->chains == RVT_IBLK_CHAIN_JUMP) {
            /* not where the target's block would take the jump's own slot
             * (a jal reaches 1 MiB: 8 KiB away, it does): the lookup would
             * refill it under b, this step would then read the target's
             * block as the jump's (its end, its length, its taken target),
             * and a break would leave ch->b holding the target's block at
             * the jump's pc.  follow takes such a jump a step at a time
             * (chain_refill guards the same case). */
            uint64_t target = b->to[RVT_IBLK_TAKEN];
            if (!o || target > amask ||
                &c->blocks[rvt_iblk_slot(target ^ key, RVT_IBLK_BLOCK_BITS)] == b ||
                rvt_iblk_succ_keyed(c, b, RVT_IBLK_TAKEN, target, key)->chains != RVT_IBLK_CHAIN_BRANCH)
                break;
        } else {
            if (!o)
                break;
            o--;
            uint8_t *e = tab ? te_bp_at(tab, lsb, mask, b_last) : NULL;
            if (counted) {
                taken = (*e >> 1) & 1;
                te_bp_confirm(e);
            } else {
                taken = !(m & 1);
                m >>= 1;
                if (e)
                    te_bp_learn(e, taken);
            }
            end = b->to[taken] == b->to[RVT_IBLK_FALL] ? RVT_BLK_BRANCH_NOT_TAKEN
                                                         : RVT_BLK_BRANCH_TAKEN;
        }
        /* The next block.  A counted outcome (6.8: the predictor entry's
         * MSB) is a branch here, not an index into b->to and b->succ: the
         * processor predicts it and loads the next block at once, where
         * the index made that load wait for the entry's (block -> its last
         * pc -> entry -> outcome -> successor, the run's longest
         * dependency; long.elf's counted runs are a third of its blocks:
         * next_blocks 730 -> 800 M instr/s, events off 1000 -> 1240).  The
         * empty asm keeps the compiler from merging the two arms into a
         * select (the same wait); written out here, not in a helper, which
         * measured 2 % slower.  Map bits are in a register early: there
         * the index measured faster than a branch (session 8). */
        uint64_t to;
        const rvt_iblock *nb;
        if (counted) {
            if (taken) {
                __asm__("");
                to = b->to[RVT_IBLK_TAKEN];
                nb = rvt_iblk_succ_keyed(c, b, RVT_IBLK_TAKEN, to, key);
            } else {
                to = b->to[RVT_IBLK_FALL];
                nb = rvt_iblk_succ_keyed(c, b, RVT_IBLK_FALL, to, key);
            }
        } else {
            to = b->to[taken];
            nb = rvt_iblk_succ_keyed(c, b, taken, to, key);
        }
        if (span)
            rvt_flow_block_tailed(out++, pc, b_n, b_last, tail | rvt_flow_tail_end(end), to,
                                  &tmpl);
        last = b_last;
        room -= b_n;
        pc = to;
        k--;
        b = nb;
        if (to == address) {
            there = true;
            break;
        }
    }
    if (span && out != span->blk) {
        span->blk = out;
        rvt_flow_span_open(span, pc);
    }
    *map = m;
    *used = outcomes - o;
    ch->b = b;
    ch->pc = pc;
    ch->last = last;
    ch->room = room;
    ch->steps += blocks - k;
    return there;
}

static void packet_begin(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t offset);
static bool reports_address(const rvt_te_pkt *p);
static void packet_outcomes(struct te_outcomes *o, const rvt_te_pkt *p, bool counted);

/* A packet of branch outcomes alone: a full branch map (format 1 with no
 * address, table 6.7) or, with the predictor, a branch count with no
 * address (format 0, table 6.8).  Its walk ends at its last branch
 * (stop_at_last_branch); the next packet's walk starts there. */
static bool outcomes_only(const rvt_te_decoder *d, const rvt_te_pkt *p)
{
    return !reports_address(p) &&
           (p->format == 1 || (p->format == 0 && p->subformat == 0 && d->t.bp));
}

/* May chain_run go on into the packet after the one being walked
 * (chain_refill): the decoder reads its own input (the packet is cur,
 * read by input_step; a buffer, whose reader can go back: a transport's
 * cannot), and the packet is one of outcomes alone. */
static bool may_refill(const rvt_te_decoder *d)
{
    return d->stop_at_last_branch && d->pkt == &d->cur && !d->rd.tp && outcomes_only(d, d->pkt);
}

/* The packet boundary inside a run of branches (issue #18).  A packet of
 * outcomes alone (may_refill) has one outcome left, for the branch that
 * ends block ch->b: 11.1 would take the block up to that branch (straight),
 * stop there (arrived: stop_at_last_branch), and the next packet's walk
 * would take the branch.  When the next packet is one of outcomes alone
 * too, this does what the end of the one and the processing of the other
 * do up to its walk, and the run goes on: the packet is read ahead
 * (rvt_te_decoder_packet's bookkeeping: packet_begin), the pending
 * prediction settled with the predictor as it stands at that branch
 * (settle; nothing else runs before it), the packet's outcomes added after
 * it, the walk restarted (walk_start: its Brent's check, and its follow
 * limit counted from the branch: *budget).  Nothing is sent between the two
 * packets (a packet without address has no notify, rvt_te_pkt_flags), and
 * the blocks opened from here carry the new packet's offset (span's
 * template).  Any other next packet (or none, or a damaged one, or one at
 * run_to's stop) is left to be read again: the reader goes back. */
static unsigned chain_refill(rvt_te_decoder *d, struct te_chain *ch, struct te_outcomes *oc,
                             rvt_flow_span *span, uint64_t *budget, bool opened)
{
    /* b: the block that ends in the last branch; ch->b, or after a direct
     * jump that ends ch->b (chain_fast takes both blocks at once, so only
     * where a step of this run opened ch->b: opened; and not where the
     * target's block would take the jump's own cache slot, which the
     * lookup would refill under ch->b) */
    const rvt_iblock *b = ch->b;
    unsigned keep = 1;
    uint64_t target = b->to[RVT_IBLK_TAKEN];
    if (b->chains == RVT_IBLK_CHAIN_JUMP && opened && target <= rvt_mask(d->a.iaddress_width) &&
        &d->bc.blocks[rvt_iblk_slot(rvt_iblk_tag(&d->bc, target), RVT_IBLK_BLOCK_BITS)] != b &&
        (!span || span->last - span->blk >= 2)) {
        b = rvt_iblk_succ(&d->bc, b, RVT_IBLK_TAKEN, target);
        keep = 2;
    }
    uint64_t before = keep == 2 ? ch->b->n + b->n - 1 : b->n - 1;   /* the walk's, to the branch */
    if (b->chains != RVT_IBLK_CHAIN_BRANCH || before + 1 > ch->room ||
        oc->branches + oc->pcount + oc->pfail != 1 || !settles(oc, d->t.bp) ||
        (span && !rvt_flow_span_room(span)) || d->rd.pos >= d->rd_stop)
        return 0;
    rvt_te_reader at = d->rd;
    rvt_te_pkt p;
    uint64_t offset;
    if (rvt_te_reader_next(&d->rd, &p, &offset) <= 0 || !outcomes_only(d, &p)) {
        d->rd = at;
        return 0;
    }
    d->cur = p;
    d->rd_off = offset;
    packet_begin(d, &d->cur, offset);
    if (d->t.bp)
        settle_one(oc, te_bp_predict(&d->t, b->last_pc));
    packet_outcomes(oc, &d->cur, p.format == 0);
    walk_start(d, d->address, oc);          /* the new packet's outcomes, in oc yet */
    /* the branch is its walk's first step and instruction: the jump
     * before it (keep 2) is the walk's before */
    ch->steps = 0 - (uint64_t)(keep - 1);
    *budget = d->walk.limit + before;
    ch->room = *budget;
    if (span)
        span->tmpl.offset = offset;
    return keep;
}

/* follow's run of branches (issue #18): whole cache blocks, each ending
 * in a branch, as many as chain_outcomes and chain_takes allow, from the
 * block *bp at d->pc, each in one step -- what straight and next_pc do
 * for it, with no instruction lookup: the next block is the cache's
 * successor pointer (rvt_iblk_succ); the blocks go into span, the
 * caller's array (rvt_flow_span), or nowhere (NULL: events off, push
 * API).  The walk's state (pc, outcomes, the predictor's table) is in
 * locals, written back once.  arrived() after each branch is 0 but for
 * the last outcome (chain_outcomes) or a branch to the reported address,
 * so the chain stops there and follow checks; walk_loops is
 * walk_branch_steps.  After each step with the checks, the steps that
 * need none (chain_fast) as far as they go.  At the last branch of a
 * packet of outcomes alone, the next such packet's outcomes are added
 * and the run goes on (chain_refill), with no checked step where a step
 * of the run opened the block.  *n_walk: the instructions the walk (of the
 * packet being walked at the end) has followed (TE_FOLLOW_LIMIT).
 * Returns the instructions retired (0: none, follow goes on a step at a
 * time); *bp is then the block at d->pc.  Inline into branch_chain's two
 * calls, so that without output the loop keeps no span (fewer live
 * values: it spilled). */
static inline __attribute__((always_inline)) uint64_t
chain_run(rvt_te_decoder *d, const rvt_iblock **bp, uint64_t address, uint64_t *n_walk,
          rvt_flow_span *span)
{
    uint64_t budget = d->walk.limit - *n_walk, retired = 0;
    struct te_chain ch = { *bp, d->pc, d->last_pc, budget, 0 };
    struct te_outcomes oc = d->oc;
    uint8_t *tab = d->t.bp;
    unsigned lsb = d->t.lsb;
    uint64_t mask = tab ? te_bp_mask(&d->t) : 0;
    uint64_t amask = rvt_mask(d->a.iaddress_width);
    uint64_t left = chain_outcomes(d);
    bool refill = may_refill(d), stop = d->stop_at_last_branch;
    /* A walk to its last branch (a packet of outcomes alone) ends only
     * there: arrived() at the reported address is 0 with outcomes left
     * (it asks for stop_at_last_branch before it looks at the address), so
     * the run need not stop at it (a stale address the packets before
     * left; long.elf's runs had stopped there 0.9 M times).  An odd
     * address is one no block reaches. */
    if (stop && d->pkt && outcomes_only(d, d->pkt))
        address = 1;
    /* the next block needs no checked step: a packet's outcomes were just
     * added (chain_refill) after a step of this run had opened the block at
     * ch.pc; the first `keep` blocks chain_fast writes then keep their
     * offset (the block that ends in the last branch, and the jump before
     * it) */
    bool refilled = false;
    unsigned keep = 0;
    uint64_t kept_offset = 0;
    for (;;) {
        if (!left) {
            uint64_t before = budget - ch.room;
            kept_offset = d->offset;
            keep = refill ? chain_refill(d, &ch, &oc, span, &budget, before || retired) : 0;
            if (!keep)
                break;
            refilled = before || retired;
            retired += before;
            left = chain_left(&oc, tab, true);
        }
        if (!refilled) {
            if (!chain_takes(ch.b, ch.pc, address, ch.room, left) ||
                (span && !rvt_flow_span_room(span)))
                break;
            const rvt_iblock *b = ch.b;
            bool taken = next_outcome(&oc, tab ? te_bp_at(tab, lsb, mask, b->last_pc) : NULL);
            uint64_t to = b->to[taken];
            if (span)
                rvt_flow_span_block(span, b->n - 1, b->last_pc,
                                    to == b->to[RVT_IBLK_FALL] ? RVT_BLK_BRANCH_NOT_TAKEN
                                                               : RVT_BLK_BRANCH_TAKEN, to);
            ch.last = b->last_pc;
            ch.pc = to;
            ch.room -= b->n;
            ch.steps++;
            left--;
            ch.b = rvt_iblk_succ(&d->bc, b, taken, to);
            if (to == address)
                break;
        }
        /* chain_fast leaves one outcome for a checked step, but in a walk
         * to the last branch (stop_at_last_branch: chain_outcomes has left
         * that one out), where arrived() cannot end the walk before it */
        uint64_t avail = stop ? left : left - 1;
        if (!left || !avail)
            continue;
        uint64_t blocks = ch.room / RVT_IBLK_MAX, used = 0;
        if (span && (uint64_t)(span->last - span->blk) < blocks)
            blocks = (uint64_t)(span->last - span->blk);
        rvt_block *first = span ? span->blk : NULL;
        bool there = false;
        if (oc.branches) {
            uint64_t n = avail < oc.branches ? avail : oc.branches;
            there = chain_fast(&d->bc, &ch, &oc.map, n, blocks, tab, lsb, mask, amask, address,
                               span, false, &used);
            oc.branches -= (unsigned)used;
        } else if (tab && oc.pcount) {
            uint64_t n = avail < oc.pcount ? avail : oc.pcount;
            there = chain_fast(&d->bc, &ch, &oc.map, n, blocks, tab, lsb, mask, amask, address,
                               span, true, &used);
            oc.pcount -= used;
        }
        for (unsigned i = 0; refilled && span && i < keep && first + i < span->blk; i++)
            first[i].offset = kept_offset;  /* opened in the packet before */
        refilled = false;
        left -= used;
        if (there)
            break;
    }
    uint64_t done = retired + budget - ch.room;
    if (!done)
        return 0;
    *n_walk = d->walk.limit - ch.room;
    d->oc = oc;
    d->pc = ch.pc;
    d->last_pc = ch.last;
    d->stats.instructions += done;
    d->inferred_jump = TE_JUMP_NONE;
    walk_branch_steps(d, ch.steps);
    *bp = ch.b;
    return done;
}

/* chain_run where it may run: no instruction event to a callback (events
 * off), or the pull API with the open block in the caller's array and
 * room after it (rvt_flow_pull_span; else follow's steps fill the ring). */
static uint64_t branch_chain(rvt_te_decoder *d, const rvt_iblock **bp, uint64_t address,
                             uint64_t *n_walk)
{
    if (!pulled(d))
        return d->insn_events ? 0 : chain_run(d, bp, address, n_walk, NULL);
    rvt_flow_event at = { .kind = RVT_EV_INSN, .priv = d->priv, .src = d->source,
                          .offset = d->offset };
    rvt_flow_span span;
    if (!rvt_flow_pull_span(&d->pull, d->pc, &at, &span))
        return 0;
    uint64_t done = chain_run(d, bp, address, n_walk, &span);
    rvt_flow_pull_span_end(&d->pull, &span);
    return done;
}

/* The pull API's caller has its blocks and more has come: the walk
 * stops here, between two blocks, to go on at the next call (never in
 * the push API: the pull core stays zeroed). */
static inline bool paused(const rvt_te_decoder *d)
{
    return rvt_flow_pull_full(&d->pull);
}

/* follow_execution_path of 11.1 to d->walk.address (walk_start), a
 * straight-line block at a time: 0 there, TE_WALK_PAUSED, or negative. */
static int follow(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    uint64_t address = d->walk.address;
    /* Where the walk stands, looked up once a step (issue #18): the
     * control transfer a run ended on (at), else the block at d->pc (b);
     * straight, next_pc and arrived share it. */
    const rvt_insn *at = NULL;
    const rvt_iblock *b = rvt_iblk_block(&d->bc, d->pc);
    for (uint64_t n = d->walk.n; n < d->walk.limit && !d->stop;) {
        if (paused(d)) {
            d->walk.n = n;
            return TE_WALK_PAUSED;
        }
        if (!at) {
            if (branch_chain(d, &b, address, &n)) {
                int r = arrived(d, address, p, 0, block_starts_branch(b));
                if (r)
                    return r < 0 ? r : 0;
                continue;
            }
        }
        uint64_t k = at ? 0 : straight(d, b, address, d->walk.limit - n, &at);
        int st = 0;
        if (k) {
            n += k;
        } else {
            n++;
            st = next_pc(d, at ? at : block_first(d, b), address);
            at = NULL;
            if (st < 0)
                return st;
        }
        unsigned here;
        if (at) {
            here = rvt_flow_is_branch(at);
        } else {
            b = rvt_iblk_block(&d->bc, d->pc);
            here = block_starts_branch(b);
        }
        int r = arrived(d, address, p, st, here);
        if (r)
            return r < 0 ? r : 0;
        if (!k && walk_loops(d))
            return fail(d, RVT_ERR_MISMATCH, "reported address not on the path (endless loop)");
    }
    if (d->stop)
        return 0;
    return fail(d, RVT_ERR_MISMATCH, "reported address never reached");
}

/* resolve_inferred's walk (resumed there after a pause): to the next
 * uninferable discontinuity, whose target is the same address. */
static int resolve_walk(rvt_te_decoder *d)
{
    uint64_t previous = d->walk.address;
    for (uint64_t n = d->walk.n; n < d->walk.limit && !d->stop;) {
        if (paused(d)) {
            d->walk.n = n;
            return TE_WALK_PAUSED;
        }
        const rvt_insn *at;
        uint64_t k = straight(d, rvt_iblk_block(&d->bc, d->pc), previous, d->walk.limit - n, &at);
        n += k ? k : 1;
        if (k)
            continue;
        int st = next_pc(d, insn_at(d, d->pc), previous);
        if (st)
            return st < 0 ? st : 0;
        if (walk_loops(d))
            return fail(d, RVT_ERR_MISMATCH, "no uninferable jump back to the reported address");
    }
    if (d->stop)
        return 0;
    return fail(d, RVT_ERR_MISMATCH, "reported address never reached again");
}

/* 11.1 inferred_address: the decoder stopped at the reported address
 * where the packet may instead have reported a later occurrence reached
 * by an uninferable discontinuity.  A format 0/1/2 packet after it, or an
 * ended_upd support packet, says it was the later one: follow to the next
 * uninferable discontinuity, whose target is the same address.  This runs
 * before the new packet is read (11.1 runs it inside follow_execution_path
 * after), so the jump target cache holds that target when the new packet
 * names a cache entry (6.8, table 6.10); the walk meets no branches, since
 * the stop required every branch of the previous packet to be processed. */
static int resolve_inferred(rvt_te_decoder *d)
{
    d->sync.state = RVT_FLOW_DECODE;
    walk_start(d, d->pc, &d->oc);
    return resolve_walk(d);
}

/* The packet's processing stops after a paused walk (te_resume). */
static int pause(rvt_te_decoder *d, uint8_t resume)
{
    d->resume = resume;
    return 0;
}

/* The support packet's options select the modes (6.5); the predictor and
 * the cache follow them. */
static int apply_options(rvt_te_decoder *d, unsigned options)
{
    unsigned old = d->a.options;
    d->a.options = rvt_te_support_options(&d->a, options);
    unsigned tables = RVT_TE_OPT_BRANCH_PRED | RVT_TE_OPT_JTC;
    if ((d->a.options & tables) == (old & tables))
        return 0;
    rvt_te_attrs_fill(&d->a);
    te_bpjtc_free(&d->t);
    if (rvt_te_attrs_check(&d->a) < 0 || te_bpjtc_init(&d->t, &d->a) < 0) {
        d->a.options = old;
        te_bpjtc_init(&d->t, &d->a);
        return RVT_ERR_FORMAT;
    }
    return 0;
}

static int set_options(rvt_te_decoder *d, unsigned options)
{
    if (apply_options(d, options) < 0)
        return fail(d, RVT_ERR_FORMAT, "support packet options need attributes not given");
    return 0;
}

int rvt_te_decoder_prime(rvt_te_decoder *d, const uint8_t *unit, size_t len)
{
    if (!d || !unit)
        return RVT_ERR_INVAL;
    if (pulled(d) || d->stats.packets || d->ended)
        return RVT_ERR_STATE;
    rvt_te_reader rd;       /* read as the stream's reader reads it: these attributes */
    rvt_te_reader_init(&rd, &d->a, unit, len);
    rvt_te_pkt p;
    uint64_t off;
    if (rvt_te_reader_next(&rd, &p, &off) <= 0 || p.format != 3 || p.subformat != 3)
        return RVT_ERR_INVAL;
    return apply_options(d, p.options);
}

/* 6.5 table 6.4: why the trace ended, for RVT_EV_STOP. */
static const char *qual_reason(unsigned q)
{
    return q == RVT_TE_QUAL_ENDED_UPD ? "qualification ended (qual_status ended_upd)"
                                      : "qualification ended (qual_status ended_rep)";
}

static int support_resolved(rvt_te_decoder *d, const rvt_te_pkt *p, int st);

static int process_support(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    int st = set_options(d, p->options);
    if (!synced(d))
        memset(d->t.tvec, 0, sizeof d->t.tvec);     /* a new trace (3.2.3) */
    if (st < 0 || p->qual_status == RVT_TE_QUAL_NO_CHANGE)
        return st;
    if (p->qual_status == RVT_TE_QUAL_ENDED_UPD && d->sync.state == RVT_FLOW_RESOLVE)
        st = resolve_inferred(d);
    return support_resolved(d, p, st);
}

/* A support packet that ends or loses the trace, after the walk an
 * ended_upd takes (resolve_inferred). */
static int support_resolved(rvt_te_decoder *d, const rvt_te_pkt *p, int st)
{
    if (st == TE_WALK_PAUSED)
        return pause(d, TE_RESUME_RESOLVE_SUPPORT);
    if (p->qual_status == RVT_TE_QUAL_TRACE_LOST) {
        /* reported where the trace resumes, as every loss */
        rvt_flow_lose(&d->sync, "encoder reports trace lost (qual_status trace_lost); "
                                "instructions lost: unknown (aux2: packets skipped)");
        return 0;
    }
    if (synced(d) && st >= 0)
        /* 3.1.6: the last traced instruction is where the walk stands;
         * the next format 3 restarts the trace (RVT_EV_SYNC). */
        event(d, RVT_EV_STOP, d->pc, p->qual_status, 0, qual_reason(p->qual_status));
    rvt_flow_stop(&d->sync);
    return 0;
}

/* The trap a format 3 subformat 1 packet reports.  1.1.1 6.3.1: tvalepc
 * holds the address of an illegal instruction (cause 2), the trap value
 * otherwise; 2.0's tval is the trap value. */
static void trap_event(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t address)
{
    bool epc = d->a.version == RVT_TE_V11 && !p->interrupt && p->ecause == 2;
    rvt_flow_event ev = { .kind = p->interrupt ? RVT_EV_INTERRUPT : RVT_EV_TRAP, .priv = d->priv, .src = d->source,
                          .flags = epc ? RVT_EVF_TVAL_EPC : 0, .pc = address, .aux = p->ecause,
                          .aux2 = p->tval, .offset = d->offset };
    deliver(d, &ev);
}

/* 3.2.3: in implicit exception mode the handler is the one the last
 * explicit trap of this privilege and cause went to (the encoder sends the
 * address whenever that would be wrong). */
static int handler_address(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t *address)
{
    uint64_t *known = &d->t.tvec[te_tvec_key(p->privilege, p->interrupt, p->ecause)];
    if (!(d->a.options & RVT_TE_OPT_IMPLICIT_EXCEPT)) {
        *known = *address | 1;
        return 0;
    }
    if (!(*known & 1))
        return fail(d, RVT_ERR_MISMATCH, "implicit exception: trap handler address not known");
    *address = *known & ~1ull;
    return 0;
}

/* 11.1: a format 3 at a branch adds that branch's outcome. */
static void sync_branch(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t address)
{
    const rvt_insn *i = insn_at(d, address);
    if (i && rvt_flow_is_branch(i)) {
        d->oc.map |= (uint64_t)p->branch << d->oc.branches;
        d->oc.branches++;
    }
}

/* mem.h: code is looked up in the space of the last format 3 (its
 * privilege and context: 1.1.1 6.2-6.4 "Format 3 subformat 0-2") of the
 * decoder's source (0 unless set: one stream per decoder). */
static void te_space(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    rvt_dec_mem_space(&d->mem, &d->bc, p->context, p->privilege, d->source);
}

/* A format 3's context (when the packets carry one, 9.1 nocontext), as an
 * RVT_EV_CONTEXT when it differs from the one last reported, or always
 * (force: a context packet, or the first sync); the N-Trace decoder
 * reports Ownership's context the same way. */
static void context_event(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t at, bool force)
{
    if (d->a.nocontext || (!force && d->ctx_known && p->context == d->last_ctx))
        return;
    d->ctx_known = true;
    d->last_ctx = p->context;
    event(d, RVT_EV_CONTEXT, at, p->context, 0, NULL);
}

/* E-Trace 2.0 7.3 (Timestamping), tables 7.1-7.3: a format 3's time field
 * (present unless notime) as an RVT_EV_TIME at the packet's instruction,
 * so that profiles and timelines get the trace's time base.  The field
 * holds the time's low time_width bits: a value below the last one means
 * it wrapped, and the reported time keeps counting up. */
static void time_event(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t at)
{
    if (d->a.version != RVT_TE_V20 || d->a.notime || !d->a.time_width)
        return;
    uint64_t mask = rvt_mask(d->a.time_width), t = (d->time & ~mask) | (p->time & mask);
    if (t < d->time && mask != UINT64_MAX)
        t += mask + 1;
    d->time = t;
    event(d, RVT_EV_TIME, at, t, 0, NULL);
}

/* What a format 3 reports beside the address: context and time. */
static void f3_stamps(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t at, bool force_ctx)
{
    context_event(d, p, at, force_ctx);
    time_event(d, p, at);
}

/* A format 3 synchronises at d->address: the decoder restarts there
 * (resync) or, having walked there, resets what 3.2.5-3.2.7 reset. */
static int f3_end(rvt_te_decoder *d, const rvt_te_pkt *p, int st, bool resync)
{
    uint64_t address = d->address;
    te_space(d, p);    /* the walk to address was in the old space */
    if (resync) {
        d->oc.branches = 0;
        d->oc.map = 0;
        d->oc.pcount = 0;
        d->oc.pfail = false;
        bool start = !synced(d);
        if (start)
            report_loss(d, address);
        sync_branch(d, p, address);
        if (p->subformat == 1)
            trap_event(d, p, address);
        bool priv_changed = p->privilege != d->priv;
        d->priv = p->privilege;   /* before the events: they carry it */
        if (start) {
            d->stats.resyncs++;
            event(d, RVT_EV_SYNC, address, 0, 0, NULL);
        }
        if (priv_changed || start)
            event(d, RVT_EV_PRIV, address, p->privilege, 0, NULL);
        f3_stamps(d, p, address, start);
        d->pc = address;
        d->last_pc = address;
        retire(d, address);
        if (d->seam) {      /* rvt_te_decoder_set_input_piece */
            d->seam = false;
            rvt_flow_pull_seal(&d->pull);
        }
    }
    /* 3.2.6-3.2.7: a synchronisation resets the predictor and the cache
     * once the decoder has reached its address. */
    te_bpjtc_reset(&d->t);
    d->sync.state = RVT_FLOW_DECODE;
    rvt_flow_stack_clear(&d->ret);    /* 3.2.5: reset at every sync */
    return st;
}

/* A format 3 after the walk to its address (follow's status st). */
static int f3_walked(rvt_te_decoder *d, const rvt_te_pkt *p, int st)
{
    if (st == TE_WALK_PAUSED)
        return pause(d, TE_RESUME_F3);
    /* A sync the trace so far contradicts (fail() said so) is still
     * a full address: restart there rather than at the walk's end. */
    bool resync = st < 0 || !synced(d);
    if (!resync && p->privilege != d->priv) {
        d->priv = p->privilege;
        event(d, RVT_EV_PRIV, d->address, p->privilege, 0, NULL);
    }
    if (!resync)
        f3_stamps(d, p, d->address, false);
    return f3_end(d, p, st, resync);
}

static int process_f3(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    if (p->subformat == 2)
        return te_space(d, p), f3_stamps(d, p, d->pc, true), 0;
    if (d->sync.state == RVT_FLOW_RESOLVE)
        d->sync.state = RVT_FLOW_DECODE;
    uint64_t address = p->address << d->a.iaddress_lsb;
    if (p->subformat == 1 && d->a.version == RVT_TE_V20 && !p->thaddr) {
        /* 2.0 thaddr 0 (table 6.3): the address is the EPC of an exception
         * taken by the target of the last uninferable discontinuity, which
         * did not retire (the decoder stands at that jump); a format 3
         * with the handler address follows. */
        trap_event(d, p, address);
        rvt_flow_stop(&d->sync);
        return 0;
    }
    if (p->subformat == 1 && handler_address(d, p, &address) < 0)
        return 0;
    d->address = address;
    if (p->subformat == 1 || !synced(d))
        return f3_end(d, p, 0, true);
    int st = settle(d);
    if (st >= 0) {
        sync_branch(d, p, address);
        walk_start(d, address, &d->oc);
        st = follow(d, p);
    }
    return f3_walked(d, p, st);
}

/* The address a format 0/1/2 packet reports (6.6.1): differential, full,
 * or the jump target cache entry (6.8, table 6.10). */
static int packet_address(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    if (p->format == 0 && p->subformat == 1) {
        if (!te_jtc_get(&d->t, p->index, &d->address))
            return fail(d, RVT_ERR_MISMATCH, "jump target cache index of an empty entry");
        return 0;
    }
    uint64_t v = p->address << d->a.iaddress_lsb;
    d->address = (d->a.options & RVT_TE_OPT_FULL_ADDRESS) ? v : d->address + v;
    d->address &= rvt_mask(d->a.iaddress_width);
    return 0;
}

static void add_map(struct te_outcomes *o, const rvt_te_pkt *p)
{
    /* Table 6.6: the field is wider than `branches`; only the low
     * `branches` bits are outcomes (the rest are padding, whatever a
     * damaged packet holds there). */
    unsigned n = p->branches ? p->branches : 31;
    o->map |= ((uint64_t)p->branch_map & rvt_mask(n)) << o->branches;
    o->branches += n;
}

/* The outcomes a format 0/1/2 packet adds after the pending ones (settled:
 * settle); counted: a branch count packet (6.8). */
static void packet_outcomes(struct te_outcomes *o, const rvt_te_pkt *p, bool counted)
{
    if (counted) {
        /* Table 6.8/6.9: branch_count + 31 predicted; then, for addr-fail
         * and no-addr, one branch that failed the prediction. */
        o->pcount = (uint64_t)p->branch_count + 31;
        o->pfail = p->branch_fmt != 2;
    } else if (p->format == 1 || (p->format == 0 && p->branches)) {
        add_map(o, p);
    }
}

/* Does a format 0/1/2 packet report an address (tables 6.5-6.11)?  One
 * that does not ends its walk at its last branch (stop_at_last_branch). */
static bool reports_address(const rvt_te_pkt *p)
{
    return p->format == 2 || (p->format == 1 && p->branches) ||
           (p->format == 0 && (p->subformat == 1 || p->branch_fmt != 0));
}

/* A format 0/1/2 after its walk (follow's status st). */
static int branches_walked(rvt_te_decoder *d, int st)
{
    if (st == TE_WALK_PAUSED)
        return pause(d, TE_RESUME_BRANCHES);
    /* 6.6.1, 6.6.2 case 4 (1st execution): notify != address[MSB] says the
     * encoder reported this instruction because trigger[2] asked for it
     * (4.2.4); the walk stands on it and its RVT_EV_INSN is out.  A
     * notification the packet of an uninferable discontinuity or a format 3
     * carries (case 4, subsequent executions: notify == address[MSB]) looks
     * like any other report and is not shown (docs/conformance-etrace.md). */
    if (st >= 0 && d->flags.notify && synced(d) && !d->stop)
        event(d, RVT_EV_NOTIFY, d->pc, 0, 0, NULL);
    return st;
}

/* Formats 0, 1 and 2 (tables 6.5-6.11), once an open inferred_address
 * is resolved (resolve_inferred's status st). */
static int branches_resolved(rvt_te_decoder *d, const rvt_te_pkt *p, int st)
{
    if (st == TE_WALK_PAUSED)
        return pause(d, TE_RESUME_RESOLVE_BRANCHES);
    if (st < 0 || settle(d) < 0)
        return 0;
    bool counted = p->format == 0 && p->subformat == 0;
    if (counted && !d->t.bp)
        return fail(d, RVT_ERR_FORMAT, "branch count packet without branch prediction");
    if (p->format == 0 && p->subformat == 1 && !d->t.jtc)
        return fail(d, RVT_ERR_FORMAT, "jump target cache packet without the cache");
    bool addr = reports_address(p);
    d->stop_at_last_branch = !addr;
    if (addr && packet_address(d, p) < 0)
        return 0;
    packet_outcomes(&d->oc, p, counted);
    walk_start(d, d->address, &d->oc);
    return branches_walked(d, follow(d, p));
}

/* Formats 0, 1 and 2 (tables 6.5-6.11). */
static int process_branches(rvt_te_decoder *d, const rvt_te_pkt *p)
{
    int st = d->sync.state == RVT_FLOW_RESOLVE ? resolve_inferred(d) : 0;
    return branches_resolved(d, p, st);
}

/* What every packet sets before its processing (rvt_te_decoder_packet,
 * chain_refill). */
static void packet_begin(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t offset)
{
    d->offset = offset;
    d->end_marker = rvt_te_pkt_is_end(p);
    d->complete_end = offset;
    d->stats.packets++;
    d->pkt = p;
    d->flags = rvt_te_pkt_flags(&d->a, p);
}

int rvt_te_decoder_packet(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t offset)
{
    packet_begin(d, p, offset);
    if (p->format == 3 && p->subformat == 3)
        process_support(d, p);
    else if (p->format == 3)
        process_f3(d, p);
    else if (synced(d))
        process_branches(d, p);
    else
        skip(d);
    if (!d->resume)
        d->pkt = NULL;
    return d->stop;
}

/* Go on with the packet whose walk paused (TE_WALK_PAUSED): the walk
 * from where it stopped, then the rest of the packet's processing. */
static void te_resume(rvt_te_decoder *d)
{
    const rvt_te_pkt *p = &d->cur;
    uint8_t r = d->resume;
    d->resume = TE_RESUME_NONE;
    d->pkt = p;
    if (r == TE_RESUME_F3)
        f3_walked(d, p, follow(d, p));
    else if (r == TE_RESUME_BRANCHES)
        branches_walked(d, follow(d, p));
    else if (r == TE_RESUME_RESOLVE_BRANCHES)
        branches_resolved(d, p, resolve_walk(d));
    else
        support_resolved(d, p, resolve_walk(d));
    if (!d->resume)
        d->pkt = NULL;
}

/* The input the decoder reads packets from (run, set_input). */
static void input_reset(rvt_te_decoder *d)
{
    d->rd_truncated = false;
    d->rd_off = 0;
    d->rd_stop = UINT64_MAX;
    d->complete_end = 0;
}

static void input_start(rvt_te_decoder *d, const uint8_t *buf, size_t len)
{
    rvt_te_reader_init(&d->rd, &d->a, buf, len);
    input_reset(d);
}

/* Decode the next packet of the input: 1 done, 0 none left. */
/* After a packet's processing (paused or not, the reader has moved on). */
static void packet_done(rvt_te_decoder *d)
{
    d->complete_end = d->rd.pos;
    /* The reader parses with the options of the latest support packet. */
    d->rd.attrs = &d->a;
}

static int input_step(rvt_te_decoder *d)
{
    int st = rvt_te_reader_next(&d->rd, &d->cur, &d->rd_off);
    if (st == 0)
        return 0;
    if (st < 0) {
        d->offset = d->rd_off;
        d->rd_truncated = st == RVT_ERR_TRUNC;
        d->end_marker = false;
        fail(d, st, d->rd_truncated ? "truncated packet" : "corrupt packet");
        return 1;
    }
    rvt_te_decoder_packet(d, &d->cur, d->rd_off);
    if (!d->resume)
        packet_done(d);
    return 1;
}

/* End of the input: RVT_EV_END.  Every frame is whole unless the last one
 * was cut (te_data frames after the last te_inst packet are whole too). */
static int input_end(rvt_te_decoder *d)
{
    d->complete_end = d->rd_truncated ? d->rd_off : d->rd.len;
    return rvt_te_decoder_finish(d);
}

static int run_input(rvt_te_decoder *d)
{
    while (!d->stop && input_step(d))
        ;
    if (d->stop)
        return d->stop;
    return input_end(d);
}

int rvt_te_decoder_run(rvt_te_decoder *d, const uint8_t *buf, size_t len)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    input_start(d, buf, len);
    return run_input(d);
}

int rvt_te_decoder_run_to(rvt_te_decoder *d, const uint8_t *buf, size_t len, uint64_t stop)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    input_start(d, buf, len);
    d->rd_stop = stop;      /* chain_refill reads no further either */
    while (!d->stop && d->rd.pos < stop && input_step(d))
        ;
    return d->stop;
}

int rvt_te_decoder_run_transport(rvt_te_decoder *d, rvt_transport *tp)
{
    if (!d || !tp)
        return RVT_ERR_INVAL;
    rvt_te_reader_init_transport(&d->rd, &d->a, tp);   /* the container is tp's */
    input_reset(d);
    return run_input(d);
}

/* ---- the pull API (rvtrace/flow.h, src/flow/flow_pull.h) ---- */

/* One packet, or the rest of a paused one, to the pull core; at the end
 * of the input, the end. */
static int pull_step(void *dec)
{
    rvt_te_decoder *d = dec;
    if (d->resume) {
        te_resume(d);
        if (!d->resume)
            packet_done(d);
        return 1;
    }
    if (d->rd.pos >= d->rd_stop)
        return 0;       /* set_input_piece's stop: the stream goes on, no end */
    if (input_step(d))
        return 1;
    input_end(d);
    return 0;
}

int rvt_te_decoder_set_input_piece(rvt_te_decoder *d, const uint8_t *buf, size_t len,
                                   uint64_t stop, bool seam)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    if (pulled(d) || d->stats.packets || d->ended)
        return RVT_ERR_STATE;
    rvt_flow_pull_init(&d->pull, TE_RULES, &d->bc, &d->mem, pull_step, d);
    d->fn = rvt_flow_pull_event;
    d->ctx = &d->pull;
    d->insn_events = true;
    d->seam = seam;
    input_start(d, buf, len);
    if (stop < len)
        d->rd_stop = stop;      /* chain_refill reads no further either */
    return 0;
}

int rvt_te_decoder_set_input(rvt_te_decoder *d, const uint8_t *buf, size_t len)
{
    return rvt_te_decoder_set_input_piece(d, buf, len, UINT64_MAX, false);
}

/* The pull calls: the pull core's (its statuses, flow_pull.h). */
rvt_flow_pull *rvt_te_decoder_pull(rvt_te_decoder *d)
{
    return d ? &d->pull : NULL;
}

int rvt_te_decoder_next_block(rvt_te_decoder *d, rvt_block *out)
{
    return rvt_flow_pull_next_block(rvt_te_decoder_pull(d), out);
}

int rvt_te_decoder_next_blocks(rvt_te_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_blocks(rvt_te_decoder_pull(d), out, max);
}

int rvt_te_decoder_next_run(rvt_te_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_run(rvt_te_decoder_pull(d), out, max);
}

int rvt_te_decoder_next_insn(rvt_te_decoder *d, rvt_flow_insn *out)
{
    return rvt_flow_pull_next_insn(rvt_te_decoder_pull(d), out);
}

int rvt_te_decoder_next_event(rvt_te_decoder *d, rvt_flow_event *out)
{
    return rvt_flow_pull_next_event(rvt_te_decoder_pull(d), out);
}

int rvt_te_decoder_finish(rvt_te_decoder *d)
{
    if (d->ended)
        return d->stop;
    d->ended = true;
    report_loss(d, d->pc);
    /* out.h: RVT_EV_END carries RVT_END_INCOMPLETE, and then the offset
     * where the last complete packet ends, when the encoder's end marker
     * is missing (a truncated or empty stream). */
    rvt_flow_event ev = { .kind = RVT_EV_END, .priv = d->priv, .src = d->source, .pc = d->pc,
                          .aux = d->end_marker ? 0 : RVT_END_INCOMPLETE,
                          .offset = d->end_marker ? UINT64_MAX : d->complete_end };
    deliver(d, &ev);
    return d->stop;
}
