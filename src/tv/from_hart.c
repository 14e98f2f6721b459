/* One group per hart commit (TV 3.1: all architectural side effects of an
 * instruction or trap), in the item order of the Appendix C examples:
 * pc, instruction, registers, additional state.  docs/tv.md lists what is
 * written for each kind of instruction. */
#include "rvtrace/tv.h"
#include "tv_int.h"

#define PUT(w, ...) do { rvt_tv_item it_ = { __VA_ARGS__ }; \
                         int r_ = rvt_tv_writer_put((w), &it_); \
                         if (r_ < 0) return r_; } while (0)

static uint64_t xwrap(const rvt_tv_cfg *c, uint64_t v)
{
    return c->xlen == 32 ? (uint32_t)v : v;
}

/* Opcode 3 when the pc moved by the instruction's length (Appendix C.1),
 * else the new pc as additional state 10 (C.2, C.7). */
static int put_pc(rvt_tv_writer *w, const rvt_hart_commit *c)
{
    const rvt_tv_cfg *tc = tv_writer_cfg(w);
    if (c->len && !c->trap && c->npc == xwrap(tc, c->pc + c->len))
        PUT(w, .op = RVT_TV_INCR_PC);
    else
        PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = c->npc);
    if (c->len)
        PUT(w, .op = c->len == 2 ? RVT_TV_INSN16 : RVT_TV_INSN32, .value = c->insn);
    return RVT_OK;
}

static int put_regs(rvt_tv_writer *w, const rvt_hart_commit *c)
{
    if (c->rd)
        PUT(w, .op = RVT_TV_FULL_REG, .reg = (uint16_t)RVT_TV_REG_GPR(c->rd), .value = c->rd_val);
    for (unsigned i = 0; i < c->ncsr && i < RVT_HART_COMMIT_MAX_CSR; i++)
        PUT(w, .op = RVT_TV_FULL_REG, .reg = c->csr[i].addr, .value = c->csr[i].value);
    return RVT_OK;
}

static unsigned mem_op(const rvt_hart_commit *c)
{
    switch (c->mem_kind) {
    case RVT_HART_MEM_LOAD: return RVT_TV_M_LOAD;
    case RVT_HART_MEM_STORE: return RVT_TV_M_STORE;
    case RVT_HART_MEM_LR: return RVT_TV_M_LR;
    case RVT_HART_MEM_SC: return RVT_TV_M_SC;
    default: return RVT_TV_M_AMO_SWAP + c->amo_op;   /* same order as ch. 2 */
    }
}

static bool writes_memory(const rvt_hart_commit *c)
{
    return c->mem_kind == RVT_HART_MEM_STORE || c->mem_kind == RVT_HART_MEM_AMO ||
           (c->mem_kind == RVT_HART_MEM_SC && !c->sc_fail);
}

static uint64_t size_mask(unsigned bytes)
{
    return bytes >= 8 ? UINT64_MAX : (1ull << (8 * bytes)) - 1;
}

/* Opcodes 8 and 9: the access as one bus transaction. */
static int put_bus(rvt_tv_writer *w, const rvt_hart_commit *c)
{
    unsigned op = mem_op(c), sz = tv_size_code(c->mem_size);
    uint64_t m = size_mask(c->mem_size);
    bool rdata = op != RVT_TV_M_STORE && op != RVT_TV_M_SC;
    PUT(w, .op = RVT_TV_MEM_REQ, .addr = c->mem_addr, .mem_op = (uint8_t)op,
        .mem_size = (uint8_t)sz, .has_data = op != RVT_TV_M_LOAD && op != RVT_TV_M_LR,
        .data = c->mem_wdata & m);
    PUT(w, .op = RVT_TV_MEM_RSP, .mem_size = (uint8_t)sz, .has_data = rdata,
        .result = c->sc_fail ? RVT_TV_RESULT_FAIL : RVT_TV_RESULT_OK,
        .data = rdata ? c->mem_rdata & m : 0);
    return RVT_OK;
}

static int put_mem(rvt_tv_writer *w, const rvt_hart_commit *c)
{
    const rvt_tv_writer_cfg *wc = tv_writer_wcfg(w);
    if (!c->mem_kind || c->trap)
        return RVT_OK;
    /* the hart has no address translation: physical = effective */
    PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_PADDR, .value = c->mem_addr);
    if (wc->eaddr)
        PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_EADDR, .value = c->mem_addr);
    if (writes_memory(c))
        PUT(w, .op = RVT_TV_STATE, .id = (uint8_t)(RVT_TV_S_DATA8 + tv_size_code(c->mem_size)),
            .value = c->mem_wdata & size_mask(c->mem_size));
    if (wc->mem_bus)
        return put_bus(w, c);
    return RVT_OK;
}

int rvt_tv_writer_commit(rvt_tv_writer *w, const rvt_hart_commit *c)
{
    PUT(w, .op = RVT_TV_BEGIN);
    int r;
    if ((r = put_pc(w, c)) < 0 || (r = put_regs(w, c)) < 0 || (r = put_mem(w, c)) < 0)
        return r;
    if (c->mtime_set)
        PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_MTIME, .value = c->mtime);
    if (c->priv != c->priv_before)
        PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_PRIV, .value = c->priv);
    PUT(w, .op = RVT_TV_END);
    return RVT_OK;
}

int rvt_tv_writer_on_commit(void *ctx, const rvt_hart_commit *c)
{
    int r = rvt_tv_writer_commit(ctx, c);
    return r < 0 ? r : 0;
}

/* ch. 3: state initialization "primarily intended for use during program
 * loading": the reset pc, privilege and the GPRs that are not zero. */
int rvt_tv_writer_init_state(rvt_tv_writer *w, const rvt_hart *h)
{
    PUT(w, .op = RVT_TV_BEGIN);
    PUT(w, .op = RVT_TV_INIT);
    PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = rvt_hart_pc(h));
    PUT(w, .op = RVT_TV_STATE, .id = RVT_TV_S_PRIV, .value = rvt_hart_priv(h));
    for (unsigned i = 1; i < 32; i++)
        if (rvt_hart_reg(h, i))
            PUT(w, .op = RVT_TV_FULL_REG, .reg = (uint16_t)RVT_TV_REG_GPR(i),
                .value = rvt_hart_reg(h, i));
    PUT(w, .op = RVT_TV_END);
    return RVT_OK;
}
