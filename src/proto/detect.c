/* A stream's protocol from its first bytes (rvt_proto_detect, proto.h):
 * the last resort after the switches, the sidecar and the file name. */
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/proto.h"

#define LOOK 4096u          /* bytes looked at */
#define MSEO_MIN 32u        /* (3/4)^32: a random stream passes 1 in 10^4 */

/* N-Trace 5.1: MSEO 10 is reserved; messages end with 11.  Idle bytes
 * (0xFF, N-Trace 3.1: skipped by readers) say nothing: a run of them (an
 * erased buffer) is no N-Trace evidence. */
static bool looks_mseo(const uint8_t *b, size_t n)
{
    size_t ends = 0, content = 0;
    for (size_t i = 0; i < n; i++) {
        if ((b[i] & 3) == 2)
            return false;
        content += b[i] != 0xFF;
        ends += b[i] != 0xFF && (b[i] & 3) == 3;
    }
    return content >= MSEO_MIN && ends >= 2;
}

/* Encapsulation 2.3: a synchronisation sequence is nulls, the last of
 * them a null.alignment (0x80) in unframed streams, before a packet. */
static bool looks_encap(const uint8_t *b, size_t n)
{
    size_t z = 0;
    while (z < n && !b[z])
        z++;
    return z >= 31 && z < n && b[z] == 0x80;
}

/* The reference flow's framing: msg_type<<5 | length, then the payload. */
static bool looks_refflow(const uint8_t *b, size_t n, bool whole)
{
    size_t p = 0, frames = 0;
    while (p < n) {
        unsigned h = b[p], type = h >> 5, l = h & 31;
        if ((type != RVT_TE_MSG_INST && type != RVT_TE_MSG_DATA) || !l)
            return false;
        p += 1 + l;
        frames++;
    }
    return frames >= 2 && (!whole || p == n);
}

const rvt_proto *rvt_proto_detect(const uint8_t *buf, size_t len)
{
    size_t n = len < LOOK ? len : LOOK;
    if (!buf || n < 4 || !memcmp(buf, "\177ELF", 4) || !memcmp(buf, "RVTI", 4))
        return NULL;
    if (looks_mseo(buf, n))
        return rvt_proto_find("ntrace");
    if (looks_encap(buf, n) || looks_refflow(buf, n, n == len))
        return rvt_proto_find("etrace");
    return NULL;
}
