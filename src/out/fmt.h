/* Fast text output for the writers (fmt.c): a 64 KiB buffer in front of a
 * FILE, written with one fwrite when full, and hex/decimal formatting
 * without printf (issue #18 "Output at the decoder's speed": printf's
 * format parsing costs more than the decoder per instruction). */
#ifndef RVT_OUT_FMT_H
#define RVT_OUT_FMT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define RVT_OBUF_SIZE 65536u
#define RVT_OBUF_MAX_RESERVE 1024u  /* the most one rvt_obuf_reserve may ask */

typedef struct rvt_obuf {
    FILE *f;
    size_t n;                       /* bytes held */
    uint64_t flushes;               /* times the buffer was written out */
    char buf[RVT_OBUF_SIZE];
} rvt_obuf;

void rvt_obuf_init(rvt_obuf *b, FILE *f);
/* Writes what the buffer holds to its FILE (not fflush). */
void rvt_obuf_flush(rvt_obuf *b);

/* Room for n <= RVT_OBUF_MAX_RESERVE bytes at the end of the buffer
 * (flushing first if needed); rvt_obuf_commit(b, end) keeps what was
 * written up to end. */
static inline char *rvt_obuf_reserve(rvt_obuf *b, size_t n)
{
    if (b->n + n > RVT_OBUF_SIZE)
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
 * without leading zeros ("0" for 0): at most 16 characters. */
char *rvt_fmt_hex(char *p, uint64_t v);
/* Hex with at least width digits, zero-padded (printf "%0*" PRIx64). */
char *rvt_fmt_hex0(char *p, uint64_t v, unsigned width);
/* Hex right-aligned in width columns, space-padded (printf "%*" PRIx64). */
char *rvt_fmt_hex_right(char *p, uint64_t v, unsigned width);
/* Unsigned decimal: at most 20 characters. */
char *rvt_fmt_dec(char *p, uint64_t v);
/* A NUL-terminated string copied (without the NUL). */
static inline char *rvt_fmt_str(char *p, const char *s)
{
    size_t n = strlen(s);
    memcpy(p, s, n);
    return p + n;
}

#endif
