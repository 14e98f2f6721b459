/* objdump-compatible disassembly: "mnemonic\toperands" exactly as GNU
 * objdump 2.40 `-d` prints it (aliases on), so listings diff cleanly.
 * Conventions (docs/isa.md): ABI register names; I-type immediates in
 * decimal, shift amounts and lui/auipc fields in hex; branch/jump targets
 * as an absolute hex address plus " <sym+0xoff>"; objdump's alias choices,
 * including its use of the register mnemonic for immediate forms
 * (addi -> "add a0,a1,1", csrrwi -> "csrw csr,5"). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa/isa_internal.h"

typedef struct dis {
    char buf[160];
    size_t len;
    const rvt_insn *in;
    uint64_t pc;
    rvt_isa_symbolizer sym;
    void *sym_ctx;
} dis;

static void put(dis *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(dis *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(d->buf + d->len, sizeof d->buf - d->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        d->len += (size_t)n < sizeof d->buf - d->len ? (size_t)n : sizeof d->buf - d->len - 1;
}

static const char *X(unsigned r) { return rvt_isa_reg_name(r); }
static const char *F(unsigned r) { return rvt_isa_freg_name(r); }

static bool rv32(const dis *d) { return d->in->flags & RVT_INSN_F_RV32; }

/* Absolute target of a pc-relative branch/jump, then " <sym+0xoff>". */
static void put_target(dis *d)
{
    uint64_t t = d->pc + (uint64_t)d->in->imm;
    if (rv32(d))
        t &= 0xffffffffu;
    put(d, "%" PRIx64, t);
    uint64_t off = 0;
    const char *name = d->sym ? d->sym(d->sym_ctx, t, &off) : NULL;
    if (name && off)
        put(d, " <%s+0x%" PRIx64 ">", name, off);
    else if (name)
        put(d, " <%s>", name);
}

static void dis_jal(dis *d)
{
    unsigned rd = d->in->rd;
    if (rd == 0)
        put(d, "j\t");
    else if (rd == 1)
        put(d, "jal\t");
    else
        put(d, "jal\t%s,", X(rd));
    put_target(d);
}

/* jalr: ret / jr / jalr with the rd=x0 and rd=ra short forms. */
static void dis_jalr(dis *d)
{
    const rvt_insn *in = d->in;
    if (in->rd == 0 && in->rs1 == 1 && in->imm == 0) {
        put(d, "ret");
        return;
    }
    if (in->rd == 0)
        put(d, "jr\t");
    else if (in->rd == 1)
        put(d, "jalr\t");
    else
        put(d, "jalr\t%s,", X(in->rd));
    if (in->imm)
        put(d, "%" PRId64 "(%s)", in->imm, X(in->rs1));
    else
        put(d, "%s", X(in->rs1));
}

/* Branches with a zero operand use the one-register pseudo-ops. */
static void dis_branch(dis *d)
{
    const rvt_insn *in = d->in;
    const char *name = rvt_isa_op_name(in->op);
    const char *zr = NULL, *zl = NULL;   /* alias for rs2 == 0 / rs1 == 0 */
    switch (in->op) {
    case RVT_OP_BEQ: zr = "beqz"; break;
    case RVT_OP_BNE: zr = "bnez"; break;
    case RVT_OP_BLT: zr = "bltz"; zl = "bgtz"; break;
    case RVT_OP_BGE: zr = "bgez"; zl = "blez"; break;
    default: break;
    }
    if (zr && in->rs2 == 0)
        put(d, "%s\t%s,", zr, X(in->rs1));
    else if (zl && in->rs1 == 0)
        put(d, "%s\t%s,", zl, X(in->rs2));
    else
        put(d, "%s\t%s,%s,", name, X(in->rs1), X(in->rs2));
    put_target(d);
}

static void dis_mem(dis *d, const char *name)
{
    const rvt_insn *in = d->in;
    unsigned fp = rvt_isa_fp_operands(in->op);
    bool store = in->rd == 0 && (in->op == RVT_OP_SB || in->op == RVT_OP_SH ||
                                 in->op == RVT_OP_SW || in->op == RVT_OP_SD ||
                                 (fp & RVT_FPR_RS2));
    unsigned r = store ? in->rs2 : in->rd;
    put(d, "%s\t%s,%" PRId64 "(%s)", name, fp ? F(r) : X(r), in->imm, X(in->rs1));
}

/* addi and its aliases; compressed forms keep objdump's C-table spelling. */
static void dis_addi(dis *d)
{
    const rvt_insn *in = d->in;
    bool c = in->flags & RVT_INSN_F_COMPRESSED;
    if (in->rd == 0 && in->rs1 == 0 && in->imm == 0)
        put(d, "nop");
    else if (c && in->rd == 0 && in->rs1 == 0 && rvt_isa_bits(in->raw, 15, 13) == 0)
        put(d, "c.nop\t%" PRId64, in->imm);                 /* c.nop HINT */
    else if (c && in->rd == 0 && in->rs1 == 0)
        put(d, "c.li\tzero,%" PRId64, in->imm);             /* c.li HINT */
    else if (in->rs1 == 0)
        put(d, "li\t%s,%" PRId64, X(in->rd), in->imm);
    else if (!c && in->imm == 0)
        put(d, "mv\t%s,%s", X(in->rd), X(in->rs1));
    else
        put(d, "add\t%s,%s,%" PRId64, X(in->rd), X(in->rs1), in->imm);
}

static void dis_op_imm(dis *d, const char *name)
{
    const rvt_insn *in = d->in;
    put(d, "%s\t%s,%s,%" PRId64, name, X(in->rd), X(in->rs1), in->imm);
}

static void dis_shift_imm(dis *d, const char *name)
{
    const rvt_insn *in = d->in;
    if ((in->flags & RVT_INSN_F_COMPRESSED) && in->rd == 0)
        put(d, "c.slli\tzero,0x%" PRIx64, in->imm);          /* HINT */
    else
        put(d, "%s\t%s,%s,0x%" PRIx64, name, X(in->rd), X(in->rs1), in->imm);
}

static void dis_rrr(dis *d, const char *name)
{
    const rvt_insn *in = d->in;
    put(d, "%s\t%s,%s,%s", name, X(in->rd), X(in->rs1), X(in->rs2));
}

/* add: compressed c.mv / c.add spell as objdump's C table does. */
static void dis_add(dis *d)
{
    const rvt_insn *in = d->in;
    if (!(in->flags & RVT_INSN_F_COMPRESSED)) {
        dis_rrr(d, "add");
        return;
    }
    bool mv = rvt_isa_bits(in->raw, 12, 12) == 0;
    if (in->rd == 0)
        put(d, "%s\tzero,%s", mv ? "c.mv" : "c.add", X(in->rs2));
    else if (mv)
        put(d, "mv\t%s,%s", X(in->rd), X(in->rs2));
    else
        dis_rrr(d, "add");
}

/* Two-operand aliases of R-type ops with x0 as one source. */
static bool dis_r_alias(dis *d)
{
    const rvt_insn *in = d->in;
    const char *rd = X(in->rd);
    switch (in->op) {
    case RVT_OP_SUB: if (in->rs1) return false; put(d, "neg\t%s,%s", rd, X(in->rs2)); return true;
    case RVT_OP_SUBW: if (in->rs1) return false; put(d, "negw\t%s,%s", rd, X(in->rs2)); return true;
    case RVT_OP_SLTU: if (in->rs1) return false; put(d, "snez\t%s,%s", rd, X(in->rs2)); return true;
    case RVT_OP_SLT:
        if (in->rs2 == 0)
            put(d, "sltz\t%s,%s", rd, X(in->rs1));
        else if (in->rs1 == 0)
            put(d, "sgtz\t%s,%s", rd, X(in->rs2));
        else
            return false;
        return true;
    default: return false;
    }
}

/* fence pred/succ sets as objdump letters (i=8 o=4 r=2 w=1). */
static void put_iorw(dis *d, unsigned set)
{
    static const char letters[] = "iorw";
    if (set == 0) {
        put(d, "unknown");
        return;
    }
    for (unsigned b = 0; b < 4; b++)
        if (set & (8u >> b))
            put(d, "%c", letters[b]);
}

static void dis_fence(dis *d)
{
    unsigned v = (unsigned)d->in->imm, fm = v >> 8, pred = (v >> 4) & 15, succ = v & 15;
    if (fm == 8 && pred == 3 && succ == 3) {
        put(d, "fence.tso");
    } else if (fm != 0) {
        put(d, ".4byte\t0x%" PRIx32, d->in->raw);   /* objdump: reserved fm */
    } else if (pred == 15 && succ == 15) {
        put(d, "fence");
    } else {
        put(d, "fence\t");
        put_iorw(d, pred);
        put(d, ",");
        put_iorw(d, succ);
    }
}

static void put_csr(dis *d)
{
    const char *n = rvt_isa_csr_name(d->in->csr);
    if (n)
        put(d, "%s", n);
    else
        put(d, "0x%x", d->in->csr);
}

/* csrrs rd,csr,x0 pseudo-ops: frflags/frrm/frcsr, rdcycle/rdtime/rdinstret
 * (and the ...h forms on RV32), else csrr. */
static void dis_csr_read(dis *d)
{
    static const char *const fcsr[4] = { NULL, "frflags", "frrm", "frcsr" };
    static const char *const ctr[3] = { "rdcycle", "rdtime", "rdinstret" };
    static const char *const ctrh[3] = { "rdcycleh", "rdtimeh", "rdinstreth" };
    unsigned csr = d->in->csr;
    const char *rd = X(d->in->rd);
    if (csr >= 1 && csr <= 3)
        put(d, "%s\t%s", fcsr[csr], rd);
    else if (csr >= 0xc00 && csr <= 0xc02)
        put(d, "%s\t%s", ctr[csr - 0xc00], rd);
    else if (rv32(d) && csr >= 0xc80 && csr <= 0xc82)
        put(d, "%s\t%s", ctrh[csr - 0xc80], rd);
    else {
        put(d, "csrr\t%s,", rd);
        put_csr(d);
    }
}

/* Source operand of a CSR op: register, or zimm in decimal. */
static void put_csr_src(dis *d, bool imm)
{
    if (imm)
        put(d, "%" PRId64, d->in->imm);
    else
        put(d, "%s", X(d->in->rs1));
}

static void dis_csr(dis *d)
{
    static const char *const fsw[4] = { NULL, "fsflags", "fsrm", "fscsr" };
    const rvt_insn *in = d->in;
    bool imm = in->op >= RVT_OP_CSRRWI;
    unsigned kind = (in->op - RVT_OP_CSRRW) % 3;        /* 0 w, 1 s, 2 c */
    static const char *const full[3] = { "csrrw", "csrrs", "csrrc" };
    static const char *const xo[3] = { "csrw", "csrs", "csrc" };
    if (in->raw == 0xc0001073u) {                        /* csrrw x0,cycle,x0 */
        put(d, "unimp");
        return;
    }
    if (kind == 1 && !imm && in->rs1 == 0) {
        dis_csr_read(d);
        return;
    }
    if (kind == 0 && !imm && in->csr >= 1 && in->csr <= 3) {
        if (in->rd)
            put(d, "%s\t%s,%s", fsw[in->csr], X(in->rd), X(in->rs1));
        else
            put(d, "%s\t%s", fsw[in->csr], X(in->rs1));
        return;
    }
    if (kind == 0 && imm && (in->csr == 1 || in->csr == 2)) {
        put(d, "%si\t%s,%" PRId64, fsw[in->csr], X(in->rd), in->imm);
        return;
    }
    if (in->rd == 0)
        put(d, "%s\t", xo[kind]);
    else
        put(d, "%s\t%s,", full[kind], X(in->rd));
    put_csr(d);
    put(d, ",");
    put_csr_src(d, imm);
}

static void dis_amo(dis *d)
{
    static const char *const ord[4] = { "", ".rl", ".aq", ".aqrl" };
    const rvt_insn *in = d->in;
    const char *name = rvt_isa_op_name(in->op), *o = ord[in->aqrl & 3];
    if (in->op == RVT_OP_LR_W || in->op == RVT_OP_LR_D)
        put(d, "%s%s\t%s,(%s)", name, o, X(in->rd), X(in->rs1));
    else
        put(d, "%s%s\t%s,%s,(%s)", name, o, X(in->rd), X(in->rs2), X(in->rs1));
}

static void dis_sfence(dis *d)
{
    const rvt_insn *in = d->in;
    if (in->rs1 == 0 && in->rs2 == 0)
        put(d, "sfence.vma");
    else if (in->rs2 == 0)
        put(d, "sfence.vma\t%s", X(in->rs1));
    else
        put(d, "sfence.vma\t%s,%s", X(in->rs1), X(in->rs2));
}

static void dis_illegal(dis *d)
{
    if (d->in->len == 2 && d->in->raw == 0)
        put(d, "unimp");                           /* c.unimp (16.x) */
    else if (d->in->len == 2 || d->in->len == 0)
        put(d, ".2byte\t0x%" PRIx32, d->in->raw & 0xffffu);
    else
        put(d, ".4byte\t0x%" PRIx32, d->in->raw);
}

/* Integer (non-FP) instructions. */
static void dis_int(dis *d)
{
    const rvt_insn *in = d->in;
    const char *name = rvt_isa_op_name(in->op);
    switch (in->op) {
    case RVT_OP_LUI:
        if ((in->flags & RVT_INSN_F_COMPRESSED) && in->rd == 0)
            name = "c.lui";                                 /* HINT */
        /* fallthrough */
    case RVT_OP_AUIPC:
        put(d, "%s\t%s,0x%" PRIx64, name, X(in->rd), ((uint64_t)in->imm >> 12) & 0xfffff);
        return;
    case RVT_OP_JAL: dis_jal(d); return;
    case RVT_OP_JALR: dis_jalr(d); return;
    case RVT_OP_BEQ: case RVT_OP_BNE: case RVT_OP_BLT:
    case RVT_OP_BGE: case RVT_OP_BLTU: case RVT_OP_BGEU:
        dis_branch(d); return;
    case RVT_OP_LB: case RVT_OP_LH: case RVT_OP_LW: case RVT_OP_LD: case RVT_OP_LBU:
    case RVT_OP_LHU: case RVT_OP_LWU: case RVT_OP_SB: case RVT_OP_SH: case RVT_OP_SW:
    case RVT_OP_SD:
        dis_mem(d, name); return;
    case RVT_OP_ADDI: dis_addi(d); return;
    case RVT_OP_SLTIU:
        if (in->imm == 1) {
            put(d, "seqz\t%s,%s", X(in->rd), X(in->rs1));
            return;
        }
        /* fallthrough */
    case RVT_OP_SLTI: dis_op_imm(d, name); return;
    case RVT_OP_XORI:
        if (in->imm == -1)
            put(d, "not\t%s,%s", X(in->rd), X(in->rs1));
        else
            dis_op_imm(d, "xor");
        return;
    case RVT_OP_ORI: dis_op_imm(d, "or"); return;
    case RVT_OP_ANDI:
        if (in->imm == 255)
            put(d, "zext.b\t%s,%s", X(in->rd), X(in->rs1));
        else
            dis_op_imm(d, "and");
        return;
    case RVT_OP_SLLI: dis_shift_imm(d, "sll"); return;
    case RVT_OP_SRLI: dis_shift_imm(d, "srl"); return;
    case RVT_OP_SRAI: dis_shift_imm(d, "sra"); return;
    case RVT_OP_ADDIW:
        if (in->imm == 0)
            put(d, "sext.w\t%s,%s", X(in->rd), X(in->rs1));
        else
            dis_op_imm(d, "addw");
        return;
    case RVT_OP_SLLIW: dis_shift_imm(d, "sllw"); return;
    case RVT_OP_SRLIW: dis_shift_imm(d, "srlw"); return;
    case RVT_OP_SRAIW: dis_shift_imm(d, "sraw"); return;
    case RVT_OP_ADD: dis_add(d); return;
    case RVT_OP_FENCE: dis_fence(d); return;
    case RVT_OP_FENCE_I: case RVT_OP_ECALL: case RVT_OP_EBREAK:
    case RVT_OP_MRET: case RVT_OP_SRET: case RVT_OP_WFI:
        put(d, "%s", name); return;
    case RVT_OP_SFENCE_VMA: dis_sfence(d); return;
    default: break;
    }
    if (in->op >= RVT_OP_LR_W && in->op <= RVT_OP_AMOMAXU_D)
        dis_amo(d);
    else if (in->op >= RVT_OP_CSRRW && in->op <= RVT_OP_CSRRCI)
        dis_csr(d);
    else if (!dis_r_alias(d))
        dis_rrr(d, name);
}

/* ---- F / D ---- */

/* Rounding-mode suffix; dyn (111) is the default and is not printed. */
static void put_rm(dis *d)
{
    static const char *const rm[8] = { "rne", "rtz", "rdn", "rup", "rmm", NULL, NULL, NULL };
    unsigned m = d->in->aqrl & 7;
    if (rm[m])
        put(d, ",%s", rm[m]);
}

static bool fp_takes_rm(unsigned s_op, unsigned op)
{
    /* Exact conversions have no rm operand in objdump (fcvt.d.s, fcvt.d.w[u]). */
    if (op == RVT_OP_FCVT_D_S || op == RVT_OP_FCVT_D_W || op == RVT_OP_FCVT_D_WU)
        return false;
    switch (s_op) {
    case RVT_OP_FSGNJ_S: case RVT_OP_FSGNJN_S: case RVT_OP_FSGNJX_S:
    case RVT_OP_FMIN_S: case RVT_OP_FMAX_S: case RVT_OP_FMV_X_W: case RVT_OP_FMV_W_X:
    case RVT_OP_FEQ_S: case RVT_OP_FLT_S: case RVT_OP_FLE_S: case RVT_OP_FCLASS_S:
        return false;
    default:
        return true;
    }
}

static void dis_fp(dis *d)
{
    const rvt_insn *in = d->in;
    const char *name = rvt_isa_op_name(in->op);
    unsigned fmt = (in->op - RVT_OP_FLW) / RVT_OP_FP_FMT_STRIDE;
    unsigned s_op = in->op - fmt * RVT_OP_FP_FMT_STRIDE;
    unsigned fp = rvt_isa_fp_operands(in->op);
    if (s_op == RVT_OP_FLW || s_op == RVT_OP_FSW) {
        dis_mem(d, name);
        return;
    }
    /* fsgnj with rs1 == rs2: fmv / fneg / fabs */
    if (s_op >= RVT_OP_FSGNJ_S && s_op <= RVT_OP_FSGNJX_S && in->rs1 == in->rs2) {
        static const char *const mv[3] = { "fmv", "fneg", "fabs" };
        put(d, "%s.%c\t%s,%s", mv[s_op - RVT_OP_FSGNJ_S], fmt ? 'd' : 's', F(in->rd), F(in->rs1));
        return;
    }
    bool three = (fp & RVT_FPR_RS2) != 0;
    put(d, "%s\t%s,%s", name, (fp & RVT_FPR_RD) ? F(in->rd) : X(in->rd),
        (fp & RVT_FPR_RS1) ? F(in->rs1) : X(in->rs1));
    if (three)
        put(d, ",%s", F(in->rs2));
    if (fp & RVT_FPR_RS3)
        put(d, ",%s", F(in->rs3));
    if (fp_takes_rm(s_op, in->op))
        put_rm(d);
}

int rvt_isa_disasm(const rvt_insn *insn, uint64_t pc, char *buf, size_t n,
                   rvt_isa_symbolizer sym, void *sym_ctx)
{
    dis d = { .len = 0, .in = insn, .pc = pc, .sym = sym, .sym_ctx = sym_ctx };
    d.buf[0] = 0;
    if (insn->op == RVT_OP_ILLEGAL || insn->op >= RVT_OP_COUNT)
        dis_illegal(&d);
    else if (insn->op >= RVT_OP_FLW)
        dis_fp(&d);
    else
        dis_int(&d);
    if (n == 0)
        return 0;
    size_t len = d.len < n - 1 ? d.len : n - 1;
    memcpy(buf, d.buf, len);
    buf[len] = 0;
    return (int)len;
}
