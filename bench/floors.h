/* The lower bounds of te_floor.h (E-Trace) and nt_floor.h (N-Trace HTM),
 * fed together from one ingress sink.  Include as "floors.h" (bench only). */
#ifndef RVT_BENCH_FLOORS_H
#define RVT_BENCH_FLOORS_H

#include "nt_floor.h"
#include "te_floor.h"

typedef struct floors {
    te_floor te;
    nt_floor nt;
} floors;

/* NULL when out of memory (the N-Trace bound's return stack is 64 KiB). */
floors *floors_new(void);
void floors_free(floors *f);
/* An rvt_irec_sink feeding both. */
rvt_irec_sink floors_sink(floors *f);

#endif
