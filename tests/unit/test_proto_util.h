/* Shared helpers of the tests that decode through the protocol registry
 * (test_proto_decoder.c, test_decoder_batch.c): a protocol's settings for
 * a program and that program's stream, traced by the hart in process. */
#ifndef TEST_PROTO_UTIL_H
#define TEST_PROTO_UTIL_H

#include <stdbool.h>
#include "rvtrace/mem.h"
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

/* A programs/ ELF traced in one protocol: its image, an rvt_mem over it,
 * the settings and the stream. */
typedef struct th_proto_case {
    rvt_image *img;
    rvt_mem *mem;
    rvt_proto_cfg *cfg;
    te_buf s;
} th_proto_case;

/* False (a failed check) when the program does not load. */
static inline bool th_proto_case_open(th_proto_case *k, const char *proto, const char *prog)
{
    *k = (th_proto_case){ .img = th_program(prog) };
    CHECK(k->img != NULL);
    if (!k->img)
        return false;
    k->mem = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(k->mem, NULL, k->img), 0);
    k->cfg = th_proto_config(proto, k->img);
    th_proto_stream(k->cfg, k->img, &k->s);
    return true;
}

static inline void th_proto_case_close(th_proto_case *k)
{
    free(k->s.b);
    rvt_proto_cfg_free(k->cfg);
    rvt_mem_free(k->mem);
    rvt_image_free(k->img);
}

#endif
