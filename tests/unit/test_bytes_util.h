/* Byte buffers for tests and test tools: a whole file read into memory,
 * and a growing buffer that is an rvt byte callback (encoders, the
 * encapsulation writer write into it; shared by test_etrace_util.h). */
#ifndef RVT_TEST_BYTES_UTIL_H
#define RVT_TEST_BYTES_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/status.h"

/* The file at path (malloc'ed, *len bytes), or NULL. */
static inline uint8_t *th_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    *len = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    return b;
}

/* An encoder's (or writer's) output collected in memory: te_buf_put is
 * the byte callback, ctx a te_buf. */
typedef struct te_buf {
    uint8_t *b;
    size_t n, cap;
} te_buf;

static inline int te_buf_put(void *ctx, const uint8_t *bytes, size_t n)
{
    te_buf *t = ctx;
    if (t->n + n > t->cap) {
        size_t cap = (t->n + n) * 2 + 256;
        uint8_t *b = realloc(t->b, cap);
        if (!b)
            return RVT_ERR_NOMEM;
        t->b = b;
        t->cap = cap;
    }
    memcpy(t->b + t->n, bytes, n);
    t->n += n;
    return 0;
}

#endif
