/* The call stack of a decoded flow (callstack.h). */
#include <string.h>
#include "out/callstack.h"
#include "rvtrace/isa.h"

const char rvt_cs_unknown[] = "[unknown]";

void rvt_cs_init(rvt_callstack *cs, rvt_image *img)
{
    memset(cs, 0, sizeof *cs);
    cs->img = img;
    cs->img_gen = img_generation_at(img);
    cs->gen = *cs->img_gen;
    rvt_cs_changed(cs);
}

void rvt_cs_forget_code(rvt_callstack *cs)
{
    memset(cs->cache, 0, sizeof cs->cache);
    memset(cs->blk, 0, sizeof cs->blk);
    cs->gen = *cs->img_gen;
    /* the leaf's span came from the symbols, which a loaded file changes */
    rvt_cs_changed(cs);
}

/* The stack effect of a jump class (table 4.4's call/return/swap). */
static uint8_t effect_of(uint8_t jclass)
{
    switch (jclass) {
    case RVT_JC_CALL_INF:
    case RVT_JC_CALL_UNINF: return RVT_CS_CALL;
    case RVT_JC_RETURN:
    case RVT_JC_XRET: return RVT_CS_RETURN;
    case RVT_JC_SWAP: return RVT_CS_SWAP;
    default: return RVT_CS_NONE;
    }
}

/* Looked up once per pc while the code stays (rvt_cs_sync empties the
 * cache when it changes). */
const char *rvt_cs_name_at(const rvt_image *img, uint64_t pc)
{
    const char *n = img ? rvt_image_symbol((void *)img, pc, NULL) : NULL;
    return n ? n : rvt_cs_unknown;
}

void rvt_cs_fill(rvt_callstack *cs, size_t k, uint64_t pc)
{
    const rvt_insn *i = cs->img ? rvt_image_insn(cs->img, pc) : NULL;
    cs->cache[k].pc = pc;
    cs->cache[k].name = rvt_cs_name_at(cs->img, pc);
    cs->cache[k].effect = effect_of(i ? i->jclass : RVT_JC_NONE);
}

void rvt_cs_blk_fill(rvt_callstack *cs, struct rvt_cs_blk *e, uint64_t start, uint64_t end)
{
    uint64_t addr, lo = 0, hi = 0;
    const char *n = cs->img ? rvt_image_symbol_span(cs->img, start, &addr, &lo, &hi) : NULL;
    const rvt_insn *i = cs->img ? rvt_image_insn(cs->img, end) : NULL;
    bool one = !cs->img || (end - lo < hi - lo && end >= start);
    e->start = start;
    e->end = end;
    e->lo = one ? lo : 0;
    e->hi = one ? hi : 0;
    e->name = one ? (n ? n : rvt_cs_unknown) : NULL;
    e->effect = effect_of(i ? i->jclass : RVT_JC_NONE);
}

static void push(rvt_callstack *cs, const char *name)
{
    if (cs->depth < RVT_CS_MAX_DEPTH)
        cs->stk[cs->depth] = name;
    cs->depth++;
    if (cs->depth > cs->max_depth)
        cs->max_depth = cs->depth;
    if (cs->rel && (int64_t)(cs->depth - cs->under) > cs->max_rel)
        cs->max_rel = (int64_t)(cs->depth - cs->under);
    rvt_cs_changed(cs);
}

static void pop(rvt_callstack *cs)
{
    if (cs->depth) {
        cs->depth--;
        rvt_cs_changed(cs);
    } else if (cs->rel) {           /* a frame of the piece's unknown start */
        cs->under++;
        rvt_cs_changed(cs);
    }
}

/* The stack effect of the previous instruction, now that it retired and
 * the next one is known. */
void rvt_cs_apply(rvt_callstack *cs)
{
    switch (cs->pending) {
    case RVT_CS_CALL:
        push(cs, cs->leaf);
        break;
    case RVT_CS_RETURN:
        pop(cs);
        break;
    case RVT_CS_SWAP:
        pop(cs);
        push(cs, cs->leaf);
        break;
    default:
        break;
    }
    cs->effect = cs->pending;
    cs->pending = RVT_CS_NONE;
}

void rvt_cs_trap(rvt_callstack *cs)
{
    if (!cs->leaf)
        return;
    rvt_cs_apply(cs);
    push(cs, cs->leaf);
}

void rvt_cs_reset(rvt_callstack *cs)
{
    cs->depth = 0;
    cs->rel = false;
    cs->leaf = NULL;
    cs->leaf_lo = cs->leaf_hi = 0;
    cs->pending = RVT_CS_NONE;
    rvt_cs_changed(cs);
}

bool rvt_cs_event(rvt_callstack *cs, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_INSN:
        rvt_cs_insn(cs, ev->pc);
        return true;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        rvt_cs_trap(cs);
        break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:       /* what runs until the restart is not traced */
        rvt_cs_reset(cs);
        break;
    default:
        break;
    }
    return false;
}
