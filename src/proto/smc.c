/* Self-modifying code as a list of writes per fence.i (rvtrace/proto.h;
 * N-Trace 11.4: the decoder must see code as it is when executed). */
#include <stdlib.h>
#include "rvtrace/image.h"
#include "rvtrace/proto.h"
#include "util/grow.h"

typedef struct smc_word {
    unsigned content, size;
    uint64_t addr;
    uint32_t word;
} smc_word;

struct rvt_smc {
    smc_word *w;
    size_t n, cap;
    unsigned fences;
};

rvt_smc *rvt_smc_read(FILE *f, int *status)
{
    int dummy;
    if (!status)
        status = &dummy;
    *status = RVT_ERR_INVAL;
    rvt_smc *s = f ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return NULL;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        smc_word w;
        unsigned long long a;
        unsigned word;
        if (line[0] == '#' || sscanf(line, "%u %llx %u %x", &w.content, &a, &w.size, &word) != 4 ||
            w.size > 4)
            continue;
        w.addr = a;
        w.word = word;
        smc_word *grown = rvt_grow(s->w, &s->cap, s->n + 1, sizeof *s->w, 16);
        if (!grown) {
            rvt_smc_free(s);
            *status = RVT_ERR_NOMEM;
            return NULL;
        }
        s->w = grown;
        s->w[s->n++] = w;
    }
    *status = 0;
    return s;
}

void rvt_smc_free(rvt_smc *s)
{
    if (s)
        free(s->w);
    free(s);
}

int rvt_smc_fence(rvt_smc *s, rvt_image *img)
{
    if (!s || !img)
        return RVT_ERR_INVAL;
    unsigned k = ++s->fences;
    int any = 0;
    for (size_t i = 0; i < s->n; i++) {
        const smc_word *w = &s->w[i];
        if (w->content != k)
            continue;
        uint8_t b[4] = { (uint8_t)w->word, (uint8_t)(w->word >> 8), (uint8_t)(w->word >> 16),
                         (uint8_t)(w->word >> 24) };
        int st = rvt_image_add_bytes(img, w->addr, b, w->size, "smc");
        if (st < 0)
            return st;
        rvt_image_invalidate(img, w->addr, w->size);
        any = 1;
    }
    return any;
}
