/* setjmp: non-local exits with the asm rt_setjmp/rt_longjmp (setjmp.S).
 * A longjmp out of 40 nested frames, longjmp(b, 0) delivering 1, nested
 * "try" scopes where an inner handler rethrows to an outer one, and a
 * check that callee-saved state survives: each return of rt_setjmp lands
 * after a `ret` whose target is not the caller of rt_longjmp. */
#include "rt.h"

typedef ureg rt_jmp_buf[14];
__attribute__((returns_twice)) int rt_setjmp(rt_jmp_buf b);
__attribute__((noreturn)) void rt_longjmp(rt_jmp_buf b, int v);

static rt_jmp_buf outer, inner;
static unsigned frames;

__attribute__((noinline)) static unsigned dive(unsigned depth, unsigned max)
{
    frames++;
    if (depth == max)
        rt_longjmp(outer, (int)depth);
    if (depth > max)
        return 0;                        /* unreachable for max >= 1 */
    return dive(depth + 1, max) + 1;     /* not a tail call */
}

__attribute__((noinline)) static void thrower(int code)
{
    frames++;
    rt_longjmp(inner, code);
}

/* inner try: catches odd codes; rethrows even ones (times 10) outward */
__attribute__((noinline)) static int try_inner(int code)
{
    int got = rt_setjmp(inner);
    if (got == 0)
        thrower(code);
    if (got & 1)
        return got;
    rt_longjmp(outer, got * 10);
}

/* one longjmp out of `max` frames; returns the value rt_setjmp saw */
__attribute__((noinline)) static int one_dive(unsigned round, unsigned max,
                                              int *err)
{
    volatile unsigned keep = round * 3;         /* must survive the jump */
    frames = 0;
    int v = rt_setjmp(outer);
    if (v == 0) {
        dive(1, max);
        *err = rt_expect(0, 1, 1);              /* dive never returns */
        return 0;
    }
    *err = rt_expect((unsigned)v, max, 2);
    if (!*err) *err = rt_expect(frames, max, 3);
    if (!*err) *err = rt_expect(keep, round * 3, 4);
    return v;
}

/* odd codes are caught by try_inner, even ones reach this outer scope */
__attribute__((noinline)) static int one_try(int code, int *err)
{
    volatile int caught_outer = 0;
    int v = rt_setjmp(outer);
    if (v == 0)
        v = try_inner(code);
    else
        caught_outer = 1;
    *err = rt_expect((unsigned)v, (unsigned)((code & 1) ? code : code * 10),
                     6);
    if (!*err) *err = rt_expect(caught_outer, !(code & 1), 7);
    return v;
}

__attribute__((noinline)) static int zero_value(void)
{
    int v = rt_setjmp(outer);
    if (v == 0)
        rt_longjmp(outer, 0);
    return v;
}

int main(void)
{
    int err = 0;
    uint64_t sum = 0;
    for (unsigned round = 1; round <= 100 && !err; round++)
        sum += (uint64_t)one_dive(round, 20 + round % 21, &err);
    if (!err) err = rt_expect((unsigned)zero_value(), 1, 5);
    for (int code = 1; code <= 8 && !err; code++)
        sum += (uint64_t)one_try(code, &err);
    return rt_report("setjmp", sum, err);
}
