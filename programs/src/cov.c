/* cov: a small -O0 -g workload whose coverage is worked out by hand in
 * tests/e2e/coverage_lcov.sh (docs/coverage.md).  Every function is on
 * lines of its own, one statement a line, each condition one comparison,
 * so gcc -O0 gives each `if`/`for` condition one conditional branch. */
#include "rt.h"

static int never_called(int x) {
    return x * 3;
}

static int classify(int x) {
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    return 1;
}

static int sum_to(int n) {
    int s = 0;
    for (int i = 1; i <= n; i++)
        s += i;
    return s;
}

int main(void) {
    int r = classify(5);
    r += sum_to(4);
    if (r > 100)
        r = never_called(r);
    return rt_report("cov", (uint64_t)r, rt_expect((uint64_t)r, 11, 1));
}
