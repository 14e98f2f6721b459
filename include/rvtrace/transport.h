/* rvtrace transport stage (issue #14): bytes in, frames out.
 *
 * A transport knows how a byte stream is cut into frames (one packet or
 * message each) and where a reader may (re)start: libipt's packet-decoder
 * shape (sync_forward / sync_set / get_sync_offset), one context per stream.
 * Transports are found by name:
 *   "refflow" - the E-Trace reference flow's framing of .te files: a header
 *               byte msg_type<<5 | length, then the payload (E-Trace 2.0
 *               ch. 6 example encapsulation, zero-width srcID, no timestamp);
 *   "encap"   - the ratified Unformatted Trace & Diagnostic Data Packet
 *               Encapsulation 1.0 (normal and null packets, srcID, timestamp,
 *               payload type, synchronisation sequences);
 *   "mseo"    - N-Trace MSEO message splitting (N-Trace 3.1-3.4): idle 0xFF
 *               skipped, one frame per message, the SRC field as source.
 * The writer side of "encap" is rvt_encap_writer below. */
#ifndef RVTRACE_TRANSPORT_H
#define RVTRACE_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One frame.  payload stays valid until the next call on the transport. */
typedef struct rvt_tp_frame {
    uint64_t offset;        /* byte offset of the frame's first (header) byte */
    uint64_t size;          /* bytes the frame occupies in the stream */
    uint32_t src;           /* encap srcID, N-Trace SRC; 0 when the stream has none */
    unsigned type;          /* refflow: msg_type (RVT_TE_MSG_*); encap: payload
                               type field; mseo: TCODE */
    unsigned flow;          /* encap header.flow (refflow: = type) */
    bool has_timestamp;     /* encap header.extend = 1 */
    uint64_t timestamp;     /* T bytes, LSB first */
    const uint8_t *payload; /* refflow/encap: trace_payload; mseo: the whole message */
    size_t len;
} rvt_tp_frame;

/* Settings of a transport (and of the encapsulation writer).  `size` is
 * sizeof(rvt_tp_config) as the caller knows it (libipt's convention), so
 * the structure may grow; rvt_tp_config_init fills it with the defaults. */
typedef struct rvt_tp_config {
    size_t size;
    unsigned src_bits;       /* encap srcID width 0-16; mseo SRC width 0-12 */
    unsigned src_id;         /* writer: srcID value */
    unsigned ts_bytes;       /* encap T: timestamp bytes 0-8 */
    unsigned type_bits;      /* encap payload type width 0-8 */
    bool unframed;           /* encap: a sync sequence must end in null.alignment */
    uint64_t sync_interval;  /* writer: bytes between sync sequences (trRamAsyncFreq
                                in bytes); 0 = one sequence at the start only */
} rvt_tp_config;

void rvt_tp_config_init(rvt_tp_config *c);
/* "name=value" for one setting (the .attrs spelling: container=encap,
 * encap_src_bits, encap_src_id, encap_ts_bytes, encap_type_bits,
 * encap_sync_interval, encap_unframed).  *container is set for
 * "container=NAME" when not NULL.  0, or RVT_ERR_INVAL for an unknown name
 * or a value out of range. */
int rvt_tp_config_set(rvt_tp_config *c, const char *kv, const char **container);
/* True if kv ("name=value") names a transport setting or a sink buffer's
 * (rvt_sink_state_name below), for sidecar readers that share the file
 * with protocol attributes; rvt_tp_config_set takes only the former. */
bool rvt_tp_config_key(const char *kv);
/* The same for a setting's name alone ("encap_src_bits"). */
bool rvt_tp_config_name(const char *name);
/* 0 or RVT_ERR_INVAL (widths out of range). */
int rvt_tp_config_check(const rvt_tp_config *c);
/* The .attrs lines of an encapsulated stream (container=encap and the
 * encap_* keys) to f; 0 or RVT_ERR_IO. */
int rvt_tp_config_write(const rvt_tp_config *c, FILE *f);

/* encap: N = 31 + T + S, the longest run of null bytes a normal packet can
 * hold (Encapsulation 2.3); a synchronisation sequence is N + 1 nulls. */
unsigned rvt_encap_null_run(const rvt_tp_config *c);

typedef struct rvt_transport rvt_transport;

/* Names of the transports, NULL-terminated. */
const char *const *rvt_tp_names(void);
/* A transport over buf[0..len) (not copied; must outlive it).  Reading
 * starts at offset 0, which is taken to be a frame boundary.  NULL with
 * *status set (RVT_ERR_INVAL: unknown name or bad config). */
rvt_transport *rvt_tp_new(const char *name, const rvt_tp_config *cfg, const uint8_t *buf,
                          size_t len, int *status);
void rvt_tp_free(rvt_transport *t);
const char *rvt_tp_name(const rvt_transport *t);

/* Next frame: 1 with *f, 0 at the end of the stream, or a negative status
 * (RVT_ERR_FORMAT, RVT_ERR_TRUNC) with f->offset at the bad byte.  After an
 * error the transport has moved on (refflow: one byte, byte-level
 * resynchronisation; encap: to the next sync point; mseo: past the next
 * end-of-message byte); the bytes passed over count in rvt_tp_skipped. */
int rvt_tp_next(rvt_transport *t, rvt_tp_frame *f);
/* What the last rvt_tp_next error was ("reserved MSEO value 10"; the
 * status's rvt_status_str where the framing names nothing finer), NULL
 * when the last call did not fail or t is NULL. */
const char *rvt_tp_error(const rvt_transport *t);
/* The protocol rejected the frame last returned (its payload does not
 * decode): resume at the byte after its first byte, as for a bad header. */
void rvt_tp_reject(rvt_transport *t, const rvt_tp_frame *f);
/* Move to the next sync point at or after the current position:
 *   refflow - a te_inst format-3 (synchronisation) packet whose header and
 *             the next three frames' headers are valid (or end the stream);
 *   encap   - the first non-null byte after at least N + 1 null bytes (2.3),
 *             the last of them null.alignment when `unframed`;
 *   mseo    - a non-idle byte with MSEO 00 after a byte with MSEO 11 (3.4).
 * 0 with the position there, or RVT_ERR_EOS when there is none (the
 * position is then the end).  Bytes passed over count in rvt_tp_skipped. */
int rvt_tp_sync_forward(rvt_transport *t);
/* Set the position to offset (taken to be a frame boundary); RVT_ERR_INVAL
 * beyond the end. */
int rvt_tp_sync_set(rvt_transport *t, uint64_t offset);
/* The offset of the last sync point found by sync_forward or set by
 * sync_set; RVT_ERR_NOSYNC when there was none. */
int rvt_tp_get_sync_offset(const rvt_transport *t, uint64_t *offset);
/* The current position (the next frame's first byte). */
uint64_t rvt_tp_get_offset(const rvt_transport *t);
/* Bytes skipped so far by resynchronisation. */
uint64_t rvt_tp_skipped(const rvt_transport *t);

/* ---- encapsulation writer (Encapsulation 1.0 ch. 2-3) ---- */

/* Pack one normal packet into buf: header (length, flow, extend), srcID
 * (cfg->src_bits of src), timestamp (cfg->ts_bytes bytes when ts != NULL),
 * type (cfg->type_bits of type), then the n-byte trace payload, all LSB
 * first, padding bits zero.  Returns the packet length, or RVT_ERR_RANGE
 * (payload does not fit 31 bytes with the srcID bits and type, n == 0,
 * src/type/flow too wide) or RVT_ERR_INVAL (ts with a zero timestamp
 * width, cap too small). */
int rvt_encap_pack(const rvt_tp_config *c, unsigned src, unsigned type, unsigned flow,
                   const uint64_t *ts, const uint8_t *payload, size_t n, uint8_t *buf,
                   size_t cap);

typedef int (*rvt_tp_byte_fn)(void *ctx, const uint8_t *bytes, size_t n);
typedef struct rvt_encap_writer rvt_encap_writer;
/* A writer that sends bytes to out; it starts the stream with a
 * synchronisation sequence and inserts one before the first packet once
 * cfg->sync_interval bytes have gone out since the last. */
rvt_encap_writer *rvt_encap_writer_new(const rvt_tp_config *c, rvt_tp_byte_fn out, void *ctx,
                                       int *status);
void rvt_encap_writer_free(rvt_encap_writer *w);
/* One packet of the writer's srcID (cfg->src_id); 0 or a status. */
int rvt_encap_write(rvt_encap_writer *w, unsigned type, const uint64_t *ts, const uint8_t *payload,
                    size_t n);
/* Packets from now on carry srcID `src` (several sources through one
 * writer, as a Trace Funnel merges them); RVT_ERR_RANGE when it does not
 * fit the srcID width. */
int rvt_encap_writer_set_src(rvt_encap_writer *w, unsigned src);
/* A synchronisation sequence now: N null.idle then one null.alignment. */
int rvt_encap_write_sync(rvt_encap_writer *w);
/* One E-Trace reference-flow frame (header msg_type<<5 | length, then the
 * payload, as rvt_te_encoder writes them) as a packet: type 0 te_inst, 1
 * te_data (Encapsulation 3.3), with timestamp *ts (NULL: none, 2.1.1);
 * RVT_ERR_RANGE for te_data with a 0-bit type. */
int rvt_encap_write_frame(rvt_encap_writer *w, const uint64_t *ts, const uint8_t *frame, size_t n);
/* Bytes written so far. */
uint64_t rvt_encap_writer_bytes(const rvt_encap_writer *w);

/* ---- Trace RAM Sink buffers (TCI 1.0 "Trace RAM Sink"; src/transport/sink_buf.c) ----
 * A sink's buffer as saved by `rvtrace run --dump-sink F` (F holds the
 * bytes of [start, limit + 4), F.attrs the state below) or read from a
 * target's memory. */
typedef struct rvt_sink_state {
    uint64_t start;      /* trRamStart: address of the buffer's first byte */
    uint64_t limit;      /* trRamLimit: address of its last 32-bit word */
    uint64_t wp;         /* trRamWP without the wrap bit: where the next byte goes */
    bool wrap;           /* trRamWrap (trRamWPLow bit 0): the buffer wrapped */
    bool stop_on_wrap;   /* trRamStopOnWrap: it stopped when it filled */
    bool present;        /* rvt_sink_state_set saw a sink key */
} rvt_sink_state;

/* The .attrs spelling: sink_start, sink_limit, sink_wp (numbers, 0x hex
 * allowed), sink_wrap, sink_stop_on_wrap (0/1). */
bool rvt_sink_state_name(const char *name);
/* One "name=value"; 0 or RVT_ERR_INVAL. */
int rvt_sink_state_set(rvt_sink_state *s, const char *kv);
/* The .attrs lines into buf; their length or RVT_ERR_RANGE/INVAL. */
int rvt_sink_state_format(const rvt_sink_state *s, char *buf, size_t n);
/* limit - start + 4, or 0 when the addresses are not a buffer (unaligned,
 * limit below start). */
uint64_t rvt_sink_size(const rvt_sink_state *s);

typedef struct rvt_sink_view {
    uint64_t begin;      /* the stream to read is buf[begin, end) */
    uint64_t end;
    uint64_t rotated;    /* the buffer was rotated left by this many bytes */
    uint64_t cut;        /* stopped on wrap: bytes of an incomplete last packet after end */
} rvt_sink_view;

/* Put a sink buffer of len = rvt_sink_size(s) bytes in stream order and
 * find where a reader starts (the one mechanism for wrapped buffers):
 *   not wrapped       - [0, wp - start): the stream from its first byte;
 *   wrapped, stopped  - rotated in place so the byte at wp comes first,
 *     on wrap           then read whole up to the end of its last complete
 *                       packet (the last may be cut short: TCI 1.0; its
 *                       bytes are `cut`, after `end`);
 *   wrapped           - rotated in place likewise, then read from the
 *                       first sync point of transport tp ("encap",
 *                       "mseo"; cfg c) after the oldest byte: begin is the
 *                       count of bytes lost before it (partly overwritten
 *                       packets and the sync sequence itself).
 * The rotation is in place, so memory stays that of the buffer.  0;
 * RVT_ERR_FORMAT when len or wp do not fit the addresses, RVT_ERR_INVAL
 * for bad arguments, RVT_ERR_NOSYNC (begin = end) when a wrapped buffer
 * holds no sync point. */
int rvt_sink_order(const rvt_sink_state *s, const char *tp, const rvt_tp_config *c, uint8_t *buf,
                   size_t len, rvt_sink_view *v);
/* rvt_sink_order, then the stream moved to buf's start (*len becomes its
 * length) and what a reader should be told put in words into msg (n
 * bytes, may be NULL): on failure why (the bytes lost, the addresses that
 * do not fit), on success how the buffer was read when it wrapped
 * (bytes lost before the first sync point, a stop on wrap, a last packet
 * cut short), else "".  The words name no file: callers put it first.
 * Returns rvt_sink_order's status. */
int rvt_sink_take(const rvt_sink_state *s, const char *tp, const rvt_tp_config *c, uint8_t *buf,
                  size_t *len, rvt_sink_view *v, char *msg, size_t n);
/* The byte offset in the saved buffer of offset off of the ordered one. */
uint64_t rvt_sink_file_offset(const rvt_sink_view *v, uint64_t off, uint64_t size);

#ifdef __cplusplus
}
#endif

#endif
