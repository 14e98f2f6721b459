/* The coverage map shared by the coverage writers (lcov.c,
 * coverage_listing.c; docs/coverage.md): per instruction of the image's
 * code, how often it retired, and per conditional branch how often it
 * was taken and not taken, from the decoded flow alone. */
#ifndef RVT_OUT_COV_MAP_H
#define RVT_OUT_COV_MAP_H

#include <stdint.h>
#include "rvtrace/out.h"

typedef struct rvt_cov_cell {
    uint64_t exec;          /* times the instruction at this halfword retired */
    uint32_t taken, fall;   /* conditional branch outcomes seen */
} rvt_cov_cell;

/* One executable region: [start, end), a cell per halfword. */
typedef struct rvt_cov_range {
    uint64_t start, end;
    const char *name;       /* section name (or the file of a raw segment) */
    rvt_cov_cell *cell;
} rvt_cov_range;

typedef struct rvt_cov {
    rvt_image *img;
    rvt_cov_range *range;
    size_t nrange, last;    /* last: the range the previous PC was in */
    uint64_t prev_pc;       /* the previous instruction, a conditional branch */
    uint64_t prev_len;      /* whose successor tells its outcome: its length */
    int64_t prev_imm;       /* and offset */
    bool prev_branch;       /* false: no such branch, or its outcome is lost */
    uint64_t insns, outside;   /* retired; of those outside every range */
} rvt_cov;

/* The map of img's executable sections (executable segments when there
 * are none), all counts zero; NULL when out of memory. */
rvt_cov *rvt_cov_new(rvt_image *img);
void rvt_cov_free(rvt_cov *c);
void rvt_cov_event(rvt_cov *c, const rvt_flow_event *ev);
/* The cell of the instruction at pc, NULL outside every range. */
const rvt_cov_cell *rvt_cov_at(const rvt_cov *c, uint64_t pc);

/* The state of the coverage writers: the output and the map.  open and
 * event are the writers' rvt_out_writer hooks; each writer's finish writes
 * its format, then calls rvt_cov_out_free. */
typedef struct rvt_cov_out {
    FILE *f;
    rvt_cov *cov;
} rvt_cov_out;
void *rvt_cov_out_open(FILE *f, rvt_image *img);
void rvt_cov_out_event(void *state, const rvt_flow_event *ev);
void rvt_cov_out_free(rvt_cov_out *o);

#endif
