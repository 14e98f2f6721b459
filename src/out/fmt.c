/* Fast text output for the writers (fmt.h). */
#include <stdlib.h>
#include <string.h>
#include "out/fmt.h"

void rvt_obuf_init(rvt_obuf *b, FILE *f)
{
    b->buf = b->own;
    b->n = 0;
    b->size = RVT_OBUF_SIZE;
    b->f = f;
    b->to = (rvt_out_bufs){ 0 };
    b->flushes = 0;
}

bool rvt_obuf_init_bufs(rvt_obuf *b, const rvt_out_bufs *to)
{
    rvt_obuf_init(b, NULL);
    b->to = *to;
    b->size = to->size;
    b->buf = to->swap(to->ctx, NULL, 0, false);
    return b->buf != NULL;
}

void rvt_obuf_flush(rvt_obuf *b)
{
    if (!b->f)
        b->buf = b->to.swap(b->to.ctx, b->buf, b->n, false);   /* never NULL after the first */
    else if (b->n)
        fwrite(b->buf, 1, b->n, b->f);    /* errors show in ferror(f), checked at close */
    b->n = 0;
    b->flushes++;
}

void rvt_obuf_close(rvt_obuf *b)
{
    if (b->f) {
        rvt_obuf_flush(b);
        return;
    }
    b->to.swap(b->to.ctx, b->buf, b->n, true);
    b->buf = NULL;
    b->n = 0;
    b->flushes++;
}

void rvt_obuf_write(rvt_obuf *b, const void *p, size_t n)
{
    if (b->n + n > b->size) {
        rvt_obuf_flush(b);
        if (n > b->size && b->f) {
            fwrite(p, 1, n, b->f);
            return;
        }
    }
    const char *from = p;
    while (n > b->size - b->n) {          /* longer than a buffer of the caller's */
        size_t m = b->size - b->n;
        memcpy(b->buf + b->n, from, m);
        b->n += m;
        from += m;
        n -= m;
        rvt_obuf_flush(b);
    }
    memcpy(b->buf + b->n, from, n);
    b->n += n;
}

void rvt_obuf_printf(rvt_obuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *p = rvt_obuf_reserve(b, RVT_OBUF_MAX_RESERVE);
    int n = vsnprintf(p, RVT_OBUF_MAX_RESERVE, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < RVT_OBUF_MAX_RESERVE) {
        rvt_obuf_commit(b, p + n);
        return;
    }
    /* a long line (a long message): formatted again in full */
    char *big = malloc((size_t)n + 1);
    if (!big)
        return;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    rvt_obuf_write(b, big, (size_t)n);
    free(big);
}

static const char hexdig[] = "0123456789abcdef";

size_t rvt_fmt_json_char(char *p, unsigned char c)
{
    if (c == '"' || c == '\\') {
        p[0] = '\\';
        p[1] = (char)c;
        return 2;
    }
    if (c < 0x20) {
        memcpy(p, "\\u00", 4);
        p[4] = hexdig[c >> 4];
        p[5] = hexdig[c & 15];
        return 6;
    }
    p[0] = (char)c;
    return 1;
}

void rvt_obuf_json_string(rvt_obuf *b, const char *s)
{
    char *p = rvt_obuf_reserve(b, 1);
    *p++ = '"';
    for (; s && *s; s++) {
        if ((size_t)(p - b->buf) + 7 > RVT_OBUF_SIZE) {    /* room for the longest escape and '"' */
            rvt_obuf_commit(b, p);
            p = rvt_obuf_reserve(b, 7);
        }
        p += rvt_fmt_json_char(p, (unsigned char)*s);
    }
    if ((size_t)(p - b->buf) + 1 > RVT_OBUF_SIZE) {
        rvt_obuf_commit(b, p);
        p = rvt_obuf_reserve(b, 1);
    }
    *p++ = '"';
    rvt_obuf_commit(b, p);
}

/* Hex digits v needs: 1 for 0, else one per started nibble. */
static unsigned hex_digits(uint64_t v)
{
    return v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1;
}

/* Exactly n hex digits of v (its low 4n bits) at p. */
static char *put_hex(char *p, uint64_t v, unsigned n)
{
    for (unsigned i = n; i-- > 0; v >>= 4)
        p[i] = hexdig[v & 15];
    return p + n;
}

#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
char *rvt_fmt_hex(char *p, uint64_t v)
{
    return put_hex(p, v, hex_digits(v));
}
#endif

char *rvt_fmt_hex0(char *p, uint64_t v, unsigned width)
{
    unsigned n = hex_digits(v);
    return put_hex(p, v, n > width ? n : width);
}

char *rvt_fmt_hex_right(char *p, uint64_t v, unsigned width)
{
    unsigned n = hex_digits(v);
    for (; width > n; width--)
        *p++ = ' ';
    return put_hex(p, v, n);
}

char *rvt_fmt_dec(char *p, uint64_t v)
{
    char tmp[20];
    unsigned i = sizeof tmp;
    do {
        tmp[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    memcpy(p, tmp + i, sizeof tmp - i);
    return p + (sizeof tmp - i);
}

const char *rvt_fmt_image_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}
