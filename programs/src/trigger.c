/* trigger: the program drives its own trace through the Sdtrig trigger
 * module (RISC-V Debug spec 1.0 ch. 5, mcontrol6) and E-Trace 4.2.4's
 * trigger actions (table 4.7): trace-off early, trace-on at the entry of
 * traced_fn and trace-off at its exit (so the trace holds ROUNDS short
 * windows), trace-notify on loads/stores to a chained address range and
 * on stores to a NAPOT range, and a breakpoint (action 0) inside
 * traced_fn that the trap handler counts and steps over.  It also checks
 * the WARL read-back of tinfo, tselect, tdata1 and tdata2 and the hit
 * bits.  Action 0 in M-mode needs mstatus.MIE = 1 (Debug spec 5.4,
 * solution 1); mie stays 0, so no interrupt is ever taken. */
#include "rt.h"

#define ROUNDS 6
#define XLEN __riscv_xlen

/* mcontrol6 (Debug spec 1.0, 5.7) */
#define TYPE6      ((ureg)6 << (XLEN - 4))
#define MC_LOAD    (1UL << 0)
#define MC_STORE   (1UL << 1)
#define MC_EXEC    (1UL << 2)
#define MC_U       (1UL << 3)
#define MC_S       (1UL << 4)
#define MC_M       (1UL << 6)
#define MC_MATCH(m) ((ureg)(m) << 7)
#define MC_CHAIN   (1UL << 11)
#define MC_ACTION(a) ((ureg)(a) << 12)
#define MC_SIZE(s) ((ureg)(s) << 16)
#define MC_SELECT  (1UL << 21)
#define MC_HIT0    (1UL << 22)
#define MC_VU      (1UL << 23)
#define MC_VS      (1UL << 24)
#define MC_UNCERTAIN (1UL << 26)
#define A_BREAK 0
#define A_DEBUG 1
#define A_ON 2
#define A_OFF 3
#define A_NOTIFY 4
#define M_EQ 0
#define M_NAPOT 1
#define M_GE 2
#define M_LT 3

static volatile ureg arr[16];
static volatile ureg watched __attribute__((aligned(8)));
static unsigned bp_count;
static ureg bp_tval_bad;
extern const char trig_bp_site[], traced_fn_exit[];

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 3 || f->epc != (ureg)trig_bp_site)
        rt_exit(rt_report("trigger unexpected trap", cause, 0x70));
    if (rt_csr_read(mtval) != (ureg)trig_bp_site)
        bp_tval_bad++;
    bp_count++;
    f->epc += rt_insn_len(f->epc);   /* step over the instruction */
}

static void trig_set(unsigned i, ureg tdata1, ureg tdata2)
{
    rt_csr_write(0x7a0, i);          /* tselect */
    rt_csr_write(0x7a1, 0);          /* disable while tdata2 changes */
    rt_csr_write(0x7a2, tdata2);
    rt_csr_write(0x7a1, tdata1);
}

static ureg tdata1_of(unsigned i)
{
    rt_csr_write(0x7a0, i);
    return rt_csr_read(0x7a1);
}

__attribute__((noinline)) static void quiet_begin(void)
{
    __asm__ volatile("" ::: "memory");
}

/* The breakpoint skips the addi: each call adds 1, not 101. */
__attribute__((noinline)) static ureg traced_fn(ureg v)
{
    arr[v & 7] += v;                 /* a load and a store in the notify range */
    __asm__ volatile(".globl trig_bp_site\ntrig_bp_site: addi %0, %0, 100" : "+r"(v));
    watched = v;                     /* a store to the NAPOT range */
    __asm__ volatile(".globl traced_fn_exit\ntraced_fn_exit: nop" ::: "memory");
    return v + 1;
}

__attribute__((noinline)) static ureg quiet_work(ureg v)
{
    for (unsigned k = 0; k < 8; k++)
        v = v * 5 + arr[(v + k) & 15];   /* loads in and out of the range */
    return v;
}

static void arm(void)
{
    trig_set(0, TYPE6 | MC_EXEC | MC_M | MC_ACTION(A_OFF), (ureg)quiet_begin);
    trig_set(1, TYPE6 | MC_EXEC | MC_M | MC_ACTION(A_ON), (ureg)traced_fn);
    trig_set(2, TYPE6 | MC_EXEC | MC_M | MC_ACTION(A_OFF), (ureg)traced_fn_exit);
    /* chain 3+4: loads/stores with &arr[0] <= address < &arr[8] */
    trig_set(3, TYPE6 | MC_LOAD | MC_STORE | MC_M | MC_MATCH(M_GE) | MC_CHAIN, (ureg)&arr[0]);
    trig_set(4, TYPE6 | MC_LOAD | MC_STORE | MC_M | MC_MATCH(M_LT) | MC_ACTION(A_NOTIFY),
             (ureg)&arr[8]);
    /* NAPOT over the 8 bytes at &watched: base | (8/2 - 1) */
    trig_set(5, TYPE6 | MC_STORE | MC_M | MC_MATCH(M_NAPOT) | MC_ACTION(A_NOTIFY),
             (ureg)&watched | 3);
    trig_set(6, TYPE6 | MC_EXEC | MC_M | MC_ACTION(A_BREAK), (ureg)trig_bp_site);
    /* U-mode only: never fires, this program stays in M-mode */
    trig_set(7, TYPE6 | MC_EXEC | MC_U | MC_ACTION(A_NOTIFY), (ureg)traced_fn);
}

static void disarm(void)
{
    for (unsigned i = 0; i < 8; i++)
        trig_set(i, 0, 0);
}

/* WARL read-back (Debug spec 1.0, 5.7; the choices in docs/hart.md). */
static int check_warl(void)
{
    int err = 0;
    rt_csr_write(0x7a0, 0);
    /* tinfo: version 1 (bits 31:24), type 6 supported */
    if (!err) err = rt_expect(rt_csr_read(0x7a4), (1UL << 24) | (1UL << 6), 10);
    /* tselect past the last trigger does not take */
    rt_csr_write(0x7a0, 3);
    rt_csr_write(0x7a0, 8);
    if (!err) err = rt_expect(rt_csr_read(0x7a0), 3, 11);
    /* action 1 (Debug Mode) with dmode 0 reads back 0; select, vs, vu and
     * uncertain read 0; size 4 (48-bit) is not supported */
    rt_csr_write(0x7a1, TYPE6 | MC_ACTION(A_DEBUG) | MC_SELECT | MC_VS | MC_VU | MC_UNCERTAIN |
                        MC_SIZE(4) | MC_LOAD);
    if (!err) err = rt_expect(rt_csr_read(0x7a1), TYPE6 | MC_LOAD, 12);
    /* reserved match 6 reads 0; size 3 (32-bit) and hit0 stay */
    rt_csr_write(0x7a1, TYPE6 | MC_MATCH(6) | MC_SIZE(3) | MC_HIT0 | MC_STORE);
    if (!err) err = rt_expect(rt_csr_read(0x7a1), TYPE6 | MC_SIZE(3) | MC_HIT0 | MC_STORE, 13);
    /* another type (2, mcontrol) leaves a disabled type-6 trigger */
    rt_csr_write(0x7a1, ((ureg)2 << (XLEN - 4)) | MC_EXEC | MC_M);
    if (!err) err = rt_expect(rt_csr_read(0x7a1), TYPE6, 14);
    /* NAPOT: all ones in tdata2 clears bit XLEN-2 (maskmax6 = XLEN-1) */
    rt_csr_write(0x7a1, TYPE6 | MC_MATCH(M_NAPOT));
    rt_csr_write(0x7a2, ~(ureg)0);
    if (!err) err = rt_expect(rt_csr_read(0x7a2), ~((ureg)1 << (XLEN - 2)), 15);
    rt_csr_write(0x7a1, 0);
    /* tdata3 (textra) reads 0 */
    rt_csr_write(0x7a3, ~(ureg)0);
    if (!err) err = rt_expect(rt_csr_read(0x7a3), 0, 16);
    return err;
}

int main(void)
{
    int err = check_warl();
    arm();
    rt_csr_set(mstatus, RT_MSTATUS_MIE);   /* 5.4: action 0 fires in M-mode */
    quiet_begin();                          /* trace off */
    ureg v = 7, q = 1;
    for (unsigned i = 0; i < ROUNDS; i++) {
        q = quiet_work(q + i);
        v = traced_fn(v + i);               /* traced window */
    }
    rt_csr_clear(mstatus, RT_MSTATUS_MIE);
    ureg hit_on = tdata1_of(1) & MC_HIT0, hit_chain = tdata1_of(4) & MC_HIT0;
    ureg hit_napot = tdata1_of(5) & MC_HIT0, hit_u = tdata1_of(7) & MC_HIT0;
    disarm();
    ureg want = 7;
    for (unsigned i = 0; i < ROUNDS; i++)
        want = want + i + 1;
    if (!err) err = rt_expect(v, want, 1);
    if (!err) err = rt_expect(bp_count, ROUNDS, 2);
    if (!err) err = rt_expect(bp_tval_bad, 0, 3);
    if (!err) err = rt_expect(hit_on, MC_HIT0, 4);
    if (!err) err = rt_expect(hit_chain, MC_HIT0, 5);
    if (!err) err = rt_expect(hit_napot, MC_HIT0, 6);
    if (!err) err = rt_expect(hit_u, 0, 7);
    return rt_report("trigger", v ^ q, err);
}
