/* tailcall: sibling calls (-O2 -foptimize-sibling-calls).  Mutual tail
 * recursion 100001 levels deep (is_even/is_odd: each call is a plain jump,
 * so sp never moves -- the program checks that), a tail-recursive gcd, and
 * a lexer whose states tail-call the next state through a function-pointer
 * table (indirect sibling calls, `jr`). */
#include "rt.h"

#define NOCLONE __attribute__((noipa))

static ureg base_sp, deepest_sp;

static ureg sp_now(void)
{
    ureg sp;
    __asm__ volatile("mv %0, sp" : "=r"(sp));
    return sp;
}

NOCLONE static int is_odd(uint32_t n);

NOCLONE static int is_even(uint32_t n)
{
    if (n == 0) {
        deepest_sp = sp_now();
        return 1;
    }
    return is_odd(n - 1);
}

NOCLONE static int is_odd(uint32_t n)
{
    if (n == 0) {
        deepest_sp = sp_now();
        return 0;
    }
    return is_even(n - 1);
}

NOCLONE static int parity_entry(uint32_t n)
{
    base_sp = sp_now();
    return is_even(n);
}

NOCLONE static uint64_t gcd(uint64_t a, uint64_t b)
{
    return b ? gcd(b, a % b) : a;
}

/* Lexer over "words and 123 numbers": counts words, numbers and the sum of
 * the numbers.  acc packs words | numbers << 8 | sum << 16. */
typedef uint64_t (*state_fn)(const char *p, uint64_t acc);
NOCLONE static uint64_t st_space(const char *p, uint64_t acc);
NOCLONE static uint64_t st_word(const char *p, uint64_t acc);
NOCLONE static uint64_t st_num(const char *p, uint64_t acc);

static int cls(char c)
{
    return c >= '0' && c <= '9' ? 2 : c == ' ' ? 0 : 1;
}

static state_fn volatile next[3] = { st_space, st_word, st_num };

NOCLONE static uint64_t st_space(const char *p, uint64_t acc)
{
    if (!*p)
        return acc;
    int k = cls(*p);
    if (k == 1) acc += 1;
    if (k == 2) acc += 1 << 8;
    return next[k](k ? p : p + 1, acc);
}

NOCLONE static uint64_t st_word(const char *p, uint64_t acc)
{
    if (!*p)
        return acc;
    int k = cls(*p);
    if (k == 0)
        return next[0](p + 1, acc);
    return next[1](p + 1, acc);
}

NOCLONE static uint64_t st_num(const char *p, uint64_t acc)
{
    static uint64_t cur;
    if (*p >= '0' && *p <= '9') {
        cur = cur * 10 + (uint64_t)(*p - '0');
        return next[2](p + 1, acc);
    }
    acc += cur << 16;
    cur = 0;
    return next[0](p, acc);
}

int main(void)
{
    static const char text[] =
        "tail calls 12 jump 7 without 1000 frames 0 and 88 more ";
    int err = rt_expect(parity_entry(100001), 0, 1);
    if (!err) err = rt_expect(deepest_sp, base_sp, 2);
    if (!err) err = rt_expect(parity_entry(50000), 1, 3);
    if (!err) err = rt_expect(deepest_sp, base_sp, 4);
    if (!err) err = rt_expect(gcd(832040, 514229), 1, 5);  /* Fibonacci */
    if (!err) err = rt_expect(gcd(1ull << 40, 6ull << 20), 2ull << 20, 6);
    uint64_t acc = 0;
    for (int i = 0; i < 20; i++)
        acc += st_space(text, 0);
    /* 7 words, 5 numbers, 12+7+1000+0+88 = 1107, twenty times */
    if (!err) err = rt_expect(acc, 20 * (7 + (5 << 8) + (1107ull << 16)), 7);
    return rt_report("tailcall", acc, err);
}
