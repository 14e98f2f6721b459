/* Folded call stacks from a decoded flow: "outer;caller;leaf COUNT" lines,
 * the input format of flame-graph tools (flamegraph.pl, inferno, speedscope).
 * COUNT is the number of instructions retired with that stack. */
#ifndef RVT_OUT_FOLDED_H
#define RVT_OUT_FOLDED_H

#include <stdio.h>
#include "rvtrace/out.h"
#include "out/callstack.h"

typedef struct rvt_folded rvt_folded;

rvt_folded *rvt_folded_new(rvt_image *img);
void rvt_folded_event(rvt_folded *fo, const rvt_flow_event *ev);
/* The same for an RVT_EV_INSN at pc (the hot path). */
void rvt_folded_insn(rvt_folded *fo, uint64_t pc);
/* Every distinct stack, in the order first seen; then, when calls went
 * deeper than the 1,024 frames kept, a final "# rvtrace: ..." line with
 * how many instructions ran deeper and the deepest stack. */
void rvt_folded_write(const rvt_folded *fo, FILE *f);
void rvt_folded_free(rvt_folded *fo);
/* One distinct stack: names[0..n) outermost first, the leaf last; the
 * instructions retired and the time (RVT_EV_TIME units, e.g. cycles)
 * spent with it. */
typedef void (*rvt_folded_fn)(void *ctx, const char *const *names, uint32_t n, uint64_t insns,
                              uint64_t cycles);
/* Every stack with instructions or time, in the order first seen. */
void rvt_folded_each(const rvt_folded *fo, rvt_folded_fn fn, void *ctx);
/* Instructions that ran deeper than the frames named (RVT_CS_MAX_DEPTH). */
uint64_t rvt_folded_deep_insns(const rvt_folded *fo);
/* The call-stack tracker inside (the current leaf, depth, effect). */
const rvt_callstack *rvt_folded_stack(const rvt_folded *fo);

#endif
