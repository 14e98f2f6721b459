/* RAM outside 0x80000000 (rvtrace run --mem 0x20010000:64k): code and
 * data in a segment linked at 0x20010000, as embench's boards place
 * theirs.  main (in the main RAM) calls a function there that sums a
 * table there and stores the sum there; main checks it.  Without the
 * region the ELF is refused. */
#include "rt.h"

#define FAR_TEXT __attribute__((section(".region_text"), noinline))
#define FAR_DATA __attribute__((section(".region_data")))

FAR_DATA static volatile uint32_t table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
FAR_DATA static volatile uint32_t result;

FAR_TEXT static uint32_t region_sum(void)
{
    uint32_t s = 0;
    for (int i = 0; i < 8; i++)
        s += table[i] * table[i];
    result = s;
    return s;
}

int main(void)
{
    int bad = rt_expect(region_sum(), 204, 1);
    if (!bad)
        bad = rt_expect(result, 204, 2);
    return rt_report("memregion", result, bad);
}
