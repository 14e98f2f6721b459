/* Branch predictor and jump target cache tables (E-Trace 3.2.6, 3.2.7). */
#include <stdlib.h>
#include <string.h>
#include "etrace/bpjtc.h"

int te_bpjtc_init(te_bpjtc *t, const rvt_te_attrs *a)
{
    memset(t, 0, sizeof *t);
    /* Indexed by address bits size:1, or size+1:2 without compressed
     * instructions: the iaddress_lsb bits are dropped. */
    t->lsb = a->iaddress_lsb;
    if ((a->options & RVT_TE_OPT_BRANCH_PRED) && a->bpred_size) {
        t->bp_bits = a->bpred_size;
        if (!(t->bp = malloc(1ull << t->bp_bits)))
            return RVT_ERR_NOMEM;
    }
    if ((a->options & RVT_TE_OPT_JTC) && a->cache_size) {
        t->jtc_bits = a->cache_size;
        if (!(t->jtc = malloc((1ull << t->jtc_bits) * sizeof *t->jtc))) {
            te_bpjtc_free(t);
            return RVT_ERR_NOMEM;
        }
    }
    te_bpjtc_reset(t);
    return 0;
}

void te_bpjtc_free(te_bpjtc *t)
{
    free(t->bp);
    free(t->jtc);
    t->bp = NULL;
    t->jtc = NULL;
}

void te_bpjtc_reset(te_bpjtc *t)
{
    if (t->bp)
        memset(t->bp, 1, 1ull << t->bp_bits);
    if (t->jtc)
        memset(t->jtc, 0, (1ull << t->jtc_bits) * sizeof *t->jtc);
}

bool te_jtc_see(te_bpjtc *t, uint64_t target, uint32_t *index)
{
    uint32_t i = (uint32_t)((target >> t->lsb) & ((1ull << t->jtc_bits) - 1));
    *index = i;
    /* Targets are at least 2-byte aligned: bit 0 marks a valid entry. */
    if (t->jtc[i] == (target | 1))
        return true;
    t->jtc[i] = target | 1;
    return false;
}

bool te_jtc_get(const te_bpjtc *t, uint32_t index, uint64_t *target)
{
    if (!t->jtc || index >= (1ull << t->jtc_bits) || !(t->jtc[index] & 1))
        return false;
    *target = t->jtc[index] & ~1ull;
    return true;
}
