/* A lower bound on the size of any E-Trace 1.1.1 instruction trace of a run,
 * whatever the encoder's options, counted from the ingress records alone.
 *
 * Every event below forces a te_inst packet of its own (E-Trace ch. 8),
 * and a packet in the bench's container is at least 16 bits (a header
 * byte and one payload byte); the bound charges exactly that and counts
 * nothing else (every conditional branch, the support packets, the packet
 * at trace end are free):
 * - the first sync (format 3 subformat 0 with the full start address):
 *   48 bits, a header and 5 bytes for 2+2+1+2 bits of fields and an
 *   address of 31 significant bits -- every workload starts at 0x40000000
 *   or above, so the bound uses 48 for all;
 * - each exception or interrupt (format 3 subformat 1);
 * - each uninferable PC discontinuity the options cannot make inferable
 *   (3.1.2, 8): xRET, and every uninferable jump, call, tail call and
 *   co-routine swap except the sequentially inferable ones (3.2.4);
 * - each return that implicit return mode (3.2.5) cannot treat as
 *   inferable: one whose call came before the last synchronisation packet
 *   (the call counter and stack are reset by every format 3 packet, so by
 *   every trap).  The counter here is unbounded (any stack size);
 * - a discontinuity whose target traps before retiring anything shares the
 *   trap's packet (the 2.0 layout's thaddr=0 form), so it is not counted.
 * Jump target cache hits still cost a packet (3.2.7: format 0 replaces
 * the address with an index).  Include as "te_floor.h" (bench only). */
#ifndef RVT_BENCH_TE_FLOOR_H
#define RVT_BENCH_TE_FLOOR_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"

typedef struct te_floor {
    uint64_t traps;           /* exceptions and interrupts */
    uint64_t discons;         /* forced uninferable discontinuities */
    uint64_t depth;           /* calls since the last trap (3.2.5) */
    bool last_discon;         /* the previous record ended with one */
} te_floor;

void te_floor_init(te_floor *f);
/* Count one ingress record (bench/floors.h feeds both bounds). */
void te_floor_put(te_floor *f, const rvt_irec *r);
/* The bound in bits. */
uint64_t te_floor_bits(const te_floor *f);

#endif
