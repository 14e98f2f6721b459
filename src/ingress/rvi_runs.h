/* The .rvi reader's version-2 runs handed out whole, for a sink that
 * takes steps (rvt_irec_sink.steps; rvt_rvi_replay). */
#ifndef RVT_INGRESS_RVI_RUNS_H
#define RVT_INGRESS_RVI_RUNS_H

#include "rvtrace/ingress.h"
#include "ingress/rvi_format.h"

/* From now on rvt_rvi_reader_blocks stops before the steps of a run
 * record instead of making records of them. */
void rvi_reader_keep_runs(rvt_rvi_reader *r);
/* The pending steps of a run record (0 when none): the block before them
 * in *prev, step i's ilastsize in bit i of sizes (LSB first).  They count
 * as read. */
size_t rvi_reader_take_run(rvt_rvi_reader *r, rvt_irec *prev, uint8_t sizes[RVI_RUN_MAX / 8]);

#endif
