/* Coverage source for the disassembly golden file (see gen.sh): every
 * operation in forms that exercise objdump's aliases.  Assembled once for
 * RV64 (-DXLEN64) and RV32; never run. */
    .text
    .globl _start
_start:
    .option norvc
    /* U, J, I-jump */
    lui a0, 0x12345
    lui t6, 0xfffff
    lui zero, 1
    auipc a1, 0
    auipc ra, 0xfffff
fwd0:
    jal ra, fwd1
    jal zero, fwd0
    jal t0, fwd1
    jal a0, fwd1
fwd1:
    jalr zero, 0(ra)
    jalr zero, 0(t0)
    jalr zero, 4(ra)
    jalr zero, 0(a5)
    jalr zero, -8(a5)
    jalr ra, 0(a5)
    jalr ra, 12(a5)
    jalr t0, 0(a5)
    jalr a0, 0(a1)
    jalr a0, 16(a1)
    jalr ra, 0(t0)
    jalr t0, 0(ra)
    jalr ra, 0(ra)
    /* branches, with and without zero operands */
    beq a0, a1, fwd1
    beq a0, zero, fwd1
    beq zero, a0, fwd1
    bne a0, a1, fwd1
    bne a0, zero, fwd1
    bne zero, a1, fwd1
    blt a0, a1, fwd1
    blt a0, zero, fwd1
    blt zero, a1, fwd1
    bge a0, a1, fwd1
    bge a0, zero, fwd1
    bge zero, a1, fwd1
    bltu a0, a1, fwd1
    bltu zero, a1, fwd1
    bltu a1, zero, fwd1
    bgeu a0, a1, fwd1
    bgeu zero, a1, fwd1
    bgeu a1, zero, fwd1
    beq zero, zero, fwd1
    /* loads/stores */
    lb a0, -1(sp)
    lh a1, 2047(s0)
    lw a2, -2048(a0)
    lbu a3, 0(zero)
    lhu a4, 4(t6)
    sb a0, -1(sp)
    sh a1, 2047(s0)
    sw a2, -2048(a0)
    /* OP-IMM and its aliases */
    addi zero, zero, 0
    addi a0, zero, 0
    addi a0, zero, -2048
    addi a0, zero, 2047
    addi a0, a1, 0
    addi sp, sp, -16
    addi zero, a0, 1
    addi zero, zero, 1
    slti a0, a1, -5
    slti a0, a1, 0
    sltiu a0, a1, 1
    sltiu a0, a1, 2
    sltiu a0, a1, -1
    xori a0, a1, -1
    xori a0, a1, 5
    ori a0, a1, 0x7ff
    ori a0, a1, 0
    andi a0, a1, 0xff
    andi a0, a1, -16
    slli a0, a1, 0
    slli a0, a1, 31
    srli a0, a1, 31
    srai a0, a1, 31
    srai a0, a1, 1
    /* OP and aliases */
    add a0, a1, a2
    add a0, zero, a2
    add a0, a2, zero
    sub a0, a1, a2
    sub a0, zero, a2
    sll a0, a1, a2
    slt a0, a1, a2
    slt a0, a1, zero
    slt a0, zero, a2
    sltu a0, a1, a2
    sltu a0, zero, a2
    sltu a0, a2, zero
    xor a0, a1, a2
    srl a0, a1, a2
    sra a0, a1, a2
    or a0, a1, a2
    and a0, a1, a2
    /* fences */
    fence
    fence rw, rw
    fence r, r
    fence w, w
    fence iorw, iorw
    fence io, rw
    fence i, o
    fence.tso
    fence.i
    ecall
    ebreak
    /* M */
    mul a0, a1, a2
    mulh a0, a1, a2
    mulhsu a0, a1, a2
    mulhu a0, a1, a2
    div a0, a1, a2
    divu a0, a1, a2
    rem a0, a1, a2
    remu a0, a1, a2
    /* A */
    lr.w a0, (a1)
    lr.w.aq a0, (a1)
    lr.w.aqrl a0, (a1)
    sc.w a0, a2, (a1)
    sc.w.rl a0, a2, (a1)
    amoswap.w a0, a2, (a1)
    amoadd.w.aq a0, a2, (a1)
    amoxor.w.rl a0, a2, (a1)
    amoand.w.aqrl a0, a2, (a1)
    amoor.w zero, a2, (a1)
    amomin.w a0, a2, (a1)
    amomax.w a0, a2, (a1)
    amominu.w a0, a2, (a1)
    amomaxu.w a0, a2, (a1)
    /* Zicsr and aliases */
    csrrw a0, mstatus, a1
    csrrw zero, mstatus, a1
    csrrs a0, mstatus, a1
    csrrs a0, mstatus, zero
    csrrs zero, mstatus, a1
    csrrc a0, mstatus, a1
    csrrc zero, mstatus, a1
    csrrwi a0, mstatus, 5
    csrrwi zero, mstatus, 5
    csrrsi a0, mie, 31
    csrrsi zero, mie, 8
    csrrci a0, mip, 1
    csrrci zero, mip, 1
    csrrs a0, cycle, zero
    csrrs a0, time, zero
    csrrs a0, instret, zero
    csrrs a0, cycleh, zero
    csrrs a0, timeh, zero
    csrrs a0, instreth, zero
    csrrs a0, hpmcounter3, zero
    csrrs a0, fflags, zero
    csrrs a0, frm, zero
    csrrs a0, fcsr, zero
    csrrw a0, fflags, a1
    csrrw zero, fflags, a1
    csrrw a0, frm, a1
    csrrw zero, frm, a1
    csrrw a0, fcsr, a1
    csrrw zero, fcsr, a1
    csrrwi a0, fflags, 3
    csrrwi zero, fflags, 3
    csrrwi a0, frm, 3
    csrrwi zero, frm, 3
    csrrs a0, 0x7c0, zero
    csrrw zero, 0x800, a0
    csrrs a0, mhartid, zero
    csrrs a0, satp, zero
    csrrs a0, sstatus, zero
    csrrs a0, pmpaddr15, zero
    csrrs a0, mvendorid, zero
    csrrs a0, dcsr, zero
    csrrs a0, tselect, zero
    csrrc a0, ustatus, zero
    csrrw a0, 0xfff, zero
    /* privileged */
    mret
    sret
    wfi
    sfence.vma
    sfence.vma a0
    sfence.vma zero, a1
    sfence.vma a0, a1
    /* F */
    flw fa0, -8(sp)
    fsw fs0, 2047(a0)
    fmadd.s fa0, fa1, fa2, fa3
    fmadd.s fa0, fa1, fa2, fa3, rne
    fmsub.s fa0, fa1, fa2, fa3, rtz
    fnmsub.s fa0, fa1, fa2, fa3, rdn
    fnmadd.s fa0, fa1, fa2, fa3, rup
    fadd.s fa0, fa1, fa2
    fadd.s fa0, fa1, fa2, rmm
    fsub.s ft0, ft1, ft2
    fmul.s fs0, fs1, fs2
    fdiv.s ft8, ft9, ft10
    fsqrt.s fa0, fa1
    fsqrt.s fa0, fa1, rtz
    fsgnj.s fa0, fa1, fa2
    fsgnj.s fa0, fa1, fa1
    fsgnjn.s fa0, fa1, fa2
    fsgnjn.s fa0, fa1, fa1
    fsgnjx.s fa0, fa1, fa2
    fsgnjx.s fa0, fa1, fa1
    fmin.s fa0, fa1, fa2
    fmax.s fa0, fa1, fa2
    fcvt.w.s a0, fa1
    fcvt.w.s a0, fa1, rtz
    fcvt.wu.s a0, fa1, rne
    fmv.x.w a0, fa1
    feq.s a0, fa1, fa2
    flt.s a0, fa1, fa2
    fle.s a0, fa1, fa2
    fclass.s a0, fa1
    fcvt.s.w fa0, a1
    fcvt.s.w fa0, a1, rtz
    fcvt.s.wu fa0, a1
    fmv.w.x fa0, a1
    /* D */
    fld fa0, -8(sp)
    fsd fs0, 2047(a0)
    fmadd.d fa0, fa1, fa2, fa3
    fmsub.d fa0, fa1, fa2, fa3, rtz
    fnmsub.d fa0, fa1, fa2, fa3
    fnmadd.d fa0, fa1, fa2, fa3
    fadd.d fa0, fa1, fa2
    fsub.d fa0, fa1, fa2, rdn
    fmul.d fa0, fa1, fa2
    fdiv.d fa0, fa1, fa2
    fsqrt.d fa0, fa1
    fsgnj.d fa0, fa1, fa2
    fsgnj.d fa0, fa1, fa1
    fsgnjn.d fa0, fa1, fa2
    fsgnjn.d fa0, fa1, fa1
    fsgnjx.d fa0, fa1, fa2
    fsgnjx.d fa0, fa1, fa1
    fmin.d fa0, fa1, fa2
    fmax.d fa0, fa1, fa2
    fcvt.s.d fa0, fa1
    fcvt.s.d fa0, fa1, rtz
    fcvt.d.s fa0, fa1
    feq.d a0, fa1, fa2
    flt.d a0, fa1, fa2
    fle.d a0, fa1, fa2
    fclass.d a0, fa1
    fcvt.w.d a0, fa1
    fcvt.w.d a0, fa1, rtz
    fcvt.wu.d a0, fa1
    fcvt.d.w fa0, a1
    fcvt.d.wu fa0, a1
    /* raw words: illegal / reserved / custom */
    .insn 0x0000000b
    .insn 0x4000101b             /* slliw with funct7 0100000 */
    .insn 0x8000                 /* quadrant 0 funct3 100: reserved */
#ifdef XLEN64
    /* RV64 only */
    ld a0, -8(sp)
    lwu a1, 4(a0)
    sd a0, 8(sp)
    slli a0, a1, 63
    srli a0, a1, 32
    srai a0, a1, 63
    addiw a0, a1, 0
    addiw a0, a1, -1
    addiw zero, a1, 1
    slliw a0, a1, 31
    srliw a0, a1, 1
    sraiw a0, a1, 3
    addw a0, a1, a2
    subw a0, a1, a2
    subw a0, zero, a2
    sllw a0, a1, a2
    srlw a0, a1, a2
    sraw a0, a1, a2
    mulw a0, a1, a2
    divw a0, a1, a2
    divuw a0, a1, a2
    remw a0, a1, a2
    remuw a0, a1, a2
    lr.d a0, (a1)
    lr.d.aqrl a0, (a1)
    sc.d a0, a2, (a1)
    sc.d.aq a0, a2, (a1)
    amoswap.d a0, a2, (a1)
    amoadd.d a0, a2, (a1)
    amoxor.d a0, a2, (a1)
    amoand.d a0, a2, (a1)
    amoor.d a0, a2, (a1)
    amomin.d a0, a2, (a1)
    amomax.d a0, a2, (a1)
    amominu.d a0, a2, (a1)
    amomaxu.d.aq a0, a2, (a1)
    fcvt.l.s a0, fa1
    fcvt.lu.s a0, fa1, rtz
    fcvt.s.l fa0, a1
    fcvt.s.lu fa0, a1
    fcvt.l.d a0, fa1
    fcvt.lu.d a0, fa1
    fmv.x.d a0, fa1
    fcvt.d.l fa0, a1
    fcvt.d.lu fa0, a1, rtz
    fmv.d.x fa0, a1
#endif
    /* compressed */
    .option rvc
cback:
    c.addi4spn s0, sp, 1020
    c.addi4spn a5, sp, 4
    c.lw a0, 124(a5)
    c.sw a2, 64(a3)
    c.fld fa0, 8(a0)
    c.fsd fa1, 248(a1)
    c.nop
    c.addi a0, -32
    c.addi a0, 31
    c.li a2, -32
    c.li a2, 0
    c.addi16sp sp, -512
    c.addi16sp sp, 496
    c.lui a3, 0xfffe0
    c.lui s0, 0x1f
    c.lui s0, 1
    c.srli a0, 31
    c.srai a1, 1
    c.andi a2, -1
    c.andi a2, 0
    c.sub s0, s1
    c.xor a0, a1
    c.or a2, a3
    c.and a4, a5
    c.j cback
    c.j cfwd
    c.beqz s0, cback
    c.bnez a5, cfwd
    c.slli a0, 1
    c.fldsp fa0, 504(sp)
    c.lwsp a0, 252(sp)
    c.jr ra
    c.jr t0
    c.jr a0
    c.mv a0, a1
    c.ebreak
    c.jalr t0
    c.jalr a5
    c.jalr ra
    c.add s0, a0
    c.fsdsp fs0, 504(sp)
    c.swsp a0, 252(sp)
#ifdef XLEN64
    c.ld a1, 248(s0)
    c.sd a4, 8(s1)
    c.addiw a1, -1
    c.addiw a1, 0
    c.subw a0, a1
    c.addw a2, a3
    c.slli a0, 63
    c.srli a0, 32
    c.ldsp ra, 504(sp)
    c.sdsp ra, 504(sp)
#else
    c.jal cback
    c.jal cfwd
    c.flw fa0, 124(a0)
    c.fsw fa1, 4(a1)
    c.flwsp fs0, 252(sp)
    c.fswsp fs1, 4(sp)
#endif
    .insn 0x0001 + (1 << 7)      /* c.addi ra,0: HINT */
    .insn 0x4015                 /* c.li zero,5: HINT */
    .insn 0x0002 | (1 << 2)      /* c.slli zero,1: HINT */
    .insn 0x9002 | (1 << 2)      /* c.add zero,ra: HINT */
    .insn 0x8002 | (1 << 2)      /* c.mv zero,ra: HINT */
    .insn 0x6001 | (1 << 2)      /* c.lui zero,1: HINT */
    .insn 0x0005                 /* c.nop 1: HINT */
    .insn 0x0100000f             /* fence w,0 */
    .insn 0x8ff0000f             /* fence with reserved fm */
    .insn 0x00002073             /* csrrs zero,0x0,zero */
    .insn 0x0000d073             /* csrrwi zero,0x0,1 */
    .insn 0x0001e073             /* csrrsi zero,0x0,3 */
    .insn 0x00301073             /* csrrw zero,fcsr,zero */
    .insn 0x3000f073             /* csrrci zero,mstatus,1 */
    .insn 0x0000a073             /* csrrs zero,0x0,ra */
    .insn 0x00001073             /* csrrw zero,0x0,zero */
cfwd:
    c.nop
