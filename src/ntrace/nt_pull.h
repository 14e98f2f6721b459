/* The N-Trace decoder's pull core (flow/flow_pull.h), which
 * rvt_nt_decoder_set_input starts: the one front that its pull calls
 * (ntrace.h) and the protocol decoder's (proto.h, proto_decoder.c) both
 * call.  NULL for d NULL (the pull calls answer RVT_ERR_INVAL).
 *
 * Internal header: include as "ntrace/nt_pull.h". */
#ifndef RVT_NT_PULL_H
#define RVT_NT_PULL_H

#include "rvtrace/ntrace.h"
#include "flow/flow_pull.h"

rvt_flow_pull *rvt_nt_decoder_pull(rvt_nt_decoder *d);

#endif
