/* Shared helpers of the tests that decode through the protocol registry
 * (test_proto_decoder.c, test_decoder_batch.c): a protocol's settings for
 * a program and that program's stream, traced by the hart in process. */
#ifndef TEST_PROTO_UTIL_H
#define TEST_PROTO_UTIL_H

#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "test_etrace_util.h"
#include "test_hart_util.h"

/* The protocol's settings: defaults, the ELF's XLEN, the filled policies
 * (what rvtrace encode and decode use). */
static inline rvt_proto_cfg *th_proto_config(const char *proto, const rvt_image *img)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find(proto));
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ(rvt_proto_cfg_input_xlen(c, rvt_image_xlen(img)), 0);
        CHECK_EQ(rvt_proto_cfg_fill(c), 0);
    }
    return c;
}

/* img run by the hart (at most 300000 instructions) into the protocol's
 * encoder with c's settings, the stream into *out. */
static inline void th_proto_stream(rvt_proto_cfg *c, rvt_image *img, te_buf *out)
{
    int st = 0;
    if (rvt_proto_name(rvt_proto_cfg_proto(c))[0] == 'e') {
        rvt_te_encoder *e = rvt_te_encoder_new(rvt_proto_cfg_native(c), te_buf_put, out, &st);
        CHECK(e != NULL);
        rvt_irec_sink sink = rvt_te_encoder_sink(e);
        th_trace(img, &sink, 300000);
        rvt_te_encoder_free(e);
    } else {
        rvt_nt_encoder *e = rvt_nt_encoder_new(rvt_proto_cfg_native(c), te_buf_put, out, &st);
        CHECK(e != NULL);
        rvt_irec_sink sink = rvt_nt_encoder_sink(e);
        th_trace(img, &sink, 300000);
        CHECK_EQ(rvt_nt_encoder_end(e), 0);
        rvt_nt_encoder_free(e);
    }
}

#endif
