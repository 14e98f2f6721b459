/* Shared helpers of the E-Trace unit tests: a small hand-assembled
 * program (encodings from binutils 2.40, riscv64-unknown-elf-as
 * -march=rv64i; each line carries its assembly), an encoder that collects
 * its stream in memory, and a decoder run that records every event. */
#ifndef TEST_ETRACE_UTIL_H
#define TEST_ETRACE_UTIL_H

#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/image.h"
#include "tharness.h"
#include "test_bytes_util.h"   /* te_buf: the encoder's output in memory */

#define TE_BASE 0x80000000ull

/* A loop of 300 iterations with a direct call on 3 of every 4 (a branch
 * inside the callee), an indirect call every iteration (not sequentially
 * inferable: the auipc is not right before it), then the test finisher.
 * The hart never reaches 0x58-0x60; the flow tests use them. */
static const uint32_t te_prog[] = {
    0x12c00413, /* 00 li    s0,300 */
    0x00000493, /* 04 li    s1,0 */
    0x00000917, /* 08 auipc s2,0x0 */
    0x04890913, /* 0c addi  s2,s2,0x48      s2 = 0x50, leaf2 */
    0x00347293, /* 10 loop: andi t0,s0,3 */
    0x00028463, /* 14 beqz  t0,1c <skip> */
    0x024000ef, /* 18 jal   ra,3c <leaf> */
    0x000900e7, /* 1c skip: jalr ra,0(s2) */
    0xfff40413, /* 20 addi  s0,s0,-1 */
    0xfe0416e3, /* 24 bnez  s0,10 <loop> */
    0x00100337, /* 28 lui   t1,0x100 */
    0x000053b7, /* 2c lui   t2,0x5 */
    0x5553839b, /* 30 addiw t2,t2,1365 */
    0x00732023, /* 34 sw    t2,0(t1)        test finisher: pass */
    0x0000006f, /* 38 spin: j 38 */
    0x00148493, /* 3c leaf: addi s1,s1,1 */
    0x0014fe13, /* 40 andi  t3,s1,1 */
    0x000e1463, /* 44 bnez  t3,4c */
    0x00348493, /* 48 addi  s1,s1,3 */
    0x00008067, /* 4c ret */
    0x0084c4b3, /* 50 leaf2: xor s1,s1,s0 */
    0x00008067, /* 54 ret */
    0x30200073, /* 58 mret                  (flow tests: a trap handler) */
    0x00000073, /* 5c ecall */
    0x00000013, /* 60 nop */
};

static inline rvt_image *te_image(const uint32_t *w, size_t n)
{
    rvt_image *img = rvt_image_new();
    if (img && rvt_image_add_bytes(img, TE_BASE, w, n * 4, "test") < 0) {
        rvt_image_free(img);
        img = NULL;
    }
    return img;
}

/* Encode n records into *out (reset first). */
static inline void te_encode_recs(const rvt_te_attrs *a, const rvt_irec *r, size_t n, te_buf *out)
{
    memset(out, 0, sizeof *out);
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(a, te_buf_put, out, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK_EQ(rvt_te_encoder_put(e, r, n), 0);
    CHECK_EQ(rvt_te_encoder_end(e), 0);
    rvt_te_encoder_free(e);
}

/* Decoder events, in order. */
typedef struct te_evs {
    rvt_flow_event *ev;
    size_t n, cap;
    size_t limit;           /* stop the decoder after this many events (0: none) */
} te_evs;

static inline int te_evs_put(void *ctx, const rvt_flow_event *ev)
{
    te_evs *e = ctx;
    if (e->limit && e->n >= e->limit)
        return 1;
    if (e->n == e->cap) {
        size_t cap = e->cap * 2 + 1024;
        rvt_flow_event *v = realloc(e->ev, cap * sizeof *v);
        if (!v)
            return 1;
        e->ev = v;
        e->cap = cap;
    }
    e->ev[e->n] = *ev;
    e->ev[e->n++].msg = NULL;       /* only valid during the callback */
    return 0;
}

/* Decode buf, in run mode (rvt_te_decoder_set_runs) or not; events into
 * *out (reset first).  Returns the run status. */
static inline int te_decode_as(const rvt_te_attrs *a, rvt_image *img, const uint8_t *buf, size_t len,
                               bool runs, te_evs *out)
{
    out->n = 0;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, te_evs_put, out, &st);
    CHECK(d != NULL);
    if (!d)
        return st;
    rvt_te_decoder_set_runs(d, runs);
    st = rvt_te_decoder_run(d, buf, len);
    rvt_te_decoder_free(d);
    return st;
}

/* Decode buf; events into *out (reset first).  Returns the run status. */
static inline int te_decode(const rvt_te_attrs *a, rvt_image *img, const uint8_t *buf, size_t len,
                            te_evs *out)
{
    return te_decode_as(a, img, buf, len, false, out);
}

#endif
