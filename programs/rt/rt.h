/* rvtrace workloads: shared runtime for the bare-metal programs (QEMU virt
 * memory map, M-mode start).  Freestanding: no libc calls, no syscalls. */
#ifndef RT_H
#define RT_H

#include <stdint.h>
#include <stddef.h>

typedef unsigned long ureg;             /* XLEN-wide */

/* QEMU virt devices */
#define RT_UART_THR      ((volatile uint8_t *)0x10000000UL)
#define RT_CLINT_MSIP    ((volatile uint32_t *)0x02000000UL)
#define RT_CLINT_MTIMECMP 0x02004000UL
#define RT_CLINT_MTIME   0x0200BFF8UL

/* mstatus / mip / mie bits (privileged spec 3.1.6, 3.1.9) */
#define RT_MSTATUS_SIE   (1UL << 1)
#define RT_MSTATUS_MIE   (1UL << 3)
#define RT_MSTATUS_SPIE  (1UL << 5)
#define RT_MSTATUS_MPIE  (1UL << 7)
#define RT_MSTATUS_SPP   (1UL << 8)
#define RT_MSTATUS_MPP   (3UL << 11)
#define RT_IRQ_SSI 1
#define RT_IRQ_MSI 3
#define RT_IRQ_STI 5
#define RT_IRQ_MTI 7
#define RT_MCAUSE_IRQ    (1UL << (__riscv_xlen - 1))

#define rt_csr_read(csr) __extension__({ ureg v_; \
    __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define rt_csr_write(csr, v) \
    __asm__ volatile("csrw " #csr ", %0" :: "r"((ureg)(v)) : "memory")
#define rt_csr_set(csr, v) \
    __asm__ volatile("csrs " #csr ", %0" :: "r"((ureg)(v)) : "memory")
#define rt_csr_clear(csr, v) \
    __asm__ volatile("csrc " #csr ", %0" :: "r"((ureg)(v)) : "memory")

/* Registers saved by rt_trap_entry / rt_strap_entry (crt0.S); x[2] is the
 * interrupted sp.  Changing x[i] or epc changes what the trap returns to. */
struct rt_frame {
    ureg x[32];
    ureg epc;
    ureg pad;
};

/* Weak defaults in rt.c print the trap and fail with code 0x7f / 0x7e. */
void rt_trap(struct rt_frame *f);
void rt_strap(struct rt_frame *f);
void rt_trap_entry(void);
void rt_strap_entry(void);
__attribute__((noreturn)) void rt_exit(int code);

/* UART output (writes THR only: the 16550 model accepts every byte). */
void rt_putc(char c);
void rt_puts(const char *s);
void rt_putdec(uint64_t v);
void rt_puthex(uint64_t v);

/* Self-check helpers.  rt_expect returns 0 when got == want, else prints
 * the mismatch and returns `code`.  rt_report prints the one result line
 * "NAME: PASS value=0x..." (or "NAME: FAIL code=N") and returns err. */
int rt_expect(uint64_t got, uint64_t want, int code);
int rt_report(const char *name, uint64_t value, int err);

/* Continue at fn(arg) on stack sp through mret (mode = mstatus.MPP) or
 * sret (mode = sstatus.SPP); crt0.S. */
__attribute__((noreturn)) void rt_mret_to(ureg arg, void (*fn)(ureg), ureg sp);
__attribute__((noreturn)) void rt_sret_to(ureg arg, void (*fn)(ureg), ureg sp);

/* Length in bytes (2 or 4) of the instruction at pc (RVC: low bits != 11). */
unsigned rt_insn_len(ureg pc);
/* PMP entry 0 = NAPOT over all memory, RWX, so S/U-mode may run. */
void rt_pmp_open(void);

/* CLINT machine timer (64-bit registers; RV32 uses the hi/lo protocol). */
uint64_t rt_mtime(void);
void rt_set_mtimecmp(uint64_t t);

#endif
