/* rvtrace binary PC lists (docs/formats.md "Binary PC lists", written by
 * `rvtrace decode --pcs-bin FILE`): an 8-byte header -- the magic
 * "RVTPCS", version 1, xlen (32 or 64) -- then one PC per retired
 * instruction, little-endian, xlen/8 bytes each.  Fixed width, so the
 * i-th PC is at 8 + i*xlen/8: read in place, in any order, in batches. */
#ifndef RVTRACE_PCBIN_H
#define RVTRACE_PCBIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RVT_PCBIN_MAGIC "RVTPCS"
#define RVT_PCBIN_VERSION 1u
#define RVT_PCBIN_HEADER 8u         /* bytes before the first PC */

/* A binary PC list in memory (the caller's buffer, not copied). */
typedef struct rvt_pcbin {
    const uint8_t *data;        /* the first PC */
    uint64_t count;             /* PCs in the list */
    unsigned xlen;              /* 32 or 64 */
} rvt_pcbin;

/* Check the header of buf[0..len) and describe the list in *pl.  0, or
 * RVT_ERR_INVAL (a NULL argument), RVT_ERR_TRUNC (shorter than the header,
 * or ending inside a PC), RVT_ERR_FORMAT (not the magic, or an xlen other
 * than 32/64), RVT_ERR_VERSION; *bad_offset (may be NULL) is then the byte
 * offset of the fault. */
int rvt_pcbin_open(rvt_pcbin *pl, const uint8_t *buf, size_t len, uint64_t *bad_offset);

/* Copy up to n PCs from index first into pcs; returns how many (0 past the
 * end). */
size_t rvt_pcbin_read(const rvt_pcbin *pl, uint64_t first, uint64_t *pcs, size_t n);

/* The 8 header bytes of a list of xlen-bit PCs (64 unless xlen is 32). */
void rvt_pcbin_header(uint8_t hdr[RVT_PCBIN_HEADER], unsigned xlen);

#ifdef __cplusplus
}
#endif
#endif
