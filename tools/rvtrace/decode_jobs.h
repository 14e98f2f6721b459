/* decode --jobs N (decode_jobs.c): the stream cut at its index points
 * (rvtrace/index.h), the pieces decoded on N threads, their events handed
 * on in stream order so that every writer sees what one decoder would
 * have sent (docs/parallel.md). */
#ifndef RVT_DECODE_JOBS_H
#define RVT_DECODE_JOBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cli_opts.h"
#include "jobs_pcl.h"
#include "rvtrace/index.h"
#include "rvtrace/mem.h"
#include "rvtrace/out.h"
#include "rvtrace/proto.h"
#include "trace_in.h"

typedef struct jobs_cfg {
    cli_kind kind;              /* KIND_TE or KIND_NT */
    const void *native;         /* rvt_te_attrs or rvt_nt_cfg, as for one decoder */
    const rvt_mem *mem;         /* shared by the threads (mem.h) */
    int src;                    /* N-Trace --src, -1: every source; E-Trace:
                                   the encapsulated stream's srcID or -1 */
    const uint8_t *buf;
    size_t len;
    const rvt_index *idx;
    unsigned jobs;
    bool range;                 /* --range A:B: index points a..b only */
    size_t a, b;
    bool keep_insns;            /* false: RVT_EV_INSN counted, not passed on */
    bool runs;                  /* keep_insns, no --range: the pieces' decoders
                                   send runs of instructions (N-Trace
                                   RVT_NT_EVENTS_BLOCK, E-Trace
                                   rvt_te_decoder_set_runs) for the writers
                                   (rvt_out_run) */
    const rvt_proto_cfg *cfg;   /* the settings (blocks: the registry's decoder) */
    rvt_blocks_fn fn_blocks;    /* blocks: the merged blocks, in stream order,
                                   between the events to fn */
    bool blocks;                /* the pieces pull blocks (the pull API,
                                   flow.h) and keep them (jobs_blocks.c):
                                   instructions kept, no --range, no merge
                                   of N-Trace sources */
    const jobs_pcl *pcl;        /* blocks, and every instruction output a PC
                                   list: the pieces write them (jobs_pcl.h),
                                   fn_blocks gets no block */
    bool mapped;                /* buf is a file mapping: a decoded piece's
                                   pages are given back (bounded RSS) */
    rvt_flow_fn fn;             /* the merged events, in stream order */
    void *ctx;
} jobs_cfg;

typedef struct jobs_result {
    uint64_t insns;             /* instructions decoded */
    uint64_t skipped;           /* E-Trace: packets passed over before a sync */
    uint64_t messages;          /* N-Trace: messages decoded */
    uint64_t wide_icnt, wide_icnt_offset;   /* N-Trace (rvt_nt_dec_stats) */
    int stopped;                /* fn's nonzero return, else 0 */
} jobs_result;

/* 0, or a negative status (RVT_ERR_NOMEM, RVT_ERR_INVAL: a range out of
 * the index, RVT_ERR_STATE: a decoder could not be made). */
int decode_jobs(const jobs_cfg *c, jobs_result *r);
/* Whether the stream's sources are decoded apart and their events merged
 * (jobs_merge.c): N-Trace, several sources, no --src or --range. */
bool decode_jobs_merges(const jobs_cfg *c);
/* The bytes a piece holds at least (and the points an index built for
 * the run needs apart): the plan's rule. */
uint64_t decode_jobs_piece_bytes(uint64_t len, unsigned jobs, bool keep_insns, bool pcl);
/* The most bytes of trace a piece holds when its PC lists are written by
 * the pieces (pcl): small enough that a piece's lists fit the hold of a
 * piece that is not the head (JOBS_PCL_HOLD) on dense streams, so the
 * workers seldom wait (long.elf's E-Trace: ~400 bytes of --pcs-bin per
 * byte of trace). */
#define JOBS_PIECE_PCL (16u << 10)

/* ---- the command line side (decode_jobs_cli.c) ---- */

/* --jobs N and --range A:B as given; active when either was. */
typedef struct jobs_opts {
    bool active;
    unsigned jobs;              /* 1 when only --range was given */
    bool range;
    uint64_t a, b;
} jobs_opts;

/* CLI_OK, or CLI_USAGE after printing why. */
int jobs_opts_parse(const cli_args *a, jobs_opts *o);
/* decode_jobs over the trace `in` read from path, with its index
 * (TRACE.idx or built); fn gets the events (runs of instructions when
 * `runs`, which jobs_runs says may be asked for).  fn_blocks, when not
 * NULL, takes the instructions as the pull API's blocks where the pieces
 * can pull them (instructions kept, no --range, no merge of N-Trace
 * sources: jobs_cfg.blocks),
 * in batches with no event between them, as rvt_proto_decoder_pump_blocks
 * gives them.  pcl, when not NULL, names the outputs, every one a PC list
 * (position-free: rvt_out_writer.open_part), which the pieces then write
 * themselves where they pull blocks (fn_blocks then gets the blocks of
 * a stream too short to cut only).  CLI_OK, or CLI_FAIL after printing
 * why. */
int jobs_decode_trace(const jobs_opts *o, const char *path, const rvt_proto_cfg *cfg,
                      const trace_in *in, const rvt_mem *mem, int src, bool keep_insns,
                      bool runs, rvt_flow_fn fn, rvt_blocks_fn fn_blocks,
                      const jobs_pcl *pcl, void *ctx, jobs_result *r);
/* Whether the pieces can send runs of instructions: instructions kept,
 * no --range (its end is found instruction by instruction). */
bool jobs_runs(const jobs_opts *o, bool keep_insns);

#endif
