/* ecall: an M-mode "kernel" serving system calls (privileged spec 3.3.1:
 * ecall raises cause 8/9/11 from U/S/M; mepc points at the ecall, so the
 * handler resumes at mepc + 4).  Services, numbered in a7:
 *   1 ADD     a0 = a0 + a1
 *   2 PUTC    append byte a0 to a kernel buffer, a0 = new length
 *   3 COUNT   a0 = number of calls served so far
 *   4 MODE    a0 = caller's privilege (0 U, 1 S, 3 M) from mcause
 *   5 GOTO    continue at a0 in privilege a1 (sets mstatus.MPP)
 * main runs 200 calls in M, moves to S, 200 calls, to U, 200 calls, then
 * back to M, which checks everything. */
#include "rt.h"

enum { SVC_ADD = 1, SVC_PUTC, SVC_COUNT, SVC_MODE, SVC_GOTO };
#define PER_MODE 200

static char kbuf[64];
static unsigned klen, served;
static int err;

static ureg svc(ureg n, ureg a, ureg b)
{
    register ureg a0 __asm__("a0") = a;
    register ureg a1 __asm__("a1") = b;
    register ureg a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a7) : "memory");
    return a0;
}

void rt_trap(struct rt_frame *f)
{
    ureg cause = rt_csr_read(mcause);
    if (cause != 8 && cause != 9 && cause != 11)
        rt_exit(rt_report("ecall unexpected trap", cause, 0x70));
    ureg a0 = f->x[10], a1 = f->x[11];
    served++;
    switch (f->x[17]) {
    case SVC_ADD: f->x[10] = a0 + a1; break;
    case SVC_PUTC:
        if (klen < sizeof kbuf - 1)
            kbuf[klen++] = (char)a0;
        f->x[10] = klen;
        break;
    case SVC_COUNT: f->x[10] = served; break;
    case SVC_MODE: f->x[10] = cause - 8; break;
    case SVC_GOTO:
        rt_csr_clear(mstatus, RT_MSTATUS_MPP);
        rt_csr_set(mstatus, (a1 & 3) << 11);
        f->epc = a0;
        return;
    default: f->x[10] = (ureg)-1; break;
    }
    f->epc += 4;
}

/* 200 service calls; the letters of `tag` go to the kernel buffer */
static void calls(const char *tag, ureg mode, int code)
{
    ureg sum = 0;
    for (ureg i = 0; i < PER_MODE && !err; i++) {
        ureg before = svc(SVC_COUNT, 0, 0);
        sum = svc(SVC_ADD, sum, i);
        err = rt_expect(svc(SVC_COUNT, 0, 0), before + 2, code);
        if (!err) err = rt_expect(svc(SVC_MODE, 0, 0), mode, code + 1);
    }
    if (!err) err = rt_expect(sum, PER_MODE * (PER_MODE - 1) / 2, code + 2);
    while (*tag && !err)
        svc(SVC_PUTC, (ureg)*tag++, 0);
}

static void back_in_m(void)
{
    if (!err) err = rt_expect(svc(SVC_MODE, 0, 0), 3, 40);
    if (!err) err = rt_expect(klen, 6, 41);
    if (!err) err = rt_expect(kbuf[0] == 'M' && kbuf[1] == 'm' &&
                              kbuf[2] == 'S' && kbuf[3] == 's' &&
                              kbuf[4] == 'U' && kbuf[5] == 'u', 1, 42);
    /* 3 x (200 x 4 + 2 PUTC) + 3 GOTO + the MODE call above + this COUNT */
    if (!err) err = rt_expect(svc(SVC_COUNT, 0, 0), 3 * 802 + 3 + 2, 43);
    rt_exit(rt_report("ecall", served, err));
}

static void in_user(void)
{
    calls("Uu", 0, 30);
    svc(SVC_GOTO, (ureg)back_in_m, 3);
}

static void in_super(void)
{
    calls("Ss", 1, 20);
    svc(SVC_GOTO, (ureg)in_user, 0);
}

int main(void)
{
    rt_pmp_open();
    calls("Mm", 3, 10);
    svc(SVC_GOTO, (ureg)in_super, 1);
    return rt_expect(0, 1, 50);         /* GOTO does not come back here */
}
