/* rvtrace workloads: SBI calls from S-mode (SBI 2.0 ch. 3, "Binary
 * Encoding": a7 = extension, a6 = function, a0..a5 arguments; the
 * firmware answers a0 = error, a1 = value). */
#ifndef RT_SBI_H
#define RT_SBI_H

#include "rt.h"

struct sbiret { long error; ureg value; };

static inline struct sbiret rt_sbi(ureg eid, ureg fid, ureg a0, ureg a1, ureg a2, ureg a3, ureg a4)
{
    register ureg r0 __asm__("a0") = a0, r1 __asm__("a1") = a1;
    register ureg r2 __asm__("a2") = a2, r3 __asm__("a3") = a3, r4 __asm__("a4") = a4;
    register ureg r6 __asm__("a6") = fid, r7 __asm__("a7") = eid;
    __asm__ volatile("ecall" : "+r"(r0), "+r"(r1) : "r"(r2), "r"(r3), "r"(r4), "r"(r6), "r"(r7)
                     : "memory");
    return (struct sbiret){ (long)r0, r1 };
}

#endif
