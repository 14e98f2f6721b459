/* Ingress records (ingress.h) as flow events (out.h): the bridge that lets
 * every output writer (listing, folded, report, timeline, ...) take the
 * hart's run or an imported .rvi file the way it takes a decoded trace.
 * Each block's instructions are walked through the image and delivered as
 * RVT_EV_INSN; privilege and context changes as RVT_EV_PRIV/CONTEXT; the
 * block's retirement time (the hart's cycle count) as RVT_EV_TIME when it
 * changes; a block ending in an exception or interrupt (itype 1/2) as
 * RVT_EV_TRAP/INTERRUPT (pc = the handler, the next block's address;
 * aux = cause, aux2 = tval); unqualified blocks (filters) as one
 * RVT_EV_STOP; and RVT_EV_END at the end. */
#ifndef RVTRACE_IREC_FLOW_H
#define RVTRACE_IREC_FLOW_H

#include <stdint.h>
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "rvtrace/out.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rvt_irec_flow rvt_irec_flow;
/* A bridge delivering to fn(ctx, ev); NULL when out of memory. */
rvt_irec_flow *rvt_irec_flow_new(rvt_image *img, rvt_flow_fn fn, void *ctx);
/* The sink to feed (put, end; data accesses are ignored). */
rvt_irec_sink rvt_irec_flow_sink(rvt_irec_flow *f);
/* Instructions delivered so far. */
uint64_t rvt_irec_flow_insns(const rvt_irec_flow *f);
void rvt_irec_flow_free(rvt_irec_flow *f);

#ifdef __cplusplus
}
#endif
#endif
