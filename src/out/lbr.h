/* Branch-stack samples in the text `perf script -F ip,brstack` prints
 * (docs/coverage.md "script --lbr"), headed by the PERF_RECORD_MMAP2
 * lines `perf script --show-mmap-events` prints for the program's ELF
 * files, so llvm-profgen --perfscript makes an AutoFDO profile of them. */
#ifndef RVT_OUT_LBR_H
#define RVT_OUT_LBR_H

#include <stdint.h>
#include <stdio.h>
#include "rvtrace/out.h"

#define RVT_LBR_MAX_DEPTH 256u
#define RVT_LBR_DEFAULT_PERIOD 10007u   /* prime: no lock-step with loops */
#define RVT_LBR_DEFAULT_DEPTH 32u       /* a 32-entry LBR (perf -b on x86) */

typedef struct rvt_lbr_cfg {
    uint64_t period;        /* a sample every `period` retired instructions */
    unsigned depth;         /* taken branches per sample, 1..RVT_LBR_MAX_DEPTH */
} rvt_lbr_cfg;

/* One taken control transfer. */
typedef struct rvt_lbr_entry {
    uint64_t from, to;
} rvt_lbr_entry;

typedef struct rvt_lbr rvt_lbr;

/* Samples of a flow to f (the header written at once); NULL when out of
 * memory or the configuration is out of range. */
rvt_lbr *rvt_lbr_new(FILE *f, rvt_image *img, const rvt_lbr_cfg *cfg);
void rvt_lbr_event(rvt_lbr *l, const rvt_flow_event *ev);
/* A block's instructions (out.h rvt_out_writer.block), as their events. */
struct rvt_block;
void rvt_lbr_block(rvt_lbr *l, const struct rvt_block *b);
void rvt_lbr_free(rvt_lbr *l);
uint64_t rvt_lbr_samples(const rvt_lbr *l);

/* The pieces, also for samples that come from elsewhere (CTR records):
 * the MMAP2 line of each executable PT_LOAD of each ELF file of img, and
 * one sample line: the sampled ip, then e[0..n), newest first. */
void rvt_lbr_write_header(FILE *f, rvt_image *img);
void rvt_lbr_write_sample(FILE *f, uint64_t ip, const rvt_lbr_entry *e, unsigned n);

#endif
