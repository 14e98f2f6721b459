/* The pull call next_insns in a batch (proto.h): one call fills an array,
 * so that callers for whom a call costs much (Python over cffi, issue 18)
 * pay it once per batch.  (next_blocks is the protocol decoder's own batch
 * call, proto_decoder.c.) */
#include "rvtrace/proto.h"

typedef int (*pull_fn)(rvt_proto_decoder *d, void *out);

static int batch(rvt_proto_decoder *d, void *out, size_t size, size_t max, pull_fn next)
{
    if (!d || !out)
        return RVT_ERR_INVAL;
    size_t n = 0;
    int st = 1;
    if (max > INT32_MAX)
        max = INT32_MAX;
    while (n < max && (st = next(d, (char *)out + n * size)) > 0)
        n++;
    /* what was got counts; an error after it comes again on the next call */
    return n ? (int)n : st;
}

static int next_insn(rvt_proto_decoder *d, void *out)
{
    return rvt_proto_decoder_next_insn(d, out);
}

int rvt_proto_decoder_next_insns(rvt_proto_decoder *d, rvt_flow_insn *out, size_t max)
{
    return batch(d, out, sizeof *out, max, next_insn);
}
