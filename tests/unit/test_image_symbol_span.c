/* rvt_image_symbol_span (issue 18: symbol lookups once per span): over
 * every half-word of crc.elf's code, the span given for an address holds
 * it, rvt_image_symbol gives the same name and offset at every address of
 * the span, and the span is maximal: just outside it the answer differs
 * (another name, or the same name at another start). */
#include <stdlib.h>
#include "tharness.h"
#include "test_hart_util.h"

static bool same_answer(rvt_image *img, uint64_t a, const char *name, uint64_t sym_addr)
{
    uint64_t off = 0;
    const char *n = rvt_image_symbol(img, a, &off);
    return n == name && (!n || a - off == sym_addr);
}

int main(void)
{
    rvt_image *img = th_program("crc");
    CHECK(img != NULL);
    if (!img)
        return TH_DONE();
    uint64_t start, end;
    CHECK(rvt_image_code_range(img, 0, &start, &end, NULL));
    unsigned spans = 0, bad = 0;
    for (uint64_t a = start - 16; a < end + 16; a += 2) {
        uint64_t sym_addr, lo, hi;
        const char *name = rvt_image_symbol_span(img, a, &sym_addr, &lo, &hi);
        if (a < lo || a >= hi) {
            bad++;
            continue;
        }
        if (a == lo || a == start - 16)
            spans++;
        bad += !same_answer(img, a, name, sym_addr);
        bad += lo > 0 && same_answer(img, lo - 2, name, sym_addr);
        bad += hi < UINT64_MAX && same_answer(img, hi, name, sym_addr);
    }
    CHECK_EQ(bad, 0);
    CHECK(spans > 3);           /* _start, main, crc32, ... */
    /* no symbol below the first one: a span without a name from 0 */
    uint64_t sym_addr, lo, hi;
    CHECK(rvt_image_symbol_span(img, 0, &sym_addr, &lo, &hi) == NULL);
    CHECK_EQ(lo, 0);
    CHECK(hi > 0 && hi <= start);
    rvt_image_free(img);
    return TH_DONE();
}
