/* `decode --write-thread` (decode_pipe.c): the decoder pulled on the
 * calling thread, its batches of blocks written by the outputs on a
 * second thread meanwhile (issue #18: the outputs at the decoder's speed
 * in wall time, when a core is free). */
#ifndef RVT_CLI_DECODE_PIPE_H
#define RVT_CLI_DECODE_PIPE_H

#include "rvtrace/proto.h"

/* rvt_proto_decoder_pump_blocks with on_blocks on a thread of its own:
 * the same calls with the same blocks in the same order, an event only
 * once every block before it is written (on_event runs on the calling
 * thread while the writer waits), so the output is the same byte for
 * byte.  Once on_blocks returns nonzero it is called no more and that
 * value comes back (the decoder may have run a few batches further).
 * Without a thread (pthread_create failed), pump_blocks itself. */
int decode_pipe_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_blocks_fn on_blocks, void *ctx);

#endif
