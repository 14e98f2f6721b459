/* The commit hook (rvt_hart_cfg.on_commit): one rvt_hart_commit per
 * retirement or trap with every architectural side effect, as the
 * tandem-verification trace needs them (TV spec 3.1: "all architectural
 * side effects of an instruction or trap must always be included").
 * Register, CSR, privilege and mtime changes are found by comparing the
 * state before and after, which is instruction neutral and so also
 * catches an erroneous change (TV spec 3.1, last paragraph).  Only the
 * HART_COMMIT build of the execute loop calls in here. */
#include <stdlib.h>
#include "hart_int.h"
#include "tvif.h"

struct hart_cm_snap {
    uint64_t x[32], f[32];
    uint64_t pc, instret, exceptions, interrupts, mtime_off, cycle_off, instret_off;
    uint64_t pmpcfg[16], pmpaddr[64];
    uint64_t trig[HART_TV_NTRIG_CSR];   /* tselect, tdata1-3, tinfo as read */
    unsigned priv;
    uint16_t op;
    bool writes_rd;
    uint64_t csr[];     /* hart_tv_csrs order */
};

int hart_cm_init(rvt_hart *h)
{
    h->cm_snap = calloc(1, sizeof *h->cm_snap + hart_tv_ncsrs * sizeof(uint64_t));
    return h->cm_snap ? RVT_OK : RVT_ERR_NOMEM;
}

void hart_cm_free(rvt_hart *h)
{
    free(h->cm_snap);
    h->cm_snap = NULL;
}

static uint64_t csr_field(const rvt_hart *h, size_t i)
{
    uint64_t v;
    memcpy(&v, (const char *)h + hart_tv_csrs[i].off, sizeof v);
    return v;
}

/* The trigger CSRs as a CSR read sees them: tdata1-3 of the selected
 * trigger (docs/tv.md "Triggers"). */
static void trig_views(const rvt_hart *h, uint64_t *v)
{
    for (unsigned i = 0; i < HART_TV_NTRIG_CSR; i++)
        hart_trig_csr_read(h, HART_TV_TRIG_LO + i, &v[i]);
}

void hart_cm_begin(rvt_hart *h)
{
    struct hart_cm_snap *s = h->cm_snap;
    memcpy(s->x, h->x, sizeof s->x);
    memcpy(s->f, h->f, sizeof s->f);
    s->pc = h->pc;
    s->priv = h->priv;
    s->instret = h->instret;
    s->exceptions = h->st.exceptions;
    s->interrupts = h->st.interrupts;
    s->mtime_off = h->mtime_off;
    s->cycle_off = h->cycle_off;
    s->instret_off = h->instret_off;
    memcpy(s->pmpcfg, h->pmpcfg, sizeof s->pmpcfg);
    memcpy(s->pmpaddr, h->pmpaddr, sizeof s->pmpaddr);
    trig_views(h, s->trig);
    for (size_t i = 0; i < hart_tv_ncsrs; i++)
        s->csr[i] = csr_field(h, i);
    s->op = RVT_OP_ILLEGAL;
    s->writes_rd = false;
    memset(&h->cm, 0, sizeof h->cm);
}

/* Everything but control transfers without link, stores, fences and the
 * SYSTEM ops writes rd (unpriv ch. 2). */
static bool writes_rd(unsigned op)
{
    switch (op) {
    case RVT_OP_BEQ: case RVT_OP_BNE: case RVT_OP_BLT: case RVT_OP_BGE:
    case RVT_OP_BLTU: case RVT_OP_BGEU: case RVT_OP_SB: case RVT_OP_SH:
    case RVT_OP_SW: case RVT_OP_SD: case RVT_OP_FENCE: case RVT_OP_FENCE_I:
    case RVT_OP_SFENCE_VMA: case RVT_OP_ECALL: case RVT_OP_EBREAK:
    case RVT_OP_MRET: case RVT_OP_SRET: case RVT_OP_WFI: case RVT_OP_ILLEGAL:
        return false;
    default:   /* F/D ops write an x register only for fcvt.w, feq, fmv.x.w, ... */
        return op < RVT_OP_BASE_COUNT || hart_fp_writes_x(op);
    }
}

void hart_cm_insn(rvt_hart *h, const hart_op *o)
{
    h->cm.insn = o->raw;
    h->cm.len = o->len;
    h->cm.rd = o->rd;
    h->cm_snap->op = o->op;
    h->cm_snap->writes_rd = o->rd != 0 && writes_rd(o->op);
}

static bool is_op(unsigned op, unsigned w, unsigned d)
{
    return op == w || op == d;
}

/* A data access from hart_drec(): loads, stores, LR/SC and AMOs (CSR
 * accesses come from the state comparison instead). */
void hart_cm_mem(rvt_hart *h, unsigned dtype, uint64_t addr, unsigned size,
                 uint64_t data, uint64_t data2, unsigned flags)
{
    rvt_hart_commit *c = &h->cm;
    unsigned op = h->cm_snap->op;
    c->mem_addr = addr;
    c->mem_size = (uint8_t)size;
    if (dtype == RVT_DTYPE_LOAD) {
        c->mem_kind = is_op(op, RVT_OP_LR_W, RVT_OP_LR_D) ? RVT_HART_MEM_LR : RVT_HART_MEM_LOAD;
        c->mem_rdata = data;
    } else if (dtype == RVT_DTYPE_STORE) {
        bool sc = is_op(op, RVT_OP_SC_W, RVT_OP_SC_D);
        c->mem_kind = sc ? RVT_HART_MEM_SC : RVT_HART_MEM_STORE;
        c->sc_fail = sc && (flags & 1);
        c->mem_wdata = data;
    } else if (dtype >= RVT_DTYPE_AMO_SWAP) {
        bool word = op <= RVT_OP_AMOMAXU_W;
        c->mem_kind = RVT_HART_MEM_AMO;
        c->amo_op = (uint8_t)(op - (word ? RVT_OP_AMOSWAP_W : RVT_OP_AMOSWAP_D));
        c->mem_wdata = data;
        c->mem_rdata = data2;
    }
}

static void add_csr(rvt_hart_commit *c, unsigned addr, uint64_t v)
{
    if (c->ncsr < RVT_HART_COMMIT_MAX_CSR) {
        c->csr[c->ncsr].addr = (uint16_t)addr;
        c->csr[c->ncsr].value = v;
        c->ncsr++;
    }
}

static void add_reg(const rvt_hart *h, rvt_hart_commit *c, unsigned addr)
{
    uint64_t v = 0;
    rvt_hart_tv_reg_read(h, addr, &v);
    add_csr(c, addr, v);
}

static void diff_pmp(const rvt_hart *h, const struct hart_cm_snap *s, rvt_hart_commit *c)
{
    if (memcmp(s->pmpcfg, h->pmpcfg, sizeof s->pmpcfg))
        for (unsigned i = 0; i < 16; i++)
            if (s->pmpcfg[i] != h->pmpcfg[i])
                add_csr(c, 0x3A0 + i, h->pmpcfg[i]);
    if (memcmp(s->pmpaddr, h->pmpaddr, sizeof s->pmpaddr))
        for (unsigned i = 0; i < 64; i++)
            if (s->pmpaddr[i] != h->pmpaddr[i])
                add_csr(c, 0x3B0 + i, h->pmpaddr[i]);
}

/* A tselect write changes the tdata1-3 views as well, a trigger that
 * fires sets its hit0 (the selected one's shows in tdata1). */
static void diff_triggers(const rvt_hart *h, const struct hart_cm_snap *s, rvt_hart_commit *c)
{
    uint64_t now[HART_TV_NTRIG_CSR];
    trig_views(h, now);
    for (unsigned i = 0; i < HART_TV_NTRIG_CSR; i++)
        if (now[i] != s->trig[i])
            add_csr(c, HART_TV_TRIG_LO + i, now[i]);
}

/* mcycle/minstret count by themselves; only an explicit write (a changed
 * offset) is a side effect worth tracing (docs/tv.md). */
static void diff_counters(const rvt_hart *h, const struct hart_cm_snap *s, rvt_hart_commit *c)
{
    bool rv32 = h->xlen == 32;
    if (s->cycle_off != h->cycle_off) {
        add_reg(h, c, 0xB00);
        if (rv32)
            add_reg(h, c, 0xB80);
    }
    if (s->instret_off != h->instret_off) {
        add_reg(h, c, 0xB02);
        if (rv32)
            add_reg(h, c, 0xB82);
    }
}

/* GPRs other than the instruction's rd that changed: the SBI firmware
 * model's ecall writes a0 and a1 (docs/pmu.md), and an erroneous write
 * must show too (TV spec 3.1).  They use the TV register numbers
 * (0x1000 + n, as rvt_hart_tv_reg_read). */
static void diff_gprs(const rvt_hart *h, const struct hart_cm_snap *s, rvt_hart_commit *c)
{
    if (!memcmp(s->x, h->x, sizeof s->x))
        return;
    for (unsigned i = 1; i < 32; i++)
        if (s->x[i] != h->x[i] && i != c->rd)
            add_csr(c, 0x1000 + i, h->x[i]);
}

/* FPRs that changed (TV register numbers 0x1020 + n, FLEN 64). */
static void diff_fprs(const rvt_hart *h, const struct hart_cm_snap *s, rvt_hart_commit *c)
{
    if (h->cfg.no_fp || !memcmp(s->f, h->f, sizeof s->f))
        return;
    for (unsigned i = 0; i < 32; i++)
        if (s->f[i] != h->f[i])
            add_csr(c, 0x1020 + i, h->f[i]);
}

static void diff_state(rvt_hart *h, rvt_hart_commit *c)
{
    const struct hart_cm_snap *s = h->cm_snap;
    diff_gprs(h, s, c);
    diff_fprs(h, s, c);
    for (size_t i = 0; i < hart_tv_ncsrs; i++)
        if (s->csr[i] != csr_field(h, i))
            add_csr(c, hart_tv_csrs[i].addr, csr_field(h, i));
    diff_pmp(h, s, c);
    diff_triggers(h, s, c);
    diff_counters(h, s, c);
    if (s->mtime_off != h->mtime_off) {
        c->mtime_set = true;
        c->mtime = hart_mtime(h);
    }
}

static void trap_info(const rvt_hart *h, rvt_hart_commit *c)
{
    const struct hart_cm_snap *s = h->cm_snap;
    if (h->st.interrupts != s->interrupts)
        c->trap = 2;
    else if (h->st.exceptions != s->exceptions)
        c->trap = 1;
    else
        return;
    bool m = h->priv == PRV_M;
    c->cause = m ? h->mcause : h->scause;
    c->tval = m ? h->mtval : h->stval;
    c->epc = m ? h->mepc : h->sepc;
}

int hart_cm_end(rvt_hart *h)
{
    const struct hart_cm_snap *s = h->cm_snap;
    rvt_hart_commit *c = &h->cm;
    c->retired = h->instret != s->instret;
    trap_info(h, c);
    if ((!c->retired && !c->trap) || h->fatal[0])
        return 0;    /* nothing committed (or a trap loop the hart gave up on) */
    c->pc = s->pc;
    c->npc = h->pc;
    c->priv_before = (uint8_t)s->priv;
    c->priv = (uint8_t)h->priv;
    if (c->trap == 2)
        c->len = 0;  /* an interrupt has no instruction (TV spec ch. 3) */
    if (c->retired && s->writes_rd) {
        c->rd_val = h->x[c->rd];
    } else {
        c->rd = 0;
    }
    diff_state(h, c);
    int r = h->cfg.on_commit(h->cfg.commit_ctx, c);
    if (r < 0)
        return r;
    return r > 0 ? RVT_HART_STEP_LIMIT : 0;
}
