/* N-Trace MSEO byte codec (3.1-3.3): 6-bit MDO + 2-bit MSEO per byte,
 * fields packed LSB first, variable-length fields ending on a byte.
 * Internal header of src/ntrace. */
#ifndef RVT_NT_MSEO_H
#define RVT_NT_MSEO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { NT_MSEO_CONT = 0, NT_MSEO_VEND = 1, NT_MSEO_RESERVED = 2, NT_MSEO_MEND = 3 };
#define NT_IDLE 0xFFu
#define NT_MDO_BITS 6

/* Writer of one message into a caller buffer. */
typedef struct nt_mw {
    uint8_t *buf;
    size_t cap, n;
    unsigned bit;        /* MDO bits used in cur (0..6); a full cur is flushed lazily */
    uint8_t cur;
    bool overflow;
} nt_mw;

void nt_mw_init(nt_mw *w, uint8_t *buf, size_t cap);
void nt_mw_fixed(nt_mw *w, uint64_t v, unsigned nbits);
/* A variable field: the significant bits of v (at least one), then the
 * field ends on this byte (MSEO 01, or 11 when last). */
void nt_mw_var(nt_mw *w, uint64_t v, bool last);
/* An address field of `width` bits; with `extend`, the fewest bits whose
 * top bit, repeated up to `width`, gives v (8.2). */
void nt_mw_addr(nt_mw *w, uint64_t v, unsigned width, bool extend, bool last);

/* One received message as an MDO bit string with its field ends. */
#define NT_MAX_SEGS 48
typedef struct nt_mr {
    uint64_t mdo[6];     /* MDO bits packed LSB first (48 x 6 = 288 bits) */
    uint16_t seg_end[NT_MAX_SEGS];   /* bit index after each field end */
    unsigned nseg;
    unsigned pos;        /* bits consumed */
} nt_mr;

/* Unpack len message bytes (the last one has MSEO 11, none 10). */
void nt_mr_load(nt_mr *r, const uint8_t *bytes, size_t len);
/* Fixed field; false if it crosses a field end. */
bool nt_mr_fixed(nt_mr *r, unsigned nbits, uint64_t *v);
/* Remaining fields. */
static inline bool nt_mr_more(const nt_mr *r) { return r->nseg && r->pos < r->seg_end[r->nseg - 1]; }
/* Next variable field up to its end; *width = its bits.  false if none
 * left or a set bit lies above bit 63. */
bool nt_mr_var(nt_mr *r, uint64_t *v, unsigned *width);

#endif
