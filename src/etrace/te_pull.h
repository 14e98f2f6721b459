/* The E-Trace decoder's pull core (flow/flow_pull.h), which
 * rvt_te_decoder_set_input starts: the one front that its pull calls
 * (etrace.h) and the protocol decoder's (proto.h, proto_decoder.c) both
 * call.  NULL for d NULL (the pull calls answer RVT_ERR_INVAL).
 *
 * Internal header: include as "etrace/te_pull.h". */
#ifndef RVT_TE_PULL_H
#define RVT_TE_PULL_H

#include "rvtrace/etrace.h"
#include "flow/flow_pull.h"

rvt_flow_pull *rvt_te_decoder_pull(rvt_te_decoder *d);

#endif
