/* Fast text output for the writers (fmt.c): a 256 KiB buffer in front of
 * a FILE, written with one fwrite when full, and hex/decimal formatting
 * without printf (issue #18 "Output at the decoder's speed": printf's
 * format parsing costs more than the decoder per instruction).  Why 256:
 * glibc's fwrite into a FILE with its default 4 KiB buffer copies the
 * first 4 KiB there and writes them on their own, so every fwrite is two
 * write(2) calls; with 64 KiB that was 2 calls per 64 KiB, and the kernel's
 * side of writing long.elf's 1.9 GB PC list to an ext4 file took 0.85 s of
 * system time, against 0.58 s with 256 KiB (still in L2 as it fills). */
#ifndef RVT_OUT_FMT_H
#define RVT_OUT_FMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rvtrace/out.h"

#define RVT_OBUF_SIZE 262144u
#define RVT_OBUF_MAX_RESERVE 1024u  /* the most one rvt_obuf_reserve may ask */
_Static_assert(RVT_OBUF_MAX_RESERVE <= RVT_OUT_BUF_MIN, "a reserve fits the least buffer");

/* The buffer is its own (own, to a FILE), or one of the caller's
 * (rvt_out_bufs: a part of a PC list, decode --jobs), handed over when
 * full and another taken, so that the bytes are not copied again. */
typedef struct rvt_obuf {
    char *buf;                      /* own, or the caller's */
    size_t n;                       /* bytes held */
    size_t size;                    /* buf's */
    FILE *f;                        /* NULL: to's buffers */
    rvt_out_bufs to;
    uint64_t flushes;               /* times the buffer was written out */
    char own[RVT_OBUF_SIZE];        /* last: not touched when unused */
} rvt_obuf;

void rvt_obuf_init(rvt_obuf *b, FILE *f);
/* Into to's buffers (rvt_out_bufs: to->size >= RVT_OUT_BUF_MIN), the
 * first taken now: false when there is none. */
bool rvt_obuf_init_bufs(rvt_obuf *b, const rvt_out_bufs *to);
/* Writes what the buffer holds to its FILE (not fflush), or hands the
 * buffer over and takes the next. */
void rvt_obuf_flush(rvt_obuf *b);
/* The last bytes out: rvt_obuf_flush, or the last buffer handed over. */
void rvt_obuf_close(rvt_obuf *b);

/* Room for n <= RVT_OBUF_MAX_RESERVE bytes at the end of the buffer
 * (flushing first if needed); rvt_obuf_commit(b, end) keeps what was
 * written up to end. */
static inline char *rvt_obuf_reserve(rvt_obuf *b, size_t n)
{
    if (b->n + n > b->size)
        rvt_obuf_flush(b);
    return b->buf + b->n;
}
static inline void rvt_obuf_commit(rvt_obuf *b, char *end)
{
    b->n = (size_t)(end - b->buf);
}

void rvt_obuf_write(rvt_obuf *b, const void *p, size_t n);
static inline void rvt_obuf_puts(rvt_obuf *b, const char *s)
{
    rvt_obuf_write(b, s, strlen(s));
}
/* s as a JSON string literal, quotes included (NULL as ""): '"' and '\\'
 * escaped, control characters as \u00XX. */
void rvt_obuf_json_string(rvt_obuf *b, const char *s);
/* One character of a JSON string, escaped as there, at p (1, 2 or 6
 * bytes); returns how many. */
size_t rvt_fmt_json_char(char *p, unsigned char c);
/* printf into the buffer: for the rare lines (events, headers), not the
 * per-instruction path. */
void rvt_obuf_printf(rvt_obuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The formatters write at p and return the end (no NUL).  Lowercase hex
 * without leading zeros ("0" for 0): at most 16 characters, but p must
 * have room for 16 (it may store past the end of the digits). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits of v as ASCII, the first in the low byte: each nibble
 * spread to a byte, '0' added, and 'a' - '0' - 10 more where it is > 9
 * (a carry out of nibble + 6), all bytes at once. */
static inline uint64_t rvt_fmt_hex8(uint32_t v)
{
    uint64_t x = v;
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    uint64_t above9 = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
    x += 0x3030303030303030ull + above9 * 0x27;
    return __builtin_bswap64(x);
}

/* The last n (1..8) digits of v at p; stores 8 bytes. */
static inline char *rvt_fmt_hex_last(char *p, uint32_t v, unsigned n)
{
    uint64_t x = rvt_fmt_hex8(v) >> (8 * (8 - n));
    memcpy(p, &x, 8);
    return p + n;
}

/* Inline: the hot path of decode --pcs, a PC in one or two SWAR steps. */
static inline char *rvt_fmt_hex(char *p, uint64_t v)
{
    unsigned n = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
    if (n <= 8)
        return rvt_fmt_hex_last(p, (uint32_t)v, n);
    p = rvt_fmt_hex_last(p, (uint32_t)(v >> 32), n - 8);
    return rvt_fmt_hex_last(p, (uint32_t)v, 8);
}
#else
char *rvt_fmt_hex(char *p, uint64_t v);
#endif
/* Hex with at least width digits, zero-padded (printf "%0*" PRIx64). */
char *rvt_fmt_hex0(char *p, uint64_t v, unsigned width);
/* Hex right-aligned in width columns, space-padded (printf "%*" PRIx64). */
char *rvt_fmt_hex_right(char *p, uint64_t v, unsigned width);
/* Unsigned decimal: at most 20 characters. */
char *rvt_fmt_dec(char *p, uint64_t v);
/* What a decode over several images calls an image: its file's last path
 * component (NULL stays NULL). */
const char *rvt_fmt_image_name(const char *path);
/* A NUL-terminated string copied (without the NUL). */
static inline char *rvt_fmt_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

#endif
