/* recurse: deep and branching non-tail recursion (built with
 * -fno-optimize-sibling-calls so every call really nests): a 4000-deep
 * linear recursion, naive Fibonacci, Ackermann, Towers of Hanoi, and a
 * recursive-descent parser over a 60-deep nested expression. */
#include "rt.h"

#define DEPTH 4000
#define NEST 60

static ureg lowest_sp;
static unsigned hanoi_moves;
static char expr[4 * NEST + 8];
static const char *cur;

static ureg sp_now(void)
{
    ureg sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

__attribute__((noinline)) static uint64_t deep(unsigned n)
{
    if (n == 0) {
        lowest_sp = sp_now();
        return 0;
    }
    return n + deep(n - 1);
}

__attribute__((noinline)) static uint32_t fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static uint32_t ack(uint32_t m, uint32_t n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

__attribute__((noinline)) static void hanoi(unsigned n, int from, int to,
                                            int via)
{
    if (!n)
        return;
    hanoi(n - 1, from, via, to);
    hanoi_moves++;
    hanoi(n - 1, via, to, from);
}

/* expr := term ('+' term)*   term := factor ('*' factor)*
 * factor := digit | '(' expr ')'      (all arithmetic mod 2^32) */
static uint32_t parse_expr(void);

__attribute__((noinline)) static uint32_t parse_factor(void)
{
    if (*cur == '(') {
        cur++;
        uint32_t v = parse_expr();
        cur++;                          /* ')' */
        return v;
    }
    return (uint32_t)(*cur++ - '0');
}

__attribute__((noinline)) static uint32_t parse_term(void)
{
    uint32_t v = parse_factor();
    while (*cur == '*') {
        cur++;
        v *= parse_factor();
    }
    return v;
}

__attribute__((noinline)) static uint32_t parse_expr(void)
{
    uint32_t v = parse_term();
    while (*cur == '+') {
        cur++;
        v += parse_term();
    }
    return v;
}

/* "(((...(1+2)*3+1)*3+1)...)": value v' = 3v + 1 per level, v0 = 3 */
static uint32_t build_expr(void)
{
    char *p = expr;
    uint32_t want = 3;
    for (int i = 0; i < NEST; i++)
        *p++ = '(';
    *p++ = '1'; *p++ = '+'; *p++ = '2';
    for (int i = 0; i < NEST; i++) {
        *p++ = ')'; *p++ = '*'; *p++ = '3'; *p++ = '+'; *p++ = '1';
        want = want * 3 + 1;
    }
    *p = 0;
    return want;
}

int main(void)
{
    ureg top = sp_now();
    int err = rt_expect(deep(DEPTH), (uint64_t)DEPTH * (DEPTH + 1) / 2, 1);
    /* every level must have had a frame of its own: at least 16 bytes */
    if (!err) err = rt_expect(top - lowest_sp >= 16 * DEPTH, 1, 2);
    if (!err) err = rt_expect(fib(22), 17711, 3);
    if (!err) err = rt_expect(ack(2, 3), 9, 4);
    if (!err) err = rt_expect(ack(3, 4), 125, 5);
    hanoi(12, 0, 2, 1);
    if (!err) err = rt_expect(hanoi_moves, 4095, 6);
    uint32_t want = build_expr();
    cur = expr;
    uint32_t got = parse_expr();
    if (!err) err = rt_expect(got, want, 7);
    if (!err) err = rt_expect(*cur, 0, 8);
    return rt_report("recurse", top - lowest_sp, err);
}
