/* The index file (docs/formats.md "Stream index"): a 32-byte header,
 * 48 bytes per point, an 8-byte FNV-1a checksum of everything before it;
 * every number little-endian. */
#include <stdlib.h>
#include <string.h>
#include "index_int.h"

static const char MAGIC[8] = { 'R', 'V', 'T', 'I', 'N', 'D', 'E', 'X' };
enum { HEAD = 32, POINT = 48, TRAILER = 8 };
enum { FLAG_SOURCES = 1u };   /* header flags: more than one source */

static void put(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

typedef struct fnv {
    uint64_t h;
} fnv;

static void fnv_add(fnv *s, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        s->h = (s->h ^ p[i]) * 0x100000001b3ull;
}

static void head_pack(const rvt_index *x, uint8_t *h)
{
    memcpy(h, MAGIC, 8);
    put(h + 8, RVT_INDEX_VERSION, 2);
    put(h + 10, x->proto, 1);
    put(h + 11, x->sources > 1 ? FLAG_SOURCES : 0, 1);
    put(h + 12, x->sources, 4);
    put(h + 16, x->stream_size, 8);
    put(h + 24, x->n, 8);
}

static void point_pack(const rvt_index_point *p, uint8_t *b)
{
    put(b, p->offset, 8);
    put(b + 8, p->pc, 8);
    put(b + 16, p->insns, 8);
    put(b + 24, p->context, 8);
    put(b + 32, p->state, 8);
    put(b + 40, p->size, 4);
    put(b + 44, p->src, 2);
    put(b + 46, p->priv, 1);
    put(b + 47, p->kind, 1);
}

static void point_unpack(const uint8_t *b, rvt_index_point *p)
{
    *p = (rvt_index_point){ .offset = get(b, 8), .pc = get(b + 8, 8), .insns = get(b + 16, 8),
                            .context = get(b + 24, 8), .state = get(b + 32, 8),
                            .size = (uint32_t)get(b + 40, 4), .src = (uint16_t)get(b + 44, 2),
                            .priv = b[46], .kind = b[47] };
}

int rvt_index_write(const rvt_index *x, FILE *f)
{
    if (!x || !f)
        return RVT_ERR_INVAL;
    uint8_t b[HEAD > POINT ? HEAD : POINT];
    fnv s = { 0xcbf29ce484222325ull };
    head_pack(x, b);
    fnv_add(&s, b, HEAD);
    if (fwrite(b, 1, HEAD, f) != HEAD)
        return RVT_ERR_IO;
    for (size_t i = 0; i < x->n; i++) {
        point_pack(&x->pts[i], b);
        fnv_add(&s, b, POINT);
        if (fwrite(b, 1, POINT, f) != POINT)
            return RVT_ERR_IO;
    }
    put(b, s.h, 8);
    return fwrite(b, 1, TRAILER, f) == TRAILER ? 0 : RVT_ERR_IO;
}

/* ---- reading ---- */

typedef struct rd {
    FILE *f;
    uint64_t at;          /* file offset of the next byte */
    fnv sum;
    uint64_t *bad;
    const char **why;
} rd;

static int fail(rd *r, int st, uint64_t at, const char *why)
{
    if (r->bad)
        *r->bad = at;
    if (r->why)
        *r->why = why;
    return st;
}

/* n bytes into b, summed; RVT_ERR_TRUNC at the first missing byte. */
static int take(rd *r, uint8_t *b, size_t n, const char *what)
{
    size_t got = fread(b, 1, n, r->f);
    if (got != n)
        return ferror(r->f) ? RVT_ERR_IO : fail(r, RVT_ERR_TRUNC, r->at + got, what);
    fnv_add(&r->sum, b, n);
    r->at += n;
    return 0;
}

static int read_head(rd *r, rvt_index *x, uint64_t *count)
{
    uint8_t h[HEAD];
    int st = take(r, h, HEAD, "truncated index header");
    if (st < 0)
        return st;
    if (memcmp(h, MAGIC, 8))
        return fail(r, RVT_ERR_FORMAT, 0, "not an rvtrace index (magic RVTINDEX)");
    if (get(h + 8, 2) != RVT_INDEX_VERSION)
        return fail(r, RVT_ERR_VERSION, 8, "index version not understood (want 1)");
    x->proto = h[10];
    if (x->proto != IDX_ETRACE && x->proto != IDX_NTRACE)
        return fail(r, RVT_ERR_FORMAT, 10, "unknown protocol code (want 1 E-Trace, 2 N-Trace)");
    x->sources = (unsigned)get(h + 12, 4);
    if (!x->sources || !(h[11] & FLAG_SOURCES) != (x->sources == 1))
        return fail(r, RVT_ERR_FORMAT, 11, "source count and flags disagree");
    x->stream_size = get(h + 16, 8);
    *count = get(h + 24, 8);
    return 0;
}

/* A point must lie in the stream, after the one before, its state
 * before it. */
static const char *point_wrong(const rvt_index *x, const rvt_index_point *p)
{
    if (!p->size || p->offset >= x->stream_size || p->size > x->stream_size - p->offset)
        return "point outside the stream";
    if (x->n && p->offset < x->pts[x->n - 1].offset + x->pts[x->n - 1].size)
        return "point not after the previous one";
    if (p->state != RVT_INDEX_NONE && p->state >= p->offset)
        return "state not before its point";
    return NULL;
}

static int read_points(rd *r, rvt_index *x, uint64_t count)
{
    uint8_t b[POINT];
    for (uint64_t i = 0; i < count; i++) {
        uint64_t at = r->at;
        int st = take(r, b, POINT, "truncated index: fewer points than the header says");
        if (st < 0)
            return st;
        rvt_index_point p;
        point_unpack(b, &p);
        const char *why = point_wrong(x, &p);
        if (why)
            return fail(r, RVT_ERR_FORMAT, at, why);
        if (idx_add(x, &p) < 0)
            return RVT_ERR_NOMEM;
    }
    return 0;
}

static int read_trailer(rd *r)
{
    uint8_t b[TRAILER + 1];
    uint64_t at = r->at, want = r->sum.h;
    int st = take(r, b, TRAILER, "truncated index: checksum missing");
    if (st < 0)
        return st;
    if (get(b, 8) != want)
        return fail(r, RVT_ERR_FORMAT, at, "index checksum mismatch (the file was changed)");
    if (fread(b, 1, 1, r->f) == 1)
        return fail(r, RVT_ERR_FORMAT, r->at, "bytes after the index checksum");
    return 0;
}

int rvt_index_read(FILE *f, rvt_index **out, uint64_t *bad, const char **why)
{
    if (!f || !out)
        return RVT_ERR_INVAL;
    rd r = { f, 0, { 0xcbf29ce484222325ull }, bad, why };
    rvt_index *x = idx_new(IDX_ETRACE, 0);
    if (!x)
        return RVT_ERR_NOMEM;
    uint64_t count = 0;
    int st = read_head(&r, x, &count);
    if (st == 0)
        st = read_points(&r, x, count);
    if (st == 0)
        st = read_trailer(&r);
    if (st < 0) {
        rvt_index_free(x);
        return st;
    }
    *out = x;
    return 0;
}
