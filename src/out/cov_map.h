/* The coverage map shared by the coverage writers (lcov.c,
 * coverage_listing.c; docs/coverage.md): per instruction of the image's
 * code, how often it retired, and per conditional branch how often it
 * was taken and not taken, from the decoded flow alone. */
#ifndef RVT_OUT_COV_MAP_H
#define RVT_OUT_COV_MAP_H

#include <stdint.h>
#include "rvtrace/out.h"

/* The counts of one instruction (a copy: rvt_cov_get). */
typedef struct rvt_cov_cell {
    uint64_t exec;          /* times the instruction retired */
    uint32_t taken, fall;   /* conditional branch outcomes seen */
} rvt_cov_cell;

typedef struct rvt_cov_ways {
    uint32_t taken, fall;
} rvt_cov_ways;

/* One executable region: [start, end), arrays indexed by halfword.  The
 * retire counts and the decoded kinds stay small and together, so the
 * per-instruction path touches little memory; the outcomes only branches. */
typedef struct rvt_cov_range {
    uint64_t start, end;
    const char *name;       /* section name (or the file of a raw segment) */
    uint64_t *exec;
    uint8_t *kind;          /* 0 not decoded yet, else COV_* | length (cov_map.c) */
    int32_t *imm;           /* a conditional branch's offset (decoded with kind) */
    rvt_cov_ways *ways;
} rvt_cov_range;

/* The previous instruction's outcome counts (&no_branch unless a
 * conditional branch), its fall-through and target: the instruction
 * retired next picks one. */
typedef struct rvt_cov_prev {
    rvt_cov_ways *ways;
    uint64_t fall, target;
} rvt_cov_prev;

/* A block's retirements not yet added to its instructions' counts
 * (issue #17 "Speed": a block is counted once, not per instruction; its
 * instructions get the count when the entry is reused or the map
 * settled).  Direct mapped by start pc. */
#define RVT_COV_BLOCKS 2048u
#define RVT_COV_BLOCK_MAX 256u      /* longer blocks go instruction by instruction */
typedef struct rvt_cov_blk {
    uint64_t start, end;        /* first and last instruction */
    uint64_t count;             /* retirements not in exec[] yet */
    uint32_t n;                 /* instructions; 0: empty entry */
    uint32_t k;                 /* start's halfword index in range */
    size_t range;               /* the range holding all of it (an index: the array grows) */
    rvt_cov_prev last;          /* what its last instruction leaves (no_branch if not a branch) */
} rvt_cov_blk;

typedef struct rvt_cov {
    rvt_image *img;
    const uint64_t *img_gen;    /* img's generation (image/image_gen.h) */
    uint64_t gen;               /* its value when the kinds and blk were filled in */
    rvt_cov_blk *blk;           /* RVT_COV_BLOCKS entries */
    rvt_cov_range *range;   /* disjoint, in the order mapped */
    size_t nrange, cap, last;   /* last: the range the previous PC was in */
    size_t code_seen, seg_seen; /* the image's code ranges and segments mapped so far */
    rvt_cov_prev prev;      /* the previous instruction's */
    rvt_cov_ways no_branch; /* absorbs the "outcomes" of everything else */
    uint64_t insns, outside;   /* retired; of those outside every range */
} rvt_cov;

/* The map of img's executable sections (executable segments when there
 * are none), all counts zero; NULL when out of memory.  It maps the
 * code img gains later too (docs/coverage.md "The coverage map"). */
rvt_cov *rvt_cov_new(rvt_image *img);
void rvt_cov_free(rvt_cov *c);
/* rvt_cov_event, rvt_cov_block and rvt_cov_blocks first follow code that
 * changed since the last call (rvt_image_generation, docs/api.md "Code
 * that changes"): where it changed (img_changes_since), the held counts
 * settled onto the instructions they were counted on, then the blocks
 * and the instructions' lengths and branches looked up again; and the
 * code img gained mapped. */
void rvt_cov_event(rvt_cov *c, const rvt_flow_event *ev);
/* A block's instructions (out.h rvt_out_writer.block), as their events. */
struct rvt_block;
void rvt_cov_block(rvt_cov *c, const struct rvt_block *b);
/* rvt_cov_block of b[0..n) in order, in one call; their instructions. */
uint64_t rvt_cov_blocks(rvt_cov *c, const struct rvt_block *b, size_t n);
/* Adds the block counts held back to the instructions' (exec): before
 * reading the map (rvt_cov_get, the ranges' exec). */
void rvt_cov_settle(rvt_cov *c);
/* The counts of the instruction at pc into *out (settled: rvt_cov_settle);
 * false (zeros) outside every range. */
bool rvt_cov_get(const rvt_cov *c, uint64_t pc, rvt_cov_cell *out);

/* The state of the coverage writers: the output and the map.  open,
 * event, block and blocks are the writers' rvt_out_writer hooks; each writer's finish writes
 * its format, then calls rvt_cov_out_free. */
typedef struct rvt_cov_out {
    FILE *f;
    rvt_cov *cov;
} rvt_cov_out;
void *rvt_cov_out_open(FILE *f, rvt_image *img);
void rvt_cov_out_event(void *state, const rvt_flow_event *ev);
void rvt_cov_out_block(void *state, const struct rvt_block *b);
uint64_t rvt_cov_out_blocks(void *state, const struct rvt_block *b, size_t n);
void rvt_cov_out_free(rvt_cov_out *o);

#endif
