/* Bench: encapsulation cost (see encap_cost.h).  Both directions go
 * through the library's transport stage, as the CLI does. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rvtrace/transport.h"
#include "encap_cost.h"

typedef struct growbuf {
    uint8_t *b;
    size_t n, cap;
} growbuf;

static int put(void *ctx, const uint8_t *bytes, size_t n)
{
    growbuf *g = ctx;
    if (g->n + n > g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 1 << 20;
        while (cap < g->n + n)
            cap *= 2;
        uint8_t *nb = realloc(g->b, cap);
        if (!nb)
            return RVT_ERR_NOMEM;
        g->b = nb;
        g->cap = cap;
    }
    memcpy(g->b + g->n, bytes, n);
    g->n += n;
    return 0;
}

static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int wrap(const uint8_t *in, size_t len, const rvt_tp_config *c, growbuf *out)
{
    int st = 0;
    rvt_encap_writer *w = rvt_encap_writer_new(c, put, out, &st);
    rvt_transport *t = rvt_tp_new("refflow", NULL, in, len, &st);
    rvt_tp_frame f;
    while (w && t && (st = rvt_tp_next(t, &f)) > 0)
        if ((st = rvt_encap_write(w, 0, NULL, f.payload, f.len)) < 0)
            break;
    rvt_tp_free(t);
    rvt_encap_writer_free(w);
    return st;
}

static int unwrap(const growbuf *in, const rvt_tp_config *c, growbuf *out)
{
    int st = 0;
    rvt_transport *t = rvt_tp_new("encap", c, in->b, in->n, &st);
    rvt_tp_frame f;
    while (t && (st = rvt_tp_next(t, &f)) > 0) {
        uint8_t h = (uint8_t)(2u << 5 | f.len);    /* te_inst header */
        if (put(out, &h, 1) < 0 || put(out, f.payload, f.len) < 0)
            st = RVT_ERR_NOMEM;
    }
    rvt_tp_free(t);
    return st;
}

int encap_cost_wrap(const uint8_t *refflow, size_t len, const rvt_tp_config *c, uint8_t **out,
                    size_t *out_len)
{
    growbuf g = { 0 };
    int st = wrap(refflow, len, c, &g);
    *out = g.b;
    *out_len = g.n;
    return st < 0 ? st : 0;
}

rvt_tp_config encap_cost_config(void)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.src_bits = 8;
    c.sync_interval = 4096;
    return c;
}

int encap_cost_measure(const uint8_t *refflow, size_t len, encap_cost *o)
{
    rvt_tp_config c = encap_cost_config();
    growbuf enc = { 0 }, back = { 0 };
    memset(o, 0, sizeof *o);
    double t0 = cpu_s();
    int st = wrap(refflow, len, &c, &enc);
    double t1 = cpu_s();
    if (st >= 0)
        st = unwrap(&enc, &c, &back);
    double t2 = cpu_s();
    o->write_cpu = t1 - t0;
    o->unwrap_cpu = t2 - t1;
    o->plain_bytes = len;
    o->encap_bytes = enc.n;
    o->identical = back.n == len && !memcmp(back.b, refflow, len);
    free(enc.b);
    free(back.b);
    return st < 0 ? st : 0;
}
