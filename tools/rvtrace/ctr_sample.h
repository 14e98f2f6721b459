/* run --ctr-sample N --lbr FILE: a branch-stack sample from the hart's
 * CTR records every N instructions, as perf record -b takes one from the
 * LBR at each counter overflow; written as `script --lbr` writes them
 * (src/out/lbr.h), so llvm-profgen and the profile take either. */
#ifndef RVT_CTR_SAMPLE_H
#define RVT_CTR_SAMPLE_H

#include <stdint.h>
#include <stdio.h>

struct rvt_hart;
struct rvt_image;

/* mctrcontrol when --ctr-sample is given without --ctr-control: record M,
 * S and U (bits 0-2), DEPTH 0001 = 32 entries (docs/ctr.md), every
 * transfer type but not-taken branches, no freeze. */
#define CTR_SAMPLE_CONTROL 0x10007ull

typedef struct ctr_sampler {
    FILE *f;
    const char *path;
    uint64_t samples;
} ctr_sampler;

/* Usage checks of the two options together: CLI_OK or CLI_USAGE (printed). */
int ctr_sample_check(uint64_t period, const char *lbr);
/* CLI_OK or CLI_FAIL (printed); writes the MMAP2 header. */
int ctr_sampler_open(ctr_sampler *s, const char *path, struct rvt_image *img);
/* One sample: the hart's pc and its valid CTR entries, newest first. */
void ctr_sampler_take(ctr_sampler *s, const struct rvt_hart *h);
/* CLI_OK or CLI_FAIL (printed); NULL-safe. */
int ctr_sampler_close(ctr_sampler *s);

#endif
