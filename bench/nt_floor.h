/* A lower bound on the size of any N-Trace 1.0.0-rc7 HTM instruction trace
 * of a run (one hart, no SRC, no timestamps), whatever the encoder's
 * options, counted from the ingress records alone.  The N-Trace twin of
 * te_floor.h.
 *
 * Every event below needs an IndirectBranch(Hist) message of its own
 * (table 3, ch. 10 rules 4 and 7): TCODE fills the first byte's six MDO
 * bits, B-TYPE (fixed) and I-CNT (variable) share at least one byte that
 * ends I-CNT with MSEO=01, and U-ADDR needs at least one more byte, the
 * one with MSEO=11 (3.1: one MSEO end code per field).  So the bound
 * charges 24 bits per message whether or not a variable field may be
 * empty, plus 8 when a conditional branch retired since the previous
 * message: its history bit travels in a HIST field (one more byte) or in
 * a ResourceFull message (at least 16 bits) before it.  The events:
 * - each exception or interrupt;
 * - xRET, and each uninferable jump, call or tail call that is not
 *   sequentially inferable (9.1; any sijump counts as inferable here);
 * - each return and co-routine swap whose target is not the top of an
 *   implicit-return stack with full addresses (9.2 mode 3) of
 *   NT_FLOOR_STACK entries (9.2 says never deeper than 32), never reset:
 *   only the first sync is counted (periodic sync is optional);
 * - a discontinuity whose target traps before retiring anything may share
 *   the trap's message, so it is not counted.
 * 9.3: a message equal to the previous one costs nothing, each run of them
 * 16 bits (a RepeatBranch: TCODE and B-CNT).  Equality is assumed whenever
 * B-TYPE, I-CNT and U-ADDR agree (HIST is not compared), which can only
 * lower the bound.  The first ProgTraceSync costs 64 bits: TCODE, a byte
 * for SYNC and I-CNT, and an F-ADDR of 31 significant bits (every workload
 * starts at 0x80000000 or above) in six bytes.  Branch history itself,
 * I-CNT overflows and the closing ProgTraceCorrelation are free.
 * Include as "nt_floor.h" (bench only). */
#ifndef RVT_BENCH_NT_FLOOR_H
#define RVT_BENCH_NT_FLOOR_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"

#define NT_FLOOR_STACK 8192u     /* 256 x the 9.2 limit of 32 levels */

typedef struct nt_floor {
    uint64_t bits;
    bool started;
    /* the forced event waiting for its target (the next record's iaddr) */
    bool pending;
    bool pend_is_return;         /* free if the target equals pend_ret */
    unsigned pend_btype;         /* 0 jump, 1 trap */
    uint64_t pend_ret;
    /* since the previous message */
    uint64_t icnt;               /* half-words retired (8.4.2) */
    bool branched;               /* a conditional branch retired */
    /* the previous message, for 9.3 repeats */
    bool have_prev, in_repeat;
    unsigned prev_btype;
    uint64_t prev_icnt, prev_uaddr, prev_addr;
    /* implicit-return stack, circular, drops the oldest entry */
    uint64_t stack[NT_FLOOR_STACK];
    unsigned top, depth;
} nt_floor;

void nt_floor_init(nt_floor *f);
/* Count one ingress record (bench/floors.h feeds both bounds). */
void nt_floor_put(nt_floor *f, const rvt_irec *r);
/* The bound in bits. */
uint64_t nt_floor_bits(const nt_floor *f);

#endif
