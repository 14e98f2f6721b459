/* rvtrace protocols looked up by name (issue 14 "Protocols"): one
 * configuration style, one .attrs sidecar reader and writer and one packet
 * dump for every protocol.
 *
 *   "etrace"       E-Trace te_inst (and te_data) streams, rvt_te_attrs
 *   "etrace-data"  E-Trace with data trace on (ch. 7), rvt_te_attrs
 *   "ntrace"       N-Trace messages, rvt_nt_cfg
 *   "tv"           tandem-verification traces (.tvt): xlen, flen, mlen
 *
 * Every function rejects NULL arguments with RVT_ERR_INVAL (NULL for
 * functions returning pointers).  The encoder is the protocol's own
 * (etrace.h, ntrace.h), created from rvt_proto_cfg_native; the decoder is
 * created here by protocol (rvt_proto_decoder_new) or directly. */
#ifndef RVT_PROTO_H
#define RVT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/flow.h"
#include "rvtrace/mem.h"
#include "rvtrace/status.h"

typedef struct rvt_proto rvt_proto;
typedef struct rvt_proto_cfg rvt_proto_cfg;

/* What a protocol offers (rvt_proto_caps). */
enum {
    RVT_PROTO_SIDECAR = 1u << 0,   /* settings in a TRACE.attrs sidecar */
    RVT_PROTO_DUMP = 1u << 1,      /* rvt_proto_dump */
    RVT_PROTO_ENCODE = 1u << 2,    /* an encoder (an rvt_irec_sink) */
    RVT_PROTO_DECODE = 1u << 3,    /* an instruction-flow decoder */
};

/* The protocol called NAME, or NULL.  rvt_proto_at(i): the i-th protocol
 * in the registry, NULL past the end. */
const rvt_proto *rvt_proto_find(const char *name);
const rvt_proto *rvt_proto_at(size_t i);
const char *rvt_proto_name(const rvt_proto *p);     /* "etrace" */
const char *rvt_proto_title(const rvt_proto *p);    /* "E-Trace" */
unsigned rvt_proto_caps(const rvt_proto *p);        /* RVT_PROTO_* */
/* The unit of the stream ("packet", "message", "item") and the encoder's
 * end marker, as a phrase naming the spec section ("the final support
 * packet, E-Trace 6.5.1"); "" when the protocol has none. */
const char *rvt_proto_unit(const rvt_proto *p);
const char *rvt_proto_end_marker(const rvt_proto *p);

/* The settings a protocol takes, in sidecar order: the i-th name (NULL past
 * the end) with a one-line help in *help (may be NULL).  Default values:
 * rvt_proto_cfg_get on a new configuration. */
const char *rvt_proto_setting(const rvt_proto *p, size_t i, const char **help);

/* ---- configuration ---- */
/* The version of rvt_proto_cfg's contents (libipt-style: a configuration
 * states the size/version it was made for; rvt_proto_cfg_check refuses
 * another). */
#define RVT_PROTO_CFG_VERSION 1u

/* A configuration holding the protocol's defaults (rvt_proto_cfg_defaults).
 * NULL when out of memory or p is NULL. */
rvt_proto_cfg *rvt_proto_cfg_new(const rvt_proto *p);
void rvt_proto_cfg_free(rvt_proto_cfg *c);
const rvt_proto *rvt_proto_cfg_proto(const rvt_proto_cfg *c);
/* The one call that sets every default: the protocol's documented
 * defaults (docs/format-te.md, docs/format-nt.md), nothing stated. */
int rvt_proto_cfg_defaults(rvt_proto_cfg *c);
/* Set one setting by name (the sidecar names); the value as the sidecar
 * writes it.  RVT_ERR_INVAL for an unknown name or a bad value.  A set
 * setting counts as stated (rvt_proto_cfg_stated). */
int rvt_proto_cfg_set(rvt_proto_cfg *c, const char *name, const char *value);
/* A setting's value as the sidecar writes it, into buf. */
int rvt_proto_cfg_get(const rvt_proto_cfg *c, const char *name, char *buf, size_t n);
/* Whether NAME was set (by rvt_proto_cfg_set or a sidecar) since the
 * defaults: an explicit 0 is not the default 0. */
bool rvt_proto_cfg_stated(const rvt_proto_cfg *c, const char *name);
/* Fill the settings that follow from others when left unstated, the
 * policies an encoder and a decoder must agree on:
 *   E-Trace: implicit return without return_stack_size or call_counter_size
 *     stated gets a 32-entry return stack (return_stack_size=5; both 0 is
 *     the reference flow's mode, in which no decoder follows returns: only
 *     on request), then rvt_te_attrs_fill (predictor, cache, f0s sizes);
 *   N-Trace: the zero defaults of rvt_nt_cfg (depth 32, 22-bit I-CNT, ...).
 * Idempotent. */
int rvt_proto_cfg_fill(rvt_proto_cfg *c);
/* The XLEN of the input (an .rvi header, the ELF's class; 0 = unknown) as
 * the address width: E-Trace iaddress_width and N-Trace rvtXlen unless
 * stated (N-Trace: or stated as 64, the default every sidecar states). */
int rvt_proto_cfg_input_xlen(rvt_proto_cfg *c, unsigned xlen);
/* Check consistency without changing c: 0, or a negative status with a
 * static sentence in *why (why may be NULL). */
int rvt_proto_cfg_check(const rvt_proto_cfg *c, const char **why);
/* A static warning about settings an encoder accepts but no decoder can
 * always follow (E-Trace 3.2.5), or NULL. */
const char *rvt_proto_cfg_caveat(const rvt_proto_cfg *c);
/* The protocol's own configuration: rvt_te_attrs * (etrace, etrace-data),
 * rvt_nt_cfg * (ntrace), rvt_tv_cfg * (tv). */
void *rvt_proto_cfg_native(rvt_proto_cfg *c);
const void *rvt_proto_cfg_native_const(const rvt_proto_cfg *c);

/* ---- the TRACE.attrs sidecar ---- */
/* Read "name=value" lines into c (rvt_proto_cfg_set each; '#' comments).
 * Every bad line is reported through diag (may be NULL) as "line N: bad
 * setting 'TEXT'"; returns 0 or the first bad line's status.  The file
 * format is each protocol's (docs/format-te.md, docs/format-nt.md). */
int rvt_proto_sidecar_read(rvt_proto_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx);
/* Write every setting, in sidecar order, after a '#' header line. */
int rvt_proto_sidecar_write(const rvt_proto_cfg *c, FILE *f);
/* The protocol a sidecar is written for, from its first setting's name
 * (N-Trace: the chapter 4 names trXx... and rvtXx...; E-Trace: the
 * lowercase 9.1 names), or NULL (no setting, or neither style).  Reads f
 * from its current position. */
const rvt_proto *rvt_proto_of_sidecar(FILE *f);
/* The protocol a stream's first bytes look like, for a file with neither a
 * telling name nor a sidecar: "ntrace" when every byte's MSEO bits (N-Trace
 * 5.1: 00 normal, 01 end of field, 11 end of message) avoid the reserved 10
 * and messages end, over at least 32 bytes; "etrace" when the bytes start
 * with an Encapsulation 1.0 synchronisation run (nulls, then
 * null.alignment 0x80) or tile into reference-flow frames (header
 * msg_type<<5 | length, type te_inst/te_data, length 1-31); else NULL
 * (too short, an ELF or .rvi file, or neither). */
const rvt_proto *rvt_proto_detect(const uint8_t *buf, size_t len);

/* ---- packet dump ---- */
/* One item of a stream as rvt_proto_dump reports it; valid during the
 * callback only. */
typedef struct rvt_proto_item {
    uint64_t offset;      /* first byte */
    uint64_t size;        /* bytes, headers included */
    const char *name;     /* its kind ("sync", "IndirectBranchHist", ...) */
    const char *text;     /* the line to show (text or one JSON object), or
                             NULL (RVT_PROTO_DUMP_NOTEXT; an error shown
                             only through msg) */
    int status;           /* < 0: a bad item, msg says why */
    const char *msg;
    bool has_pc;          /* RVT_PROTO_DUMP_PCS: the PC an address stands for */
    uint64_t pc;
} rvt_proto_item;
typedef int (*rvt_proto_item_fn)(void *ctx, const rvt_proto_item *it);

enum {
    RVT_PROTO_DUMP_JSON = 1u << 0,     /* text as JSON objects */
    RVT_PROTO_DUMP_NOTEXT = 1u << 1,   /* no text (counting only) */
    RVT_PROTO_DUMP_PCS = 1u << 2,      /* N-Trace: PCs of F-ADDR/U-ADDR, in
                                          text as " -> 0x..." (8.1) */
};
/* How a dumped stream ended. */
typedef struct rvt_proto_dump_end {
    uint64_t items, errors;
    bool ended;           /* the last item is the encoder's end marker */
    bool knows_end;       /* the protocol's dump checks for it */
    uint64_t complete;    /* where the last whole item ends */
} rvt_proto_dump_end;
/* Walk buf item by item (E-Trace: te_inst and te_data packets, with the
 * modes each support packet sets, 6.5; N-Trace: messages), calling fn for
 * each; a bad item is reported and the walk resumes after it.  fn's
 * non-zero return stops the walk and is returned.  end may be NULL. */
int rvt_proto_dump(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, unsigned flags,
                   rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end);

/* ---- the instruction-flow decoder ---- */
/* The protocol's decoder (RVT_PROTO_DECODE: rvt_te_decoder, rvt_nt_decoder
 * over every SRC) with c's settings as they are (call rvt_proto_cfg_fill
 * first, as for the encoder), reading code from mem (mem.h; it must
 * outlive the decoder).  Events go to fn(ctx, ...); fn may be NULL for a
 * decoder used only through the pull calls.  NULL with *status (status
 * may be NULL): RVT_ERR_INVAL (c or mem NULL, settings the protocol's
 * check refuses), RVT_ERR_STATE (the protocol has no decoder: "tv"),
 * RVT_ERR_NOMEM. */
typedef struct rvt_proto_decoder rvt_proto_decoder;
rvt_proto_decoder *rvt_proto_decoder_new(const rvt_proto_cfg *c, const rvt_mem *mem,
                                         rvt_flow_fn fn, void *ctx, int *status);
void rvt_proto_decoder_free(rvt_proto_decoder *d);
/* Push: decode buf, events to fn (E-Trace: the whole stream, which it
 * also ends, rvt_te_decoder_run; N-Trace: a chunk of the stream, cut
 * anywhere, again for the next one, rvt_nt_decode).  0, fn's nonzero
 * return, RVT_ERR_INVAL (d NULL, buf NULL with len > 0, N-Trace: no fn),
 * RVT_ERR_STATE (after finish or set_input). */
int rvt_proto_decoder_run(rvt_proto_decoder *d, const uint8_t *buf, size_t len);
/* The end of the stream: RVT_EV_END (with RVT_END_INCOMPLETE as the
 * protocol decides), sent once (later calls: 0, nothing sent).
 * RVT_ERR_INVAL (d NULL), RVT_ERR_STATE (after set_input). */
int rvt_proto_decoder_finish(rvt_proto_decoder *d);
/* Pull (flow.h): the protocol's set_input, next_block, next_insn and
 * next_event, with their statuses (etrace.h, ntrace.h); NULL arguments
 * give RVT_ERR_INVAL. */
int rvt_proto_decoder_set_input(rvt_proto_decoder *d, const uint8_t *buf, size_t len);
int rvt_proto_decoder_next_block(rvt_proto_decoder *d, rvt_block *out);
int rvt_proto_decoder_next_insn(rvt_proto_decoder *d, rvt_flow_insn *out);
int rvt_proto_decoder_next_event(rvt_proto_decoder *d, rvt_flow_event *out);
/* Pull decoding of one piece of a stream cut at its synchronisation
 * points (decode --jobs, docs/parallel.md "Why the output is the same"):
 * set_input with the piece's bounds, the piece's own units those before
 * byte stop.  E-Trace: rvt_te_decoder_set_input_piece (the input ends
 * before the first packet at or after stop, and with seam the first
 * instruction is a block of its own, RVT_BLK_SEAM where the whole
 * stream's decoder goes on with it).  N-Trace:
 * rvt_nt_decoder_set_input_piece (the rest of the stream is read on, the
 * caller stops at the first block or event at or after stop; seam:
 * RVT_ERR_INVAL).  Statuses as set_input. */
int rvt_proto_decoder_set_input_piece(rvt_proto_decoder *d, const uint8_t *buf, size_t len,
                                      uint64_t stop, bool seam);
/* Start as a decoder that had read the state unit unit[0..len) starts
 * with, without decoding it: E-Trace a support packet's modes
 * (rvt_te_decoder_prime), N-Trace an Ownership message's privilege and
 * context (rvt_nt_decoder_prime); the unit the index names for a point
 * (index.h).  Before set_input.  0, RVT_ERR_INVAL (NULL, no such unit
 * there), RVT_ERR_STATE (decoding has begun), the protocol's status. */
int rvt_proto_decoder_prime(rvt_proto_decoder *d, const uint8_t *unit, size_t len);
/* Batches of the pull calls: up to max blocks or instructions into out
 * (events between them are dropped, as by next_block/next_insn).  The
 * number got (> 0), 0 when the input is used up, or the negative status
 * of the first call (an error after some were got comes on the next). */
int rvt_proto_decoder_next_blocks(rvt_proto_decoder *d, rvt_block *out, size_t max);
int rvt_proto_decoder_next_insns(rvt_proto_decoder *d, rvt_flow_insn *out, size_t max);
/* next_blocks up to the next event, nothing dropped (rvt_te_decoder_next_run):
 * the number got, 0 when an event comes first or the input is used up
 * (next_event tells which), or a negative status. */
int rvt_proto_decoder_next_run(rvt_proto_decoder *d, rvt_block *out, size_t max);
/* The pull API driven to the end of the input (issue #18 "Output at the
 * decoder's speed": a call per block, not per instruction): every event
 * to on_event and every block to on_block, in stream order, nothing
 * dropped.  After set_input.  0 when the input is used up (RVT_EV_END
 * included), the first nonzero value a callback returned (decoding stops
 * there), or a negative status of the pull calls; RVT_ERR_INVAL for a
 * NULL argument. */
typedef int (*rvt_block_fn)(void *ctx, const rvt_block *b);
int rvt_proto_decoder_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_block_fn on_block, void *ctx);
/* The same with the blocks in batches (issue #17: a call per batch, not
 * per block): on_blocks(ctx, b, n) takes n >= 1 blocks that follow each
 * other with no event between them (rvt_out_blocks takes them as they
 * are). */
typedef int (*rvt_blocks_fn)(void *ctx, const rvt_block *b, size_t n);
int rvt_proto_decoder_pump_blocks(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_blocks_fn on_blocks,
                                  void *ctx);
/* The same with each batch pulled into the caller's array: room(ctx,
 * &max) gives where the next batch goes and sets max (>= 1), the most it
 * may hold; on_blocks then gets that array's first n blocks (so a caller
 * that hands the batches to another thread need not copy them:
 * `rvtrace decode --write-thread`).  RVT_ERR_INVAL when room gives no
 * array. */
typedef rvt_block *(*rvt_room_fn)(void *ctx, size_t *max);
int rvt_proto_decoder_pump_into(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_room_fn room,
                                rvt_blocks_fn on_blocks, void *ctx);

/* Controls every protocol's decoder takes, before run or set_input
 * (issue 14: an option means the same for every protocol).
 * set_events: RVT_PROTO_EVENTS_COUNT sends no RVT_EV_INSN events (the
 * count is in the stats; other kinds unchanged), RVT_PROTO_EVENTS_ALL one
 * per instruction (default), RVT_PROTO_EVENTS_RUNS one RVT_EV_INSN per
 * straight-line run (aux = its instructions, aux2 = its half-words), where
 * the protocol's decoder has that mode; ignored once the pull input is
 * given, which needs every instruction.  0, RVT_ERR_INVAL (d NULL, unknown
 * mode), RVT_ERR_STATE (RUNS: the protocol's decoder has no run mode; it
 * keeps its mode). */
enum { RVT_PROTO_EVENTS_ALL = 0, RVT_PROTO_EVENTS_COUNT = 1, RVT_PROTO_EVENTS_RUNS = 2 };
int rvt_proto_decoder_set_events(rvt_proto_decoder *d, unsigned mode);
/* The trace of source SRC (src < 0: every source).  N-Trace: keep only
 * messages of SRC (table 8 SRC, at most 12 bits).  E-Trace: the stream is
 * that source's alone (an encapsulated stream's srcID, Encapsulation
 * 2.1.2, at most 16 bits, split out by the container): events carry it in
 * src and code is looked up in its address space.  0, RVT_ERR_INVAL (d
 * NULL, src beyond the protocol's source ids), RVT_ERR_STATE (decoding
 * has begun). */
int rvt_proto_decoder_set_source(rvt_proto_decoder *d, int src);
/* Forget cached instructions: the code changed (a fence.i retired over
 * self-modifying code, E-Trace 3.2.3, N-Trace 11.4).  Safe from inside the
 * event callback.  0, RVT_ERR_INVAL (d NULL). */
int rvt_proto_decoder_flush(rvt_proto_decoder *d);
/* The counters every protocol keeps, copied out. */
typedef struct rvt_proto_dec_stats {
    uint64_t units;          /* packets (E-Trace) or messages (N-Trace) decoded */
    uint64_t instructions;   /* instructions reconstructed */
    uint64_t errors;         /* RVT_EV_ERROR events sent */
    uint64_t resyncs;        /* synchronisations after the first */
    uint64_t skipped;        /* E-Trace: packets passed over after an error
                                until the next sync (their instructions are
                                lost); N-Trace: 0 (I-CNT says, in RVT_EV_LOST) */
    uint64_t wide_icnt;      /* N-Trace 8.4.4: I-CNTs wider than rvtIcntBits
                                accepted; E-Trace: 0 */
    uint64_t wide_icnt_offset;   /* the first of them */
    uint64_t cache_flushes;  /* whole flushes of the instruction/block cache
                                (rvt_te_dec_stats.cache_flushes) */
    uint64_t unsynced_errors;    /* N-Trace: of errors, the transport errors
                                    (3.4) met while none of the decoder's
                                    sources was synchronised: its own, not a
                                    source's loss (rvt_nt_dec_stats; decoding
                                    the sources apart, one decoder reports
                                    such an error once); E-Trace: 0 */
} rvt_proto_dec_stats;
/* 0, RVT_ERR_INVAL (d or out NULL). */
int rvt_proto_decoder_stats(const rvt_proto_decoder *d, rvt_proto_dec_stats *out);

/* ---- several harts, one stream ---- */
/* Replay n .rvi readers' instruction records (data records skipped) into
 * sinks[k] in record time order (ties: reader order), then end every sink:
 * each hart with its own encoder (rvt_nt_cfg_assign_src).  0, or the first
 * negative status with *bad (may be NULL) the reader it came from. */
struct rvt_rvi_reader;
struct rvt_irec_sink;
int rvt_merge_harts(struct rvt_rvi_reader *const *in, unsigned n, const struct rvt_irec_sink *sinks,
                    unsigned *bad);


#endif
