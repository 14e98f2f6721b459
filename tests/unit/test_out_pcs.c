/* The "pcs" writer at the digit-count edges (docs/formats.md PC lists:
 * lowercase hex, no 0x, no leading zeros, one per line): an odd and an
 * even number of digits, zero, and all 16.  Then pcs whose digits above
 * the last two are those of the pc before (the writer copies them: pcs.c)
 * or change by a carry, a digit more or fewer, or drop below 0x100. */
#include <stdlib.h>
#include "tharness.h"
#include "rvtrace/out.h"

/* The text the writer makes of pcs[0..n), one event each (free it). */
static char *pcs_text(const uint64_t *pcs, size_t n)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_out *o = rvt_out_open(rvt_out_find("pcs"), f, NULL);
    CHECK(o != NULL);
    for (size_t i = 0; i < n; i++) {
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = pcs[i] };
        rvt_out_event(o, &ev);
    }
    rvt_out_free(o);
    fclose(f);
    return text;
}

int main(void)
{
    static const uint64_t pcs[] = { 0, 0x5, 0x10, 0xab, 0x100, 0x80000000, 0x800000000,
                                    0xffffffffffffffffull, 0x0123456789abcdefull };
    char *text = pcs_text(pcs, sizeof pcs / sizeof pcs[0]);
    CHECK_STR(text, "0\n5\n10\nab\n100\n80000000\n800000000\nffffffffffffffff\n123456789abcdef\n");
    free(text);

    static const uint64_t runs[] = { 0x800000fe, 0x80000100, 0x80000102, 0xfffffffe, 0x100000000,
                                     0x100000002, 0xfe, 0x1fe, 0x200, 0x1fe, 0x80000100 };
    text = pcs_text(runs, sizeof runs / sizeof runs[0]);
    CHECK_STR(text, "800000fe\n80000100\n80000102\nfffffffe\n100000000\n100000002\nfe\n1fe\n200\n1fe\n"
                    "80000100\n");
    free(text);
    return TH_DONE();
}
