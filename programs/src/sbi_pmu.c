/* sbi_pmu: an S-mode payload of SBI firmware (Debian's OpenSBI 1.1,
 * fw_jump.elf) that uses the firmware's PMU extension (EID 0x504D55,
 * sbi-pmu-extension.txt, FIDs 0-8) and prints every answer, one line per
 * call, so that the lines of two machines (rvtrace and QEMU with the same
 * firmware and device tree) can be compared (docs/pmu.md "Through
 * OpenSBI", tests/e2e/sbi_pmu_opensbi.sh).
 *
 * Lines "call ..." are the firmware's answers (error, value); lines
 * "count ..." are counted values.  The measured window: counters started
 * by one start call, then U_LOOPS rounds of a two-instruction loop in
 * U-mode (ecall back to S), then ILLEGALS illegal instructions in S (each
 * traps to OpenSBI, which counts its firmware event ILLEGAL_INSN and
 * hands the trap to S), then one stop call. */
#include "rt.h"
#include "sbi.h"

#define EID 0x504D55UL
enum { FID_NUM, FID_INFO, FID_CFG, FID_START, FID_STOP, FID_FW_READ, FID_FW_READ_HI,
       FID_SNAPSHOT, FID_EVENT_INFO };
#define CFG_CLEAR (1UL << 1)
#define CFG_SINH (1UL << 6)
#define CFG_MINH (1UL << 7)
#define EV_CYCLES 1UL
#define EV_INSTRUCTIONS 2UL
#define EV_BRANCHES 5UL
#define EV_L1D_READ ((1UL << 16) | 0)       /* cache event: L1D read access */
#define EV_RAW ((2UL << 16))                /* raw event, selector in event_data */
#define EV_FW_ILLEGAL ((15UL << 16) | 4)    /* firmware event ILLEGAL_INSN */
#define U_LOOPS 1000
#define ILLEGALS 5

static unsigned char u_stack[4096] __attribute__((aligned(16)));
static unsigned char s_stack[8192] __attribute__((aligned(16)));
static ureg ctr_cycles, ctr_instret, ctr_u_instr, ctr_u_branches, ctr_fw;
static volatile unsigned illegals_seen;

/* U-mode: U_LOOPS x (addi, bnez), then ecall to S; never returns. */
void u_work(ureg n);
__asm__(".text\n.balign 4\n.globl u_work\nu_work:\n"
        "1: addi a0, a0, -1\n bnez a0, 1b\n ecall\n j .\n");

static void show(const char *what, ureg arg, struct sbiret r)
{
    rt_puts("call ");
    rt_puts(what);
    rt_putc(' ');
    rt_puthex(arg);
    rt_puts(": error=");
    if (r.error < 0)
        rt_putc('-');
    rt_putdec((uint64_t)(r.error < 0 ? -r.error : r.error));
    rt_puts(" value=");
    rt_puthex(r.value);
    rt_putc('\n');
}

static void count(const char *what, uint64_t v)
{
    rt_puts("count ");
    rt_puts(what);
    rt_puts(": ");
    rt_putdec(v);
    rt_putc('\n');
}

static struct sbiret call(const char *what, ureg arg, ureg fid, ureg a0, ureg a1, ureg a2, ureg a3, ureg a4)
{
    struct sbiret r = rt_sbi(EID, fid, a0, a1, a2, a3, a4);
    show(what, arg, r);
    return r;
}

/* config_matching of one event over the counters [base, base + n). */
static ureg match(const char *what, ureg base, unsigned n, ureg flags, ureg event, ureg data)
{
    ureg mask = n >= __riscv_xlen ? ~0UL : (1UL << n) - 1;
    return call(what, event, FID_CFG, base, mask, flags, event, data).value;
}

/* hpmcounter<idx> (csrr takes the CSR number as an immediate) */
#define HPM_CASE(n) case n: return rt_csr_read(0xC00 + n);
static uint64_t hpmcounter(ureg idx)
{
    switch (idx) {
    HPM_CASE(0) HPM_CASE(1) HPM_CASE(2) HPM_CASE(3) HPM_CASE(4) HPM_CASE(5) HPM_CASE(6)
    HPM_CASE(7) HPM_CASE(8) HPM_CASE(9) HPM_CASE(10) HPM_CASE(11) HPM_CASE(12) HPM_CASE(13)
    HPM_CASE(14) HPM_CASE(15) HPM_CASE(16) HPM_CASE(17) HPM_CASE(18) HPM_CASE(19) HPM_CASE(20)
    HPM_CASE(21) HPM_CASE(22) HPM_CASE(23) HPM_CASE(24) HPM_CASE(25) HPM_CASE(26) HPM_CASE(27)
    HPM_CASE(28) HPM_CASE(29) HPM_CASE(30) HPM_CASE(31)
    default: return ~0ULL;
    }
}

static unsigned n_counters, n_hw;

static void discover(void)
{
    n_counters = (unsigned)call("num_counters", 0, FID_NUM, 0, 0, 0, 0, 0).value;
    n_hw = 0;
    for (unsigned i = 0; i < n_counters && i < 64; i++) {
        struct sbiret r = call("get_info", i, FID_INFO, i, 0, 0, 0, 0);
        if (r.error == 0 && !(r.value >> (__riscv_xlen - 1)))
            n_hw = i + 1;       /* hardware counters come first */
    }
}

static void configure(void)
{
    ctr_cycles = match("cfg_match cycles", 0, n_hw, CFG_CLEAR, EV_CYCLES, 0);
    ctr_instret = match("cfg_match instructions", 0, n_hw, CFG_CLEAR, EV_INSTRUCTIONS, 0);
    /* on the programmable counters only, U-mode only (Sscofpmf inhibits) */
    ctr_u_instr = match("cfg_match instructions:u", 3, n_hw - 3, CFG_CLEAR | CFG_SINH | CFG_MINH,
                        EV_INSTRUCTIONS, 0);
    ctr_u_branches = match("cfg_match branches:u", 3, n_hw - 3, CFG_CLEAR | CFG_SINH | CFG_MINH,
                           EV_BRANCHES, 0);
    ctr_fw = match("cfg_match fw illegal_insn", 0, n_counters, CFG_CLEAR, EV_FW_ILLEGAL, 0);
    match("cfg_match cache l1d-read", 0, n_hw, CFG_CLEAR, EV_L1D_READ, 0);
    match("cfg_match raw 0x106", 0, n_hw, CFG_CLEAR, EV_RAW, 0x106);
    match("cfg_match beyond", n_counters, 1, CFG_CLEAR, EV_INSTRUCTIONS, 0);
}

static ureg started_mask(void)
{
    return (1UL << ctr_cycles) | (1UL << ctr_instret) | (1UL << ctr_u_instr) |
           (1UL << ctr_u_branches);
}

static void s_after_u(void);

/* S: the ecall from U ends the U part (continue in s_after_u on a fresh S
 * stack); illegal instructions from S, which OpenSBI handed on, are
 * skipped. */
void rt_strap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(scause);
    if (cause == 8) {
        rt_csr_set(sstatus, RT_MSTATUS_SPP);            /* sret to S */
        f->x[2] = (ureg)s_stack + sizeof s_stack;
        f->epc = (ureg)s_after_u;
        return;
    }
    if (cause != 2)
        rt_exit(rt_report("sbi_pmu unexpected S trap", cause, 0x71));
    illegals_seen++;
    f->epc += rt_insn_len(f->epc);
}

int main(ureg hartid, ureg dtb)
{
    (void)hartid, (void)dtb;
    discover();
    configure();
    call("start", started_mask(), FID_START, 0, started_mask(), 0, 0, 0);
    call("start fw", ctr_fw, FID_START, ctr_fw, 1, 0, 0, 0);
    call("start again", ctr_instret, FID_START, ctr_instret, 1, 0, 0, 0);
    rt_csr_clear(sstatus, RT_MSTATUS_SPP);              /* sret to U */
    rt_sret_to(U_LOOPS, u_work, (ureg)u_stack + sizeof u_stack);
}

static void s_after_u(void)
{
    for (unsigned i = 0; i < ILLEGALS; i++)
        __asm__ volatile("unimp" ::: "memory");         /* csrrw x0, cycle, x0 */
    call("stop", started_mask(), FID_STOP, 0, started_mask(), 0, 0, 0);
    call("stop again", ctr_instret, FID_STOP, ctr_instret, 1, 0, 0, 0);
    count("instructions:u", hpmcounter(ctr_u_instr));
    count("branches:u", hpmcounter(ctr_u_branches));
    count("instructions", hpmcounter(ctr_instret));
    count("illegal traps seen by S", illegals_seen);
    struct sbiret r = call("fw_read", ctr_fw, FID_FW_READ, ctr_fw, 0, 0, 0, 0);
    count("fw illegal_insn", r.value);
    call("stop fw", ctr_fw, FID_STOP, ctr_fw, 1, 0, 0, 0);
    call("fw_read hw", ctr_instret, FID_FW_READ, ctr_instret, 0, 0, 0, 0);
    call("fw_read_hi", ctr_fw, FID_FW_READ_HI, ctr_fw, 0, 0, 0, 0);
    call("snapshot_set_shmem", 0, FID_SNAPSHOT, 0x80300000UL, 0, 0, 0, 0);
    call("event_get_info", 0, FID_EVENT_INFO, 0x80300000UL, 0, 1, 0, 0);
    rt_exit(rt_report("sbi_pmu", n_counters, 0));
}
