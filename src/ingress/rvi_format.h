/* .rvi byte layout (docs/format-rvi.md), shared by the writer and reader. */
#ifndef RVT_INGRESS_RVI_FORMAT_H
#define RVT_INGRESS_RVI_FORMAT_H

#include <stdint.h>
#include <string.h>

#define RVI_MAGIC "RVTI"
#define RVI_VERSION 1u
#define RVI_HEADER_LEN 16u
#define RVI_HEADER_MAX 4096u        /* longest header a reader accepts */

enum rvi_kind {
    RVI_END = 0x00,         /* u64 record count; nothing may follow */
    RVI_BLOCK = 0x01,       /* every rvt_irec field */
    RVI_BLOCK_SHORT = 0x02, /* deltas from the previous block */
    RVI_DATA = 0x03,        /* every rvt_drec field of a unified access */
    RVI_SPLIT = 0x04,       /* 0x03 + lrid + lresp: one split phase */
};

/* Payload sizes (after the kind byte). */
#define RVI_END_LEN 8u
#define RVI_BLOCK_LEN 48u
#define RVI_SHORT_LEN 11u
#define RVI_DATA_LEN 36u
#define RVI_SPLIT_LEN 39u

/* Offsets inside a RVI_BLOCK payload. */
enum {
    RB_IADDR = 0, RB_TVAL = 8, RB_CONTEXT = 16, RB_TIME = 24, RB_IRETIRE = 32,
    RB_NINSTR = 36, RB_CAUSE = 40, RB_ITYPE = 42, RB_ILASTSIZE = 43, RB_PRIV = 44,
    RB_CTYPE = 45, RB_SIJUMP = 46, RB_FLAGS = 47,
};
/* Offsets inside a RVI_BLOCK_SHORT payload. */
enum { RS_BITS = 0, RS_IRETIRE = 1, RS_NINSTR = 2, RS_DADDR = 3, RS_DTIME = 7 };
/* Offsets inside a RVI_DATA payload. */
enum {
    RD_IADDR = 0, RD_ADDR = 8, RD_DATA = 16, RD_DATA2 = 24, RD_DTYPE = 32,
    RD_DSIZE = 33, RD_DBLOCK = 34, RD_FLAGS = 35, RD_LRID = 36, RD_LRESP = 38,
};

#define RVI_IREC_FLAGS_KNOWN 0x7fu   /* RVT_IREC_F_* */

static inline void rvi_put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void rvi_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline void rvi_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t rvi_get16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t rvi_get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t rvi_get64(const uint8_t *p)
{
    return (uint64_t)rvi_get32(p) | (uint64_t)rvi_get32(p + 4) << 32;
}

#endif
