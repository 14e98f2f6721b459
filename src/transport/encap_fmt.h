/* Encapsulation 1.0 packet layout (ch. 2), shared by the reader and the
 * writer.  Internal header. */
#ifndef RVT_TP_ENCAP_FMT_H
#define RVT_TP_ENCAP_FMT_H

#include "transport/tp_int.h"

/* 2.1.1 header: length bits 0-4, flow bits 5-6, extend bit 7 */
#define ENCAP_LEN(h) ((unsigned)(h) & 31u)
#define ENCAP_FLOW(h) (((unsigned)(h) >> 5) & 3u)
#define ENCAP_EXTEND(h) (((unsigned)(h) >> 7) & 1u)
#define ENCAP_HEADER(len, flow, ext) ((uint8_t)((len) | (flow) << 5 | (ext) << 7))
#define ENCAP_MAX_LEN 31u
/* 2.2: null packets, one header byte of length 0 */
#define ENCAP_NULL_IDLE 0x00u
#define ENCAP_NULL_ALIGN 0x80u

/* 2.3: a 'null' byte has its five LSBs zero */
static inline bool encap_null_byte(uint8_t b) { return ENCAP_LEN(b) == 0; }

/* 2.1.5: S, the whole bytes of srcID */
static inline unsigned encap_s(const rvt_tp_config *c) { return c->src_bits / 8; }

/* 2.1.5: header.length = ceiling((#bits(payload) + #bits(srcID)%8) / 8),
 * the payload being the type field and the trace payload. */
static inline unsigned encap_length(const rvt_tp_config *c, size_t payload_bytes)
{
    return (unsigned)((c->type_bits + 8 * payload_bytes + c->src_bits % 8 + 7) / 8);
}

/* 2.1.5: packet length = 1 + S + T * header.extend + header.length */
static inline size_t encap_packet_len(const rvt_tp_config *c, uint8_t h)
{
    return 1 + encap_s(c) + c->ts_bytes * ENCAP_EXTEND(h) + ENCAP_LEN(h);
}

#endif
