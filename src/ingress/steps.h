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

static inline unsigned rvt_steps_popcount(uint64_t x)
{
    /* no popcnt instruction in the baseline x86-64 target: the libgcc
     * call per byte showed in profiles */
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/* Size bits [64w, 64w + 64) (bytes past the run's last are not read). */
static inline uint64_t rvt_steps_word(const uint8_t *sizes, size_t w, size_t n)
{
    size_t nb = (n + 7) / 8 - 8 * w;
    uint64_t x = 0;
    if (nb >= 8)
        nb = 8;
    for (size_t b = 0; b < nb; b++)
        x |= (uint64_t)sizes[8 * w + b] << (8 * b);
    return x;
}

/* Half-words of steps [i, n): one each, and one more for each 4-byte one. */
static inline uint64_t rvt_steps_halfwords(const uint8_t *sizes, size_t i, size_t n)
{
    if (i >= n)
        return 0;
    uint64_t hw = n - i;
    for (size_t w = i / 64; 64 * w < n; w++) {
        uint64_t x = rvt_steps_word(sizes, w, n);
        if (w == i / 64)
            x &= ~0ull << (i % 64);
        if (64 * w + 64 > n)
            x &= (1ull << (n % 64)) - 1;
        hw += rvt_steps_popcount(x);
    }
    return hw;
}

/* Step n - 1 of a run, given step i (made, r) and hw, the half-words of
 * steps [i, n): an encoder that takes steps [i, n - 1) at once still
 * sees the last one as a record. */
static inline rvt_irec rvt_step_last(const rvt_irec *r, const uint8_t *sizes, size_t i, size_t n,
                                     uint64_t hw)
{
    unsigned lsz = rvt_step_size(sizes, n - 1);
    /* where the others end, n - 1 - i cycles after r (rvt_step_put
     * counts the last of them) */
    rvt_step_base t = { r->iaddr + 2 * (hw - (1u << lsz)), r->time + (n - i - 2), r->context, r->priv };
    rvt_irec last;
    rvt_step_put(&last, &t, 0, false, lsz, 0);
    return last;
}

#define RVT_STEPS_CHUNK 256

/* Steps [i, n) after s made into records and put to `put` a chunk at a
 * time: for an encoder whose current state cannot take them at once. */
static inline int rvt_steps_put(int (*put)(void *ctx, const rvt_irec *recs, size_t n), void *ctx,
                                rvt_step_base *s, const uint8_t *sizes, size_t i, size_t n)
{
    rvt_irec r[RVT_STEPS_CHUNK];
    while (i < n) {
        size_t m = 0;
        for (; i < n && m < RVT_STEPS_CHUNK; i++)
            rvt_step_put(&r[m++], s, 0, false, rvt_step_size(sizes, i), 0);
        int st = put(ctx, r, m);
        if (st < 0)
            return st;
    }
    return 0;
}

#endif
