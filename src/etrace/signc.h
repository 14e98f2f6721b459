/* Sign-based packet compression shared by te_inst (packet.c) and te_data
 * (data_pkt.c) payloads: E-Trace ch. 6 introduction.  Internal header. */
#ifndef RVT_ETRACE_SIGNC_H
#define RVT_ETRACE_SIGNC_H

#include <stddef.h>
#include <stdint.h>

/* Drop the repeated top bits of the nbits-bit packet in buf, keep one,
 * pad the last byte with it; returns the length in bytes. */
size_t rvt_te_sign_compress(uint8_t *buf, size_t nbits);

/* Largest payload the 5-bit header length can describe. */
#define RVT_TE_MAX_PAYLOAD 31

/* The nbits-bit packet built in tmp, compressed (tmp changes), into buf:
 * its length in bytes; RVT_ERR_RANGE when longer than RVT_TE_MAX_PAYLOAD,
 * RVT_ERR_LIMIT when longer than cap.  Both packers' last step. */
int rvt_te_payload_put(uint8_t *tmp, size_t nbits, uint8_t *buf, size_t cap);

#endif
