/* QEMU as the device under test (docs/tv.md "QEMU as the DUT"): its
 * per-instruction state log (`qemu-system-riscv64 -singlestep -d
 * cpu,fpu,nochain,int`) turned into tandem-verification groups.  The log
 * prints the whole state before each instruction (pc, the CSRs below,
 * x0-x31, f0-f31) and a `riscv_cpu_do_interrupt:` line for every trap; the
 * difference between two consecutive states is what the instruction (and
 * a trap it took) changed (TV 3.1: all architectural side effects).
 *
 * One group per instruction: `state pc` (the next state's pc), a full_reg
 * for every GPR, FPR and listed CSR that changed, `state priv` when the
 * privilege changed.  The log does not print the privilege: it follows a
 * trap (M unless medeleg/mideleg delegates it from S or U) and mret/sret
 * (MPP/SPP of the mstatus before), the instruction read from the image.
 * An interrupt becomes a group of its own after the instruction it
 * follows (whose next pc is the trap's epc); mstatus between the two is
 * the final one with the trap's own change undone (xIE = xPIE, xPIE and
 * xPP as before).  Everything before the pc `start` (QEMU's reset ROM) is
 * skipped; the first state at `start` becomes the state-initialization
 * group.  The last instruction (the finisher store after which QEMU
 * exits) gets a group with pc + its length. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/tv.h"
#include "rvtrace/image.h"

/* The CSRs QEMU 7.2 prints, in the TV (CSR) numbering; mip is left out:
 * its timer bit follows QEMU's host-clock timer, not the instruction count
 * (docs/tv.md). */
static const struct { const char *name; uint16_t csr; } qcsr[] = {
    { "mstatus", 0x300 }, { "medeleg", 0x302 }, { "mideleg", 0x303 }, { "mie", 0x304 },
    { "mtvec", 0x305 }, { "mscratch", 0x340 }, { "mepc", 0x341 }, { "mcause", 0x342 },
    { "mtval", 0x343 }, { "sscratch", 0x140 }, { "stvec", 0x105 }, { "sepc", 0x141 },
    { "scause", 0x142 }, { "stval", 0x143 }, { "satp", 0x180 },
};
#define NQCSR (sizeof qcsr / sizeof qcsr[0])
enum { C_MSTATUS = 0, C_MEDELEG = 1, C_MIDELEG = 2 };

unsigned rvt_tv_qemu_csrs(uint16_t *out, unsigned max)
{
    unsigned n = 0;
    for (; n < NQCSR && n < max; n++)
        out[n] = qcsr[n].csr;
    return (unsigned)NQCSR;
}

typedef struct qstate {
    uint64_t pc, x[32], f[32], csr[NQCSR];
    uint64_t seen_x, seen_f;   /* bit n: xn / fn parsed */
    bool has_pc;
} qstate;

typedef struct qtrap {
    bool async;
    uint64_t cause, epc;
} qtrap;

struct rvt_tv_qemu {
    rvt_tv_qemu_cfg cfg;
    qstate prev, cur;
    bool have_prev, started, fpu;
    unsigned priv;
    qtrap trap[4], ptrap[4];     /* logged after cur's / prev's state: its instruction's */
    unsigned ntrap, nptrap;
    uint64_t line;
};

rvt_tv_qemu *rvt_tv_qemu_new(const rvt_tv_qemu_cfg *cfg, int *status)
{
    rvt_tv_qemu *q = NULL;
    int st = RVT_ERR_INVAL;
    if (cfg && cfg->out && (cfg->xlen == 32 || cfg->xlen == 64)) {
        q = calloc(1, sizeof *q);
        st = q ? RVT_OK : RVT_ERR_NOMEM;
    }
    if (q) {
        q->cfg = *cfg;
        q->priv = 3;
    }
    if (status)
        *status = st;
    return q;
}

void rvt_tv_qemu_free(rvt_tv_qemu *q)
{
    free(q);
}

static int put(rvt_tv_qemu *q, rvt_tv_item it)
{
    return rvt_tv_writer_put(q->cfg.out, &it);
}

#define PUT(q, ...) do { int r_ = put((q), (rvt_tv_item){ __VA_ARGS__ }); \
                         if (r_ < 0) return r_; } while (0)

static uint64_t xmask(const rvt_tv_qemu *q)
{
    return q->cfg.xlen == 32 ? 0xffffffffull : UINT64_MAX;
}

/* ---- parsing ---- */

static bool hex(const char *s, const char **end, uint64_t *v)
{
    char *e;
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') || (*s >= 'A' && *s <= 'F')))
        return false;
    *v = strtoull(s, &e, 16);
    *end = e;
    return true;
}

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* "x10/a0   0000000000000000" pairs (four to a line), and f0..f31 alike */
static int parse_regs(rvt_tv_qemu *q, const char *s)
{
    while (*(s = skip_ws(s))) {
        char kind = *s;
        char *e;
        unsigned long n = strtoul(s + 1, &e, 10);
        if ((kind != 'x' && kind != 'f') || e == s + 1 || *e != '/' || n > 31)
            return RVT_ERR_FORMAT;
        s = e;
        while (*s && *s != ' ')
            s++;
        uint64_t v;
        if (!hex(skip_ws(s), &s, &v))
            return RVT_ERR_FORMAT;
        if (kind == 'x') {
            q->cur.x[n] = v;
            q->cur.seen_x |= 1ull << n;
        } else {
            q->cur.f[n] = v;
            q->cur.seen_f |= 1ull << n;
            q->fpu = true;
        }
    }
    return RVT_OK;
}

/* "riscv_cpu_do_interrupt: hart:0, async:0, cause:...b, epc:0x..., tval:..." */
static int parse_trap(rvt_tv_qemu *q, const char *s)
{
    const char *a = strstr(s, "async:"), *c = strstr(s, "cause:"), *p = strstr(s, "epc:");
    uint64_t async, cause, epc;
    const char *e;
    if (!a || !c || !p || !hex(a + 6, &e, &async) || !hex(c + 6, &e, &cause))
        return RVT_ERR_FORMAT;
    p += 4;
    if (p[0] == '0' && p[1] == 'x')
        p += 2;
    if (!hex(p, &e, &epc) || q->ntrap == sizeof q->trap / sizeof q->trap[0])
        return RVT_ERR_FORMAT;
    q->trap[q->ntrap++] = (qtrap){ .async = async != 0, .cause = cause, .epc = epc };
    return RVT_OK;
}

/* ---- groups ---- */

static bool complete(const rvt_tv_qemu *q, const qstate *s)
{
    return s->has_pc && s->seen_x == UINT64_MAX >> 32 && (!q->fpu || s->seen_f == UINT64_MAX >> 32);
}

static int put_diff(rvt_tv_qemu *q, const qstate *a, const qstate *b, bool regs, bool csrs)
{
    for (unsigned i = 1; regs && i < 32; i++)
        if (a->x[i] != b->x[i])
            PUT(q, .op = RVT_TV_FULL_REG, .reg = (uint16_t)RVT_TV_REG_GPR(i), .value = b->x[i]);
    for (unsigned i = 0; regs && q->fpu && i < 32; i++)
        if (a->f[i] != b->f[i])
            PUT(q, .op = RVT_TV_FULL_REG, .reg = (uint16_t)RVT_TV_REG_FPR(i), .value = b->f[i]);
    for (unsigned i = 0; csrs && i < NQCSR; i++)
        if (a->csr[i] != b->csr[i])
            PUT(q, .op = RVT_TV_FULL_REG, .reg = qcsr[i].csr, .value = b->csr[i]);
    return RVT_OK;
}

static int init_group(rvt_tv_qemu *q, const qstate *s)
{
    PUT(q, .op = RVT_TV_BEGIN);
    PUT(q, .op = RVT_TV_INIT);
    PUT(q, .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = s->pc);
    PUT(q, .op = RVT_TV_STATE, .id = RVT_TV_S_PRIV, .value = 3);
    qstate zero = { 0 };
    for (unsigned i = 0; i < NQCSR; i++)
        zero.csr[i] = ~s->csr[i];   /* every listed CSR written */
    int r = put_diff(q, &zero, s, true, true);
    if (r < 0)
        return r;
    PUT(q, .op = RVT_TV_END);
    return RVT_OK;
}

static uint32_t insn_at(const rvt_tv_qemu *q, uint64_t pc, unsigned *len)
{
    uint8_t b[4] = { 0 };
    size_t n = q->cfg.img ? rvt_image_read(q->cfg.img, pc, b, 4) : 0;
    uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    *len = (w & 3) == 3 ? 4 : 2;
    return n >= *len ? w : 0;
}

/* priv 3.1.6.1: mret takes MPP, sret SPP, of the mstatus before */
static unsigned priv_after_insn(const rvt_tv_qemu *q, const qstate *before)
{
    unsigned len;
    uint32_t w = insn_at(q, before->pc, &len);
    uint64_t ms = before->csr[C_MSTATUS];
    if (w == 0x30200073)
        return (unsigned)(ms >> 11) & 3;
    if (w == 0x10200073)
        return (unsigned)(ms >> 8) & 1;
    return q->priv;
}

/* priv 3.1.8: traps from S or U go to S when delegated */
static unsigned trap_target(const rvt_tv_qemu *q, const qstate *before, const qtrap *t)
{
    uint64_t deleg = before->csr[t->async ? C_MIDELEG : C_MEDELEG];
    unsigned cause = (unsigned)(t->cause & 63);
    return q->priv <= 1 && cause < 64 && ((deleg >> cause) & 1) ? 1 : 3;
}

/* mstatus with a trap's own change undone: xIE = xPIE, xPIE/xPP as before */
static uint64_t mstatus_before_trap(uint64_t after, uint64_t before, unsigned target)
{
    uint64_t ie = target == 3 ? 1ull << 3 : 1ull << 1, pie = target == 3 ? 1ull << 7 : 1ull << 5;
    uint64_t pp = target == 3 ? 3ull << 11 : 1ull << 8;
    uint64_t m = (after & ~(ie | pie | pp)) | (before & (pie | pp));
    return (after & pie) ? m | ie : m;
}

static int group(rvt_tv_qemu *q, uint64_t npc, const qstate *a, const qstate *b, bool regs,
                 unsigned priv)
{
    PUT(q, .op = RVT_TV_BEGIN);
    PUT(q, .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = npc & xmask(q));
    int r = put_diff(q, a, b, regs, true);
    if (r < 0)
        return r;
    if (priv != q->priv)
        PUT(q, .op = RVT_TV_STATE, .id = RVT_TV_S_PRIV, .value = priv);
    q->priv = priv;
    PUT(q, .op = RVT_TV_END);
    return RVT_OK;
}

/* The state between an instruction and the interrupt taken after it: the
 * final one with the trap's CSRs (xepc, xcause, xtval, mstatus) undone. */
static void before_trap(const qstate *a, const qstate *b, unsigned target, qstate *mid)
{
    static const unsigned m_regs[] = { 6, 7, 8 }, s_regs[] = { 11, 12, 13 };   /* qcsr[] */
    const unsigned *t = target == 3 ? m_regs : s_regs;
    *mid = *b;
    for (unsigned i = 0; i < 3; i++)
        mid->csr[t[i]] = a->csr[t[i]];
    mid->csr[C_MSTATUS] = mstatus_before_trap(b->csr[C_MSTATUS], a->csr[C_MSTATUS], target);
}

/* prev -> cur, with the traps logged in between */
static int transition(rvt_tv_qemu *q)
{
    const qstate *a = &q->prev, *b = &q->cur;
    const qtrap *irq = NULL, *exc = NULL;
    for (unsigned i = 0; i < q->nptrap; i++)
        if (q->ptrap[i].async)
            irq = &q->ptrap[i];
        else
            exc = &q->ptrap[i];
    if (exc && !irq)
        return group(q, b->pc, a, b, true, trap_target(q, a, exc));
    if (!irq)
        return group(q, b->pc, a, b, true, priv_after_insn(q, a));
    /* the instruction (its next pc is the interrupt's epc), then the
     * interrupt: a second group, without an instruction */
    unsigned p = exc ? trap_target(q, a, exc) : priv_after_insn(q, a);
    unsigned target = p <= 1 && ((a->csr[C_MIDELEG] >> (irq->cause & 63)) & 1) ? 1 : 3;
    qstate mid;
    before_trap(a, b, target, &mid);
    int r = group(q, irq->epc, a, &mid, true, p);
    return r < 0 ? r : group(q, b->pc, &mid, b, false, target);
}

/* A new state begins (its pc line): the previous one is complete. */
static int state_done(rvt_tv_qemu *q)
{
    int r = RVT_OK;
    if (!complete(q, &q->cur))
        return q->cur.has_pc ? RVT_ERR_FORMAT : RVT_OK;
    if (q->started && q->have_prev) {
        r = transition(q);
    } else if (!q->started && q->cur.pc == q->cfg.start) {
        q->started = true;
        r = init_group(q, &q->cur);
    }
    /* the traps logged after cur's state are its instruction's */
    memcpy(q->ptrap, q->trap, sizeof q->trap);
    q->nptrap = q->ntrap;
    q->ntrap = 0;
    q->prev = q->cur;
    q->have_prev = true;
    return r;
}

int rvt_tv_qemu_line(rvt_tv_qemu *q, const char *line)
{
    q->line++;
    const char *s = skip_ws(line);
    if (!strncmp(s, "riscv_cpu_do_interrupt:", 23))
        return parse_trap(q, s);
    if (!strncmp(s, "pc ", 3)) {
        int r = state_done(q);
        memset(&q->cur, 0, sizeof q->cur);
        const char *e;
        if (r < 0 || !hex(skip_ws(s + 3), &e, &q->cur.pc))
            return r < 0 ? r : RVT_ERR_FORMAT;
        q->cur.has_pc = true;
        return RVT_OK;
    }
    if ((s[0] == 'x' || s[0] == 'f') && s[1] >= '0' && s[1] <= '9')
        return parse_regs(q, s);
    for (unsigned i = 0; i < NQCSR; i++) {
        size_t n = strlen(qcsr[i].name);
        const char *e;
        if (!strncmp(s, qcsr[i].name, n) && s[n] == ' ')
            return hex(skip_ws(s + n), &e, &q->cur.csr[i]) ? RVT_OK : RVT_ERR_FORMAT;
    }
    return RVT_OK;   /* other lines (mhartid, mip, QEMU messages): not state we compare */
}

/* The last state's instruction ran too (QEMU exits after it): a group with
 * the next pc and no register change. */
int rvt_tv_qemu_end(rvt_tv_qemu *q)
{
    /* a state cut short (QEMU killed while logging) is dropped */
    int r = complete(q, &q->cur) ? state_done(q) : RVT_OK;
    if (r < 0 || !q->started || !q->have_prev)
        return r < 0 ? r : q->started ? RVT_OK : RVT_ERR_FORMAT;
    unsigned len;
    insn_at(q, q->prev.pc, &len);
    return group(q, q->prev.pc + len, &q->prev, &q->prev, false, q->priv);
}

uint64_t rvt_tv_qemu_lines(const rvt_tv_qemu *q)
{
    return q->line;
}
