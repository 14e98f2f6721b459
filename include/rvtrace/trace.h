/* rvtrace trace files (issue 18 "An installable library"): a trace opened
 * together with its TRACE.attrs sidecar, its protocol found and its
 * container taken off, as the CLI does it, for any C caller.
 *
 *   rvt_trace *t;
 *   if (rvt_trace_open("prog.te", NULL, &t) < 0) { puts(rvt_trace_error(t)); ... }
 *   size_t n; const uint8_t *b = rvt_trace_bytes(t, &n);
 *   rvt_proto_decoder *d = rvt_proto_decoder_new(rvt_trace_cfg(t), mem, fn, ctx, &st);
 *
 * An encapsulated capture of several sources (harts through a funnel)
 * opened with opts.encap_all_sources gives one stream per srcID, each for
 * a decoder of its own:
 *
 *   const rvt_unwrapped *u = rvt_trace_unwrapped(t);
 *   for (size_t i = 0; i < rvt_unwrapped_count(u); i++) {
 *       uint32_t src; b = rvt_unwrapped_source(u, i, &n, &src);  ... decode b ...
 *   }
 *
 * The protocol is, in this order (issue 14, as the CLI finds it):
 * opts->protocol, the sidecar's settings (rvt_proto_of_sidecar), the first
 * bytes (rvt_proto_detect), then the file's name (.te or te_inst_raw:
 * E-Trace, .nt: N-Trace, .tvt: tv; only a hint, for what the bytes do not
 * tell).  The library never prints: how things were found
 * goes to opts->diag (RVT_DIAG_INFO), why opening failed to
 * rvt_trace_error. */
#ifndef RVTRACE_TRACE_H
#define RVTRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/proto.h"
#include "rvtrace/status.h"
#include "rvtrace/transport.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the pieces (each also used by rvt_trace_open) ---- */
/* The protocol a file's name hints at, or NULL. */
const rvt_proto *rvt_trace_proto_of_name(const char *path);
/* The protocol PATH.attrs is written for (rvt_proto_of_sidecar), or NULL
 * (none, unreadable, neither style). */
const rvt_proto *rvt_trace_proto_of_sidecar(const char *path);

/* What a file's first bytes are (rvt_trace_sniff). */
typedef enum rvt_file_kind {
    RVT_FILE_UNKNOWN = 0,   /* not a regular file, unreadable, or nothing known */
    RVT_FILE_ELF,           /* an ELF program ("\177ELF") */
    RVT_FILE_RVI,           /* ingress records ("RVTI", ingress.h) */
    RVT_FILE_TRACE,         /* a stream rvt_proto_detect knows: *p */
} rvt_file_kind;
/* Look at the first 4 KiB of a regular file (a FIFO is not read: it would
 * block).  *p (may be NULL) gets the detected protocol for RVT_FILE_TRACE,
 * else NULL. */
rvt_file_kind rvt_trace_sniff(const char *path, const rvt_proto **p);

/* Read PATH.attrs into c (rvt_proto_sidecar_read, bad lines to diag), then
 * rvt_proto_cfg_fill and rvt_proto_cfg_check.  0 (also when there is no
 * sidecar), or a negative status with a static sentence in *why (why may
 * be NULL; *why NULL: a bad line, reported through diag). */
int rvt_trace_sidecar_load(rvt_proto_cfg *c, const char *path, rvt_diag_fn diag, void *diag_ctx,
                           const char **why);

/* The container keys of PATH.attrs (rvt_tp_config_key lines; the others
 * belong to the protocol) into c and *name: 1 when it names a container,
 * 0 when not (or no sidecar), RVT_ERR_FORMAT with *bad_line for a bad
 * key. */
int rvt_trace_sidecar_container(const char *path, rvt_tp_config *c, const char **name,
                                unsigned *bad_line);
/* The sink_* keys of PATH.attrs (a saved RAM sink buffer: where it was,
 * where the write pointer stood, rvt_sink_order in transport.h) into *s:
 * 0 (also without a sidecar), RVT_ERR_FORMAT with *bad_line for a bad
 * key. */
int rvt_trace_sidecar_sink(const char *path, rvt_sink_state *s, unsigned *bad_line);
/* Whether an E-Trace stream without a sidecar is encapsulated: it starts
 * with a synchronisation sequence (Encapsulation 2.3: 32 + S + T null
 * bytes) ending in null.alignment (0x80) before a packet, where a
 * reference-flow stream starts with a header of non-zero length.  1:
 * encapsulated, 0: not.  When guess is true c->src_bits is set from the
 * run's length (whole srcID bytes, no timestamp) if the packets that
 * follow read consistently that way, else RVT_ERR_FORMAT: encapsulated,
 * but the srcID and timestamp widths are not in the bytes. */
int rvt_trace_bytes_encap(const uint8_t *buf, size_t len, rvt_tp_config *c, bool guess);

/* ---- an encapsulated stream, unwrapped ---- */
/* The frames of each source (srcID, Encapsulation 2.1.2) put back into the
 * reference-flow framing (header msg_type<<5 | length; 3.3 type 0 te_inst,
 * 1 te_data) as a stream of their own, with a map from each stream's
 * offsets back to the file's bytes and the packets' timestamps (2.1.1):
 * a capture of several harts through a Trace Funnel becomes one stream
 * per hart, each for its own decoder. */
typedef struct rvt_unwrapped rvt_unwrapped;
#define RVT_UNWRAP_ALL (-2L)    /* rvt_unwrap_opts.source: every source */
typedef struct rvt_unwrap_opts {
    long source;            /* srcID to keep; -1 = the first seen; RVT_UNWRAP_ALL:
                               every source, one stream each in the order
                               they first appear */
    bool resync;            /* start at the first sync point (2.3) */
    rvt_diag_fn diag;       /* each bad packet, at its offset (may be NULL) */
    void *diag_ctx;
    bool merged;            /* with RVT_UNWRAP_ALL: every source in one stream,
                               in stream order (a dump's view) */
} rvt_unwrap_opts;
typedef struct rvt_unwrap_stats {
    long source;            /* the srcID kept (RVT_UNWRAP_ALL: all) */
    uint32_t other_sources; /* frames of other sources left out */
    uint32_t other_types;   /* frames of types other than 0/1 left out */
    uint64_t bad;           /* bad encapsulated packets (resynchronised) */
    uint64_t skipped;       /* bytes skipped to resynchronise */
    bool no_sync;           /* resync asked, but no sync point found */
    uint32_t sources;       /* distinct srcIDs kept (0: no frame kept) */
} rvt_unwrap_stats;
/* NULL with *status (may be NULL): RVT_ERR_INVAL (c NULL, buf NULL with
 * len > 0, a source below RVT_UNWRAP_ALL, a bad config), RVT_ERR_NOMEM.
 * Bad packets are not failures: they are counted (stats.bad) and told to
 * o->diag. */
rvt_unwrapped *rvt_unwrap_encap(const rvt_tp_config *c, const uint8_t *buf, size_t len,
                                const rvt_unwrap_opts *o, int *status);
/* The streams: at least one (stream 0, empty when no frame was kept); one
 * per source with RVT_UNWRAP_ALL (unless merged).  0 for u NULL. */
size_t rvt_unwrapped_count(const rvt_unwrapped *u);
/* Stream i's bytes (NULL beyond the count, or after rvt_unwrapped_take),
 * its length and its srcID (src may be NULL; merged: the first's). */
const uint8_t *rvt_unwrapped_source(const rvt_unwrapped *u, size_t i, size_t *len, uint32_t *src);
/* Stream 0's bytes (rvt_unwrapped_source(u, 0, len, NULL)). */
const uint8_t *rvt_unwrapped_bytes(const rvt_unwrapped *u, size_t *len);
/* Stream i's bytes handed to the caller (free() them); its offset map and
 * timestamps stay.  NULL beyond the count or when taken before. */
uint8_t *rvt_unwrapped_take(rvt_unwrapped *u, size_t i, size_t *len);
void rvt_unwrapped_stats(const rvt_unwrapped *u, rvt_unwrap_stats *out);
/* The file's byte for an offset of stream i (a frame's first byte: its
 * packet's header; a payload byte: the same byte in the file); an offset
 * before the first frame, UINT64_MAX, or i beyond the count stays as it
 * is.  rvt_unwrapped_offset is stream 0's. */
uint64_t rvt_unwrapped_source_offset(const rvt_unwrapped *u, size_t i, uint64_t off);
uint64_t rvt_unwrapped_offset(const rvt_unwrapped *u, uint64_t off);
/* The srcID of the packet that holds offset off of stream i (a merged
 * stream's sources take turns), -1 when none does. */
long rvt_unwrapped_src_at(const rvt_unwrapped *u, size_t i, uint64_t off);
/* Encapsulation 2.1.1: the timestamps of stream i's packets due before an
 * event at its offset off, one per call, in order: true with *ts and the
 * packet header's *file_off, false when none (more) is due.  *next is the
 * caller's cursor (0 at the start; the events' offsets must not go
 * back).  false for NULL arguments. */
bool rvt_unwrapped_time(const rvt_unwrapped *u, size_t i, size_t *next, uint64_t off, uint64_t *ts,
                        uint64_t *file_off);
void rvt_unwrapped_free(rvt_unwrapped *u);

/* ---- a trace file ---- */
typedef struct rvt_trace rvt_trace;
typedef struct rvt_trace_opts {
    const char *protocol;   /* rvt_proto_find name; NULL: find it */
    const char *container;  /* "refflow" or "encap"; NULL: sidecar, then bytes */
    bool encap_source_given;   /* keep srcID encap_source, else the first seen */
    unsigned encap_source;
    bool encap_resync;      /* rvt_unwrap_opts.resync */
    rvt_diag_fn diag;       /* notes (how the protocol and container were
                               found) and bad encapsulated packets; may be NULL */
    void *diag_ctx;
    bool encap_all_sources; /* every srcID its own stream (rvt_trace_unwrapped:
                               rvt_unwrapped_count, rvt_unwrapped_source),
                               unless encap_source_given */
} rvt_trace_opts;
/* Open PATH (opts may be NULL: everything found): read it whole, find its
 * protocol, load its sidecar (rvt_trace_sidecar_load), put a RAM sink's
 * buffer in order (rvt_trace_sink_view) and unwrap an encapsulated E-Trace
 * stream.  Returns 0 or a negative status; *out is
 * set either way (NULL only when out of memory) and must be freed with
 * rvt_trace_free; after a failure it holds only rvt_trace_error.
 * Failures: RVT_ERR_IO (cannot read), RVT_ERR_FORMAT (an ELF program or
 * ingress records, no protocol found, a sidecar of the other protocol, a
 * bad sidecar, sink keys that do not fit the file), RVT_ERR_NOSYNC (a
 * wrapped sink buffer with no sync point), RVT_ERR_INVAL (an unknown
 * opts->protocol/container). */
int rvt_trace_open(const char *path, const rvt_trace_opts *opts, rvt_trace **out);
void rvt_trace_free(rvt_trace *t);
/* Why rvt_trace_open failed ("FILE: what"), "" when it did not. */
const char *rvt_trace_error(const rvt_trace *t);
const rvt_proto *rvt_trace_proto(const rvt_trace *t);
/* The settings (sidecar, filled): give them to rvt_proto_decoder_new or
 * rvt_proto_dump; owned by the trace. */
rvt_proto_cfg *rvt_trace_cfg(rvt_trace *t);
/* How the protocol was found: "option", "name", "sidecar" or "bytes". */
const char *rvt_trace_found_by(const rvt_trace *t);
/* The container: "encap", "refflow" (E-Trace) or NULL (N-Trace, tv). */
const char *rvt_trace_container(const rvt_trace *t);
/* The protocol's stream (unwrapped: stream 0), owned by the trace. */
const uint8_t *rvt_trace_bytes(const rvt_trace *t, size_t *len);
/* An offset of rvt_trace_bytes as the file's byte (rvt_unwrapped_offset,
 * then back through a sink buffer's rotation; the same offset without a
 * container or sink). */
uint64_t rvt_trace_file_offset(const rvt_trace *t, uint64_t off);
/* A RAM sink's saved buffer (TRACE.attrs sink_* keys, TCI 1.0 "Trace RAM
 * Sink"; rvt_sink_order, framing "mseo" for N-Trace, the container for
 * E-Trace): how it was put in stream order (begin: bytes lost before the
 * first sync point of a wrapped buffer; cut: an incomplete last packet of
 * one stopped on wrap).  rvt_trace_bytes is the ordered stream.  NULL
 * without sink keys. */
const rvt_sink_view *rvt_trace_sink_view(const rvt_trace *t);
/* The unwrapped encapsulated stream, NULL without one. */
const rvt_unwrapped *rvt_trace_unwrapped(const rvt_trace *t);

#ifdef __cplusplus
}
#endif
#endif
