/* rvtrace E-Trace: attributes (9.1), te_inst packet codec (ch. 6), the
 * reference-flow container, the branch-trace encoder (ch. 8) and the flow
 * decoder (ch. 11).  File formats: docs/format-te.md; spec choices:
 * docs/conformance-etrace.md. */
#ifndef RVTRACE_ETRACE_H
#define RVTRACE_ETRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "rvtrace/ingress.h"
#include "rvtrace/image.h"
#include "rvtrace/mem.h"
#include "rvtrace/out.h"
#include "rvtrace/flow.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run-time modes (tables 2.2, 3.2).  Delta address is the default.  The
 * bit positions are those of the support packet's options field: the
 * reference flow's 5-bit ioptions, plus sijump as bit 5 in the 1.1 layout. */
#define RVT_TE_OPT_IMPLICIT_RETURN 0x01u
#define RVT_TE_OPT_IMPLICIT_EXCEPT 0x02u
#define RVT_TE_OPT_FULL_ADDRESS    0x04u
#define RVT_TE_OPT_JTC             0x08u
#define RVT_TE_OPT_BRANCH_PRED     0x10u
#define RVT_TE_OPT_SIJUMP          0x20u
#define RVT_TE_OPT_ALL             0x3fu
/* "all" on the command line: every mode that makes the stream smaller.
 * Full address (3.2.2) only widens the addresses: it stays explicit. */
#define RVT_TE_OPT_COMPRESSING     (RVT_TE_OPT_ALL & ~RVT_TE_OPT_FULL_ADDRESS)

/* Format 3 layouts. */
#define RVT_TE_V11 11   /* the 1.1.1 draft in specs/ */
#define RVT_TE_V20 20   /* the ratified layout the reference flow writes */

/* Resync counting (table 2.1 ResyncMode). */
enum rvt_te_resync { RVT_TE_RESYNC_OFF = 0, RVT_TE_RESYNC_PACKETS = 1,
                     RVT_TE_RESYNC_CYCLES = 2, RVT_TE_RESYNC_HALFWORDS = 3 };

/* Encoder parameters as *_p values (table 9.1), not the "minus one"
 * discovery encodings of table 9.2.  Fill with rvt_te_attrs_default(). */
typedef struct rvt_te_attrs {
    /* sizeof(rvt_te_attrs) the caller was built with (libipt's
     * pt_config.size): set by rvt_te_attrs_default; rvt_te_attrs_check
     * refuses another non-zero size (RVT_ERR_VERSION). */
    size_t size;
    unsigned version;            /* RVT_TE_V11 or RVT_TE_V20 */
    unsigned iaddress_width;     /* = XLEN */
    unsigned iaddress_lsb;       /* 1 with compressed instructions */
    unsigned ecause_width;
    unsigned context_width;
    unsigned nocontext;
    unsigned notime;             /* v2.0: time field absent when 1 */
    unsigned time_width;
    unsigned privilege_width;
    unsigned call_counter_size;
    unsigned return_stack_size;
    unsigned bpred_size;
    unsigned cache_size;
    unsigned f0s_width;
    unsigned sijump;
    unsigned retires;
    unsigned itype_width;
    unsigned encoder_mode_width; /* N of table 6.4 (1) */
    unsigned options;            /* RVT_TE_OPT_* in force */
    unsigned resync_mode;        /* rvt_te_resync */
    unsigned resync_max;         /* interval 2^(resync_max+4) */
    uint64_t resync_interval;    /* explicit interval; overrides resync_max */
    unsigned irdepth_ones;       /* reference deviation: ones-fill irdepth */
    unsigned trap_noupd;         /* reference deviation: no updiscon before an
                                  * ecall/ebreak's own trap */
    /* Data trace (ch. 7, tables 2.2 and 4.9; docs/format-te.md). */
    unsigned data_trace;         /* te_data packets are written (dEnable) */
    unsigned data_width;         /* data_width_p: 32 or 64 */
    unsigned no_data;            /* table 2.2 noData */
    unsigned no_address;         /* table 2.2 noAddress */
    unsigned data_compress;      /* table 2.2 DataCompress 0..3 */
    /* Filtering capabilities (table 9.3, *_p values): what the filter stage
     * in front of the encoder offers (docs/filter.md).  Discovery only: no
     * packet depends on them. */
    unsigned comparators, filters;
    unsigned ecause_choice;      /* matchChoiceEcause covers 2^N causes */
    unsigned filter_context, filter_excint, filter_privilege, filter_tval;
    /* Split data interface (4.3; 7.1.1 "a discoverable parameter"):
     * loads and atomics as a request (tables 7.4, 7.9) and a response
     * (7.5, 7.10) linked by an index of index_width bits (lrid_width_p,
     * 0..8).  docs/format-te.md. */
    unsigned split_loads;
    unsigned index_width;
} rvt_te_attrs;

void rvt_te_attrs_default(rvt_te_attrs *a);
/* Set one attribute NAME to VALUE (9.1 names, plus the rvtrace ones listed
 * in docs/format-te.md; the style of rvt_nt_cfg_set and rvt_proto_cfg_set).
 * RVT_ERR_INVAL for an unknown name, a bad value or a NULL argument. */
int rvt_te_attrs_set_value(rvt_te_attrs *a, const char *name, const char *value);
/* Convenience over rvt_te_attrs_set_value: one "name=value" string. */
int rvt_te_attrs_set(rvt_te_attrs *a, const char *name_eq_value);
/* An attribute's value as the sidecar writes it ("2.0", "12", "packets",
 * "implicit-return,sijump" or "none"); RVT_ERR_INVAL for an unknown name. */
int rvt_te_attrs_get(const rvt_te_attrs *a, const char *name, char *buf, size_t n);
/* The i-th attribute name in sidecar order, its one-line help in *help
 * (may be NULL); NULL past the end. */
const char *rvt_te_attrs_name(size_t i, const char **help);
/* Apply a named attribute set: "refflow" = version 2.0, resync_mode
 * packets, irdepth_ones, trap_noupd (the E-Trace reference flow's
 * encoder, byte for byte).  RVT_ERR_INVAL for an unknown name.  Also
 * reachable as the pseudo-attribute "profile=NAME" of rvt_te_attrs_set. */
int rvt_te_attrs_profile(rvt_te_attrs *a, const char *name);
/* Options list "full-address,implicit-return,..."; "all" stands for
 * RVT_TE_OPT_COMPRESSING. */
int rvt_te_opts_parse(const char *list, unsigned *opts);
/* Give the modes in a->options the sizes they need when left at 0:
 * bpred_size, cache_size, and f0s_width=1 when both format 0 subformats
 * are in use (6.8.1).  Encoder and decoder apply it to their copies. */
void rvt_te_attrs_fill(rvt_te_attrs *a);
/* Check consistency (widths in range, f0s_width, ...). */
int rvt_te_attrs_check(const rvt_te_attrs *a);
/* 6.5: the modes (RVT_TE_OPT_*) in force after a support packet whose
 * options field holds `options`.  The 2.0 layout's ioptions has no
 * sijump bit: that mode stays as the sijump attribute says. */
unsigned rvt_te_support_options(const rvt_te_attrs *a, unsigned options);
int rvt_te_attrs_write(const rvt_te_attrs *a, FILE *f);
/* Read "name=value" lines; unknown names are an error with the line number
 * of the first in *line.  _diag: every bad line reported through diag. */
int rvt_te_attrs_read(rvt_te_attrs *a, FILE *f, unsigned *line);
int rvt_te_attrs_read_diag(rvt_te_attrs *a, FILE *f, rvt_diag_fn diag, void *diag_ctx);
/* Settings an encoder accepts whose streams decoders cannot always follow
 * (3.2.5): a static sentence saying which code is lost and why, or NULL.
 * Implicit return with neither stack nor counter leaves out every return;
 * with a counter only, returns to changed return addresses. */
const char *rvt_te_attrs_caveat(const rvt_te_attrs *a);
/* Width of irdepth (6.6.3). */
unsigned rvt_te_irdepth_width(const rvt_te_attrs *a);

/* ---- packets (ch. 6) ---- */
enum rvt_te_qual { RVT_TE_QUAL_NO_CHANGE = 0, RVT_TE_QUAL_ENDED_REP = 1,
                   RVT_TE_QUAL_TRACE_LOST = 2, RVT_TE_QUAL_ENDED_UPD = 3 };

/* One te_inst packet.  notify/updiscon/irreport/irdepth hold the bits as on
 * the wire; rvt_te_pkt_flags() derives their meaning (6.6.2-6.6.3). */
typedef struct rvt_te_pkt {
    uint8_t format, subformat;
    uint8_t branch;            /* f3 sf0/1(/2 in v2.0) */
    uint8_t privilege;
    uint8_t interrupt, thaddr;
    uint8_t notify, updiscon, irreport;
    uint8_t enable, encoder_mode, qual_status;
    uint8_t denable, dloss, doptions;
    uint8_t branch_fmt;        /* f0 sf0 */
    uint8_t branches;          /* f1, f0 sf1 */
    uint8_t has_address;       /* derived on unpack */
    uint32_t options;          /* support packet options/ioptions */
    uint32_t branch_map;
    uint32_t branch_count;
    uint32_t index;            /* f0 sf1 */
    uint64_t address;          /* field value: shifted, delta or full */
    uint64_t irdepth;
    uint64_t context, time, ecause, tval;
} rvt_te_pkt;

/* Packet meaning of the inversion bits (6.6.2, 6.6.3, 6.7, 6.8). */
typedef struct rvt_te_flags {
    bool notify, updiscon, irreport;
} rvt_te_flags;
rvt_te_flags rvt_te_pkt_flags(const rvt_te_attrs *a, const rvt_te_pkt *p);
/* Set the wire bits of p from the meanings (irdepth = depth when irreport). */
void rvt_te_pkt_set_flags(const rvt_te_attrs *a, rvt_te_pkt *p, bool notify,
                          bool updiscon, bool irreport, uint64_t depth);
/* The encoder's end of trace (3.1.6, chapter 8): a support packet that
 * disables the encoder with qual_status ended_rep or ended_upd (6.5.1).
 * A stream whose last te_inst packet is not one was cut short. */
bool rvt_te_pkt_is_end(const rvt_te_pkt *p);
/* Branch-map field length for `branches` (table 6.6): 31 for 0. */
unsigned rvt_te_map_len(unsigned branches);

/* Payload only (the bare form): pack sign-compressed into buf (>= 32
 * bytes); returns the payload length in bytes or a negative status. */
int rvt_te_pack(const rvt_te_attrs *a, const rvt_te_pkt *p, uint8_t *buf, size_t cap);
/* Unpack one payload of len bytes (sign re-extended). */
int rvt_te_unpack(const rvt_te_attrs *a, const uint8_t *buf, size_t len, rvt_te_pkt *p);

/* Reference-flow raw form: one header byte msg_type<<5 | length. */
#define RVT_TE_MSG_INST 2
#define RVT_TE_MSG_DATA 3
/* Pack header + payload; returns total bytes. */
int rvt_te_frame(const rvt_te_attrs *a, const rvt_te_pkt *p, uint8_t *buf, size_t cap);

/* Packet iterator over a byte buffer in the raw form, or over the frames
 * of an rvt_transport (transport.h). */
struct rvt_transport;
typedef struct rvt_te_reader {
    const rvt_te_attrs *attrs;
    const uint8_t *buf;
    size_t len, pos;
    uint64_t skipped;       /* bytes passed over by resynchronisation */
    struct rvt_transport *tp;   /* NULL: buf in the reference-flow framing */
} rvt_te_reader;
void rvt_te_reader_init(rvt_te_reader *r, const rvt_te_attrs *a, const uint8_t *buf, size_t len);
/* A reader that pulls its frames from tp (borrowed; any framing: "refflow",
 * or "encap", whose payload type 0 is te_inst and 1 te_data, Encapsulation
 * 1.0 ch. 3), so the container is the transport's business; offsets are
 * tp's stream's, skipped counts rvt_tp_skipped(tp). */
void rvt_te_reader_init_transport(rvt_te_reader *r, const rvt_te_attrs *a,
                                  struct rvt_transport *tp);
/* Next te_inst packet: 1 with *p and *offset filled (offset of its header),
 * 0 at the end, or a negative status with *offset at the bad byte (the
 * reader has skipped past it so the caller may continue).  Non-te_inst
 * messages are skipped. */
int rvt_te_reader_next(rvt_te_reader *r, rvt_te_pkt *p, uint64_t *offset);
/* Next message of any type: 1 with *type (RVT_TE_MSG_*), the payload and
 * its length, and *offset (of the header); 0 at the end; or a negative
 * status with *offset at the bad byte (the reader has moved past it). */
int rvt_te_reader_frame(rvt_te_reader *r, unsigned *type, const uint8_t **payload,
                        size_t *len, uint64_t *offset);
/* The frame at offset (just returned) does not decode: resume byte by
 * byte at offset + 1 (the transport's rvt_tp_reject), counting the byte in
 * r->skipped, unless the frame ended the stream (nothing to resume to). */
void rvt_te_reader_reject(rvt_te_reader *r, uint64_t offset);

/* One line describing p, every field named (dump), or a JSON object. */
int rvt_te_pkt_format(const rvt_te_attrs *a, const rvt_te_pkt *p, bool json, char *buf, size_t n);
/* The packet's kind as dump names it ("sync", "branch-map", ...; static). */
const char *rvt_te_pkt_name(const rvt_te_pkt *p);

/* ---- encoder (ch. 8) ---- */
/* Receives each framed packet (header + payload). */
typedef int (*rvt_te_byte_fn)(void *ctx, const uint8_t *bytes, size_t n);

typedef struct rvt_te_encoder rvt_te_encoder;
typedef struct rvt_te_enc_stats {
    uint64_t packets, bytes, instructions, halfwords;
    uint64_t per_format[4];
} rvt_te_enc_stats;

rvt_te_encoder *rvt_te_encoder_new(const rvt_te_attrs *a, rvt_te_byte_fn out, void *ctx, int *status);
/* Blocks in retirement order (4.2).  A value wider than its packet field
 * (address, ecause, tval, privilege, context, time: table 9.1 widths) is
 * RVT_ERR_RANGE, and rvt_te_encoder_why() names the field and value. */
int rvt_te_encoder_put(rvt_te_encoder *e, const rvt_irec *recs, size_t n);
/* Why the last call failed with RVT_ERR_RANGE ("" otherwise; static to e). */
const char *rvt_te_encoder_why(const rvt_te_encoder *e);
/* Trace ends: report the last instruction and send the support packet. */
int rvt_te_encoder_end(rvt_te_encoder *e);
const rvt_te_enc_stats *rvt_te_encoder_stats(const rvt_te_encoder *e);
void rvt_te_encoder_free(rvt_te_encoder *e);
/* An rvt_irec_sink feeding the encoder (end() calls _end()). */
rvt_irec_sink rvt_te_encoder_sink(rvt_te_encoder *e);
/* Its runs of steps (rvt_rvi_replay_steps): the same bytes as their
 * records through the sink, without a record each. */
rvt_irec_steps rvt_te_encoder_steps(rvt_te_encoder *e);

/* ---- flow decoder (ch. 11) ---- */
/* Instruction lookup: the decoded instruction at pc or NULL.  The default
 * is rvt_image_insn over an image. */
typedef const rvt_insn *(*rvt_te_insn_fn)(void *ctx, uint64_t pc);

typedef struct rvt_te_decoder rvt_te_decoder;
typedef struct rvt_te_dec_stats {
    uint64_t packets, instructions, errors, resyncs;
    /* Packets passed over after an error while waiting for the next
     * synchronisation packet: the instructions they stand for are lost
     * (E-Trace packets carry no instruction count). */
    uint64_t skipped;
    /* Whole flushes of the decoded-instruction/block cache: code changed
     * (rvt_te_decoder_flush), or more address spaces met than the cache
     * tells apart; switching between known spaces flushes nothing. */
    uint64_t cache_flushes;
} rvt_te_dec_stats;

/* NULL with *status RVT_ERR_INVAL when a is NULL or the attributes fail
 * rvt_te_attrs_check, RVT_ERR_NOMEM. */
rvt_te_decoder *rvt_te_decoder_new(const rvt_te_attrs *a, rvt_image *img,
                                   rvt_flow_fn fn, void *ctx, int *status);
/* Same, with a custom instruction lookup (tests, benchmarks). */
rvt_te_decoder *rvt_te_decoder_new_fn(const rvt_te_attrs *a, rvt_te_insn_fn insn, void *insn_ctx,
                                      rvt_flow_fn fn, void *ctx, int *status);
/* Over an rvt_mem (mem.h): code is looked up in the space of the last
 * format 3 packet (its privilege and context; source 0).  mem must outlive
 * the decoder; several decoders (threads) may share it.  The rvt_image
 * entry point above is the single-space case (the image in every space). */
rvt_te_decoder *rvt_te_decoder_new_mem(const rvt_te_attrs *a, const rvt_mem *mem,
                                       rvt_flow_fn fn, void *ctx, int *status);
/* Forget cached instructions (11.4 of N-Trace, the same for E-Trace: the
 * code changed, e.g. self-modifying code served by an rvt_mem read
 * callback after a fence.i).  Safe to call from inside the callback. */
void rvt_te_decoder_flush(rvt_te_decoder *d);
/* The source this decoder's stream came from (an encapsulation srcID,
 * Encapsulation 2.1.2, when one stream carried several harts): its events
 * carry it in src and code is looked up in that source's space (mem.h).
 * 0 by default.  Call before decoding. */
void rvt_te_decoder_set_source(rvt_te_decoder *d, uint16_t src);
/* Emit RVT_EV_INSN events?  (Off: only count, for benchmarks; ignored
 * after rvt_te_decoder_set_input and for d NULL.) */
void rvt_te_decoder_set_events(rvt_te_decoder *d, bool insn_events);
/* With instruction events on: one RVT_EV_INSN per straight-line run the
 * walk takes at once instead of one per instruction, aux = its
 * instructions and aux2 = its half-words (0 for a single instruction whose
 * code is not known), as N-Trace's RVT_NT_EVENTS_BLOCK; the instructions
 * and events are the same.  For writers that take runs (rvt_out_run) and
 * decode --jobs.  Ignored after rvt_te_decoder_set_input and for d NULL. */
void rvt_te_decoder_set_runs(rvt_te_decoder *d, bool runs);
/* Decode a whole raw stream and end the trace (rvt_te_decoder_finish:
 * do not call it again); returns 0, the nonzero value the callback
 * returned (then the trace is not ended), or RVT_ERR_INVAL (d NULL, buf
 * NULL with len > 0).  Errors are reported as events
 * and decoding continues at the next synchronisation packet. */
int rvt_te_decoder_run(rvt_te_decoder *d, const uint8_t *buf, size_t len);
/* As rvt_te_decoder_run, but stop before the first packet that starts at
 * or after byte `stop` of buf, and do not end the trace: a piece of a
 * stream decoded alone (decode --jobs) reads the packets the whole
 * stream's reader would, up to a cut.  Offsets of events are from buf;
 * calling it again reads a new buf with the decoder's state kept.  0, the
 * callback's nonzero value, or RVT_ERR_INVAL as run. */
int rvt_te_decoder_run_to(rvt_te_decoder *d, const uint8_t *buf, size_t len, uint64_t stop);
/* As rvt_te_decoder_run, over the frames of transport tp (borrowed; transport.h), so
 * any container tp knows ("refflow", "encap": E-Trace's packets in
 * Encapsulation 1.0) is read without unwrapping it first; offsets in
 * events are tp's stream's (an encapsulated packet's header).  Status as
 * rvt_te_decoder_run; RVT_ERR_INVAL for NULL d or tp. */
int rvt_te_decoder_run_transport(rvt_te_decoder *d, struct rvt_transport *tp);
/* Feed one unpacked packet whose header was at `offset`. */
int rvt_te_decoder_packet(rvt_te_decoder *d, const rvt_te_pkt *p, uint64_t offset);
/* End of the stream: one RVT_EV_END, with RVT_END_INCOMPLETE when the
 * last te_inst packet is not the encoder's end marker (a support packet
 * with enable 0 and qual_status ended_rep/ended_upd, 6.5); its offset is
 * where the last complete packet ends (fed by rvt_te_decoder_packet
 * alone: where the last packet begins).  Only the first call sends the
 * event; later calls do nothing. */
int rvt_te_decoder_finish(rvt_te_decoder *d);
/* The counters so far, copied to *out (as rvt_nt_decoder_stats): 0, or
 * RVT_ERR_INVAL when d or out is NULL. */
int rvt_te_decoder_stats(const rvt_te_decoder *d, rvt_te_dec_stats *out);
void rvt_te_decoder_free(rvt_te_decoder *d);
/* Pull decoding (rvtrace/flow.h).  set_input gives a new decoder (no
 * packet fed yet) the raw stream that next_block / next_insn / next_event
 * then decode packet by packet; from then on the callback given at new is
 * not called (the events come from next_event).  0, RVT_ERR_INVAL (d
 * NULL, or buf NULL with len > 0), RVT_ERR_STATE (input given before or
 * packets already fed).  The next_* calls: > 0 got one, 0 input used up
 * (next_event: or an instruction comes first), RVT_ERR_INVAL (NULL
 * argument), RVT_ERR_STATE (no input given), RVT_ERR_NOMEM. */
int rvt_te_decoder_set_input(rvt_te_decoder *d, const uint8_t *buf, size_t len);
/* set_input for one piece of a stream cut at its synchronisation packets
 * (decode --jobs, docs/parallel.md "Why the output is the same"):
 * - the input ends before the first packet that starts at or after byte
 *   `stop` of buf, as rvt_te_decoder_run_to (the packets the whole
 *   stream's reader reads), and no RVT_EV_END is sent there: the stream
 *   goes on (stop >= len: the end of buf, then RVT_EV_END as set_input);
 * - seam: buf starts at a format 3 packet that the decoder of the piece
 *   before read too, whose walk ended on its address (11.1).  The first
 *   instruction retired (that address, after the events of a first sync)
 *   is a block of its own: its end and next_pc are those of the block a
 *   decoder of the whole stream retires it in, except RVT_BLK_SEAM where
 *   that block goes on (the next instruction follows it, nothing
 *   between): the next block is then that block's rest.
 * Statuses as set_input. */
int rvt_te_decoder_set_input_piece(rvt_te_decoder *d, const uint8_t *buf, size_t len,
                                   uint64_t stop, bool seam);
/* Start with the modes of the support packet that unit[0..len) starts
 * with (6.5: its options; read with the decoder's attributes), as a
 * decoder that had read it, without decoding it (no events, no packet
 * counted): a piece of a stream that starts after it (decode --jobs).
 * Before decoding.  0, RVT_ERR_INVAL (d or unit NULL, no support packet
 * there), RVT_ERR_STATE (decoding has begun), RVT_ERR_FORMAT (the options
 * need attributes not given; the modes before are kept). */
int rvt_te_decoder_prime(rvt_te_decoder *d, const uint8_t *unit, size_t len);
int rvt_te_decoder_next_block(rvt_te_decoder *d, rvt_block *out);
/* next_block in a batch (issue #18: one call for many blocks): up to max
 * blocks into out, the events between them dropped as by next_block.  The
 * number got (> 0), 0 when the input is used up, or a negative status as
 * above (RVT_ERR_INVAL also for max 0; an error after some blocks were got
 * comes on the next call). */
int rvt_te_decoder_next_blocks(rvt_te_decoder *d, rvt_block *out, size_t max);
/* next_blocks up to the next event, nothing dropped: the batch ends before
 * an event, which next_event then gives.  The number got (> 0), 0 when an
 * event comes first or the input is used up (next_event tells which), or
 * a negative status as next_blocks. */
int rvt_te_decoder_next_run(rvt_te_decoder *d, rvt_block *out, size_t max);
int rvt_te_decoder_next_insn(rvt_te_decoder *d, rvt_flow_insn *out);
int rvt_te_decoder_next_event(rvt_te_decoder *d, rvt_flow_event *out);

/* ---- data trace (ch. 7) ---- */
/* Transaction types of the 3-bit format field (tables 7.1-7.13). */
enum rvt_te_dformat {
    RVT_TE_DF_LOAD_ALIGNED = 0, RVT_TE_DF_LOAD_UNALIGNED = 1,
    RVT_TE_DF_STORE_ALIGNED = 2, RVT_TE_DF_STORE_UNALIGNED = 3,
    RVT_TE_DF_SPLIT_LOAD_DATA = 4, RVT_TE_DF_CSR = 5,
    RVT_TE_DF_ATOMIC = 6, RVT_TE_DF_SPLIT_ATOMIC_DATA = 7,
};

/* One te_data packet, fields as on the wire.  Which fields are present
 * follows the format and attrs->no_data / no_address (7: the run-time
 * options are not in the packet).  datalen/oplen hold "bytes - 1".  For a
 * CSR, address is the 12-bit CSR number (addr_msbs:addr_lsbs) or, in the
 * address-only form, its difference. */
typedef struct rvt_te_dpkt {
    uint8_t format;      /* rvt_te_dformat */
    uint8_t subtype;     /* atomic (table 7.6) or CSR (table 7.11) operation */
    uint8_t size;        /* size field */
    uint8_t diff;        /* diff field */
    uint8_t datalen, oplen;
    uint64_t data, operand, address;
    /* Split forms (tables 7.4, 7.5, 7.9, 7.10; attrs->split_loads). */
    uint16_t index;      /* index field: the transfer's lrid */
    uint8_t resp;        /* responses: RVT_TE_RESP_* */
} rvt_te_dpkt;

/* resp field of the split data packets (tables 7.5, 7.10). */
enum rvt_te_resp { RVT_TE_RESP_ERROR = 0, RVT_TE_RESP_XOR = 1, RVT_TE_RESP_FULL = 2,
                   RVT_TE_RESP_DIFF = 3 };
/* Outstanding split atomics, for the 7.10 walk: a split atomic data
 * packet has no size field, its data_len is 2 + size bits of the request
 * (table 7.9) with the same index.  sizes[index] is that size field or
 * RVT_TE_NO_ATOMIC; the table has 1 << index_width entries. */
#define RVT_TE_NO_ATOMIC 0xffu
#define RVT_TE_MAX_INDEX_WIDTH 8
/* Track the table across packets: a split atomic request sets its entry,
 * any response clears it.  Fill with RVT_TE_NO_ATOMIC to start. */
void rvt_te_dsplit_track(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *sizes);
/* rvt_te_dunpack() with the table (NULL: no atomic outstanding). */
int rvt_te_dunpack_split(const rvt_te_attrs *a, const uint8_t *buf, size_t len,
                         const uint8_t *sizes, rvt_te_dpkt *p);

/* Check the data-trace attributes (widths, options). */
int rvt_te_data_attrs_check(const rvt_te_attrs *a);
/* Pack the payload sign-compressed (like te_inst); bytes or a status. */
int rvt_te_dpack(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *buf, size_t cap);
/* Header (msg_type 3) + payload; total bytes or a status. */
int rvt_te_dframe(const rvt_te_attrs *a, const rvt_te_dpkt *p, uint8_t *buf, size_t cap);
int rvt_te_dunpack(const rvt_te_attrs *a, const uint8_t *buf, size_t len, rvt_te_dpkt *p);
/* True if the frame (header + payload) is a te_inst synchronisation
 * packet (format 3): the data compression state restarts after it (7.1.3). */
bool rvt_te_frame_is_sync(const uint8_t *frame, size_t n);
/* One line, every field named (dump), or a JSON object. */
int rvt_te_dpkt_format(const rvt_te_attrs *a, const rvt_te_dpkt *p, bool json, char *buf, size_t n);
/* The data packet's format name ("load_aligned", ...; static).  A split
 * request (tables 7.4, 7.9) shares its format code with a unified packet
 * and gets the unified name here; rvt_te_dpkt_kind() tells them apart. */
const char *rvt_te_dpkt_name(const rvt_te_dpkt *p);
/* The name of every te_data packet kind of ch. 7, as `rvtrace dump`
 * prints it in format=: the unified load_aligned, load_unaligned,
 * store_aligned, store_unaligned, csr, atomic (tables 7.1-7.3, 7.6-7.8,
 * 7.11-7.13) and, with attrs->split_loads, split_load_aligned,
 * split_load_unaligned (7.4), split_load_data (7.5), split_atomic (7.9),
 * split_atomic_data (7.10).  Static. */
const char *rvt_te_dpkt_kind(const rvt_te_attrs *a, const rvt_te_dpkt *p);

/* A data access as one text line (no newline): "TYPE BYTES ADDR DATA
 * [DATA2]" in lower-case hex; omitted parts (RVT_TE_DREC_NO_*) print as
 * "-".  The common currency of the data round-trip tests. */
#define RVT_TE_DREC_NO_ADDR 0x1u
#define RVT_TE_DREC_NO_DATA 0x2u
int rvt_te_drec_format(const rvt_drec *d, unsigned omit, char *buf, size_t n);

/* Data-trace encoder: rvt_drec -> te_data frames. */
typedef struct rvt_te_data_encoder rvt_te_data_encoder;
typedef struct rvt_te_data_stats {
    uint64_t accesses, packets, bytes, syncs;
} rvt_te_data_stats;
rvt_te_data_encoder *rvt_te_data_encoder_new(const rvt_te_attrs *a, rvt_te_byte_fn out, void *ctx,
                                             int *status);
int rvt_te_data_encoder_put(rvt_te_data_encoder *e, const rvt_drec *recs, size_t n);
/* Forget the compression state: the next packets carry full values. */
void rvt_te_data_encoder_sync(rvt_te_data_encoder *e);
/* Look at a frame written to the same stream; a te_inst sync packet
 * restarts the compression state. */
void rvt_te_data_encoder_observe(rvt_te_data_encoder *e, const uint8_t *frame, size_t n);
const rvt_te_data_stats *rvt_te_data_encoder_stats(const rvt_te_data_encoder *e);
void rvt_te_data_encoder_free(rvt_te_data_encoder *e);
/* A sink that sends blocks to `inst` (may be NULL) and data accesses to e;
 * end() ends `inst`. */
rvt_irec_sink rvt_te_data_sink(rvt_te_data_encoder *e, rvt_te_encoder *inst);

/* Data-trace decoder: te_data frames -> accesses.  Fields the options
 * leave out are 0; iaddr and dblock are not traced (0). */
typedef int (*rvt_te_data_fn)(void *ctx, const rvt_drec *d, uint64_t offset);
typedef struct rvt_te_data_decoder rvt_te_data_decoder;
rvt_te_data_decoder *rvt_te_data_decoder_new(const rvt_te_attrs *a, rvt_te_data_fn fn, void *ctx,
                                             int *status);
void rvt_te_data_decoder_set_diag(rvt_te_data_decoder *d, rvt_diag_fn fn, void *ctx);
/* The stream starts at an arbitrary packet (a wrapped trace buffer read
 * from its first sync point, docs/tci.md): compressed packets before the
 * first reference (a te_inst sync or a full packet of that size) are
 * skipped as lost without an error; the loss is the reader's to report. */
void rvt_te_data_decoder_mid_stream(rvt_te_data_decoder *d);
/* Decode a raw stream (te_inst frames only restart the state).  Returns
 * the number of errors (each reported to diag with its byte offset;
 * decoding goes on at the next full packet), or the negative value the
 * callback returned. */
int rvt_te_data_decoder_run(rvt_te_data_decoder *d, const uint8_t *buf, size_t len);
/* Feed one frame (header + payload) found at offset. */
int rvt_te_data_decoder_frame(rvt_te_data_decoder *d, const uint8_t *frame, size_t n,
                              uint64_t offset);
void rvt_te_data_decoder_free(rvt_te_data_decoder *d);

#ifdef __cplusplus
}
#endif
#endif
