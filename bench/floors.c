/* One ingress sink for both size bounds (floors.h). */
#include <stdlib.h>
#include "floors.h"

floors *floors_new(void)
{
    floors *f = malloc(sizeof *f);
    if (f) {
        te_floor_init(&f->te);
        nt_floor_init(&f->nt);
    }
    return f;
}

void floors_free(floors *f)
{
    free(f);
}

static int floors_put(void *ctx, const rvt_irec *recs, size_t n)
{
    floors *f = ctx;
    for (size_t i = 0; i < n; i++) {
        te_floor_put(&f->te, &recs[i]);
        nt_floor_put(&f->nt, &recs[i]);
    }
    return 0;
}

rvt_irec_sink floors_sink(floors *f)
{
    rvt_irec_sink s = { f, floors_put, NULL, NULL };   /* no data, nothing to end */
    return s;
}
