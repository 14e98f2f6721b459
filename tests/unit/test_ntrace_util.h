/* Helpers shared by the N-Trace unit tests: capture the encoder's bytes,
 * split them into messages, build ingress records and program images, and
 * decode a stream back to PCs. */
#ifndef TEST_NTRACE_UTIL_H
#define TEST_NTRACE_UTIL_H

#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"

/* ---- capture ---- */
typedef struct cap { uint8_t b[4096]; size_t n; } cap;
static inline int cap_put(void *ctx, const uint8_t *b, size_t n)
{
    cap *c = ctx;
    if (c->n + n > sizeof c->b) return RVT_ERR_LIMIT;
    memcpy(c->b + c->n, b, n);
    c->n += n;
    return 0;
}

static inline size_t parse(const cap *c, const rvt_nt_cfg *cfg, rvt_nt_msg *out, size_t max)
{
    rvt_nt_reader r;
    size_t k = 0;
    rvt_nt_reader_init(&r, c->b, c->n, cfg);
    while (k < max && rvt_nt_reader_next(&r, &out[k]) == 1)
        k++;
    return k;
}

static inline rvt_irec rec(uint64_t addr, uint32_t hw, unsigned itype, unsigned lastsize)
{
    rvt_irec r;
    memset(&r, 0, sizeof r);
    r.iaddr = addr;
    r.iretire = hw;
    r.ninstr = 1;
    r.itype = (uint8_t)itype;
    r.ilastsize = (uint8_t)lastsize;
    r.priv = 3;
    return r;
}

static inline size_t encode(const rvt_nt_cfg *cfg, const rvt_irec *r, size_t n, cap *c, rvt_nt_msg *msgs, size_t max)
{
    int st;
    c->n = 0;
    rvt_nt_encoder *e = rvt_nt_encoder_new(cfg, cap_put, c, &st);
    CHECK(e != NULL);
    if (!e) return 0;
    CHECK_EQ(rvt_nt_encoder_put(e, r, n), 0);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
    return parse(c, cfg, msgs, max);
}

static inline void put16(rvt_image *img, uint64_t a, uint16_t v)
{
    uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };
    rvt_image_add_bytes(img, a, b, 2, "t");
}
static inline void put32(rvt_image *img, uint64_t a, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    rvt_image_add_bytes(img, a, b, 4, "t");
}

/* ---- messages by hand ---- */
/* m encoded (rvt_nt_msg_encode) after the n bytes of buf (cap in all):
 * the new length. */
static inline size_t msg_put(const rvt_nt_msg *m, const rvt_nt_cfg *cfg, uint8_t *buf, size_t n,
                             size_t cap)
{
    int k = rvt_nt_msg_encode(m, cfg, buf + n, cap - n);
    CHECK(k > 0);
    return n + (size_t)(k > 0 ? k : 0);
}

typedef struct pcs { uint64_t pc[64]; size_t n; uint64_t errors; } pcs;
static inline int pcs_ev(void *ctx, const rvt_flow_event *ev)
{
    pcs *p = ctx;
    if (ev->kind == RVT_EV_INSN && p->n < 64) p->pc[p->n++] = ev->pc;
    if (ev->kind == RVT_EV_ERROR) p->errors++;
    return 0;
}

/* Decode c with img and compare to the executed PCs. */
static inline void decode_back(const rvt_nt_cfg *cfg, rvt_image *img, const cap *c,
                        const uint64_t *want, size_t n)
{
    int st;
    pcs p = {0};
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, pcs_ev, &p, &st);
    CHECK_EQ(rvt_nt_decode(d, c->b, c->n), 0);
    rvt_nt_decoder_free(d);
    CHECK_EQ(p.errors, 0);
    CHECK_EQ(p.n, n);
    for (size_t i = 0; i < n && i < p.n; i++)
        CHECK_EQ(p.pc[i], want[i]);
}

#endif
