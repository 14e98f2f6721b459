/* decode --jobs: the PC lists (--pcs, --pcs-bin) written by the pieces
 * themselves (jobs_pcl.c, for decode_jobs.c and jobs_piece.c;
 * docs/parallel.md "One writer, in order").  A PC list's bytes for a run
 * of instructions are those instructions' alone (rvt_out_writer.open_part),
 * so each piece's worker runs a part of each list over its own blocks, and
 * the bytes go to the output files in piece order: the piece at the head
 * (every piece before it written) writes straight to the files; a piece
 * after it keeps its bytes, at most `hold` of them per list, and then
 * waits until it is the head.  The thread that hands the pieces on makes
 * each piece the head in turn and, once it is decoded, writes what it
 * kept. */
#ifndef RVT_JOBS_PCL_H
#define RVT_JOBS_PCL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/flow.h"
#include "rvtrace/out.h"

#define JOBS_PCL_MAX 4
/* Bytes a piece that is not the head keeps per list, at most (a piece
 * of JOBS_PIECE_PCL bytes of long.elf's E-Trace is ~6 MB of --pcs-bin);
 * RVTRACE_PCL_HOLD=N sets it (tests: 1). */
#define JOBS_PCL_HOLD (8u << 20)

/* A part writes into chunks of this much (rvt_out_open_part_bufs), and
 * the chunk it filled is what is kept or written, not a copy; reused.
 * 256 KiB as the writers' own buffer (src/out/fmt.h: fewer, larger
 * write(2) calls cost the kernel less). */
#define PCL_CHUNK (256u << 10)

typedef struct pcl_chunk {
    struct pcl_chunk *next;
    size_t n;
    char b[PCL_CHUNK];
} pcl_chunk;

/* One run's pieces: whose turn it is, and the chunks free for reuse (the
 * pieces in flight hold at most `hold` each per list, so the chunks made
 * stay bounded; taken again, their pages are not faulted in afresh). */
typedef struct pcl_gate {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t head;                /* the piece (plan position) at the head */
    size_t hold;
    bool abort;                 /* the run stops: writes are dropped */
    unsigned waiting;           /* writes waiting for their turn now */
    pcl_chunk *free;
} pcl_gate;

/* The lists asked for (decode's outputs, every one position-free),
 * their start already in the files (rvt_out_open). */
typedef struct jobs_pcl {
    size_t n;
    const rvt_out_writer *w[JOBS_PCL_MAX];
    FILE *f[JOBS_PCL_MAX];
    rvt_image *img;             /* read by the parts through views of their own */
    /* Optional: a piece's instructions written (the caller's context, the
     * piece's instructions, the trace offset it ends at): the progress. */
    void (*written)(void *ctx, uint64_t insns, uint64_t end);
    pcl_gate *gate;             /* set by decode_jobs.c for the run */
} jobs_pcl;

struct pcl_piece;

/* One list of one piece. */
typedef struct pcl_sink {
    struct pcl_piece *pp;
    FILE *to;                   /* the output file */
    rvt_out *part;              /* fills chunks (sink_swap) */
    pcl_chunk *first, *last;    /* kept, not yet in `to` */
    size_t held, peak;          /* bytes kept now, at most */
} pcl_sink;

typedef struct pcl_piece {
    pcl_gate *gate;
    size_t at;                  /* its plan position */
    size_t n;
    pcl_sink s[JOBS_PCL_MAX];
    uint64_t waits;             /* writes that waited to be the head */
} pcl_piece;

/* The gate for a run (hold: RVTRACE_PCL_HOLD, else JOBS_PCL_HOLD), the
 * first piece at the head. */
void pcl_gate_init(pcl_gate *g);
void pcl_gate_destroy(pcl_gate *g);
/* Piece `at` is now the head (the pieces before it are written). */
void pcl_gate_head(pcl_gate *g, size_t at);
/* Every piece's writes dropped from now on; no write waits. */
void pcl_gate_abort(pcl_gate *g);

/* Piece `at`'s parts of l's lists: 0 or RVT_ERR_NOMEM. */
int pcl_piece_open(pcl_piece *pp, const jobs_pcl *l, size_t at);
/* b[0..n) to every part: 0, or 1 once the run stops. */
int pcl_piece_blocks(pcl_piece *pp, const rvt_block *b, size_t n);
/* The parts finished (their last bytes written or kept). */
void pcl_piece_close(pcl_piece *pp);
/* The bytes kept to the output files (the piece at the head and closed). */
void pcl_piece_drain(pcl_piece *pp);
/* What is left freed (parts, kept bytes). */
void pcl_piece_free(pcl_piece *pp);

#endif
