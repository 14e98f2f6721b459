/* The stream index (rvtrace/index.h, issue #18): points of hand-built
 * E-Trace and N-Trace streams where the specs let a decoder start; the
 * index from every starting byte is the whole index's points at or after
 * it (rvt_tp_sync_forward's rule); the file form round-trips and a cut or
 * changed file is refused at the right byte. */
#include <stdio.h>
#include <stdlib.h>
#include "rvtrace/etrace.h"
#include "rvtrace/index.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "test_stream_util.h"

/* ---- E-Trace ---- */

static rvt_proto_cfg *te_cfg(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    CHECK(c && rvt_proto_cfg_fill(c) == 0);
    return c;
}

/* One reference-flow frame of p; its offset. */
static uint64_t te_put(te_buf *s, const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    uint8_t f[64];
    int n = rvt_te_frame(a, p, f, sizeof f);
    CHECK(n > 1);
    uint64_t at = s->n;
    te_buf_put(s, f, n > 0 ? (size_t)n : 0);
    return at;
}

static rvt_te_pkt f3(unsigned sub, uint64_t pc, unsigned priv)
{
    return (rvt_te_pkt){ .format = 3, .subformat = (uint8_t)sub, .privilege = (uint8_t)priv,
                         .address = pc >> 1 };
}

/* sync, branches, support, trap, context, sync, address: the points are
 * the two format 3 subformat 0 and the subformat 1 (6.2-6.3); the support
 * packet (6.5) is the state of those after it. */
static void te_points(void)
{
    rvt_proto_cfg *c = te_cfg();
    const rvt_te_attrs *a = rvt_proto_cfg_native_const(c);
    te_buf s = { 0 };
    uint64_t p0 = te_put(&s, a, &(rvt_te_pkt){ .format = 3, .subformat = 0, .privilege = 3,
                                                .address = 0x80000000 >> 1 });
    te_put(&s, a, &(rvt_te_pkt){ .format = 1, .branches = 3, .branch_map = 5, .address = 8 });
    uint64_t sup = te_put(&s, a, &(rvt_te_pkt){ .format = 3, .subformat = 3, .enable = 1 });
    rvt_te_pkt trap = f3(1, 0x80000100, 3);
    trap.ecause = 11;
    uint64_t p1 = te_put(&s, a, &trap);
    te_put(&s, a, &(rvt_te_pkt){ .format = 3, .subformat = 2, .context = 7 });
    uint64_t p2 = te_put(&s, a, &(rvt_te_pkt){ .format = 3, .subformat = 0, .privilege = 1,
                                                .address = 0x80000200 >> 1 });
    te_put(&s, a, &(rvt_te_pkt){ .format = 2, .address = 4 });
    rvt_index *x = NULL;
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, 0, &x), 0);
    CHECK_EQ(rvt_index_count(x), 3);
    const rvt_index_point *p = rvt_index_at(x, 0);
    CHECK(p && p->offset == p0 && p->pc == 0x80000000 && p->priv == 3 && p->kind == 0 &&
          p->state == RVT_INDEX_NONE && p->size == 1u + (s.b[p0] & 31));
    p = rvt_index_at(x, 1);
    CHECK(p && p->offset == p1 && p->pc == 0x80000100 && p->kind == 1 && p->state == sup);
    p = rvt_index_at(x, 2);
    CHECK(p && p->offset == p2 && p->pc == 0x80000200 && p->priv == 1 && p->state == sup);
    CHECK(rvt_index_at(x, 3) == NULL);
    CHECK_STR(rvt_index_proto(x), "etrace");
    CHECK_EQ(rvt_index_stream_size(x), s.n);
    rvt_index_free(x);
    /* min_gap: point 1 is nearer point 0 than p2 - p0, point 2 is not */
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, p2 - p0, &x), 0);
    CHECK_EQ(rvt_index_count(x), 2);
    CHECK(rvt_index_at(x, 1) && rvt_index_at(x, 1)->offset == p2);
    rvt_index_free(x);
    free(s.b);
    rvt_proto_cfg_free(c);
}

/* ---- N-Trace ---- */

static uint64_t nt_put(te_buf *s, const rvt_nt_msg *m) { return th_nt_put(s, NULL, m); }

static rvt_nt_msg nt_sync(unsigned tcode, unsigned sync, uint64_t pc)
{
    rvt_nt_msg m = { .tcode = (uint8_t)tcode };
    rvt_nt_set(&m, RVT_NT_F_SYNC, sync);
    if (tcode != RVT_NT_PROG_TRACE_SYNC)
        rvt_nt_set(&m, RVT_NT_F_BTYPE, 0);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 4);
    rvt_nt_set(&m, RVT_NT_F_FADDR, pc >> 1);
    return m;
}

/* Table 25: SYNC 3 and 2 restart the encoder, SYNC 0 marks a point of the
 * running trace (not a start); the Ownership message (7.1) before is the
 * state. */
static void nt_points(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    CHECK(c && rvt_proto_cfg_fill(c) == 0);
    te_buf s = { 0 };
    rvt_nt_msg own = { .tcode = RVT_NT_OWNERSHIP };
    rvt_nt_set(&own, RVT_NT_F_PROCESS, 0x2d);
    uint64_t o = nt_put(&s, &own);
    rvt_nt_msg m = nt_sync(RVT_NT_PROG_TRACE_SYNC, RVT_NT_SYNC_DEBUG_EXIT, 0x80000000);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    m.present &= ~(1u << RVT_NT_F_ICNT);
    uint64_t p0 = nt_put(&s, &m);
    rvt_nt_msg ib = { .tcode = RVT_NT_INDIRECT_BRANCH };
    rvt_nt_set(&ib, RVT_NT_F_BTYPE, 0);
    rvt_nt_set(&ib, RVT_NT_F_ICNT, 6);
    rvt_nt_set(&ib, RVT_NT_F_UADDR, 0x10);
    nt_put(&s, &ib);
    m = nt_sync(RVT_NT_PROG_TRACE_SYNC, RVT_NT_SYNC_TRIGGER, 0x80000040);
    nt_put(&s, &m);                 /* a marker: no point */
    m = nt_sync(RVT_NT_INDIRECT_BRANCH_SYNC, RVT_NT_SYNC_PERIODIC, 0x80000080);
    uint64_t p1 = nt_put(&s, &m);
    nt_put(&s, &ib);
    rvt_index *x = NULL;
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, 0, &x), 0);
    CHECK_EQ(rvt_index_count(x), 2);
    const rvt_index_point *p = rvt_index_at(x, 0);
    CHECK(p && p->offset == p0 && p->pc == 0x80000000 && p->state == o && p->context == 0x2d &&
          p->kind == RVT_NT_PROG_TRACE_SYNC);
    p = rvt_index_at(x, 1);
    CHECK(p && p->offset == p1 && p->pc == 0x80000080 && p->state == o &&
          p->kind == RVT_NT_INDIRECT_BRANCH_SYNC);
    CHECK_EQ(rvt_index_sources(x), 1);
    rvt_index_free(x);
    free(s.b);
    rvt_proto_cfg_free(c);
}

/* ---- from every byte ---- */

/* build(from) == the points of build(0) at or after from, for every from */
static void every_byte(const char *proto, const char *const *settings)
{
    rvt_image *img = th_program("privs");
    CHECK(img != NULL);
    if (!img)
        return;
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find(proto));
    for (const char *const *kv = settings; *kv; kv += 2)
        CHECK_EQ(rvt_proto_cfg_set(c, kv[0], kv[1]), 0);
    CHECK_EQ(rvt_proto_cfg_input_xlen(c, rvt_image_xlen(img)), 0);
    CHECK_EQ(rvt_proto_cfg_fill(c), 0);
    te_buf s = { 0 };
    if (proto[0] == 'e')
        th_te_stream(c, img, &s, 20000);
    else
        th_nt_stream(c, img, &s, 20000);
    rvt_index *all = NULL;
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, 0, &all), 0);
    size_t n = rvt_index_count(all), first = 0, bad = 0;
    CHECK(n >= 10);
    for (uint64_t from = 0; from <= s.n; from++) {
        while (first < n && rvt_index_at(all, first)->offset < from)
            first++;
        rvt_index *x = NULL;
        CHECK_EQ(rvt_index_build(c, s.b, s.n, from, 0, &x), 0);
        bool same = rvt_index_count(x) == n - first;
        for (size_t i = 0; same && i < rvt_index_count(x); i++)
            same = rvt_index_at(x, i)->offset == rvt_index_at(all, first + i)->offset &&
                   rvt_index_at(x, i)->pc == rvt_index_at(all, first + i)->pc;
        bad += !same;
        rvt_index_free(x);
    }
    if (bad)
        TH_FAIL("%s %s=%s: %zu of %zu starting bytes give another index", proto, settings[0],
                settings[1], bad, s.n + 1);
    else
        th_passed++;
    rvt_index_free(all);
    free(s.b);
    rvt_proto_cfg_free(c);
    rvt_image_free(img);
}

/* ---- the file ---- */

static size_t file_bytes(const rvt_index *x, uint8_t **out)
{
    char *b = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&b, &n);
    CHECK_EQ(rvt_index_write(x, f), 0);
    fclose(f);
    *out = (uint8_t *)b;
    return n;
}

static int read_bytes(const uint8_t *b, size_t n, rvt_index **x, uint64_t *bad)
{
    FILE *f = fmemopen((void *)b, n ? n : 1, "rb");
    if (!n)
        fgetc(f);
    const char *why = NULL;
    int st = rvt_index_read(f, x, bad, &why);
    CHECK(st == 0 || why != NULL);
    fclose(f);
    return st;
}

static void file_form(void)
{
    rvt_image *img = th_program("privs");
    rvt_proto_cfg *c = te_cfg();
    CHECK_EQ(rvt_proto_cfg_set(c, "resync_max", "4"), 0);
    te_buf s = { 0 };
    if (img)
        th_te_stream(c, img, &s, 20000);
    rvt_index *x = NULL;
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, 0, &x), 0);
    CHECK_EQ(rvt_index_set_insns(x, 1, 1234), 0);
    uint8_t *b;
    size_t n = file_bytes(x, &b), np = rvt_index_count(x);
    /* docs/formats.md: 32-byte header, 48 per point, 8-byte checksum */
    CHECK_EQ(n, 32 + 48 * np + 8);
    CHECK_MEM(b, "RVTINDEX", 8);
    CHECK(b[8] == 1 && b[9] == 0 && b[10] == 1);
    uint64_t bad = 0;
    rvt_index *y = NULL;
    CHECK_EQ(read_bytes(b, n, &y, &bad), 0);
    CHECK_EQ(rvt_index_count(y), np);
    for (size_t i = 0; y && i < np; i++)
        CHECK_MEM(rvt_index_at(x, i), rvt_index_at(y, i), sizeof(rvt_index_point));
    CHECK_EQ(rvt_index_at(y, 1)->insns, 1234);
    rvt_index_free(y);
    /* cut anywhere: truncated, at the first missing byte */
    size_t wrong = 0;
    for (size_t cut = 0; cut < n; cut++) {
        y = NULL;
        bad = 0;
        wrong += read_bytes(b, cut, &y, &bad) != RVT_ERR_TRUNC || bad != cut || y;
    }
    CHECK_EQ(wrong, 0);
    /* the magic, a point's offset past the stream, the checksum */
    b[0] ^= 1;
    CHECK_EQ(read_bytes(b, n, &y, &bad), RVT_ERR_FORMAT);
    CHECK_EQ(bad, 0);
    b[0] ^= 1;
    b[8] = 2;
    CHECK_EQ(read_bytes(b, n, &y, &bad), RVT_ERR_VERSION);
    CHECK_EQ(bad, 8);
    b[8] = 1;
    b[32 + 48 * 2 + 7] = 0x7f;       /* point 2's offset */
    CHECK_EQ(read_bytes(b, n, &y, &bad), RVT_ERR_FORMAT);
    CHECK_EQ(bad, 32 + 48 * 2);
    b[32 + 48 * 2 + 7] = 0;
    b[32 + 48 * 1 + 9] ^= 0x10;      /* point 1's pc: only the checksum tells */
    CHECK_EQ(read_bytes(b, n, &y, &bad), RVT_ERR_FORMAT);
    CHECK_EQ(bad, n - 8);
    rvt_index_free(x);
    free(b);
    free(s.b);
    rvt_proto_cfg_free(c);
    rvt_image_free(img);
}

static void refused(void)
{
    rvt_index *x = NULL;
    rvt_proto_cfg *tv = rvt_proto_cfg_new(rvt_proto_find("tv"));
    CHECK_EQ(rvt_index_build(tv, (const uint8_t *)"", 0, 0, 0, &x), RVT_ERR_INVAL);
    CHECK_EQ(rvt_index_build(NULL, NULL, 0, 0, 0, &x), RVT_ERR_INVAL);
    CHECK(rvt_index_at(NULL, 0) == NULL);
    CHECK_EQ(rvt_index_count(NULL), 0);
    CHECK_EQ(rvt_index_read(NULL, &x, NULL, NULL), RVT_ERR_INVAL);
    rvt_proto_cfg_free(tv);
}

int main(void)
{
    te_points();
    nt_points();
    every_byte("etrace", (const char *const[]){ "resync_max", "4", NULL });
    every_byte("etrace", (const char *const[]){ "version", "2.0", "resync_max", "4", NULL });
    every_byte("ntrace", (const char *const[]){ "trTeInstSyncMode", "1", "trTeInstSyncMax", "0",
                                                NULL });
    file_form();
    refused();
    return TH_DONE();
}
