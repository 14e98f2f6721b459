/* pmu: the SBI PMU extension from S-mode on the rvtrace hart (the symbol
 * rvtrace_sbi_firmware, like --sbi, turns on rvtrace's M-mode firmware model serves a7 = 0x504D55), with the
 * hardware counters (hpmcounterN), Sscofpmf overflow (LCOFI to S,
 * scountovf) and CTR's LCOFIFRZ.  Every result is checked here.  rvtrace
 * only (QEMU 7.2 has neither the firmware model nor Sscofpmf). */
#include "rt.h"
#include "sbi.h"

#define EID 0x504D55UL
#define FID_NUM 0
#define FID_INFO 1
#define FID_CFG 2
#define FID_START 3
#define FID_STOP 4
#define FID_FW_READ 5
#define CFG_CLEAR 2UL
#define CFG_AUTO 4UL
#define START_INIT 1UL
#define EV_INSTRUCTIONS 2UL
#define EV_RAW3 (3UL << 16)
#define EV_FW_ILLEGAL ((15UL << 16) | 4)
#define SEL_LOADS 0x106UL
#define IRQ_LCOFI 13
#define ERR_INVALID_PARAM (-3L)
#define ERR_ALREADY_STARTED (-7L)

/* A function symbol by this name asks rvtrace for its SBI firmware model,
 * as --sbi does (docs/pmu.md); never called. */
void rvtrace_sbi_firmware(void);
void rvtrace_sbi_firmware(void) {}

static struct sbiret sbi(ureg fid, ureg a0, ureg a1, ureg a2, ureg a3, ureg a4)
{
    return rt_sbi(EID, fid, a0, a1, a2, a3, a4);
}

static unsigned char s_stack[4096] __attribute__((aligned(16)));
static volatile unsigned lcofis, illegals;
static volatile ureg ovf_seen, ctr_status_seen;
static volatile ureg words[10];

/* M: the illegal instruction from S (a firmware event) is skipped. */
void rt_trap(struct rt_frame *f)
{
    if (rt_csr_read(mcause) != 2)
        rt_exit(rt_report("pmu unexpected M trap", rt_csr_read(mcause), 0x70));
    illegals++;
    f->epc += 4;
}

/* S: the LCOFI (Sscofpmf): stop the counter, clear LCOFIP. */
void rt_strap(struct rt_frame *f)
{
    (void)f;
    if (rt_csr_read(scause) != (RT_MCAUSE_IRQ | IRQ_LCOFI))
        rt_exit(rt_report("pmu unexpected S trap", rt_csr_read(scause), 0x71));
    lcofis++;
    ovf_seen = rt_csr_read(0xDA0);          /* scountovf */
    ctr_status_seen = rt_csr_read(0x183);   /* sctrstatus */
    sbi(FID_STOP, 5, 1, 0, 0, 0);
    rt_csr_clear(sip, 1UL << IRQ_LCOFI);
}

/* Instructions retired strictly between the configuring ecall (auto
 * start) and the stopping one: mv, mv, li, 100 x (addi, bnez), li, mv,
 * li, li = 207. */
static int count_exact(void)
{
    ureg err, idx;
    __asm__ volatile(
        "mv a0, zero\n li a1, 0xffffffff\n li a2, %2\n li a3, %3\n li a4, 0\n li a6, 2\n"
        "ecall\n"
        "mv %0, a0\n mv %1, a1\n"
        "li t0, 100\n"
        "1: addi t0, t0, -1\n bnez t0, 1b\n"
        "li a6, 4\n mv a0, %1\n li a1, 1\n li a2, 0\n"
        "ecall\n"
        : "=&r"(err), "=&r"(idx)
        : "i"(CFG_CLEAR | CFG_AUTO), "i"(EV_INSTRUCTIONS), "r"(EID)
        : "a0", "a1", "a2", "a3", "a4", "a6", "t0", "memory");
    int e = rt_expect(err, 0, 1);
    if (!e) e = rt_expect(idx, 3, 2);   /* instret (2) runs: first free is 3 */
    if (!e) e = rt_expect(rt_csr_read(0xC03), 207, 3);
    return e;
}

static int part_calls(void)
{
    struct sbiret r = sbi(FID_NUM, 0, 0, 0, 0, 0);
    int e = rt_expect(r.value, 48, 10);
    if (!e) e = rt_expect(sbi(FID_INFO, 3, 0, 0, 0, 0).value, 0xC03 | (63UL << 12), 11);
    if (!e) e = count_exact();
    /* raw v2 event: 10 loads.  Counter 3 was stopped without RESET, so it
     * is "not started" and matches again (sbi-pmu-extension.txt) */
    if (!e) {
        r = sbi(FID_CFG, 0, 0xFFFFFFFFUL, CFG_CLEAR, EV_RAW3, SEL_LOADS);
        e = rt_expect(r.value, 3, 12);
    }
    if (!e) {
        sbi(FID_START, 3, 1, 0, 0, 0);
        ureg sum = 0;
        for (unsigned i = 0; i < 10; i++)
            sum += words[i];
        sbi(FID_STOP, 3, 1, 0, 0, 0);
        e = rt_expect(rt_csr_read(0xC03) + sum, 10 + 45, 13);
    }
    if (!e) e = rt_expect(sbi(FID_START, 2, 1, 0, 0, 0).error, ERR_ALREADY_STARTED, 14);
    if (!e) e = rt_expect(sbi(FID_FW_READ, 3, 0, 0, 0, 0).error, ERR_INVALID_PARAM, 15);
    return e;
}

/* Firmware counter 32 counts illegal-instruction traps taken by M. */
static int part_fw(void)
{
    struct sbiret r = sbi(FID_CFG, 32, 1, CFG_AUTO, EV_FW_ILLEGAL, 0);
    int e = rt_expect(r.value, 32, 20);
    for (unsigned i = 0; i < 3; i++)
        __asm__ volatile("csrr t0, mscratch" ::: "t0");   /* illegal in S */
    if (!e) e = rt_expect(sbi(FID_FW_READ, 32, 0, 0, 0, 0).value, 3, 21);
    if (!e) e = rt_expect(illegals, 3, 22);
    return e;
}

/* Counter 5 starts 50 below overflow: the LCOFI arrives in S, scountovf
 * shows bit 5, and CTR (S enabled, LCOFIFRZ) is frozen by it. */
static int part_overflow(void)
{
    rt_csr_write(0x181, (1UL << 1) | (1UL << 12));   /* sctrcontrol: S, LCOFIFRZ */
    struct sbiret r = sbi(FID_CFG, 5, 1, CFG_CLEAR, EV_INSTRUCTIONS, 0);
    int e = rt_expect(r.value, 5, 30);
    rt_csr_set(sie, 1UL << IRQ_LCOFI);
    rt_csr_set(sstatus, RT_MSTATUS_SIE);
    sbi(FID_START, 5, 1, START_INIT, (ureg)-50, 0);
    for (volatile unsigned i = 0; i < 100 && !lcofis; i++)
        ;
    rt_csr_clear(sstatus, RT_MSTATUS_SIE);
    rt_csr_write(0x181, 0);
    if (!e) e = rt_expect(lcofis, 1, 31);
    if (!e) e = rt_expect(ovf_seen & (1UL << 5), 1UL << 5, 32);
    if (!e) e = rt_expect(ctr_status_seen >> 15 & 1, 1, 33);   /* FROZEN */
    return e;
}

static void s_main(ureg arg)
{
    (void)arg;
    int e = part_calls();
    if (!e) e = part_fw();
    if (!e) e = part_overflow();
    rt_exit(rt_report("pmu", rt_csr_read(0xC03), e));
}

int main(void)
{
    for (unsigned i = 0; i < 10; i++)
        words[i] = i;
    rt_csr_write(mscratch, (ureg)rvtrace_sbi_firmware);   /* keep it (--gc-sections) */
    rt_pmp_open();
    rt_csr_write(stvec, (ureg)rt_strap_entry);
    rt_csr_clear(mstatus, RT_MSTATUS_MPP);
    rt_csr_set(mstatus, 1UL << 11);                  /* MPP = S */
    rt_mret_to(0, s_main, (ureg)s_stack + sizeof s_stack);
}
