/* Trace filter internals shared by the files of src/filter. */
#ifndef RVT_FILTER_INT_H
#define RVT_FILTER_INT_H

#include "rvtrace/filter.h"

/* The inputs a comparator sees for one block or one data access.  iaddr is
 * a range: a block is matched if any of its instructions is (E-Trace 4.3,
 * "all instructions in a block are traced if any ... match"). */
typedef struct flt_inputs {
    uint64_t iaddr_lo, iaddr_hi;
    uint64_t context, tval, daddr;
    bool has_daddr;          /* a data access: daddr comparators take part */
} flt_inputs;

struct rvt_filter {
    rvt_filter_cfg cfg;
    rvt_irec_sink down;
    bool on;                 /* trigger state: trace-on .. trace-off */
    bool block_on;           /* the last block was inside trace-on */
    bool latched[RVT_FILTER_COMPARATORS];
    bool cmp_out[RVT_FILTER_COMPARATORS];  /* for the last block */
    bool region[RVT_FILTER_FILTERS];       /* inside a matching trap handler */
    uint32_t depth[RVT_FILTER_FILTERS];    /* traps nested inside it */
    uint64_t tval;           /* the last trap's tval, held (docs/filter.md) */
    uint64_t context;
    uint8_t priv;
    /* Split loads (E-Trace 4.3): a response is traced iff its request was,
     * whatever the filters say when it arrives; one bit per lrid. */
    uint64_t req_passed[65536 / 64];
    rvt_filter_stats st;
    rvt_irec buf[256];
    rvt_drec dbuf[256];
};

/* Comparator unit k on inputs in; updates its latch.  notify gets the
 * watchpoint flag (pNotify/sNotify that matched). */
bool flt_cmp_eval(rvt_filter *f, unsigned k, const flt_inputs *in, bool *notify);
/* Filter n matches, given the comparator outputs; d is the data access or
 * NULL for an instruction block. */
bool flt_match(const rvt_filter *f, unsigned n, const bool *cmp_out, const rvt_drec *d);
/* After a block: enter/leave the trap-handler regions of 2.4
 * matchEcause/matchInterrupt. */
void flt_regions_update(rvt_filter *f, const rvt_irec *r);

#endif
