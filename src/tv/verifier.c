/* Tandem verification (TV 3.1, Appendix A): the trace's state changes go
 * into a shadow state; at the end of each group a second reference hart
 * (the tandem verifier) executes one instruction or trap; then the two
 * are compared and, on a mismatch, the difference is reported and the
 * shadow state is copied into the verifier hart.  The comparison covers
 * the whole GPR file, pc and privilege, and every CSR either side changed
 * ("collect state changes in both", 3.1 last paragraph). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"
#include "tv_int.h"

struct rvt_tv_verifier {
    rvt_tv_verify_cfg cfg;
    rvt_image *img;
    rvt_hart *t;                  /* the tandem verifier */
    rvt_hart_commit c;            /* its last commit */
    bool got;
    tv_shadow s;
    tv_group g;
    rvt_tv_verify_stats st;
    bool have_first, group_bad;
    bool exited;                  /* the verifier hart wrote the test finisher */
    rvt_tv_divergence first;
};

static int capture(void *ctx, const rvt_hart_commit *c)
{
    rvt_tv_verifier *v = ctx;
    v->c = *c;
    v->got = true;
    return 1;     /* one commit per rvt_hart_run(): single-step */
}

/* Shadow := verifier hart (start and reset): the whole readable state. */
static void shadow_from_hart(rvt_tv_verifier *v)
{
    tv_shadow *s = &v->s;
    memset(s, 0, sizeof *s);
    s->pc = rvt_hart_pc(v->t);
    s->priv = rvt_hart_priv(v->t);
    s->mtime = rvt_hart_tv_mtime(v->t);
    for (unsigned i = 0; i < 32; i++)
        s->x[i] = rvt_hart_reg(v->t, i);
    for (unsigned i = 0; i < 32; i++)
        rvt_hart_tv_reg_read(v->t, RVT_TV_REG_FPR(i), &s->f[i]);   /* stays 0 without F */
    for (unsigned a = rvt_hart_tv_csr_next(v->t, 0); a < TV_NCSR;
         a = rvt_hart_tv_csr_next(v->t, a + 1))
        if (rvt_hart_tv_reg_read(v->t, a, &s->csr[a]) == RVT_OK)
            s->csr_known[a] = 1;
}

static int hart_start(rvt_tv_verifier *v)
{
    int st;
    rvt_hart_free(v->t);
    v->t = rvt_hart_new(&v->cfg.hart, v->img, &st);
    if (v->t)
        shadow_from_hart(v);
    return v->t ? RVT_OK : st;
}

rvt_tv_verifier *rvt_tv_verifier_new(const rvt_tv_verify_cfg *cfg, rvt_image *img, int *status)
{
    int st = RVT_ERR_INVAL;
    rvt_tv_verifier *v = NULL;
    if (cfg && img && !(v = calloc(1, sizeof *v)))
        st = RVT_ERR_NOMEM;
    if (v) {
        v->cfg = *cfg;
        v->img = img;
        v->cfg.hart.sink = NULL;
        v->cfg.hart.on_commit = capture;
        v->cfg.hart.commit_ctx = v;
        if (!v->cfg.max_report)
            v->cfg.max_report = 1;
        st = rvt_tv_cfg_resolve(&cfg->tv, &v->cfg.tv);
        if (st == RVT_OK)
            st = hart_start(v);
        if (st < 0) {
            rvt_tv_verifier_free(v);
            v = NULL;
        }
    }
    if (status)
        *status = st;
    return v;
}

void rvt_tv_verifier_free(rvt_tv_verifier *v)
{
    if (!v)
        return;
    rvt_hart_free(v->t);
    free(v);
}

const char *rvt_tv_divergence_str(const rvt_tv_divergence *d, char *buf, size_t n)
{
    char tr[40];
    if (d->missing)
        snprintf(tr, sizeof tr, "(absent)");
    else
        snprintf(tr, sizeof tr, "0x%llx", (unsigned long long)d->traced);
    if (d->unexpected)
        snprintf(buf, n, "item %llu (byte %llu, group %llu, pc 0x%llx): %s: trace has %s, "
                 "reference hart has none", (unsigned long long)d->item,
                 (unsigned long long)d->offset, (unsigned long long)d->group,
                 (unsigned long long)d->pc, d->what, tr);
    else
        snprintf(buf, n, "item %llu (byte %llu, group %llu, pc 0x%llx): %s: expected 0x%llx, "
                 "traced %s", (unsigned long long)d->item, (unsigned long long)d->offset,
                 (unsigned long long)d->group, (unsigned long long)d->pc, d->what,
                 (unsigned long long)d->expected, tr);
    return buf;
}

static void diverge(rvt_tv_verifier *v, const char *what, tv_src src, uint64_t expected,
                    uint64_t traced, bool missing, bool unexpected)
{
    rvt_tv_divergence d = { .item = src.item, .offset = src.offset, .group = v->g.index,
                            .pc = v->c.pc, .expected = expected, .traced = traced,
                            .missing = missing, .unexpected = unexpected };
    snprintf(d.what, sizeof d.what, "%s", what);
    v->group_bad = true;
    if (!v->have_first) {
        v->first = d;
        v->have_first = true;
    }
    if (v->st.divergences++ < v->cfg.max_report && v->cfg.diag) {
        char msg[200];
        v->cfg.diag(v->cfg.diag_ctx, RVT_DIAG_ERROR, d.offset,
                    rvt_tv_divergence_str(&d, msg, sizeof msg));
    }
}

static void cmp(rvt_tv_verifier *v, const char *what, tv_src src, uint64_t expected,
                uint64_t traced)
{
    if (expected != traced)
        diverge(v, what, src, expected, traced, false, false);
}

static void compare_insn(rvt_tv_verifier *v)
{
    const tv_group *g = &v->g;
    if (g->insn_src.set && !v->c.len)
        diverge(v, "instruction", g->insn_src, 0, g->insn, false, true);
    else if (!g->insn_src.set && v->c.len && !v->cfg.no_insn)
        diverge(v, "instruction", g->first, v->c.insn, 0, true, false);
    else if (g->insn_src.set)
        cmp(v, "instruction", g->insn_src, v->c.insn, g->insn);
}

static void compare_gprs(rvt_tv_verifier *v)
{
    char name[16];
    for (unsigned i = 1; i < 32; i++) {
        unsigned reg = RVT_TV_REG_GPR(i);
        if (v->s.x[i] != rvt_hart_reg(v->t, i))
            cmp(v, rvt_tv_reg_name(reg, name, sizeof name), tv_group_reg_src(&v->g, reg),
                rvt_hart_reg(v->t, i), v->s.x[i]);
    }
}

/* FPRs, when the verifier hart has F and D (TV register numbers 0x1020 +
 * n, FLEN 64): every one, like the GPRs, so a missing write shows. */
static void compare_fprs(rvt_tv_verifier *v)
{
    char name[16];
    uint64_t want;
    for (unsigned i = 0; i < 32; i++) {
        unsigned reg = RVT_TV_REG_FPR(i);
        if (rvt_hart_tv_reg_read(v->t, reg, &want) < 0)
            return;
        if (v->s.f[i] != want)
            cmp(v, rvt_tv_reg_name(reg, name, sizeof name), tv_group_reg_src(&v->g, reg), want,
                v->s.f[i]);
    }
}

/* One CSR: compared only if the verifier hart has it (TV 3.2: a CSR it
 * does not model, e.g. fcsr, is an absent element). */
static bool in_scope(const rvt_tv_verifier *v, unsigned reg)
{
    for (unsigned i = 0; i < v->cfg.ncsr_scope; i++)
        if (v->cfg.csr_scope[i] == reg)
            return true;
    return !v->cfg.ncsr_scope;
}

static void compare_csr(rvt_tv_verifier *v, unsigned reg)
{
    uint64_t want, got;
    char name[16];
    if (rvt_hart_tv_reg_read(v->t, reg, &want) < 0 || !in_scope(v, reg))
        return;
    if (!tv_shadow_reg(&v->s, reg, &got))
        diverge(v, rvt_tv_reg_name(reg, name, sizeof name), v->g.first, want, 0, true, false);
    else
        cmp(v, rvt_tv_reg_name(reg, name, sizeof name), tv_group_reg_src(&v->g, reg), want, got);
}

static void compare_csrs(rvt_tv_verifier *v)
{
    for (unsigned i = 0; i < v->g.ntouch; i++)
        if (v->g.touch[i].reg < TV_NCSR)
            compare_csr(v, v->g.touch[i].reg);
    for (unsigned i = 0; i < v->c.ncsr && i < RVT_HART_COMMIT_MAX_CSR; i++)
        if (v->c.csr[i].addr < RVT_TV_REG_FPR(0))   /* FPRs: compare_fprs */
            compare_csr(v, v->c.csr[i].addr);
}

static uint64_t mask_bytes(unsigned n)
{
    return n >= 8 ? UINT64_MAX : (1ull << (8 * n)) - 1;
}

static bool hart_wrote_memory(const rvt_hart_commit *c)
{
    return c->mem_kind == RVT_HART_MEM_STORE || c->mem_kind == RVT_HART_MEM_AMO ||
           (c->mem_kind == RVT_HART_MEM_SC && !c->sc_fail);
}

/* Additional state 2/3 and 4..7 against the hart's access. */
static void compare_mem_state(rvt_tv_verifier *v)
{
    const tv_group *g = &v->g;
    const rvt_hart_commit *c = &v->c;
    if (g->addr_src.set && !c->mem_kind)
        diverge(v, "memory address", g->addr_src, 0, g->addr, false, true);
    else if (g->addr_src.set)
        cmp(v, "memory address", g->addr_src, c->mem_addr, g->addr);
    if (g->sdata_src.set && !hart_wrote_memory(c))
        diverge(v, "store data", g->sdata_src, 0, g->sdata, false, true);
    else if (g->sdata_src.set) {
        cmp(v, "store size", g->sdata_src, c->mem_size, g->sdata_bytes);
        cmp(v, "store data", g->sdata_src, c->mem_wdata & mask_bytes(c->mem_size), g->sdata);
    } else if (g->addr_src.set && hart_wrote_memory(c) && !c->trap)
        diverge(v, "store data", g->first, c->mem_wdata & mask_bytes(c->mem_size), 0, true, false);
}

/* Opcodes 8 and 9, when the trace has exactly one transaction. */
static void compare_mem_bus(rvt_tv_verifier *v)
{
    const tv_group *g = &v->g;
    const rvt_hart_commit *c = &v->c;
    if (g->nreq != 1)
        return;
    if (!c->mem_kind) {
        diverge(v, "memory request", g->req_src, 0, g->req.addr, false, true);
        return;
    }
    uint64_t m = mask_bytes(c->mem_size);
    cmp(v, "request address", g->req_src, c->mem_addr, g->req.addr);
    cmp(v, "request size", g->req_src, tv_size_code(c->mem_size), g->req.mem_size);
    if (g->req.has_data && hart_wrote_memory(c))
        cmp(v, "request data", g->req_src, c->mem_wdata & m, g->req.data);
    if (g->rsp_src.set && g->rsp.has_data)
        cmp(v, "response data", g->rsp_src, c->mem_rdata & m, g->rsp.data);
    if (g->rsp_src.set && c->mem_kind == RVT_HART_MEM_SC)
        cmp(v, "sc result", g->rsp_src, c->sc_fail, g->rsp.result);
}

static void compare(rvt_tv_verifier *v)
{
    tv_group *g = &v->g;
    compare_insn(v);
    cmp(v, "pc", g->pc_src.set ? g->pc_src : g->first, rvt_hart_pc(v->t), v->s.pc);
    cmp(v, "priv", g->priv_src.set ? g->priv_src : g->first, rvt_hart_priv(v->t), v->s.priv);
    compare_gprs(v);
    compare_fprs(v);
    compare_csrs(v);
    if (g->mtime_src.set || v->c.mtime_set)
        cmp(v, "mtime", g->mtime_src.set ? g->mtime_src : g->first,
            rvt_hart_tv_mtime(v->t), v->s.mtime);
    compare_mem_state(v);
    compare_mem_bus(v);
}

/* TV 3.1 step 5 (and state initialization): shadow -> verifier hart. */
static void copy_to_hart(rvt_tv_verifier *v)
{
    tv_group *g = &v->g;
    rvt_hart_tv_set_pc(v->t, v->s.pc);
    rvt_hart_tv_set_priv(v->t, v->s.priv);
    for (unsigned i = 1; i < 32; i++)
        rvt_hart_tv_reg_write(v->t, RVT_TV_REG_GPR(i), v->s.x[i]);
    for (unsigned i = 0; i < 32; i++)
        rvt_hart_tv_reg_write(v->t, RVT_TV_REG_FPR(i), v->s.f[i]);   /* ignored without F */
    for (unsigned i = 0; i < g->ntouch; i++) {
        uint64_t val;
        if (g->touch[i].reg < TV_NCSR && tv_shadow_reg(&v->s, g->touch[i].reg, &val))
            rvt_hart_tv_reg_write(v->t, g->touch[i].reg, val);
    }
    if (g->mtime_src.set)
        rvt_hart_tv_set_mtime(v->t, v->s.mtime);
    if (g->addr_src.set && g->sdata_src.set)
        rvt_hart_tv_mem_write(v->t, g->addr, &g->sdata, g->sdata_bytes);
    else if (g->nreq == 1 && g->req.has_data && g->req.mem_op == RVT_TV_M_STORE)
        rvt_hart_tv_mem_write(v->t, g->req.addr, &g->req.data, 1u << g->req.mem_size);
}

static int step_and_compare(rvt_tv_verifier *v)
{
    tv_group *g = &v->g;
    if (g->incr_pc)
        v->s.pc += g->insn_len;   /* ch. 2 opcode 3: by the group's instruction length */
    if (v->cfg.tv.xlen == 32)
        v->s.pc = (uint32_t)v->s.pc;
    v->got = false;
    int r = rvt_hart_run(v->t, 0);
    if (r < 0)
        return r;
    v->exited = rvt_hart_exited(v->t);
    v->st.steps += v->got;
    if (!v->got) {
        memset(&v->c, 0, sizeof v->c);
        v->c.pc = rvt_hart_pc(v->t);
        diverge(v, "commit", g->first, 0, 1, false, true);   /* hart stopped */
    } else {
        compare(v);
    }
    if (v->group_bad)
        copy_to_hart(v);
    return RVT_OK;
}

static int close_group(rvt_tv_verifier *v)
{
    tv_group *g = &v->g;
    int r = RVT_OK;
    g->open = false;
    v->st.groups++;
    v->group_bad = false;
    if (g->reset)
        return hart_start(v);
    if (g->init)
        copy_to_hart(v);   /* ch. 3: unmodelled changes, copied, not executed */
    else
        r = step_and_compare(v);
    if (r < 0)
        return r;
    return v->group_bad ? RVT_ERR_MISMATCH : RVT_OK;
}

int rvt_tv_verifier_put(rvt_tv_verifier *v, const rvt_tv_item *it)
{
    int r = RVT_OK;
    v->st.items++;
    if (it->op == RVT_TV_BEGIN || it->op == RVT_TV_END) {
        if (v->g.open)
            r = close_group(v);   /* ch. 3: begin implies end */
        if (it->op == RVT_TV_BEGIN)
            tv_group_open(&v->g, it, v->st.groups);
        return r;
    }
    if (!v->g.open) {
        /* docs/tv.md: a change outside any group is applied to both states */
        tv_group_open(&v->g, it, v->st.groups);
        tv_shadow_apply(&v->s, &v->g, it, v->cfg.tv.xlen);
        copy_to_hart(v);
        v->g.open = false;
        return RVT_OK;
    }
    tv_shadow_apply(&v->s, &v->g, it, v->cfg.tv.xlen);
    return RVT_OK;
}

int rvt_tv_verifier_end(rvt_tv_verifier *v)
{
    return v->g.open ? close_group(v) : RVT_OK;
}

bool rvt_tv_verifier_complete(const rvt_tv_verifier *v)
{
    return v->exited;
}

bool rvt_tv_verifier_first(const rvt_tv_verifier *v, rvt_tv_divergence *d)
{
    if (v->have_first && d)
        *d = v->first;
    return v->have_first;
}

void rvt_tv_verifier_stats(const rvt_tv_verifier *v, rvt_tv_verify_stats *s)
{
    *s = v->st;
}
