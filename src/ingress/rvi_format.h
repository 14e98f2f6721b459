/* .rvi byte layout (docs/format-rvi.md), shared by the writer and reader. */
#ifndef RVT_INGRESS_RVI_FORMAT_H
#define RVT_INGRESS_RVI_FORMAT_H

#include <stdint.h>
#include <string.h>

#define RVI_MAGIC "RVTI"
#define RVI_VERSION 2u          /* what the writer writes by default */
#define RVI_VERSION_MIN 1u      /* oldest version the reader reads */
#define RVI_HEADER_LEN 16u
#define RVI_HEADER_MAX 4096u        /* longest header a reader accepts */

enum rvi_kind {
    RVI_END = 0x00,         /* u64 record count; nothing may follow */
    RVI_BLOCK = 0x01,       /* every rvt_irec field */
    RVI_BLOCK_SHORT = 0x02, /* deltas from the previous block */
    RVI_DATA = 0x03,        /* every rvt_drec field of a unified access */
    RVI_SPLIT = 0x04,       /* 0x03 + lrid + lresp: one split phase */
    /* version 2: single-instruction cycles after the previous block */
    RVI_RUN = 0x05,         /* n sequential plain steps, one size bit each */
    RVI_STEP = 0x80,        /* 0x80-0xff: one step, its fields in the kind byte */
};

/* A step (version 2) is a block with ninstr 1, iretire 2^ilastsize
 * (ilastsize <= 1), time one more than the previous block's, flags
 * exactly CYCLE_END, the previous block's priv and context, no ctype,
 * tval or cause: what a retire-width-1 hart writes for nearly every
 * instruction.  Its iaddr follows the previous block (iaddr + 2 * iretire)
 * unless RVI_STEP_JUMP adds a zigzag LEB128 delta from there. */
#define RVI_STEP_ITYPE 0x0fu
#define RVI_STEP_ILAST 0x10u
#define RVI_STEP_SIJUMP 0x20u
#define RVI_STEP_JUMP 0x40u
#define RVI_VARINT_MAX 10u      /* LEB128 bytes of a 64-bit value */
#define RVI_RUN_MAX 256u        /* steps in one 0x05 record */
#define RVI_RUN_MIN 4u          /* shorter runs are smaller as steps */

/* Payload sizes (after the kind byte). */
#define RVI_END_LEN 8u
#define RVI_BLOCK_LEN 48u
#define RVI_SHORT_LEN 11u
#define RVI_DATA_LEN 36u
#define RVI_SPLIT_LEN 39u
#define RVI_REC_MAX (1u + RVI_BLOCK_LEN)   /* longest record, kind byte included */

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

/* Zigzag LEB128 (version 2 step deltas): small deltas of either sign
 * take few bytes. */
static inline size_t rvi_put_varint(uint8_t *p, int64_t sv)
{
    uint64_t v = ((uint64_t)sv << 1) ^ (uint64_t)(sv >> 63);
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}
/* Reads a varint from the avail bytes at p: its length (1..10), 0 if it
 * does not end within them, -1 if it is too long for 64 bits. */
static inline int rvi_get_varint(const uint8_t *p, size_t avail, int64_t *sv)
{
    uint64_t v = 0;
    for (size_t i = 0; i < avail && i < RVI_VARINT_MAX; i++) {
        v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
        if (p[i] < 0x80) {
            if (i == RVI_VARINT_MAX - 1 && p[i] > 1)
                return -1;
            *sv = (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
            return (int)i + 1;
        }
    }
    return avail >= RVI_VARINT_MAX ? -1 : 0;
}

#endif
