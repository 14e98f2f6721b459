/* coswap: C side of the co-routine swap workload (coswap.S). */
#include "rt.h"

#define ROUNDS 1000
/* sum of F(0..999) mod 2^64 plus 2 * 1000, computed with Python */
#define WANT 0x7e0118524e9568bcull

uint64_t coswap_run(uint64_t rounds);

int main(void)
{
    uint64_t got = coswap_run(ROUNDS);
    int err = rt_expect(got, WANT, 1);
    if (!err) err = rt_expect(coswap_run(1), 2, 2);      /* F(0) + 2 */
    if (!err) err = rt_expect(coswap_run(5), 7 + 10, 3); /* 0+1+1+2+3 */
    return rt_report("coswap", got, err);
}
