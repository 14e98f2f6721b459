/* The pieces in flight (decode_jobs.c), for the code that hands their
 * events on: in plan order (decode_jobs.c) or merged source by source
 * (jobs_merge.c). */
#ifndef RVT_JOBS_RUN_H
#define RVT_JOBS_RUN_H

#include <pthread.h>
#include "jobs_piece.h"

typedef struct jobs_run {
    const jobs_cfg *c;
    piece *p;                   /* the plan */
    size_t n;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;                /* the next piece a worker takes */
    size_t released;            /* pieces handed on and freed */
    size_t window;              /* at most this many taken and not released */
    bool *done;
    bool abort;
    struct blk_replay *blocks;  /* the pieces' blocks joined (jobs_blocks.h) */
} jobs_run;

/* Piece i, once a worker has decoded it. */
piece *jobs_run_wait(jobs_run *r, size_t i);
/* Piece i handed on: its counts into res, its events freed, a worker may
 * take another.  Its status (< 0: the run stops). */
int jobs_run_release(jobs_run *r, size_t i, jobs_result *res);

/* The pieces of a stream of several sources (plan order: by first byte),
 * each source's events in stream order, merged into one decoder's order
 * (jobs_merge.c).  0 or a negative status; res->stopped as the function's
 * answer. */
int jobs_merge(jobs_run *r, jobs_result *res);

#endif
