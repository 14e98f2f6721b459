/* The frame around an E-Trace message as rvtrace writes it (docs/
 * format-te.md): a header byte -- the message type (RVT_TE_MSG_*) in bits
 * 5-6, the payload's length in bytes in bits 0-4 -- then the payload.
 * One writer for te_inst (rvt_te_frame) and te_data (rvt_te_dframe).
 *
 * Internal header: include as "etrace/frame.h". */
#ifndef RVT_TE_FRAME_H
#define RVT_TE_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include "rvtrace/status.h"

/* Room in cap bytes for a header and at least one payload byte. */
static inline int rvt_te_frame_room(size_t cap)
{
    return cap < 2 ? RVT_ERR_LIMIT : 0;
}

/* The frame at buf of type, whose payload of n bytes was packed at buf + 1
 * (n < 0: the packer's error, returned): its length. */
static inline int rvt_te_frame_close(unsigned type, int n, uint8_t *buf)
{
    if (n < 0)
        return n;
    buf[0] = (uint8_t)(type << 5 | (unsigned)n);
    return n + 1;
}

#endif
