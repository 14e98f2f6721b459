/* Folded call stacks from a decoded flow: "outer;caller;leaf COUNT" lines,
 * the input format of flame-graph tools (flamegraph.pl, inferno, speedscope).
 * COUNT is the number of instructions retired with that stack. */
#ifndef RVT_OUT_FOLDED_H
#define RVT_OUT_FOLDED_H

#include <stdio.h>
#include "rvtrace/out.h"

typedef struct rvt_folded rvt_folded;

rvt_folded *rvt_folded_new(rvt_image *img);
void rvt_folded_event(rvt_folded *fo, const rvt_flow_event *ev);
/* Every distinct stack, in the order first seen; then, when calls went
 * deeper than the 1,024 frames kept, a final "# rvtrace: ..." line with
 * how many instructions ran deeper and the deepest stack. */
void rvt_folded_write(const rvt_folded *fo, FILE *f);
void rvt_folded_free(rvt_folded *fo);

#endif
