/* Shared helpers of the hart unit tests: programs are lists of encodings
 * (I4 = 32-bit, I2 = 16-bit) placed at 0x80000000 through rvt_image, and a
 * capture sink that records ingress blocks and data records in order.
 * The encodings come from binutils 2.40 (riscv64-unknown-elf-as); each
 * line carries its assembly so the program reads like a listing. */
#ifndef TEST_HART_UTIL_H
#define TEST_HART_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/hart.h"
#include "rvtrace/image.h"
#include "tharness.h"
#include "th_program.h"

#define TBASE 0x80000000ull
#define TDATA 0x80001000ull   /* auipc xN, 1 at offset 0 */
#define I4(w) { (w), 4 }
#define I2(w) { (w), 2 }
#define NINSN(a) (sizeof(a) / sizeof((a)[0]))

typedef struct tinsn { uint32_t w; uint8_t len; } tinsn;

#define TCAP_MAX 4096
typedef struct tcap {
    rvt_irec rec[TCAP_MAX];
    size_t n;
    rvt_drec d[256];
    size_t d_after[256];   /* blocks received before each data record */
    size_t nd;
    int ends;
    char console[256];
    size_t ncons;
} tcap;

static inline int tcap_put(void *ctx, const rvt_irec *r, size_t n)
{
    tcap *c = ctx;
    for (size_t i = 0; i < n && c->n < TCAP_MAX; i++)
        c->rec[c->n++] = r[i];
    return 0;
}

static inline int tcap_data(void *ctx, const rvt_drec *d, size_t n)
{
    tcap *c = ctx;
    for (size_t i = 0; i < n && c->nd < 256; i++) {
        c->d_after[c->nd] = c->n;
        c->d[c->nd++] = d[i];
    }
    return 0;
}

static inline int tcap_end(void *ctx)
{
    ((tcap *)ctx)->ends++;
    return 0;
}

static inline void tcap_console(void *ctx, const char *buf, size_t n)
{
    tcap *c = ctx;
    for (size_t i = 0; i < n && c->ncons + 1 < sizeof c->console; i++)
        c->console[c->ncons++] = buf[i];
}

typedef struct trun {
    rvt_image *img;
    rvt_hart *h;
    rvt_irec_sink sink;
    tcap *cap;
    int why;
} trun;

static inline rvt_image *timage(const tinsn *p, size_t n)
{
    uint8_t buf[8192];
    size_t o = 0;
    for (size_t i = 0; i < n && o + 4 <= sizeof buf; i++) {
        memcpy(buf + o, &p[i].w, p[i].len);
        o += p[i].len;
    }
    rvt_image *img = rvt_image_new();
    if (img && rvt_image_add_bytes(img, TBASE, buf, o, "test") < 0) {
        rvt_image_free(img);
        return NULL;
    }
    return img;
}

/* Run a program to its end (at most 100000 instructions); cfg may be NULL. */
static inline void trun_start(trun *t, const tinsn *p, size_t n, const rvt_hart_cfg *cfg_in)
{
    memset(t, 0, sizeof *t);
    t->cap = calloc(1, sizeof *t->cap);
    rvt_hart_cfg cfg = { 0 };
    if (cfg_in)
        cfg = *cfg_in;
    if (!cfg.xlen)
        cfg.xlen = 64;
    t->sink = (rvt_irec_sink){ t->cap, tcap_put, tcap_data, tcap_end };
    cfg.sink = &t->sink;
    cfg.console = tcap_console;
    cfg.console_ctx = t->cap;
    t->img = timage(p, n);
    int st = -1;
    t->h = t->img ? rvt_hart_new(&cfg, t->img, &st) : NULL;
    CHECK(t->h != NULL);
    t->why = t->h ? rvt_hart_run(t->h, 100000) : -1;
    if (t->h)
        CHECK_EQ(rvt_hart_finish(t->h), 0);
}

static inline void trun_free(trun *t)
{
    rvt_hart_free(t->h);
    rvt_image_free(t->img);
    free(t->cap);
}

static inline uint64_t treg(const trun *t, unsigned r)
{
    return t->h ? rvt_hart_reg(t->h, r) : 0xdeadbeef;
}

/* The hart runs img (at most max_instr instructions) into sink. */
static inline void th_trace(rvt_image *img, const rvt_irec_sink *sink, uint64_t max_instr)
{
    int st = 0;
    rvt_hart_cfg cfg = { .sink = sink, .max_instr = max_instr };
    rvt_hart *h = rvt_hart_new(&cfg, img, &st);
    CHECK(h != NULL);
    if (h) {
        CHECK(rvt_hart_run(h, 0) >= 0);
        CHECK_EQ(rvt_hart_finish(h), 0);
    }
    rvt_hart_free(h);
}

#endif
