/* Version-2 steps (docs/format-rvi.md "Version 2"): plain single-
 * instruction cycles that follow the block before them.  Shared by the
 * .rvi reader, which decodes them, and the encoders, which take a run of
 * them whole (rvt_irec_sink.steps). */
#ifndef RVT_INGRESS_STEPS_H
#define RVT_INGRESS_STEPS_H

#include "rvtrace/ingress.h"

/* What a step inherits from the block before it: where that block's
 * instructions end, its time, context and privilege.  Kept in locals
 * while steps are made in a row, not read back from the record just
 * written. */
typedef struct rvt_step_base {
    uint64_t next, time, context;
    uint8_t priv;
} rvt_step_base;

static inline rvt_step_base rvt_step_base_of(const rvt_irec *prev)
{
    return (rvt_step_base){ prev->iaddr + 2 * (uint64_t)prev->iretire, prev->time, prev->context, prev->priv };
}

/* The step after s: itype, sijump from `itype` and `sijump`, 2^last
 * half-words, delta away from where s ends; s moves past it. */
static inline void rvt_step_put(rvt_irec *b, rvt_step_base *s, unsigned itype, bool sijump, unsigned last,
                                int64_t delta)
{
    uint64_t iaddr = s->next + (uint64_t)delta;
    *b = (rvt_irec){
        .iaddr = iaddr, .context = s->context, .time = ++s->time, .iretire = 1u << last, .ninstr = 1,
        .itype = (uint8_t)itype, .ilastsize = (uint8_t)last, .priv = s->priv, .sijump = sijump,
        .flags = RVT_IREC_F_CYCLE_END,
    };
    s->next = iaddr + (2u << last);
}

/* Bit i of a run's size bits (LSB first): step i's ilastsize. */
static inline unsigned rvt_step_size(const uint8_t *sizes, size_t i)
{
    return sizes[i / 8] >> (i % 8) & 1;
}

/* Half-words of steps [i, n): one each, and one more for each 4-byte one. */
static inline uint64_t rvt_steps_halfwords(const uint8_t *sizes, size_t i, size_t n)
{
    uint64_t hw = n - i;
    for (; i < n && i % 8; i++)
        hw += rvt_step_size(sizes, i);
    for (; i + 8 <= n; i += 8)
        hw += (unsigned)__builtin_popcount(sizes[i / 8]);
    for (; i < n; i++)
        hw += rvt_step_size(sizes, i);
    return hw;
}

#endif
