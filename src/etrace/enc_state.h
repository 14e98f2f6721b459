/* E-Trace encoder internals shared by encoder.c and enc_step.c. */
#ifndef RVT_ETRACE_ENC_STATE_H
#define RVT_ETRACE_ENC_STATE_H

#include "rvtrace/etrace.h"
#include "etrace/bpjtc.h"
#include "flow/flow_stack.h"

#define TE_SPAN_MAX 8

/* One interesting instruction: the first or last of a block (8.3). */
typedef struct te_ins {
    uint64_t addr;
    uint64_t lo;            /* first address it stands for (a run, te_enc_absorb) */
    uint64_t next_seq;      /* addr + size: the return address of a call */
    uint64_t context, time, cause, tval, trap_epc;
    uint64_t halfwords;     /* half-words this view stands for (resync) */
    uint8_t itype;          /* 4-bit itype; 0 for a block's first instruction */
    uint8_t priv, ctype, sijump;
    uint8_t trap;           /* 0, 1 exception, 2 interrupt taken after it */
    uint8_t is_branch, branch_taken;
    uint8_t notify;         /* trigger[2] */
    uint8_t no_prev;        /* a start or trap packet reported it */
} te_ins;

struct rvt_te_encoder {
    rvt_te_attrs a;
    rvt_te_byte_fn out;
    void *ctx;
    /* The window: prev and cur point into win, nxt at the free slot the
     * next view is written to (rotated, not copied, per view). */
    te_ins win[3];
    te_ins *prev, *cur, *nxt;
    bool has_prev, has_cur;
    /* Trace on/off by trigger[0]/[1] (table 4.5, 4.2.4): its own state,
     * apart from qualification and halted/reset, which only leave single
     * blocks untraced (docs/etrace.md "Qualification"). */
    bool trig_off;
    bool end_upd;           /* the end of trace would be ended_upd (6.5.1) */
    bool start;
    unsigned branches;
    uint32_t map;
    uint64_t resync_cnt, resync_max;
    uint64_t sync_time;     /* cycle count (rvt_irec.time) at the last sync */
    bool resync_due;
    bool hidden_jump;       /* an inferred jump since the last packet or branch */
    uint64_t steps;         /* te_enc_step calls */
    uint64_t rep_step;      /* the step whose instruction a packet last reported */
    uint64_t last_addr;
    rvt_flow_stack ret;     /* 3.2.5: stack (return_stack_size) or counter */
    bool returns_since_call, branch_since_return, last_was_ret;
    uint64_t ir_seen;       /* depths (mod 64) of implicit returns since the last packet */
    /* 6.6.3 depth reports: the instructions run since the last packet or
     * branch, as [lo, hi) ranges; span_n > TE_SPAN_MAX when they overflowed. */
    uint64_t span_lo[TE_SPAN_MAX], span_hi[TE_SPAN_MAX];
    unsigned span_n;
    te_bpjtc t;             /* predictor and jump target cache */
    bool bp_all_ok;         /* every branch in the map was predicted */
    uint64_t pbc;           /* 6.8: predicted branches counted (>= 31), 0 = map in use */
    /* Bits a record's address, privilege, context and time may not have
     * (table 9.1 widths; 0 where the field is not checked, check_fields). */
    uint64_t over_addr, over_priv, over_context, over_time;
    rvt_te_enc_stats stats;
    char why[96];           /* the value that did not fit its field */
};

int te_enc_emit(rvt_te_encoder *e, const rvt_te_pkt *p);
int te_enc_step(rvt_te_encoder *e, te_ins *p, te_ins *c, const te_ins *n);
/* Take the single-instruction record r into the current view when
 * te_enc_step would do nothing at the current instruction but count it:
 * true if absorbed (r then needs no view of its own). */
bool te_enc_absorb(rvt_te_encoder *e, const rvt_irec *r);
/* te_enc_absorb on each of recs[0..n) while it takes them (counted in
 * the stats): how many it took. */
size_t te_enc_absorb_many(rvt_te_encoder *e, const rvt_irec *recs, size_t n);
bool te_enc_absorb_span(rvt_te_encoder *e, const rvt_irec *first, const rvt_irec *last, size_t m, uint64_t hw);
/* Do the fields of a record that is not a trap fit their packet fields?
 * (The last instruction's address: iaddr for one instruction.) */
static inline bool te_enc_fits_plain(const rvt_te_encoder *e, const rvt_irec *r)
{
    return !((r->iaddr & e->over_addr) | (r->priv & e->over_priv) | (r->context & e->over_context) |
             (r->time & e->over_time));
}
int te_enc_sync(rvt_te_encoder *e, const te_ins *c);
int te_enc_trap(rvt_te_encoder *e, const te_ins *c, const te_ins *prev, bool epc_form);
int te_enc_support(rvt_te_encoder *e, bool enable, unsigned qual);
/* Branches not yet reported (map bits and counted predictions). */
static inline uint64_t te_enc_unreported(const rvt_te_encoder *e)
{
    return e->branches + e->pbc;
}

#endif
