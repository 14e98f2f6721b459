/* The call stack of a decoded flow (callstack.h). */
#include <string.h>
#include "out/callstack.h"
#include "rvtrace/isa.h"

const char rvt_cs_unknown[] = "[unknown]";

void rvt_cs_init(rvt_callstack *cs, rvt_image *img)
{
    memset(cs, 0, sizeof *cs);
    cs->img = img;
    cs->dirty = true;
}

const char *rvt_cs_function(rvt_callstack *cs, uint64_t pc)
{
    size_t k = (pc >> 1) & (RVT_CS_SYM_CACHE - 1);
    if (cs->cache[k].name && cs->cache[k].pc == pc)
        return cs->cache[k].name;
    const char *n = cs->img ? rvt_image_symbol(cs->img, pc, NULL) : NULL;
    cs->cache[k].pc = pc;
    cs->cache[k].name = n ? n : rvt_cs_unknown;
    return cs->cache[k].name;
}

static void push(rvt_callstack *cs, const char *name)
{
    if (cs->depth < RVT_CS_MAX_DEPTH)
        cs->stk[cs->depth] = name;
    cs->depth++;
    if (cs->depth > cs->max_depth)
        cs->max_depth = cs->depth;
    cs->dirty = true;
}

static void pop(rvt_callstack *cs)
{
    if (cs->depth) {
        cs->depth--;
        cs->dirty = true;
    }
}

/* The stack effect of the previous instruction, now that it retired and
 * the next one is known (table 4.4's call/return/swap classes). */
static void apply_pending(rvt_callstack *cs)
{
    switch (cs->pending) {
    case RVT_JC_CALL_INF:
    case RVT_JC_CALL_UNINF:
        push(cs, cs->leaf);
        cs->effect = RVT_CS_CALL;
        break;
    case RVT_JC_RETURN:
    case RVT_JC_XRET:
        pop(cs);
        cs->effect = RVT_CS_RETURN;
        break;
    case RVT_JC_SWAP:
        pop(cs);
        push(cs, cs->leaf);
        cs->effect = RVT_CS_SWAP;
        break;
    default:
        break;
    }
    cs->pending = RVT_JC_NONE;
}

const char *rvt_cs_insn(rvt_callstack *cs, uint64_t pc)
{
    cs->effect = RVT_CS_NONE;
    if (cs->have_prev)
        apply_pending(cs);
    const rvt_insn *i = cs->img ? rvt_image_insn(cs->img, pc) : NULL;
    cs->pending = i ? i->jclass : RVT_JC_NONE;
    cs->leaf = rvt_cs_function(cs, pc);
    cs->have_prev = true;
    return cs->leaf;
}

void rvt_cs_trap(rvt_callstack *cs)
{
    if (!cs->have_prev)
        return;
    apply_pending(cs);
    push(cs, cs->leaf);
}

void rvt_cs_reset(rvt_callstack *cs)
{
    cs->depth = 0;
    cs->have_prev = false;
    cs->pending = RVT_JC_NONE;
    cs->dirty = true;
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
