/* rvtrace pull-style flow decoding, common to E-Trace and N-Trace (issue
 * #14; the shape of libipt's block decoder with its instruction decoder
 * built on it).  A decoder given its input (rvt_te_decoder_set_input,
 * rvt_nt_decoder_set_input) is asked for what comes next:
 *
 *   ..._next_block(d, &blk)  the next straight-line block of retired
 *                            instructions, with why it ended;
 *   ..._next_insn(d, &in)    the next retired instruction (walks the
 *                            blocks through the program image);
 *   ..._next_event(d, &ev)   the next non-instruction event (sync, trap,
 *                            privilege, loss, error, end...), if one comes
 *                            before the next instruction.
 *
 * The three draw from one ordered stream: an event not taken with
 * next_event before the following next_block/next_insn call is dropped.
 * Each returns > 0 when it got one, 0 when the input is used up (or, for
 * next_event, when an instruction comes first), < 0 on an error
 * (RVT_ERR_INVAL for a NULL argument or a decoder without input,
 * RVT_ERR_NOMEM).  Stream problems are events (RVT_EV_ERROR, RVT_EV_LOST,
 * with byte offsets), never a negative status. */
#ifndef RVTRACE_FLOW_H
#define RVTRACE_FLOW_H

#include <stdint.h>
#include "rvtrace/isa.h"
#include "rvtrace/out.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a block ended: its last instruction, or what came after it. */
typedef enum rvt_block_end {
    RVT_BLK_BRANCH_TAKEN = 1,   /* a conditional branch, taken */
    RVT_BLK_BRANCH_NOT_TAKEN,   /* a conditional branch, not taken */
    RVT_BLK_JUMP,               /* a jump (neither call nor return) */
    RVT_BLK_CALL,               /* a call (the protocol's is_call) */
    RVT_BLK_RETURN,             /* a return (the protocol's is_return) */
    RVT_BLK_DISCON,             /* the next instruction is elsewhere for a reason
                                   the instruction does not give (no code known
                                   at end_pc, a fence.i/ecall/mret path) */
    RVT_BLK_TRAP,               /* an exception was taken (RVT_EV_TRAP follows) */
    RVT_BLK_INTERRUPT,          /* an interrupt was taken (RVT_EV_INTERRUPT) */
    RVT_BLK_RESYNC,             /* the decoder resynchronised (RVT_EV_SYNC) */
    RVT_BLK_LOSS,               /* a decode error or lost trace (RVT_EV_ERROR/LOST) */
    RVT_BLK_STOP,               /* the encoder ended the trace (RVT_EV_STOP) */
    RVT_BLK_EVENT,              /* another event (privilege, context, time,
                                   notify); the next block may go straight on */
    RVT_BLK_END,                /* end of the stream (RVT_EV_END) */
    RVT_BLK_SEAM,               /* only where a piece of a stream is cut
                                   (rvt_te_decoder_set_input_piece: a piece's
                                   first block; rvt_nt_decoder_set_input_piece:
                                   its last): the block goes on with the next
                                   block retired, which a decoder of the whole
                                   stream has in the same block */
} rvt_block_end;

/* A run of instructions retired one after the other at consecutive
 * addresses (only its last one may transfer control). */
typedef struct rvt_block {
    uint64_t start_pc;          /* first instruction */
    uint64_t end_pc;            /* last instruction */
    uint64_t ninsn;             /* instructions in the block (>= 1) */
    uint64_t next_pc;           /* the instruction retired after end_pc, when
                                   end is a branch, jump, call, return or
                                   DISCON; else end_pc */
    uint64_t context;           /* the last RVT_EV_CONTEXT's value of its
                                   source (src), 0 before */
    uint64_t offset;            /* byte offset of the packet/message that
                                   produced the first instruction */
    uint8_t end;                /* rvt_block_end */
    uint8_t priv;               /* privilege the block ran in */
    uint16_t src;               /* N-Trace SRC (hart), 0 for E-Trace */
} rvt_block;

/* One retired instruction, from next_insn. */
typedef struct rvt_flow_insn {
    uint64_t pc;
    const rvt_insn *insn;       /* decoded, from the decoder's image */
    uint64_t context;
    uint64_t offset;            /* as its block's */
    uint8_t priv;
    uint16_t src;
} rvt_flow_insn;

#ifdef __cplusplus
}
#endif
#endif
