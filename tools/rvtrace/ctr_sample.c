/* CTR branch-stack samples of `run` (ctr_sample.h).  The entries are the
 * CTR buffer as software reads it (CTR 3: logical entry 0 is the
 * youngest; ctrsource bit 0 is V, ctrtarget bit 0 MISP). */
#include <errno.h>
#include <string.h>
#include "cli.h"
#include "ctr_sample.h"
#include "out/lbr.h"
#include "rvtrace/ctr.h"
#include "rvtrace/hart.h"

int ctr_sample_check(uint64_t period, const char *lbr)
{
    if (period && !lbr) {
        cli_err("run: --ctr-sample N needs --lbr FILE for the samples");
        return CLI_USAGE;
    }
    if (lbr && !period) {
        cli_err("run: --lbr FILE needs --ctr-sample N (for a full trace: script --lbr)");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int ctr_sampler_open(ctr_sampler *s, const char *path, rvt_image *img)
{
    *s = (ctr_sampler){ .path = path };
    if (!(s->f = cli_out_fopen(path, "w")))
        return CLI_FAIL;
    rvt_lbr_write_header(s->f, img);
    return CLI_OK;
}

void ctr_sampler_take(ctr_sampler *s, const rvt_hart *h)
{
    const rvt_ctr *c = rvt_hart_ctr(h);
    unsigned depth = rvt_ctr_depth(c), n = 0;
    rvt_lbr_entry e[RVT_LBR_MAX_DEPTH];
    rvt_ctr_entry r;
    for (unsigned i = 0; i < depth && n < RVT_LBR_MAX_DEPTH; i++)
        if (rvt_ctr_get(c, i, &r) == 1)
            e[n++] = (rvt_lbr_entry){ r.source & ~1ull, r.target & ~1ull };
    if (!n)
        return;
    rvt_lbr_write_sample(s->f, rvt_hart_pc(h), e, n);
    s->samples++;
}

int ctr_sampler_close(ctr_sampler *s)
{
    if (!s || !s->f)
        return CLI_OK;
    int bad = ferror(s->f) | (s->f == stdout ? fflush(s->f) : fclose(s->f));
    s->f = NULL;
    if (bad) {
        cli_err("%s: cannot write: %s", s->path, strerror(errno));
        return CLI_FAIL;
    }
    return CLI_OK;
}
