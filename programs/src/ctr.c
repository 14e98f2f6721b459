/* ctr: Smctr/Ssctr (v0.1.4 draft) on the rvtrace hart, checked through the
 * CSRs: mctrcontrol 0x381, mctrstatus 0x383, sctrcontrol 0x181, the entry
 * registers through miselect 0x350 / mireg 0x351..0x353 and siselect
 * 0x150 / sireg 0x151.  Transfer sites are global labels so the records
 * can be compared with exact addresses.  rvtrace only (QEMU 7.2 has no
 * Smctr). */
#include "rt.h"

#define CTL_M (1UL << 0)
#define CTL_S (1UL << 1)
#define CTL_CLR (1UL << 7)
#define CTL_MTE (1UL << 8)
#define CTL_STE (1UL << 9)
#define CTL_RASEMU (1UL << 10)
#define CTL_BPFRZ (1UL << 11)
#define CTL_NTBREN (1UL << 36)
#define STS_FROZEN (1UL << 15)
#define CCV (1UL << 15)

extern const char a_call[], a_leaf[], a_back[], a_br1[], a_br2[], a_done[];
extern const char b_call1[], b_f1[], b_call2[];
extern const char c_jump[], c_next[];

static ureg status_at_bp;

static ureg entry(unsigned i, unsigned reg)
{
    rt_csr_write(0x350, 0x200 + i);
    switch (reg) {
    case 1: return rt_csr_read(0x351);
    case 2: return rt_csr_read(0x352);
    default: return rt_csr_read(0x353);
    }
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 3)
        rt_exit(rt_report("ctr unexpected trap", cause, 0x70));
    status_at_bp = rt_csr_read(0x383);
    f->epc += 4;
}

/* A: call, return, a not-taken branch (NTBREN) and a taken branch. */
static int part_a(void)
{
    __asm__ volatile(
        ".option push\n.option norvc\n"
        "li t0, %0\n"
        "csrw 0x381, t0\n"
        ".globl a_call\na_call: jal ra, a_leaf\n"
        ".globl a_back\na_back: li t1, 1\n"
        ".globl a_br1\na_br1: beqz t1, a_done\n"
        ".globl a_br2\na_br2: bnez t1, a_done\n"
        "nop\n"
        ".globl a_done\na_done: csrw 0x381, zero\n"
        "j 1f\n"
        ".globl a_leaf\na_leaf: ret\n"
        "1:\n"
        ".option pop\n"
        :: "i"(CTL_M | CTL_CLR | CTL_NTBREN) : "t0", "t1", "ra", "memory");
    int err = rt_expect(rt_csr_read(0x383), 4, 1);             /* WRPTR */
    if (!err) err = rt_expect(entry(0, 1), (ureg)a_br2 | 1, 2);
    if (!err) err = rt_expect(entry(0, 2), (ureg)a_done, 3);
    if (!err) err = rt_expect(entry(0, 3) & 15, 5, 4);          /* taken branch */
    if (!err) err = rt_expect(entry(1, 1), (ureg)a_br1 | 1, 5);
    if (!err) err = rt_expect(entry(1, 2), (ureg)a_br2, 6);     /* fall-through */
    if (!err) err = rt_expect(entry(1, 3) & 15, 4, 7);          /* not taken */
    if (!err) err = rt_expect(entry(2, 1), (ureg)a_leaf | 1, 8);
    if (!err) err = rt_expect(entry(2, 2), (ureg)a_back, 9);
    if (!err) err = rt_expect(entry(2, 3) & 15, 13, 10);        /* return */
    if (!err) err = rt_expect(entry(3, 1), (ureg)a_call | 1, 11);
    if (!err) err = rt_expect(entry(3, 2), (ureg)a_leaf, 12);
    if (!err) err = rt_expect(entry(3, 3) & 15, 9, 13);         /* direct call */
    /* CTR 5.3: the first record after a ctrcontrol write has CCV=0 */
    if (!err) err = rt_expect(entry(3, 3) & CCV, 0, 14);
    if (!err) err = rt_expect(entry(2, 3) & CCV, CCV, 15);
    if (!err) err = rt_expect(entry(4, 1), 0, 16);
    return err;
}

/* B: RAS emulation: call f1, f1 calls f2, f2 returns: only f1's call
 * stays valid; the popped entry rotated to depth-1 (15) with V=0. */
static int part_b(void)
{
    __asm__ volatile(
        ".option push\n.option norvc\n"
        "li t0, %0\n"
        "csrw 0x381, t0\n"
        ".globl b_call1\nb_call1: jal ra, b_f1\n"
        "j 2f\n"
        ".globl b_f1\nb_f1: mv t2, ra\n"
        ".globl b_call2\nb_call2: jal ra, 1f\n"
        "csrw 0x381, zero\n"
        "mv ra, t2\n"
        "ret\n"
        "1: ret\n"
        "2:\n"
        ".option pop\n"
        :: "i"(CTL_M | CTL_CLR | CTL_RASEMU) : "t0", "t2", "ra", "memory");
    int err = rt_expect(rt_csr_read(0x383), 1, 20);
    if (!err) err = rt_expect(entry(0, 1), (ureg)b_call1 | 1, 21);
    if (!err) err = rt_expect(entry(0, 2), (ureg)b_f1, 22);
    if (!err) err = rt_expect(entry(15, 1), (ureg)b_call2, 23);   /* V = 0 */
    return err;
}

/* C: BPFRZ: the ebreak freezes CTR and is not recorded; neither is the
 * handler's mret. */
static int part_c(void)
{
    __asm__ volatile(
        ".option push\n.option norvc\n"
        "li t0, %0\n"
        "csrw 0x381, t0\n"
        ".globl c_jump\nc_jump: j c_next\n"
        "nop\n"
        ".globl c_next\nc_next: ebreak\n"
        ".option pop\n"
        :: "i"(CTL_M | CTL_CLR | CTL_BPFRZ) : "t0", "memory");
    ureg st = rt_csr_read(0x383);
    rt_csr_write(0x381, 0);
    int err = rt_expect(status_at_bp, STS_FROZEN | 1, 30);
    if (!err) err = rt_expect(st, STS_FROZEN | 1, 31);
    if (!err) err = rt_expect(entry(0, 1), (ureg)c_jump | 1, 32);
    if (!err) err = rt_expect(entry(0, 3) & 15, 11, 33);       /* direct jump */
    rt_csr_write(0x383, 0);
    return err;
}

/* D: discovery (CTR 6), the S view (2.2), and sireg (3). */
static int part_d(void)
{
    rt_csr_write(0x381, 0xFUL << 16);
    int err = rt_expect((rt_csr_read(0x381) >> 16) & 15, 15, 40);   /* 256 */
    rt_csr_write(0x381, 0);
    if (!err) err = rt_expect(rt_csr_read(0x381), 0, 41);           /* 16 */
    rt_csr_write(0x381, CTL_M | CTL_S | CTL_MTE | CTL_STE);
    if (!err) err = rt_expect(rt_csr_read(0x181), CTL_S | CTL_STE, 42);
    rt_csr_write(0x381, 0);
    rt_csr_write(0x150, 0x200);
    rt_csr_write(0x350, 0x200);
    if (!err) err = rt_expect(rt_csr_read(0x151), rt_csr_read(0x351), 43);
    return err;
}

int main(void)
{
    int err = part_a();
    if (!err) err = part_b();
    if (!err) err = part_c();
    if (!err) err = part_d();
    return rt_report("ctr", rt_csr_read(0x383), err);
}
