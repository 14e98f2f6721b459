/* Split data interface bookkeeping (E-Trace 4.3, table 4.9): the table of
 * outstanding transfers the data encoder and decoder keep by index, so
 * that a response (lid) finds its request (lrid).  Table 4.9: at most one
 * load in progress per ID. */
#include <string.h>
#include "etrace/data_int.h"

void rvt_te_split_init(rvt_te_split *t)
{
    memset(t->busy, 0, sizeof t->busy);
    memset(t->sizes, RVT_TE_NO_ATOMIC, sizeof t->sizes);
}

unsigned rvt_te_split_ids(const rvt_te_attrs *a)
{
    return a->split_loads ? 1u << a->index_width : RVT_TE_SPLIT_IDS;
}

bool rvt_te_drec_splits(const rvt_drec *d)
{
    return d->dtype == RVT_DTYPE_LOAD ||
           (d->dtype >= RVT_DTYPE_AMO_SWAP && d->dtype <= RVT_DTYPE_AMO_MIN);
}

unsigned rvt_te_split_outstanding(const rvt_te_split *t)
{
    unsigned open = 0;
    for (unsigned i = 0; i < RVT_TE_SPLIT_IDS; i++)
        open += t->busy[i];
    return open;
}
