/* Several harts on one board (docs/hart.md "Several harts"): N reference
 * harts with mhartid 0..N-1, each with its own registers, CSRs, TLB,
 * reservation and ingress sink, sharing RAM and the devices of QEMU's
 * virt board (ACLINT msip/mtimecmp per hart, PLIC contexts 2i = hart i
 * M-mode, 2i+1 = hart i S-mode).  They run one after the other, a fixed
 * quantum of instructions each (round-robin, deterministic); wfi parks a
 * hart until an interrupt is pending for it. */
#ifndef RVTRACE_SMP_H
#define RVTRACE_SMP_H

#include <stdint.h>
#include "rvtrace/hart.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RVT_SMP_MAX_HARTS 8u
#define RVT_SMP_DEFAULT_QUANTUM 1000u   /* instructions per turn */

typedef struct rvt_smp rvt_smp;

/* n (1..RVT_SMP_MAX_HARTS) harts: hart i made from cfg[i] (its own sink
 * and hooks; hartid and nharts are set here: i and n, and the board's
 * settings -- RAM, devices, device tree, image -- are hart 0's).
 * quantum 0 = RVT_SMP_DEFAULT_QUANTUM.  With n = 1 this is
 * rvt_hart_new(cfg) and runs exactly like it.  NULL with *status set on
 * error. */
rvt_smp *rvt_smp_new(const rvt_hart_cfg *cfg, unsigned n, uint64_t quantum, rvt_image *img,
                     int *status);
void rvt_smp_free(rvt_smp *s);
/* Run at most `steps` instructions of all harts together (0 = until one
 * exits, stops or fails).  Returns an rvt_hart_stop of the hart that
 * stopped (rvt_smp_last() names it) or a negative status. */
int rvt_smp_run(rvt_smp *s, uint64_t steps);
unsigned rvt_smp_count(const rvt_smp *s);
rvt_hart *rvt_smp_hart(const rvt_smp *s, unsigned i);
/* The hart that ran last (the one that exited, stopped or failed). */
rvt_hart *rvt_smp_last(const rvt_smp *s);
/* rvt_hart_finish() of every hart; the first error. */
int rvt_smp_finish(rvt_smp *s);

#ifdef __cplusplus
}
#endif
#endif
