/* paging: Sv39 (priv 1.12 ch. 4) under S- and U-mode, code at its linked
 * addresses.  M builds the tables and enters S with satp set:
 *   VA 0x80000000-0x801fffff  identity, 4 KiB pages, R W X (A, D clear:
 *                             the hart sets them), the user page U R X
 *   VA 0x40000000+            demand paged: S's handler maps a frame per
 *                             page fault (scause 13/15, stval checked)
 *   VA 0xc0000000 (1 GiB)     alias of 0x80000000, R W, no X
 *   VA 0x100000000 (1 GiB)    PPN 0x80001: misaligned gigapage
 * S checks A/D bits, SUM, MXR, sfence.vma after a remap, the faults of the
 * misaligned superpage; U loads/stores its page, faults on an S page, and
 * ecalls back to S.  Finally S ecalls M, which reports. */
#include "rt.h"

#define PTE_V 0x01UL
#define PTE_R 0x02UL
#define PTE_W 0x04UL
#define PTE_X 0x08UL
#define PTE_U 0x10UL
#define PTE_A 0x40UL
#define PTE_D 0x80UL
#define DEMAND_VA 0x40000000UL
#define NDEMAND 8
#define MXR_VA (DEMAND_VA + 16 * 4096UL)
#define ALIAS_VA 0xc0000000UL
#define BADSUPER_VA 0x100000000UL
#define RAM 0x80000000UL

static uint64_t root[512] __attribute__((aligned(4096)));
static uint64_t l1_ram[512] __attribute__((aligned(4096)));
static uint64_t l0_ram[512] __attribute__((aligned(4096)));
static uint64_t l1_dem[512] __attribute__((aligned(4096)));
static uint64_t l0_dem[512] __attribute__((aligned(4096)));
static uint8_t frames[NDEMAND + 1][4096] __attribute__((aligned(4096)));
static uint64_t u_data[512] __attribute__((aligned(4096)));
static uint8_t s_stack[8192] __attribute__((aligned(16)));
static volatile uint64_t alias_probe;

/* One page of user code (U R X), entered by rt_sret_to (a0 = its data
 * page, a2 = the S stack top): load and store the data page, load from
 * the S stack (load page fault, S skips it), ecall back to S. */
extern char u_code[];
__asm__(".pushsection .text.user, \"ax\", @progbits\n"
        ".option push\n.option norvc\n"
        ".balign 4096\n"
        "u_code:\n"
        "    ld   t0, 0(a0)\n"
        "    addi t0, t0, 5\n"
        "    sd   t0, 0(a0)\n"
        "    ld   t1, -8(a2)\n"
        "    li   a7, 1\n"
        "    ecall\n"
        "1:  j 1b\n"
        ".balign 4096\n"
        ".option pop\n.popsection\n");

static unsigned demand_faults, skipped, u_faults;
static int err;
static uint64_t sum;
static volatile int expect_fault;
static ureg fault_cause, fault_tval;

static uint64_t pte(uint64_t pa, uint64_t bits)
{
    return (pa >> 12) << 10 | bits | PTE_V;
}

static void check(uint64_t got, uint64_t want, int code)
{
    if (!err)
        err = rt_expect(got, want, code);
}

static void sfence(ureg va)
{
    __asm__ volatile("sfence.vma %0, zero" :: "r"(va) : "memory");
}

static void build_tables(void)
{
    root[RAM >> 30] = pte((ureg)l1_ram, 0);
    l1_ram[0] = pte((ureg)l0_ram, 0);
    for (unsigned i = 0; i < 512; i++) {
        ureg pa = RAM + i * 4096UL;
        l0_ram[i] = pte(pa, pa == (ureg)u_code ? PTE_U | PTE_R | PTE_X
                          : pa == (ureg)u_data ? PTE_U | PTE_R | PTE_W
                                               : PTE_R | PTE_W | PTE_X);
    }
    root[DEMAND_VA >> 30] = pte((ureg)l1_dem, 0);
    l1_dem[0] = pte((ureg)l0_dem, 0);
    l0_dem[16] = pte((ureg)u_code, PTE_X | PTE_A);            /* execute-only */
    root[ALIAS_VA >> 30] = pte(RAM, PTE_R | PTE_W | PTE_A | PTE_D);
    root[BADSUPER_VA >> 30] = pte(RAM + 4096, PTE_R | PTE_A);   /* PPN[1:0] != 0 */
}

static void s_after_user(ureg unused);

/* S handler: demand faults map a frame; an expected fault is recorded and
 * skipped; U's ecall returns to S at s_after_user. */
void rt_strap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(scause), tval = rt_csr_read(stval);
    if (cause == 8) {
        rt_csr_set(sstatus, RT_MSTATUS_SPP);
        f->epc = (ureg)s_after_user;
        f->x[2] = (ureg)(s_stack + sizeof s_stack);
        return;
    }
    if (expect_fault) {
        expect_fault = 0;
        fault_cause = cause;
        fault_tval = tval;
        if (!(rt_csr_read(sstatus) & RT_MSTATUS_SPP))
            u_faults++;
        skipped++;
        f->epc += (rt_csr_read(sstatus) & RT_MSTATUS_SPP) ? rt_insn_len(f->epc) : 4;
        return;
    }
    ureg k = (tval - DEMAND_VA) >> 12;
    if ((cause != 13 && cause != 15) || tval < DEMAND_VA || k >= NDEMAND)
        rt_exit(rt_report("paging unexpected S trap", cause, 0x70));
    check(tval, DEMAND_VA + k * 4096 + 8 * k, 10);
    l0_dem[k] = pte((ureg)frames[k], PTE_R | PTE_W);
    demand_faults++;
    sfence(tval);
}

#define EXPECT_FAULT(stmt, cause, va, code) do { \
        expect_fault = 1; stmt; \
        check(fault_cause, cause, code); check(fault_tval, va, code + 1); } while (0)

static void s_demand(void)
{
    volatile uint64_t *p;
    for (unsigned k = 0; k < NDEMAND; k++) {
        p = (volatile uint64_t *)(DEMAND_VA + k * 4096UL + 8 * k);
        if (k & 1)
            *p = 100 + k;              /* store page fault, then A and D */
        else
            sum += *p;                 /* load page fault, then A only */
    }
    check(demand_faults, NDEMAND, 11);
    for (unsigned k = 0; k < NDEMAND; k++)
        check(l0_dem[k] & (PTE_A | PTE_D), (k & 1) ? PTE_A | PTE_D : PTE_A, 12);
    for (unsigned k = 0; k < NDEMAND; k++)
        sum += frames[k][8 * k];       /* odd pages hold 100 + k */
    check(l0_ram[((ureg)u_code - RAM) >> 12] & (PTE_A | PTE_D), 0, 13);   /* not touched yet */
}

static void s_checks(void)
{
    volatile uint64_t v;
    /* the gigapage alias writes what the identity map reads */
    *(volatile uint64_t *)(ALIAS_VA + ((ureg)&alias_probe - RAM)) = 0x5a5a;
    check(alias_probe, 0x5a5a, 20);
    EXPECT_FAULT(v = *(volatile uint64_t *)BADSUPER_VA, 13, BADSUPER_VA, 21);
    /* SUM: the user page from S */
    EXPECT_FAULT(v = *(volatile uint64_t *)u_data, 13, (ureg)u_data, 23);
    rt_csr_set(sstatus, 1UL << 18);
    u_data[0] = 37;
    rt_csr_clear(sstatus, 1UL << 18);
    /* MXR: the execute-only alias of the user code */
    EXPECT_FAULT(v = *(volatile uint32_t *)MXR_VA, 13, MXR_VA, 25);
    rt_csr_set(sstatus, 1UL << 19);
    check(*(volatile uint32_t *)MXR_VA, 0x00053283, 27);   /* ld t0, 0(a0) */
    rt_csr_clear(sstatus, 1UL << 19);
    /* sfence.vma: remap demand page 0 to frame 8 */
    *(uint64_t *)frames[NDEMAND] = 0xabc;
    l0_dem[0] = pte((ureg)frames[NDEMAND], PTE_R | PTE_A);
    sfence(DEMAND_VA);
    check(*(volatile uint64_t *)DEMAND_VA, 0xabc, 28);
    EXPECT_FAULT(*(volatile uint64_t *)DEMAND_VA = 1, 15, DEMAND_VA, 29);
    (void)v;
}

static void s_main(ureg unused)
{
    (void)unused;
    s_demand();
    s_checks();
    /* into U: SPP = 0; sp is an S stack (U code never touches it) */
    rt_csr_clear(sstatus, RT_MSTATUS_SPP);
    expect_fault = 1;   /* U's load of an S page */
    rt_sret_to((ureg)u_data, (void (*)(ureg))u_code, (ureg)(s_stack + sizeof s_stack));
}

static void s_after_user(ureg unused)
{
    (void)unused;
    check(u_faults, 1, 30);
    check(fault_cause, 13, 31);
    check(fault_tval, (ureg)(s_stack + sizeof s_stack) - 8, 32);
    rt_csr_set(sstatus, 1UL << 18);
    check(u_data[0], 42, 33);
    sum += u_data[0];
    rt_csr_clear(sstatus, 1UL << 18);
    ureg up = l0_ram[((ureg)u_code - RAM) >> 12], ud = l0_ram[((ureg)u_data - RAM) >> 12];
    check(up & (PTE_A | PTE_D), PTE_A, 34);
    check(ud & (PTE_A | PTE_D), PTE_A | PTE_D, 35);
    __asm__ volatile("ecall" ::: "memory");
    for (;;)
        ;
}

void rt_trap(struct rt_frame *f)
{
    (void)f;
    ureg cause = rt_csr_read(mcause);
    if (cause != 9)
        rt_exit(rt_report("paging unexpected M trap", cause, 0x71));
    check(skipped, 5, 40);
    /* 4 odd pages 101+103+105+107 = 416, u_data 42 */
    rt_exit(rt_report("paging", sum, err ? err : rt_expect(sum, 416 + 42, 41)));
}

int main(void)
{
    build_tables();
    rt_pmp_open();
    rt_csr_write(medeleg, (1UL << 8) | (1UL << 12) | (1UL << 13) | (1UL << 15));
    rt_csr_write(stvec, (ureg)rt_strap_entry);
    rt_csr_write(satp, (8UL << 60) | ((ureg)root >> 12));
    __asm__ volatile("sfence.vma" ::: "memory");
    rt_csr_clear(mstatus, RT_MSTATUS_MPP);
    rt_csr_set(mstatus, 1UL << 11);   /* MPP = S */
    rt_mret_to(0, s_main, (ureg)(s_stack + sizeof s_stack));
}
