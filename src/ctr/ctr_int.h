/* Internal state of the CTR model (src/ctr/). */
#ifndef RVT_CTR_INT_H
#define RVT_CTR_INT_H

#include "rvtrace/ctr.h"

#define CTR_PHYS 256          /* physical entries: the largest depth (CTR 2.1) */

struct rvt_ctr {
    rvt_ctr_cfg cfg;
    uint64_t xmask;           /* MXLEN mask */
    uint64_t control;         /* mctrcontrol (CLR reads 0) */
    uint64_t status;          /* mctrstatus */
    rvt_ctr_entry e[CTR_PHYS];
    uint64_t elapsed[CTR_PHYS];   /* exact qualified cycles behind each CC (RASEMU pops) */
    /* CTR 5.3: qualified cycles since the last record */
    uint64_t acc;             /* counted so far */
    uint64_t last;            /* hart cycle of the last accounting */
    bool ccv_lost;            /* ctrcontrol was written: next record has CCV=0 */
};

/* ctr_record.c: credit cycles since the last call to mode `priv`. */
void ctr_account(rvt_ctr *c, unsigned priv, uint64_t now);
bool ctr_mode_enabled(const rvt_ctr *c, unsigned priv);
unsigned ctr_depth_of(uint64_t control);
/* ctr_csr.c: zero the entries and mctrstatus (the CLR bit). */
void ctr_clear(rvt_ctr *c);

#endif
