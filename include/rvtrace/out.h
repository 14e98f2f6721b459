/* rvtrace outputs: the flow event every decoder produces (E-Trace, N-Trace),
 * and writers that turn events into PC lists, listings and JSON lines. */
#ifndef RVTRACE_OUT_H
#define RVTRACE_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include "rvtrace/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a flow decoder reports, in order. */
typedef enum rvt_ev_kind {
    RVT_EV_INSN = 0,      /* an instruction retired at pc */
    RVT_EV_SYNC,          /* decoder (re)synchronised at pc */
    RVT_EV_TRAP,          /* exception taken; cause in aux, tval in aux2 */
    RVT_EV_INTERRUPT,     /* interrupt taken; cause in aux */
    RVT_EV_PRIV,          /* privilege is now aux */
    RVT_EV_CONTEXT,       /* context is now aux */
    RVT_EV_TIME,          /* timestamp aux (cycles) */
    RVT_EV_LOST,          /* trace lost: aux = instructions/halfwords lost if known
                             (UINT64_MAX = unknown), offset = byte offset */
    RVT_EV_ERROR,         /* decode error at byte offset; text in msg */
    RVT_EV_END,           /* end of trace; aux = RVT_END_* flags; with
                             RVT_END_INCOMPLETE, offset = where the last
                             complete packet/message ends */
    RVT_EV_STOP,          /* the encoder ended the trace on purpose after the
                             instruction at pc (E-Trace 6.5 support packet, aux =
                             qual_status; N-Trace 7.12 ProgTraceCorrelation, aux =
                             EVCODE); reason in msg; a RVT_EV_SYNC restarts it */
    RVT_EV_NOTIFY,        /* the encoder reported the instruction at pc because a
                             trace-notify trigger or watchpoint fired there (E-Trace
                             4.2.4 / 6.6.1 notify bit; N-Trace table 25 SYNC=6);
                             sent right after that instruction's RVT_EV_INSN */
} rvt_ev_kind;

/* RVT_EV_END aux flags. */
#define RVT_END_INCOMPLETE 1u   /* the stream stops without the end marker its
                                   encoder writes (E-Trace final support packet,
                                   N-Trace ProgTraceCorrelation): truncated */

/* rvt_flow_event.flags */
#define RVT_EVF_CAUSE_UNKNOWN 1u  /* RVT_EV_TRAP/INTERRUPT: the protocol carries
                                     no cause (N-Trace); aux/aux2 are 0 */
#define RVT_EVF_TVAL_EPC 2u       /* RVT_EV_TRAP: aux2 is the address of the
                                     trapping instruction, not a trap value
                                     (E-Trace 1.1.1 6.3.1 tvalepc of an illegal
                                     instruction, whose tval is the opcode) */

typedef struct rvt_flow_event {
    uint8_t kind;         /* rvt_ev_kind */
    uint8_t priv;
    uint8_t flags;        /* RVT_EVF_* */
    uint16_t src;         /* hart / source id (N-Trace SRC), 0 if none */
    uint64_t pc;
    uint64_t aux;
    uint64_t aux2;
    uint64_t offset;      /* byte offset in the trace stream */
    const char *msg;      /* RVT_EV_ERROR/LOST/STOP text, RVT_EV_SYNC reason (may be
                             NULL), else NULL */
} rvt_flow_event;

/* Callback a flow decoder calls per event; nonzero return stops decoding
 * (the value is passed back). */
typedef int (*rvt_flow_fn)(void *ctx, const rvt_flow_event *ev);

struct rvt_block;       /* rvtrace/flow.h */
struct rvt_out_bufs;    /* below */

/* Output writers (src/out): plug-ins behind one interface, one file each
 * (src/out/pcs.c, listing.c, json.c, folded.c), looked up by name in a
 * constant registry (src/out/registry.c).  A new writer is one file and one
 * registry line.  An rvt_out wraps a writer's state with the counters every
 * output keeps; rvt_out_event is an rvt_flow_fn. */
typedef struct rvt_out_writer {
    const char *name;           /* "pcs", "listing", "json", "folded" */
    bool needs_image;           /* open() must be given an image */
    /* The writer's state for output to f, or NULL (out of memory). */
    void *(*open)(FILE *f, rvt_image *img);
    void (*event)(void *state, const rvt_flow_event *ev);
    /* Writes what the writer holds back (folded stacks) and frees state. */
    void (*finish)(void *state);
    /* Chosen by `--NAME FILE` (its own output file: lcov, coverage-listing,
     * lbr), not by `--NAME` for stdout as listing/json/folded are. */
    bool file_option;
    /* Optional: a run of instructions at once (issue #17: per-block, not
     * per-instruction, accounting), an rvt_block of rvtrace/flow.h whose
     * instructions all lie in consecutive addresses and of which only the
     * last is a control transfer (rvt_insn.jclass): rvt_out_block and
     * rvt_out_run call it.  Writers without it get one RVT_EV_INSN per
     * instruction instead; writers with it still take RVT_EV_INSN events
     * from rvt_out_event, and write the same either way. */
    void (*block)(void *state, const struct rvt_block *b);
    /* Optional, with block: b[0..n) as block would take them one after
     * the other, in one call (issue #17: the per-block call chain gone,
     * the writer's block work inline in its own loop).  Returns their
     * instructions (the sum of their ninsn, which rvt_out_insns counts:
     * the writer's loop adds them up where a second walk of the batch
     * measured 0.6 ns a block, issue #18).  rvt_out_blocks calls it;
     * writers without it get block once per block. */
    uint64_t (*blocks)(void *state, const struct rvt_block *b, size_t n);
    /* Optional, with blocks: for a position-free output (the PC lists),
     * whose bytes for a run of instructions do not depend on what came
     * before: the state for a part of such an output, which writes those
     * bytes only (no header), so that one output (open) followed by parts
     * written apart, in order, is the same bytes as one output given all
     * the instructions (decode --jobs: each piece's part written on its
     * own thread, docs/parallel.md).  open writes what it writes once to
     * f before it returns, so parts may be appended to f after it; finish
     * adds nothing of its own.  A part may run on a thread of its own: it
     * reads img through caches of its own (parts on several threads may
     * share img while nothing calls rvt_image_insn on it).  to NULL: the
     * part writes to f; else f is NULL and the part fills to's buffers
     * (rvt_out_open_part_bufs). */
    void *(*open_part)(FILE *f, const struct rvt_out_bufs *to, rvt_image *img);
} rvt_out_writer;

/* The registered writer called name, or NULL. */
const rvt_out_writer *rvt_out_find(const char *name);
/* The i-th registered writer (registry order), NULL past the last: for
 * listing them. */
const rvt_out_writer *rvt_out_writer_at(size_t i);

typedef struct rvt_out rvt_out;
/* An output of writer w to f; NULL if w or f is NULL, the writer needs an
 * image and img is NULL, or out of memory.  Also takes a writer of the
 * caller's own (it need not be registered). */
rvt_out *rvt_out_open(const rvt_out_writer *w, FILE *f, rvt_image *img);
/* A part of writer w's output (rvt_out_writer.open_part) to f, fed with
 * rvt_out_blocks; NULL as rvt_out_open, and when w has no open_part. */
rvt_out *rvt_out_open_part(const rvt_out_writer *w, FILE *f, rvt_image *img);

/* Where a part's bytes go when not to a FILE: into buffers of the
 * caller's, handed over whole (decode --jobs keeps a piece's bytes until
 * its turn: the buffer the part filled is the one kept, not a copy of it,
 * docs/parallel.md). */
#define RVT_OUT_BUF_MIN 4096u     /* the least `size` a writer must be given */
typedef struct rvt_out_bufs {
    /* Buffer b (NULL at the first call) holding n bytes of output, handed
     * over (the caller's again: written out, kept or dropped); returns
     * the buffer to fill next, `size` bytes (b itself when it is free
     * again), or NULL: none (at the first call, out of memory; at the
     * last, end true, nothing is filled after it and the value is
     * unused).  Called on the part's thread. */
    char *(*swap)(void *ctx, char *b, size_t n, bool end);
    void *ctx;
    size_t size;                  /* every buffer's bytes, >= RVT_OUT_BUF_MIN */
} rvt_out_bufs;
/* A part of writer w's output as rvt_out_open_part, its bytes in to's
 * buffers (to is copied): the first taken here, each handed back when
 * full, the last at rvt_out_free.  NULL as rvt_out_open_part, when to's
 * size is below RVT_OUT_BUF_MIN, and when the first swap gives none. */
rvt_out *rvt_out_open_part_bufs(const rvt_out_writer *w, const rvt_out_bufs *to, rvt_image *img);

/* The writers by enum: rvt_out_new(kind, f, img) is
 * rvt_out_open(rvt_out_find(<name>), f, img), kept for existing callers. */
typedef enum rvt_out_kind {
    RVT_OUT_PCS = 0,      /* "pcs": one lowercase hex PC per line, no 0x */
    RVT_OUT_LISTING,      /* "listing": disassembly with symbols and annotations */
    RVT_OUT_JSON,         /* "json": one JSON object per event */
    RVT_OUT_FOLDED,       /* "folded": folded call stacks with instruction
                             counts, written when the output is freed */
} rvt_out_kind;

/* img may be NULL for RVT_OUT_PCS. */
rvt_out *rvt_out_new(rvt_out_kind kind, FILE *f, rvt_image *img);
int rvt_out_event(void *out, const rvt_flow_event *ev);   /* an rvt_flow_fn */
/* b's instructions (as the writer's block entry describes them) to the
 * writer: its block entry, else one RVT_EV_INSN each (priv, src, offset
 * from b), their pcs walked with the instruction lengths of the image
 * given at open, as it is at the call (what is kept of blocks walked
 * before goes when its code changed: rvt_image_generation, docs/api.md
 * "Code that changes").  0, or RVT_ERR_NOCODE (nothing written) when that image
 * lacks the code to walk (or none was given and b has more than one
 * instruction); RVT_ERR_INVAL for NULL arguments. */
int rvt_out_block(rvt_out *o, const struct rvt_block *b);
/* rvt_out_block of b[0..n) in order, in one call (the batches of
 * rvt_proto_decoder_pump_blocks): through the writer's blocks entry, else
 * its block entry per block, else the events.  0, or the first negative
 * status (a block rvt_out_block refuses: nothing of it or after it
 * written); *done (when not NULL) is the number of blocks written. */
int rvt_out_blocks(rvt_out *o, const struct rvt_block *b, size_t n, size_t *done);
/* rvt_out_block of a block-mode RVT_EV_INSN (N-Trace
 * RVT_NT_EVENTS_BLOCK, E-Trace rvt_te_decoder_set_runs: aux instructions
 * from pc making aux2 half-words; aux 1 with aux2 0: one instruction whose
 * code the decoder did not have, written as one event would be), its last
 * pc found through the image's instruction lengths: the fast path of
 * outputs fed by a decoder in block mode.  RVT_ERR_NOCODE (nothing written) when the
 * image cannot tell it; RVT_ERR_INVAL for another event. */
int rvt_out_run(rvt_out *o, const rvt_flow_event *ev);
/* Counters: instructions written, errors and lost markers seen. */
uint64_t rvt_out_insns(const rvt_out *o);
uint64_t rvt_out_errors(const rvt_out *o);
uint64_t rvt_out_lost(const rvt_out *o);
void rvt_out_free(rvt_out *o);   /* finishes the writer, then flushes */

#ifdef __cplusplus
}
#endif
#endif
