/* Runs of instructions gathered from RVT_EV_INSN events (run.c), for the
 * writers with a block entry (out.h rvt_out_writer.block): consecutive
 * addresses, same privilege and hart, closed after a control transfer
 * (rvt_insn.jclass) or an instruction the image does not have, so that a
 * run is an rvt_block (rvtrace/flow.h) whatever fed it. */
#ifndef RVT_OUT_RUN_H
#define RVT_OUT_RUN_H

#include <stdbool.h>
#include "rvtrace/flow.h"
#include "rvtrace/image.h"

typedef struct rvt_out_run {
    rvt_image *img;
    rvt_block b;                /* the run so far (b.ninsn 0: none) */
    const rvt_insn *last;       /* its last instruction, NULL if unknown */
    uint64_t next;              /* where it goes on */
    bool closed;                /* the last instruction ends it */
    uint64_t context;           /* the last RVT_EV_CONTEXT's */
} rvt_out_run;

void rvt_out_run_init(rvt_out_run *r, rvt_image *img);
/* Adds the instruction of ev to the run; false (nothing done) when it
 * cannot go on the run: take the run, then add again. */
bool rvt_out_run_add(rvt_out_run *r, const rvt_flow_event *ev);
/* A non-instruction event passed (its context kept for the next run). */
void rvt_out_run_event(rvt_out_run *r, const rvt_flow_event *ev);
/* The run into *b and a new one started; false if there was none.  end
 * and next_pc: what came after it (next_pc: the next instruction, for
 * RVT_BLK_DISCON; end is then refined from the last instruction). */
bool rvt_out_run_take(rvt_out_run *r, uint8_t end, uint64_t next_pc, rvt_block *b);
/* The block end an event of this kind makes (RVT_BLK_TRAP, ...). */
uint8_t rvt_out_run_end_of(uint8_t ev_kind);

#endif
