/* Platform-Level Interrupt Controller (RISC-V PLIC spec 1.0.0) as on
 * QEMU's virt board: 96 sources, 3 priority bits, two contexts per hart:
 * 2i = hart i M-mode (MEIP) and 2i+1 = hart i S-mode (SEIP).  Registers are 32 bits
 * wide; other access sizes are access faults, as QEMU rejects them. */
#include "hart_int.h"

#define PLIC_PENDING 0x1000u
#define PLIC_ENABLE 0x2000u
#define PLIC_ENABLE_STRIDE 0x80u
#define PLIC_CONTEXT 0x200000u
#define PLIC_CONTEXT_STRIDE 0x1000u

static bool bit(const uint32_t *w, unsigned i) { return (w[i / 32] >> (i % 32)) & 1; }
static void set_bit(uint32_t *w, unsigned i, bool on)
{
    if (on)
        w[i / 32] |= 1u << (i % 32);
    else
        w[i / 32] &= ~(1u << (i % 32));
}

/* PLIC spec 6: the highest-priority pending, enabled source above the
 * context's threshold, ties to the lowest ID; 0 when none. */
static unsigned best_source(const hart_plic *p, unsigned ctx)
{
    unsigned best = 0, best_prio = p->threshold[ctx];
    for (unsigned w = 0; w < HART_PLIC_WORDS; w++) {
        uint32_t cand = p->pending[w] & p->enable[ctx][w] & ~p->claimed[w];
        while (cand) {
            unsigned src = w * 32 + (unsigned)__builtin_ctz(cand);
            cand &= cand - 1;
            if (src >= 1 && src <= HART_PLIC_NSRC && p->prio[src] > best_prio) {
                best = src;
                best_prio = p->prio[src];
            }
        }
    }
    return best;
}

/* Contexts that exist: two per hart of the board. */
static unsigned nctx(const rvt_hart *h)
{
    return 2 * hart_count(h);
}

/* The contexts' interrupt lines into each hart's mip (priv 3.1.9: MEIP,
 * SEIP). */
static void plic_update(rvt_hart *h)
{
    const hart_plic *p = &h->dev->plic;
    rvt_hart *t;
    for (unsigned i = 0; (t = hart_peer(h, i)); i++) {
        uint64_t ip = 0;
        if (best_source(p, 2 * i))
            ip |= 1ull << IRQ_MEI;
        if (best_source(p, 2 * i + 1))
            ip |= 1ull << IRQ_SEI;
        if (ip != t->ext_ip) {
            t->ext_ip = ip;
            hart_recheck(t);
        }
    }
}

/* Level-triggered gateway (PLIC spec 5): a high line makes the source
 * pending unless it is in service; completion lets it through again. */
void hart_plic_set_level(rvt_hart *h, unsigned src, bool level)
{
    hart_plic *p = &h->dev->plic;
    if (src == 0 || src > HART_PLIC_NSRC)
        return;
    set_bit(p->level, src, level);
    if (level && !bit(p->claimed, src))
        set_bit(p->pending, src, true);
    if (!level)
        set_bit(p->pending, src, false);
    plic_update(h);
}

static uint32_t claim(rvt_hart *h, unsigned ctx)
{
    hart_plic *p = &h->dev->plic;
    unsigned src = best_source(p, ctx);
    if (src) {
        set_bit(p->pending, src, false);
        set_bit(p->claimed, src, true);
        plic_update(h);
    }
    return src;
}

/* PLIC spec 7: a completion for a source not enabled in the context is
 * ignored. */
static void complete(rvt_hart *h, unsigned ctx, uint32_t src)
{
    hart_plic *p = &h->dev->plic;
    if (src == 0 || src > HART_PLIC_NSRC || !bit(p->enable[ctx], src))
        return;
    set_bit(p->claimed, src, false);
    if (bit(p->level, src))
        set_bit(p->pending, src, true);
    plic_update(h);
}

/* The context and register of an offset in the context area, or false. */
static bool ctx_reg(const rvt_hart *h, uint64_t off, unsigned *ctx, unsigned *reg)
{
    if (off < PLIC_CONTEXT)
        return false;
    uint64_t c = (off - PLIC_CONTEXT) / PLIC_CONTEXT_STRIDE;
    *ctx = (unsigned)c;
    *reg = (unsigned)((off - PLIC_CONTEXT) % PLIC_CONTEXT_STRIDE);
    return c < nctx(h);
}

static bool enable_word(const rvt_hart *h, uint64_t off, unsigned *ctx, unsigned *w)
{
    if (off < PLIC_ENABLE || off >= PLIC_ENABLE + nctx(h) * PLIC_ENABLE_STRIDE)
        return false;
    *ctx = (unsigned)((off - PLIC_ENABLE) / PLIC_ENABLE_STRIDE);
    *w = (unsigned)((off - PLIC_ENABLE) % PLIC_ENABLE_STRIDE) / 4;
    return *w < HART_PLIC_WORDS;
}

bool hart_plic_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    hart_plic *p = &h->dev->plic;
    unsigned ctx, idx;
    if (size != 4 || (off & 3))
        return false;
    *v = 0;
    if (off < PLIC_PENDING) {
        if (off / 4 <= HART_PLIC_NSRC)
            *v = p->prio[off / 4];
    } else if (off < PLIC_PENDING + 4 * HART_PLIC_WORDS) {
        *v = p->pending[(off - PLIC_PENDING) / 4];
    } else if (enable_word(h, off, &ctx, &idx)) {
        *v = p->enable[ctx][idx];
    } else if (ctx_reg(h, off, &ctx, &idx)) {
        if (idx == 0)
            *v = p->threshold[ctx];
        else if (idx == 4)
            *v = claim(h, ctx);
    }
    return true;   /* reserved space reads 0 */
}

bool hart_plic_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    hart_plic *p = &h->dev->plic;
    unsigned ctx, idx;
    uint32_t x = (uint32_t)v;
    if (size != 4 || (off & 3))
        return false;
    if (off < PLIC_PENDING) {
        if (off >= 4 && off / 4 <= HART_PLIC_NSRC)   /* source 0 does not exist */
            p->prio[off / 4] = x & HART_PLIC_PRIO_MASK;
    } else if (enable_word(h, off, &ctx, &idx)) {
        p->enable[ctx][idx] = idx == 0 ? x & ~1u : x;   /* bit 0: source 0 */
        if (idx == HART_PLIC_WORDS - 1 && (HART_PLIC_NSRC + 1) % 32)
            p->enable[ctx][idx] &= (1u << ((HART_PLIC_NSRC + 1) % 32)) - 1;
    } else if (ctx_reg(h, off, &ctx, &idx)) {
        if (idx == 0)
            p->threshold[ctx] = x & HART_PLIC_PRIO_MASK;
        else if (idx == 4)
            complete(h, ctx, x);
    }
    /* pending bits are read-only; writes elsewhere are ignored */
    plic_update(h);
    return true;
}
