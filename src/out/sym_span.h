/* The function symbol of a span of addresses (rvt_image_symbol_span),
 * looked up again only when a pc leaves it: once per function entered,
 * not per instruction (issue #18: symbol lookup per block). */
#ifndef RVT_OUT_SYM_SPAN_H
#define RVT_OUT_SYM_SPAN_H

#include "rvtrace/image.h"

typedef struct rvt_sym_span {
    uint64_t lo, hi, addr;      /* [lo, hi): name's; addr: its start */
    const char *name;           /* NULL: no symbol there */
} rvt_sym_span;

/* The symbol holding pc (NULL if none), *off its offset in it; zeroed
 * spans start empty. */
static inline const char *rvt_sym_span_at(rvt_sym_span *s, const rvt_image *img, uint64_t pc,
                                          uint64_t *off)
{
    if (pc - s->lo >= s->hi - s->lo)
        s->name = rvt_image_symbol_span(img, pc, &s->addr, &s->lo, &s->hi);
    *off = pc - s->addr;
    return s->name;
}

/* Whether [a, b] lies in the span last looked up. */
static inline bool rvt_sym_span_holds(const rvt_sym_span *s, uint64_t a, uint64_t b)
{
    return a - s->lo < s->hi - s->lo && b - s->lo < s->hi - s->lo;
}

#endif
