/* The branch predictor (E-Trace 3.2.6), the jump target cache (3.2.7) and
 * the trap handler addresses of implicit exception mode (3.2.3): the
 * encoder and the decoder each own one and feed it the same events, so
 * they stay identical. */
#ifndef RVT_ETRACE_BPJTC_H
#define RVT_ETRACE_BPJTC_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/etrace.h"

#define TE_TVEC_KEYS (4 * 17)

typedef struct te_bpjtc {
    uint8_t *bp;            /* 2-bit states, 2^bpred_size entries */
    uint64_t *jtc;          /* address | 1 when valid, 2^cache_size entries */
    unsigned bp_bits, jtc_bits, lsb;
    /* 3.2.3: handler addresses (| 1 when known) by privilege and cause,
     * learned from the explicit trap packets since the trace started. */
    uint64_t tvec[TE_TVEC_KEYS];
} te_bpjtc;

/* The handler of a trap into privilege priv: one per exception (the
 * tvec base) and one per interrupt cause (vectored mode). */
static inline unsigned te_tvec_key(unsigned priv, bool interrupt, uint64_t cause)
{
    return (priv & 3) * 17 + (interrupt ? 1 + (unsigned)(cause & 15) : 0);
}

/* Allocate the tables the attributes ask for (options and sizes). */
int te_bpjtc_init(te_bpjtc *t, const rvt_te_attrs *a);
void te_bpjtc_free(te_bpjtc *t);
/* A synchronisation packet: predictor entries to 01, cache invalid. */
void te_bpjtc_reset(te_bpjtc *t);

/* The entry for the branch at pc of a predictor table of mask + 1
 * entries indexed from bit lsb (3.2.6). */
static inline uint8_t *te_bp_at(uint8_t *bp, unsigned lsb, uint64_t mask, uint64_t pc)
{
    return &bp[(pc >> lsb) & mask];
}

static inline uint64_t te_bp_mask(const te_bpjtc *t)
{
    return (1u << t->bp_bits) - 1;
}

/* The predictor's entry for the branch at pc. */
static inline uint8_t *te_bp_entry(const te_bpjtc *t, uint64_t pc)
{
    return te_bp_at(t->bp, t->lsb, te_bp_mask(t), pc);
}

/* 3.2.6: the MSB of the entry is the prediction. */
static inline bool te_bp_predict(const te_bpjtc *t, uint64_t pc)
{
    return (*te_bp_entry(t, pc) >> 1) & 1;
}

/* 3.2.6 transitions of entry s: 00 -fail-> 01; 01 -ok-> 00, -fail-> 11;
 * 11 -fail-> 10; 10 -ok-> 11, -fail-> 00.  As a table [state][taken] of
 * 2-bit states, { { 0, 1 }, { 0, 3 }, { 0, 3 }, { 2, 3 } }, packed in one
 * constant (entry 2 * state + taken at bit 2 * that): a shift, not a load
 * that waits for the state's own (the decoder's run of branches). */
#define TE_BP_NEXT 0xECC4u
static inline void te_bp_learn(uint8_t *s, bool taken)
{
    *s = (uint8_t)((TE_BP_NEXT >> (4u * *s + 2u * taken)) & 3u);
}

/* te_bp_learn for a correct prediction (the counted branches of 6.8):
 * the entry saturates towards its MSB (00, 01 -> 00; 10, 11 -> 11), with
 * no lookup: two operations on the state. */
static inline void te_bp_confirm(uint8_t *s)
{
    *s = (uint8_t)((*s >> 1) * 3u);
}

static inline void te_bp_update(te_bpjtc *t, uint64_t pc, bool taken)
{
    te_bp_learn(te_bp_entry(t, pc), taken);
}

/* 3.2.7: look target up at its index; on a miss the entry is replaced.
 * Returns true on a hit, with the index in *index either way. */
bool te_jtc_see(te_bpjtc *t, uint64_t target, uint32_t *index);
/* The address in entry index, or false when the entry is invalid. */
bool te_jtc_get(const te_bpjtc *t, uint32_t index, uint64_t *target);

#endif
