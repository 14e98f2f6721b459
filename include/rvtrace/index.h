/* rvtrace stream index (issue #18 "Parallel decoding"): the points of a
 * trace where a decoder may start with nothing carried over but what the
 * point names, so that pieces between them decode independently.
 *
 *   E-Trace: a te_inst format 3 subformat 0 or 1 (the synchronisation
 *            packet, 1.1.1/2.0 6.2-6.3): a full address and privilege, and
 *            the encoder resets its branch predictor, jump target cache
 *            (3.2.6-3.2.7) and return stack (3.2.5) there.  Left out: 2.0
 *            thaddr 0 (the address is not a PC the trace goes on from) and
 *            any subformat 1 while implicit exception mode is on (its
 *            handler address is what an earlier trap taught the decoder).
 *   N-Trace: a message carrying SYNC and F-ADDR (table 25 / 7.5-7.10)
 *            whose SYNC code restarts the encoder (not 0, 4 or 6: those
 *            mark an event in the running trace and the return stack
 *            lives on, 9.2).
 * Each point also names where the modes in force were last set (E-Trace:
 * the last support packet, 6.5; N-Trace: the source's last Ownership
 * message, 7.1), the one piece of state a decoder needs from before it.
 * The file form ("F.idx") is in docs/formats.md. */
#ifndef RVTRACE_INDEX_H
#define RVTRACE_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/proto.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RVT_INDEX_VERSION 1u
#define RVT_INDEX_NONE UINT64_MAX   /* state/insns: none or unknown */

typedef struct rvt_index_point {
    uint64_t offset;    /* first byte of the sync packet/message */
    uint64_t pc;        /* the address it synchronises to */
    uint64_t insns;     /* instructions retired before it, or RVT_INDEX_NONE */
    uint64_t context;   /* E-Trace: the packet's context; N-Trace: PROCESS of
                           the source's last Ownership message (0: none) */
    uint64_t state;     /* offset of the support packet / Ownership message
                           whose modes are in force, or RVT_INDEX_NONE */
    uint32_t size;      /* bytes of the sync packet/message */
    uint16_t src;       /* N-Trace SRC; 0 for E-Trace */
    uint8_t priv;       /* E-Trace: the packet's privilege; N-Trace: 0 */
    uint8_t kind;       /* E-Trace: format 3 subformat; N-Trace: TCODE */
} rvt_index_point;

typedef struct rvt_index rvt_index;

/* Index buf[0..len) read with c's settings (E-Trace: reference-flow
 * framing; unwrap an encapsulated stream first), from the first sync
 * point at or after byte `from` (rvt_tp_sync_forward's rule: the result
 * is the whole-stream index's points at or after `from`).  min_gap > 0
 * keeps a point only min_gap bytes or more after the last one kept of
 * the same source (N-Trace SRC: each source keeps points of its own; the
 * index of a huge stream stays small; 0: every point).  0 with *out,
 * RVT_ERR_INVAL (NULL argument, a protocol without a flow decoder),
 * RVT_ERR_NOMEM.  Bad packets are passed over as a decoder does. */
int rvt_index_build(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, uint64_t from,
                    uint64_t min_gap, rvt_index **out);
/* As rvt_index_build, telling `done` (when not NULL) every few MiB that
 * the bytes of buf before `upto` will not be read again: the scan is one
 * forward pass, so a caller that mapped the stream can give those pages
 * back (rvtrace index holds a bounded resident set whatever the size). */
typedef void (*rvt_index_done_fn)(void *ctx, uint64_t upto);
int rvt_index_build_stream(const rvt_proto_cfg *c, const uint8_t *buf, size_t len,
                           uint64_t from, uint64_t min_gap, rvt_index_done_fn done, void *ctx,
                           rvt_index **out);
void rvt_index_free(rvt_index *x);

size_t rvt_index_count(const rvt_index *x);
/* The i-th point (increasing offsets), NULL past the end. */
const rvt_index_point *rvt_index_at(const rvt_index *x, size_t i);
/* The protocol's name ("etrace", "ntrace"), the size of the stream
 * indexed, and how many sources (N-Trace SRC values) it holds. */
const char *rvt_index_proto(const rvt_index *x);
uint64_t rvt_index_stream_size(const rvt_index *x);
unsigned rvt_index_sources(const rvt_index *x);
/* The i-th source of an N-Trace stream (SRC; 0 for a message without
 * one) in the order of its first message, and that message's offset: the
 * order in which one decoder of every source meets them (decode --jobs
 * merges the sources' events in it).  0; RVT_ERR_INVAL (NULL, i past the
 * sources); RVT_ERR_STATE when the index does not know them (read from a
 * file, which keeps only their count, or an E-Trace index). */
int rvt_index_source(const rvt_index *x, size_t i, uint16_t *src, uint64_t *first);
/* Set the instruction count before point i (a decoder that ran over the
 * stream knows it). */
int rvt_index_set_insns(rvt_index *x, size_t i, uint64_t insns);

/* The file form (docs/formats.md).  write: 0 or RVT_ERR_IO.  read: 0 with
 * *out, or RVT_ERR_FORMAT / RVT_ERR_TRUNC / RVT_ERR_VERSION with *bad the
 * file offset of the bad or missing byte and *why a static sentence
 * (bad, why may be NULL), RVT_ERR_IO, RVT_ERR_NOMEM. */
int rvt_index_write(const rvt_index *x, FILE *f);
int rvt_index_read(FILE *f, rvt_index **out, uint64_t *bad, const char **why);

#ifdef __cplusplus
}
#endif

#endif
