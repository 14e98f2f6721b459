/* The execute loop, compiled once per XLEN (exec32.c, exec64.c define
 * HART_XLEN and HART_EXEC).  One switch per instruction over predecoded
 * ops; loads/stores take the inline RAM path; atomics, CSRs, SYSTEM ops,
 * traps and records leave the loop through calls.  RV32 registers hold
 * zero-extended 32-bit values. */
#if HART_XLEN == 32
typedef uint32_t ureg;
typedef int32_t sreg;
typedef uint64_t uwide;
typedef int64_t swide;
#else
typedef uint64_t ureg;
typedef int64_t sreg;
__extension__ typedef unsigned __int128 uwide;
__extension__ typedef __int128 swide;
#endif

#define XLEN_MIN ((sreg)((ureg)1 << (HART_XLEN - 1)))
#define R(i) ((ureg)x[(i)])
#define S(i) ((sreg)x[(i)])
#define WR(v) (x[o->rd] = (ureg)(v))

/* The commit hook (commit.c) in the HART_COMMIT build only: snapshot at
 * the top of the loop, report after every retirement or trap. */
#ifdef HART_COMMIT
#define CM_BEGIN() hart_cm_begin(h)
#define CM_INSN(o) hart_cm_insn(h, (o))
#define CM_END() do { int cr_ = hart_cm_end(h); if (cr_) return cr_; } while (0)
#else
#define CM_BEGIN() do { } while (0)
#define CM_INSN(o) do { } while (0)
#define CM_END() do { } while (0)
#endif

/* Sdtrig (trigger.c) in the observing loops only: a load/store address
 * trigger is checked before the access (Debug spec 1.0, 5.3). */
#if HART_OBS
#define TRIG_MEM(kind, armed, size) \
            if (h->armed && hart_trig_mem(h, kind, a, size)) goto trigbp;
#else
#define TRIG_MEM(kind, armed, size)
#endif

static inline int32_t w32(uint64_t v) { return (int32_t)(uint32_t)v; }

/* unpriv 13.2: division by zero and overflow do not trap */
static inline ureg div_s(sreg a, sreg b) { return b == 0 ? (ureg)-1 : (a == XLEN_MIN && b == -1) ? (ureg)a : (ureg)(a / b); }
static inline ureg rem_s(sreg a, sreg b) { return b == 0 ? (ureg)a : (a == XLEN_MIN && b == -1) ? 0 : (ureg)(a % b); }
static inline ureg div_u(ureg a, ureg b) { return b == 0 ? (ureg)-1 : a / b; }
static inline ureg rem_u(ureg a, ureg b) { return b == 0 ? a : a % b; }
static inline int32_t divw(int32_t a, int32_t b) { return b == 0 ? -1 : (a == INT32_MIN && b == -1) ? a : a / b; }
static inline int32_t remw(int32_t a, int32_t b) { return b == 0 ? a : (a == INT32_MIN && b == -1) ? 0 : a % b; }
static inline uint32_t divuw(uint32_t a, uint32_t b) { return b == 0 ? UINT32_MAX : a / b; }
static inline uint32_t remuw(uint32_t a, uint32_t b) { return b == 0 ? a : a % b; }

int HART_EXEC(rvt_hart *h)
{
    uint64_t *const x = h->x;
    const bool data_on = h->data_on;
    /* without C, a jump/branch target with bit 1 set is misaligned (unpriv 1.5) */
    const uint64_t ialign = h->cfg.no_compressed ? 2 : 0;
    for (;;) {
        CM_BEGIN();
        if (h->instret >= h->event_at) {
            int r = hart_event(h);
            if (r)
                return r;
            CM_END();
            continue;
        }
        const uint64_t pc = h->pc;
        const hart_op *o = hart_fetch(h, pc);
#if HART_OBS
        /* an execute trigger with action 0 traps before the instruction
         * executes, xtval = its address (Debug spec 1.0, 5.2, 5.3) */
        if (h->trig_x && hart_trig_exec(h, pc, o ? o->len : 0)) {
            hart_exception(h, pc, CAUSE_BREAKPOINT, h->trig_tval);
            CM_END();
            continue;
        }
#endif
        if (!o) {
            hart_exception(h, pc, h->ifault_cause, h->ifault_tval);
            CM_END();
            continue;
        }
        CM_INSN(o);
        const unsigned len = o->len;
        uint64_t npc = (ureg)(pc + len);
        unsigned itype = RVT_ITYPE_NONE, cause;
        bool sij = false;
        uint64_t v, a, t, tval;
        int r;
        switch (o->op) {
        case RVT_OP_LUI: WR(o->imm); break;
        case RVT_OP_AUIPC: WR(pc + o->imm); break;
        case RVT_OP_JAL:
            t = (ureg)(pc + o->imm);
            if (t & ialign) goto misfetch;
            WR(npc);
            npc = t;
            itype = o->itype_t;
            break;
        case RVT_OP_JALR:
            t = (ureg)(R(o->rs1) + o->imm) & ~(ureg)1;
            if (t & ialign) goto misfetch;
            /* E-Trace 4.1.1: target from an lui/auipc retired just before */
            sij = h->si_rd != 0 && h->si_rd == o->rs1;
            WR(npc);
            npc = t;
            itype = o->itype_t;
            break;
#define BRANCH(cond) \
            if (cond) { t = (ureg)(pc + o->imm); if (t & ialign) goto misfetch; \
                        npc = t; itype = o->itype_t; } \
            else itype = o->itype_n; \
            break;
        case RVT_OP_BEQ: BRANCH(R(o->rs1) == R(o->rs2))
        case RVT_OP_BNE: BRANCH(R(o->rs1) != R(o->rs2))
        case RVT_OP_BLT: BRANCH(S(o->rs1) < S(o->rs2))
        case RVT_OP_BGE: BRANCH(S(o->rs1) >= S(o->rs2))
        case RVT_OP_BLTU: BRANCH(R(o->rs1) < R(o->rs2))
        case RVT_OP_BGEU: BRANCH(R(o->rs1) >= R(o->rs2))
#undef BRANCH
#define LOAD(size, conv) \
            a = (ureg)(R(o->rs1) + o->imm); \
            TRIG_MEM(HART_TRIG_LOAD, trig_ld, size) \
            r = hart_load(h, a, size, &v); \
            if (r) goto memfault; \
            if (data_on) hart_drec(h, pc, RVT_DTYPE_LOAD, a, size, v, 0, 0); \
            WR(conv); \
            break;
        case RVT_OP_LB: LOAD(1, (sreg)(int8_t)v)
        case RVT_OP_LH: LOAD(2, (sreg)(int16_t)v)
        case RVT_OP_LW: LOAD(4, (sreg)(int32_t)v)
        case RVT_OP_LD: LOAD(8, v)
        case RVT_OP_LBU: LOAD(1, (uint8_t)v)
        case RVT_OP_LHU: LOAD(2, (uint16_t)v)
        case RVT_OP_LWU: LOAD(4, (uint32_t)v)
#undef LOAD
#define STORE(size) \
            a = (ureg)(R(o->rs1) + o->imm); \
            v = R(o->rs2); \
            TRIG_MEM(HART_TRIG_STORE, trig_st, size) \
            r = hart_store(h, a, size, v); \
            if (r) goto memfault; \
            if (data_on) hart_drec(h, pc, RVT_DTYPE_STORE, a, size, \
                                   size == 8 ? v : v & ((1ull << (8 * size)) - 1), 0, 0); \
            break;
        case RVT_OP_SB: STORE(1)
        case RVT_OP_SH: STORE(2)
        case RVT_OP_SW: STORE(4)
        case RVT_OP_SD: STORE(8)
#undef STORE
        case RVT_OP_ADDI: WR(R(o->rs1) + o->imm); break;
        case RVT_OP_SLTI: WR(S(o->rs1) < (sreg)o->imm); break;
        case RVT_OP_SLTIU: WR(R(o->rs1) < (ureg)o->imm); break;
        case RVT_OP_XORI: WR(R(o->rs1) ^ (ureg)o->imm); break;
        case RVT_OP_ORI: WR(R(o->rs1) | (ureg)o->imm); break;
        case RVT_OP_ANDI: WR(R(o->rs1) & (ureg)o->imm); break;
        case RVT_OP_SLLI: WR(R(o->rs1) << (o->imm & (HART_XLEN - 1))); break;
        case RVT_OP_SRLI: WR(R(o->rs1) >> (o->imm & (HART_XLEN - 1))); break;
        case RVT_OP_SRAI: WR(S(o->rs1) >> (o->imm & (HART_XLEN - 1))); break;
        case RVT_OP_ADD: WR(R(o->rs1) + R(o->rs2)); break;
        case RVT_OP_SUB: WR(R(o->rs1) - R(o->rs2)); break;
        case RVT_OP_SLL: WR(R(o->rs1) << (R(o->rs2) & (HART_XLEN - 1))); break;
        case RVT_OP_SLT: WR(S(o->rs1) < S(o->rs2)); break;
        case RVT_OP_SLTU: WR(R(o->rs1) < R(o->rs2)); break;
        case RVT_OP_XOR: WR(R(o->rs1) ^ R(o->rs2)); break;
        case RVT_OP_SRL: WR(R(o->rs1) >> (R(o->rs2) & (HART_XLEN - 1))); break;
        case RVT_OP_SRA: WR(S(o->rs1) >> (R(o->rs2) & (HART_XLEN - 1))); break;
        case RVT_OP_OR: WR(R(o->rs1) | R(o->rs2)); break;
        case RVT_OP_AND: WR(R(o->rs1) & R(o->rs2)); break;
        /* RV64-only ops never reach the RV32 loop (predecode rejects them) */
        case RVT_OP_ADDIW: WR((sreg)w32(x[o->rs1] + o->imm)); break;
        case RVT_OP_SLLIW: WR((sreg)w32((uint32_t)x[o->rs1] << (o->imm & 31))); break;
        case RVT_OP_SRLIW: WR((sreg)w32((uint32_t)x[o->rs1] >> (o->imm & 31))); break;
        case RVT_OP_SRAIW: WR((sreg)(w32(x[o->rs1]) >> (o->imm & 31))); break;
        case RVT_OP_ADDW: WR((sreg)w32(x[o->rs1] + x[o->rs2])); break;
        case RVT_OP_SUBW: WR((sreg)w32(x[o->rs1] - x[o->rs2])); break;
        case RVT_OP_SLLW: WR((sreg)w32((uint32_t)x[o->rs1] << (x[o->rs2] & 31))); break;
        case RVT_OP_SRLW: WR((sreg)w32((uint32_t)x[o->rs1] >> (x[o->rs2] & 31))); break;
        case RVT_OP_SRAW: WR((sreg)(w32(x[o->rs1]) >> (x[o->rs2] & 31))); break;
        case RVT_OP_FENCE: break;
        case RVT_OP_MUL: WR(R(o->rs1) * R(o->rs2)); break;
        case RVT_OP_MULH: WR((swide)S(o->rs1) * (swide)S(o->rs2) >> HART_XLEN); break;
        case RVT_OP_MULHSU: WR((swide)S(o->rs1) * (swide)(uwide)R(o->rs2) >> HART_XLEN); break;
        case RVT_OP_MULHU: WR((uwide)R(o->rs1) * (uwide)R(o->rs2) >> HART_XLEN); break;
        case RVT_OP_DIV: WR(div_s(S(o->rs1), S(o->rs2))); break;
        case RVT_OP_DIVU: WR(div_u(R(o->rs1), R(o->rs2))); break;
        case RVT_OP_REM: WR(rem_s(S(o->rs1), S(o->rs2))); break;
        case RVT_OP_REMU: WR(rem_u(R(o->rs1), R(o->rs2))); break;
        case RVT_OP_MULW: WR((sreg)w32(x[o->rs1] * x[o->rs2])); break;
        case RVT_OP_DIVW: WR((sreg)divw(w32(x[o->rs1]), w32(x[o->rs2]))); break;
        case RVT_OP_DIVUW: WR((sreg)(int32_t)divuw((uint32_t)x[o->rs1], (uint32_t)x[o->rs2])); break;
        case RVT_OP_REMW: WR((sreg)remw(w32(x[o->rs1]), w32(x[o->rs2]))); break;
        case RVT_OP_REMUW: WR((sreg)(int32_t)remuw((uint32_t)x[o->rs1], (uint32_t)x[o->rs2])); break;
        case RVT_OP_LR_W: case RVT_OP_SC_W: case RVT_OP_AMOSWAP_W: case RVT_OP_AMOADD_W:
        case RVT_OP_AMOXOR_W: case RVT_OP_AMOAND_W: case RVT_OP_AMOOR_W: case RVT_OP_AMOMIN_W:
        case RVT_OP_AMOMAX_W: case RVT_OP_AMOMINU_W: case RVT_OP_AMOMAXU_W:
        case RVT_OP_LR_D: case RVT_OP_SC_D: case RVT_OP_AMOSWAP_D: case RVT_OP_AMOADD_D:
        case RVT_OP_AMOXOR_D: case RVT_OP_AMOAND_D: case RVT_OP_AMOOR_D: case RVT_OP_AMOMIN_D:
        case RVT_OP_AMOMAX_D: case RVT_OP_AMOMINU_D: case RVT_OP_AMOMAXU_D:
            r = hart_amo(h, o, pc, &tval);
            if (r) goto trap_r;
            break;
        case RVT_OP_CSRRW: case RVT_OP_CSRRS: case RVT_OP_CSRRC:
        case RVT_OP_CSRRWI: case RVT_OP_CSRRSI: case RVT_OP_CSRRCI:
            if (hart_csr_op(h, o, pc)) goto illegal;
            break;
        case RVT_OP_ECALL: case RVT_OP_EBREAK: case RVT_OP_MRET: case RVT_OP_SRET:
        case RVT_OP_WFI: case RVT_OP_SFENCE_VMA: case RVT_OP_FENCE_I: {
#if HART_OBS
            /* fence.i frees o: keep what the hook needs.  A SYSTEM
             * instruction that starts the counters (an SBI start call)
             * does not count itself, as in the plain loop that switches
             * to this one only after it. */
            unsigned op = o->op, prv = h->priv;
            bool counting = h->pmu_on;
            if (hart_system(h, o, pc)) goto illegal;
            if (counting)
                hart_obs_sys(h, op, prv);
            if (h->trig_pend)
                hart_trig_retired(h);
#else
            if (hart_system(h, o, pc)) goto illegal;
#endif
            CM_END();
            continue;
        }
        default:
            /* F/D (fpu.c): predecode lets them through only with F and D */
            if (o->op == RVT_OP_ILLEGAL)
                goto illegal;
            r = hart_fp(h, o, pc, &tval);
            if (r) goto trap_r;
            break;
        }
        x[0] = 0;
        h->pc = npc;
#if HART_OBS
        hart_obs_retire(h, o->op, itype, pc, npc);
#endif
        hart_retire(h, pc, len, o->si_writer ? o->rd : 0, itype, sij);
#if HART_OBS
        if (h->trig_pend)   /* trace-on/off/notify pulses (trigger.c) */
            hart_trig_retired(h);
#endif
        CM_END();
        continue;
#if HART_OBS
    trigbp:
        cause = CAUSE_BREAKPOINT;
        tval = h->trig_tval;
        goto trap;
#endif
    misfetch:
        /* the jump/branch does not retire; xtval is the target (priv 3.1.16) */
        cause = CAUSE_MISALIGNED_FETCH;
        tval = t;
        goto trap;
    memfault:
        tval = a;
    trap_r:
        cause = (unsigned)r - 1;
        goto trap;
    illegal:
        cause = CAUSE_ILLEGAL;
        tval = o->raw;   /* priv 3.1.16: the faulting instruction bits */
    trap:
        x[0] = 0;
        hart_exception(h, pc, cause, tval);
        CM_END();
    }
}

#undef XLEN_MIN
#undef R
#undef S
#undef WR
#undef CM_BEGIN
#undef CM_INSN
#undef CM_END
#undef TRIG_MEM
