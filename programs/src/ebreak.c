/* ebreak: breakpoints handled in M-mode.  `ebreak` (4 bytes) and
 * `c.ebreak` (2 bytes) raise cause 3 with mepc at the breakpoint; the
 * handler counts them, checks that mepc is one of the known sites, and
 * resumes after the instruction (its length taken from its low bits). */
#include "rt.h"

#define ROUNDS 250
static unsigned hits4, hits2;
extern const char bp_site4[], bp_site2[];

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 3)
        rt_exit(rt_report("ebreak unexpected trap", cause, 0x70));
    unsigned len = rt_insn_len(f->epc);
    if (len == 4 && f->epc == (ureg)bp_site4)
        hits4++;
    else if (len == 2 && f->epc == (ureg)bp_site2)
        hits2++;
    else
        rt_exit(rt_report("ebreak at unknown site", f->epc, 0x71));
    f->epc += len;
}

/* one of each breakpoint; the sites are global labels */
__attribute__((noinline)) static ureg probe(ureg v)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     ".globl bp_site4\nbp_site4: ebreak\n"
                     ".option rvc\n"
                     ".globl bp_site2\nbp_site2: c.ebreak\n"
                     ".option pop\n" ::: "memory");
    return v * 3 + 1;
}

int main(void)
{
    ureg v = 1;
    for (unsigned i = 0; i < ROUNDS; i++)
        v = probe(v);
    ureg want = 1;
    for (unsigned i = 0; i < ROUNDS; i++)
        want = want * 3 + 1;
    int err = rt_expect(v, want, 1);
    if (!err) err = rt_expect(hits4, ROUNDS, 2);
    if (!err) err = rt_expect(hits2, ROUNDS, 3);
    return rt_report("ebreak", hits4 + hits2, err);
}
