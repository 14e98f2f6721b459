/* A programs/ workload traced by the hart in process into an E-Trace or
 * N-Trace stream in memory (the protocol's encoder over cfg), for unit
 * tests that decode or index real streams. */
#ifndef RVT_TEST_STREAM_UTIL_H
#define RVT_TEST_STREAM_UTIL_H

#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "test_etrace_util.h"
#include "test_hart_util.h"

static inline void th_te_stream(rvt_proto_cfg *c, rvt_image *img, te_buf *out, uint64_t max_instr)
{
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(rvt_proto_cfg_native(c), te_buf_put, out, &st);
    CHECK(e != NULL);
    rvt_irec_sink sink = rvt_te_encoder_sink(e);
    th_trace(img, &sink, max_instr);
    rvt_te_encoder_free(e);
}

static inline void th_nt_stream(rvt_proto_cfg *c, rvt_image *img, te_buf *out, uint64_t max_instr)
{
    int st = 0;
    rvt_nt_encoder *e = rvt_nt_encoder_new(rvt_proto_cfg_native(c), te_buf_put, out, &st);
    CHECK(e != NULL);
    rvt_irec_sink sink = rvt_nt_encoder_sink(e);
    th_trace(img, &sink, max_instr);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
}

/* One message m encoded with c (NULL: the defaults) at the end of s: its
 * offset (hand-built N-Trace streams). */
static inline uint64_t th_nt_put(te_buf *s, const rvt_nt_cfg *c, const rvt_nt_msg *m)
{
    uint8_t b[RVT_NT_MAX_MSG];
    int n = rvt_nt_msg_encode(m, c, b, sizeof b);
    CHECK(n > 0);
    uint64_t at = s->n;
    te_buf_put(s, b, n > 0 ? (size_t)n : 0);
    return at;
}

#endif
