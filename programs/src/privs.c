/* privs: privilege changes M -> S -> U and back, ROUNDS times.
 *   M -> S  mret with mstatus.MPP = S, into s_main on a fresh S stack
 *   S -> U  sret with sstatus.SPP = U, into u_main on a fresh U stack
 *   U -> S  ecall, delegated by medeleg bit 8 (scause 8); PING returns
 *           a0 + 1, NEST makes the S handler ecall M (S -> M -> S, a0 * 2)
 *   U -> M  an S-mode CSR read from U is illegal and not delegated: M
 *           counts it (checking mstatus.MPP = U) and skips it
 *   S -> M  ecall NEXT (scause 9 in M): M starts the next round by
 *           rewriting the trap frame (sp, a0, epc) and mret-ing to S
 * After the last round M checks the counters and exits. */
#include "rt.h"

#define ROUNDS 20
#define PINGS 5
enum { PING = 1, NEST, DONE, NEST_M, NEXT };

static uint8_t s_stack[8192] __attribute__((aligned(16)));
static uint8_t u_stack[8192] __attribute__((aligned(16)));
static unsigned round_no, pings, nests, u_illegal, s_ecalls;
static uint64_t total;

static ureg sys(ureg n, ureg a)
{
    register ureg a0 __asm__("a0") = a;
    register ureg a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

static void s_main(ureg round);

static void finish(void)
{
    int err = rt_expect(pings, ROUNDS * PINGS, 1);
    if (!err) err = rt_expect(nests, ROUNDS, 2);
    if (!err) err = rt_expect(u_illegal, ROUNDS, 3);
    if (!err) err = rt_expect(s_ecalls, 2 * ROUNDS, 4);
    /* per round: PINGs give sum(i + 1) for i < 5 = 15, NEST gives 2r */
    if (!err) err = rt_expect(total, 15 * ROUNDS + ROUNDS * (ROUNDS - 1), 5);
    rt_exit(rt_report("privs", total, err));
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause), mpp = (rt_csr_read(mstatus) >> 11) & 3;
    if (cause == 2 && mpp == 0) {                  /* U touched an S CSR */
        u_illegal++;
        f->epc += 4;
        return;
    }
    if (cause != 9 || mpp != 1)
        rt_exit(rt_report("privs unexpected M trap", cause, 0x70));
    s_ecalls++;
    if (f->x[17] == NEST_M) {
        f->x[10] *= 2;
        f->epc += 4;
        return;
    }
    if (++round_no == ROUNDS)
        finish();
    f->x[2] = (ureg)s_stack + sizeof s_stack;      /* fresh S context */
    f->x[10] = round_no;
    f->epc = (ureg)s_main;                         /* MPP is already S */
}

void rt_strap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(scause);
    if (cause != 8 || (rt_csr_read(sstatus) & RT_MSTATUS_SPP))
        rt_exit(rt_report("privs unexpected S trap", cause, 0x71));
    switch (f->x[17]) {
    case PING: pings++; f->x[10] += 1; break;
    case NEST: nests++; f->x[10] = sys(NEST_M, f->x[10]); break;
    default: sys(NEXT, 0); break;                  /* does not return */
    }
    f->epc += 4;
}

static void u_main(ureg round)
{
    for (ureg i = 0; i < PINGS; i++)
        total += sys(PING, i);
    total += sys(NEST, round);
    ureg v;
    __asm__ volatile(".option push\n.option norvc\ncsrr %0, sstatus\n"
                     ".option pop" : "=r"(v) : : "memory");
    (void)v;
    sys(DONE, 0);
}

static void s_main(ureg round)
{
    rt_csr_clear(sstatus, RT_MSTATUS_SPP);          /* sret goes to U */
    rt_sret_to(round, u_main, (ureg)u_stack + sizeof u_stack);
}

int main(void)
{
    rt_pmp_open();
    rt_csr_write(stvec, (ureg)rt_strap_entry);
    rt_csr_write(medeleg, 1UL << 8);               /* ecall from U -> S */
    rt_csr_clear(mstatus, RT_MSTATUS_MPP);
    rt_csr_set(mstatus, 1UL << 11);                /* MPP = S */
    rt_mret_to(0, s_main, (ureg)s_stack + sizeof s_stack);
}
