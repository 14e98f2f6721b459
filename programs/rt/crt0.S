/* rvtrace workloads: start-up and trap entry, RV32 and RV64, M-mode entry.
 *
 *   _start          gp, sp, clear .bss, mtvec = rt_trap_entry, a0 = main(),
 *                   rt_exit(a0); built with -DRT_SBI_PAYLOAD (an S-mode
 *                   payload of SBI firmware): stvec = rt_strap_entry, and
 *                   main(hartid, dtb) as the firmware passed them
 *   rt_exit(code)   SiFive test finisher: 0x5555 (pass) when code == 0,
 *                   otherwise (code << 16) | 0x3333 (QEMU exits with code)
 *   rt_trap_entry   M-mode trap vector (direct mode, 4-byte aligned): saves
 *                   x1..x31 and mepc in a struct rt_frame on the current
 *                   stack, calls rt_trap(frame), restores (the handler may
 *                   change any saved register or the saved epc), mret
 *   rt_strap_entry  the same for S-mode: sepc, rt_strap(frame), sret
 * rt_trap/rt_strap are weak in rt.c (report the trap and fail); a program
 * overrides them to provide services.
 */
    .file "crt0.S"
#if __riscv_xlen == 64
#define WORD 8
#define SAVE sd
#define LOAD ld
#else
#define WORD 4
#define SAVE sw
#define LOAD lw
#endif
/* x0..x31 + epc, rounded up to keep sp 16-byte aligned */
#define FRAME (34 * WORD)
#define FINISHER 0x00100000

    .section .text.init, "ax", @progbits
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      t0, __bss_start
    la      t1, __bss_end
1:  bgeu    t0, t1, 2f
    SAVE    zero, 0(t0)
    addi    t0, t0, WORD
    j       1b
2:
#ifdef RT_SBI_PAYLOAD
    /* an SBI payload (programs/sbi/): started by firmware in S-mode with
     * a0 = hartid, a1 = the device tree, which main receives */
    la      t0, rt_strap_entry
    csrw    stvec, t0
#else
    la      t0, rt_trap_entry
    csrw    mtvec, t0
#endif
    call    main
    tail    rt_exit

    .text
    .globl rt_exit
rt_exit:
    li      t1, FINISHER
    li      t0, 0x5555
    beqz    a0, 1f
    slli    t0, a0, 16
    li      t2, 0x3333
    or      t0, t0, t2
1:  sw      t0, 0(t1)
2:  j       2b                  /* the finisher stops the machine */

/* TRAP_ENTRY label, C handler, epc CSR, return instruction */
.macro TRAP_ENTRY name, handler, epc, ret
    .balign 4
    .globl \name
\name:
    addi    sp, sp, -FRAME
    SAVE    x1, 1*WORD(sp)
    .irp r, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    SAVE    x\r, \r*WORD(sp)
    .endr
    addi    t0, sp, FRAME       /* the interrupted sp */
    SAVE    t0, 2*WORD(sp)
    csrr    t0, \epc
    SAVE    t0, 32*WORD(sp)
    mv      a0, sp
    call    \handler
    LOAD    t0, 32*WORD(sp)
    csrw    \epc, t0
    LOAD    x1, 1*WORD(sp)
    .irp r, 3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    LOAD    x\r, \r*WORD(sp)
    .endr
    LOAD    sp, 2*WORD(sp)
    \ret
.endm

    TRAP_ENTRY rt_trap_entry, rt_trap, mepc, mret
    TRAP_ENTRY rt_strap_entry, rt_strap, sepc, sret

/* rt_mret_to(arg, fn, sp): continue at fn(arg) on stack sp in the mode
 * already chosen in mstatus.MPP.  rt_sret_to: the same from S-mode, mode
 * from sstatus.SPP.  Neither returns. */
    .globl rt_mret_to
rt_mret_to:
    csrw    mepc, a1
    mv      sp, a2
    mret

    .globl rt_sret_to
rt_sret_to:
    csrw    sepc, a1
    mv      sp, a2
    sret
