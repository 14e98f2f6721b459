/* smp: entry of every hart (a0 = mhartid, a1 = the device tree, as QEMU's
 * virt passes them to each hart).  Hart 0 keeps a1 in smp_fdt and goes
 * on at crt0's _start (stack top, .bss cleared, main); hart i > 0 takes
 * the 32 KiB of the 256 KiB stack i * 32 KiB below its top and runs
 * smp_secondary(a0), which waits for hart 0's IPI (sent once .bss is
 * clear).  Linked first (.text.init) with -e smp_start. */
    .file "smp_start.S"
    .section .text.init, "ax", @progbits
    .globl smp_start
smp_start:
    bnez    a0, 1f
    la      t0, smp_fdt
    sd      a1, 0(t0)
    j       _start
1:  .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    slli    t0, a0, 15
    sub     sp, sp, t0
    la      t0, rt_trap_entry
    csrw    mtvec, t0
    call    smp_secondary
2:  wfi                         /* done: parked for good */
    j       2b
