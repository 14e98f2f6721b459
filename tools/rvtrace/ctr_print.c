/* `run --ctr`: the final CTR buffer, newest first, with symbols. */
#include <inttypes.h>
#include "cli.h"
#include "rvtrace/ctr.h"
#include "rvtrace/hart.h"
#include "rvtrace/image.h"

static void addr_sym(char *buf, size_t n, rvt_image *img, uint64_t a)
{
    uint64_t off = 0;
    const char *s = a ? rvt_image_symbol(img, a, &off) : NULL;
    if (!s)
        snprintf(buf, n, "0x%" PRIx64, a);
    else if (off)
        snprintf(buf, n, "0x%" PRIx64 " <%s+0x%" PRIx64 ">", a, s, off);
    else
        snprintf(buf, n, "0x%" PRIx64 " <%s>", a, s);
}

void ctr_print(FILE *f, const rvt_hart *h, rvt_image *img)
{
    const rvt_ctr *c = rvt_hart_ctr(h);
    unsigned depth = rvt_ctr_depth(c), valid = 0;
    rvt_ctr_entry e;
    for (unsigned i = 0; i < depth; i++)
        valid += rvt_ctr_get(c, i, &e) == 1;
    fprintf(f, "CTR: %u valid of %u entries, mctrcontrol 0x%" PRIx64 ", mctrstatus 0x%" PRIx64 "\n",
            valid, depth, rvt_ctr_control(c), rvt_ctr_status(c));
    if (!valid)
        return;
    fprintf(f, "%5s  %-36s  %-36s  %-20s %s\n", "entry", "source", "target", "type", "cycles");
    for (unsigned i = 0; i < depth; i++) {
        if (rvt_ctr_get(c, i, &e) != 1)
            continue;
        char src[96], tgt[96], cyc[32];
        addr_sym(src, sizeof src, img, e.source & ~1ull);
        addr_sym(tgt, sizeof tgt, img, e.target & ~1ull);
        uint64_t n = rvt_ctr_cc_decode((unsigned)(e.data >> RVT_CTRDATA_CC_SHIFT) & 0xFFFF);
        if (e.data & RVT_CTRDATA_CCV)
            cli_thousands(n, cyc, sizeof cyc);
        else
            snprintf(cyc, sizeof cyc, "-");
        fprintf(f, "%5u  %-36s  %-36s  %-20s %s\n", i, src, tgt,
                rvt_ctr_type_name((unsigned)(e.data & RVT_CTRDATA_TYPE)), cyc);
    }
}
