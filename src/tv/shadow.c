/* The shadow state (TV 3.1): every state change of the trace is applied
 * here, remembering which item carried it so a divergence can point at
 * the byte offset. */
#include <string.h>
#include "verify_int.h"

void tv_group_open(tv_group *g, const rvt_tv_item *it, uint64_t index)
{
    memset(g, 0, sizeof *g);
    g->open = true;
    g->index = index;
    g->first = (tv_src){ true, it->index, it->offset };
}

static tv_src src_of(const rvt_tv_item *it)
{
    return (tv_src){ true, it->index, it->offset };
}

static void touch(tv_group *g, unsigned reg, const rvt_tv_item *it)
{
    for (unsigned i = 0; i < g->ntouch; i++)
        if (g->touch[i].reg == reg) {
            g->touch[i].src = src_of(it);
            return;
        }
    if (g->ntouch == TV_MAX_TOUCH) {
        g->touch_overflow = true;
        return;
    }
    g->touch[g->ntouch].reg = (uint16_t)reg;
    g->touch[g->ntouch].src = src_of(it);
    g->ntouch++;
}

tv_src tv_group_reg_src(const tv_group *g, unsigned reg)
{
    for (unsigned i = 0; i < g->ntouch; i++)
        if (g->touch[i].reg == reg)
            return g->touch[i].src;
    return g->first;
}

bool tv_shadow_reg(const tv_shadow *s, unsigned reg, uint64_t *v)
{
    if (reg >= RVT_TV_REG_GPR(0) && reg <= RVT_TV_REG_GPR(31))
        *v = s->x[reg - RVT_TV_REG_GPR(0)];
    else if (reg >= RVT_TV_REG_FPR(0) && reg <= RVT_TV_REG_FPR(31))
        *v = s->f[reg - RVT_TV_REG_FPR(0)];
    else if (reg < TV_NCSR && s->csr_known[reg])
        *v = s->csr[reg];
    else
        return false;
    return true;
}

static void set_reg(tv_shadow *s, unsigned reg, uint64_t v)
{
    if (reg >= RVT_TV_REG_GPR(0) && reg <= RVT_TV_REG_GPR(31))
        s->x[reg - RVT_TV_REG_GPR(0)] = v;
    else if (reg >= RVT_TV_REG_FPR(0) && reg <= RVT_TV_REG_FPR(31))
        s->f[reg - RVT_TV_REG_FPR(0)] = v;
    else if (reg < TV_NCSR) {
        s->csr[reg] = v;
        s->csr_known[reg] = 1;
    }
}

/* Opcodes 4, 5, 6: full value, signed increment, OR mask. */
static void apply_reg(tv_shadow *s, tv_group *g, const rvt_tv_item *it, unsigned xlen)
{
    uint64_t v = 0;
    tv_shadow_reg(s, it->reg, &v);
    if (it->op == RVT_TV_FULL_REG)
        v = it->value;
    else if (it->op == RVT_TV_INCR_REG)
        v += it->value;
    else
        v |= it->value;
    if (xlen == 32 && it->reg < RVT_TV_REG_FPR(0))
        v = (uint32_t)v;
    set_reg(s, it->reg, v);
    touch(g, it->reg, it);
}

static void apply_state(tv_shadow *s, tv_group *g, const rvt_tv_item *it)
{
    switch (it->id) {
    case RVT_TV_S_PRIV: s->priv = (unsigned)it->value; g->priv_src = src_of(it); break;
    case RVT_TV_S_PC: s->pc = it->value; g->pc_src = src_of(it); break;
    case RVT_TV_S_MTIME: s->mtime = it->value; g->mtime_src = src_of(it); break;
    case RVT_TV_S_PADDR: case RVT_TV_S_EADDR:
        g->addr = it->value;
        g->addr_src = src_of(it);
        break;
    case RVT_TV_S_DATA8: case RVT_TV_S_DATA16: case RVT_TV_S_DATA32: case RVT_TV_S_DATA64:
        g->sdata = it->value;
        g->sdata_bytes = 1u << (it->id - RVT_TV_S_DATA8);
        g->sdata_src = src_of(it);
        break;
    default:
        break;   /* pc_paddr: docs/tv.md, not compared */
    }
}

void tv_shadow_apply(tv_shadow *s, tv_group *g, const rvt_tv_item *it, unsigned xlen)
{
    switch (it->op) {
    case RVT_TV_INCR_PC: g->incr_pc = true; g->pc_src = src_of(it); break;
    case RVT_TV_FULL_REG: case RVT_TV_INCR_REG: case RVT_TV_OR_REG:
        apply_reg(s, g, it, xlen);
        break;
    case RVT_TV_STATE: apply_state(s, g, it); break;
    case RVT_TV_MEM_REQ:
        if (g->nreq++ == 0) {
            g->req = *it;
            g->req_src = src_of(it);
        }
        break;
    case RVT_TV_MEM_RSP:
        if (g->nreq == 1) {
            g->rsp = *it;
            g->rsp_src = src_of(it);
        }
        break;
    case RVT_TV_INSN16: case RVT_TV_INSN32:
        g->insn = (uint32_t)it->value;
        g->insn_len = it->op == RVT_TV_INSN16 ? 2 : 4;
        g->insn_src = src_of(it);
        break;
    case RVT_TV_INIT: g->init = true; break;
    case RVT_TV_RESET: g->reset = true; break;
    default:
        break;
    }
}
