/* rt_setjmp / rt_longjmp for the workloads (RV32 and RV64).
 * The buffer holds ra, sp and s0..s11: everything the calling convention
 * asks a callee to preserve (RISC-V psABI, integer calling convention).
 *   int  rt_setjmp(rt_jmp_buf b)           returns 0 when called directly
 *   void rt_longjmp(rt_jmp_buf b, int v)   returns v (1 if v == 0) from the
 *                                          rt_setjmp that filled b */
    .file "setjmp.S"
#if __riscv_xlen == 64
#define W 8
#define SAVE sd
#define LOAD ld
#else
#define W 4
#define SAVE sw
#define LOAD lw
#endif
    .text
    .globl rt_setjmp
rt_setjmp:
    SAVE    ra, 0*W(a0)
    SAVE    sp, 1*W(a0)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    SAVE    s\n, (2+\n)*W(a0)
    .endr
    li      a0, 0
    ret

    .globl rt_longjmp
rt_longjmp:
    LOAD    ra, 0*W(a0)
    LOAD    sp, 1*W(a0)
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11
    LOAD    s\n, (2+\n)*W(a0)
    .endr
    seqz    a0, a1              /* v == 0 -> 1 */
    add     a0, a0, a1
    ret                         /* to the rt_setjmp call site, not our caller */
