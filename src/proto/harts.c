/* Several harts' records, one stream: replay by record time (rvtrace/proto.h;
 * N-Trace ch. 3: messages of different sources interleave whole). */
#include <stdlib.h>
#include "rvtrace/ingress.h"
#include "rvtrace/proto.h"

typedef struct hart_in {
    rvt_irec next;
    bool have;
} hart_in;

/* The next instruction record of reader r into h (data records skipped). */
static int advance(rvt_rvi_reader *r, hart_in *h)
{
    rvt_drec dr;
    bool is_data;
    int st;
    while ((st = rvt_rvi_reader_next(r, &h->next, &dr, &is_data)) == 1 && is_data)
        ;
    h->have = st == 1;
    return st < 0 ? st : 0;
}

static int merge(rvt_rvi_reader *const *in, unsigned n, const rvt_irec_sink *sinks, hart_in *h,
                 unsigned *bad)
{
    int st = 0;
    for (unsigned k = 0; k < n; k++)
        if ((st = advance(in[k], &h[k])) < 0)
            return *bad = k, st;
    for (;;) {
        unsigned best = n;
        for (unsigned k = 0; k < n; k++)
            if (h[k].have && (best == n || h[k].next.time < h[best].next.time))
                best = k;
        if (best == n)
            break;
        if ((st = sinks[best].put(sinks[best].ctx, &h[best].next, 1)) < 0 ||
            (st = advance(in[best], &h[best])) < 0)
            return *bad = best, st;
    }
    for (unsigned k = 0; k < n; k++)
        if (sinks[k].end && (st = sinks[k].end(sinks[k].ctx)) < 0)
            return *bad = k, st;
    return 0;
}

int rvt_merge_harts(rvt_rvi_reader *const *in, unsigned n, const rvt_irec_sink *sinks, unsigned *bad)
{
    unsigned dummy;
    if (!in || !sinks || !n)
        return RVT_ERR_INVAL;
    hart_in *h = calloc(n, sizeof *h);
    if (!h)
        return RVT_ERR_NOMEM;
    int st = merge(in, n, sinks, h, bad ? bad : &dummy);
    free(h);
    return st;
}
