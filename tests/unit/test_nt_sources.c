/* What decoding the sources of an N-Trace stream apart needs from the
 * library (decode --jobs, docs/parallel.md): the index names the sources
 * in the order of their first message (rvt_index_source) and keeps
 * min_gap per source; a decoder tells its own transport errors (none of
 * its sources synchronised: rvt_nt_dec_stats.unsynced_errors) from a
 * source's loss, and where the last whole message ends (msg_end).
 * Streams built by hand, two sources (SRC 2 bits, table 8). */
#include <stdio.h>
#include <stdlib.h>
#include "rvtrace/index.h"
#include "rvtrace/mem.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "test_stream_util.h"

static const rvt_nt_cfg *ncfg(const rvt_proto_cfg *c) { return rvt_proto_cfg_native_const(c); }

static uint64_t put(te_buf *s, const rvt_proto_cfg *c, rvt_nt_msg m, unsigned src)
{
    rvt_nt_set(&m, RVT_NT_F_SRC, src);
    return th_nt_put(s, ncfg(c), &m);
}

/* ProgTraceSync, SYNC 3 (table 25: restarts the encoder), at pc */
static rvt_nt_msg sync_at(uint64_t pc)
{
    rvt_nt_msg m = { .tcode = RVT_NT_PROG_TRACE_SYNC };
    rvt_nt_set(&m, RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, pc >> 1);
    return m;
}

static rvt_nt_msg branch(void)
{
    rvt_nt_msg m = { .tcode = RVT_NT_INDIRECT_BRANCH };
    rvt_nt_set(&m, RVT_NT_F_BTYPE, 0);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 6);
    rvt_nt_set(&m, RVT_NT_F_UADDR, 0x10);
    return m;
}

static rvt_proto_cfg *two_bit_src(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    CHECK(c && rvt_proto_cfg_set(c, "trTeSrcBits", "2") == 0 && rvt_proto_cfg_fill(c) == 0);
    return c;
}

/* Source 2 speaks first (an Ownership message), source 1 syncs first.
 * With min_gap just over source 1's two syncs' distance, source 1 keeps
 * its first point only, source 2 both of its own: one gap for the
 * whole stream would have dropped source 2's first point, 9 bytes after
 * source 1's. */
static void index_sources(void)
{
    rvt_proto_cfg *c = two_bit_src();
    te_buf s = { 0 };
    rvt_nt_msg own = { .tcode = RVT_NT_OWNERSHIP };
    rvt_nt_set(&own, RVT_NT_F_PROCESS, 7);
    uint64_t o2 = put(&s, c, own, 2);
    uint64_t p1 = put(&s, c, sync_at(0x80000000), 1);
    uint64_t p2 = put(&s, c, sync_at(0x80001000), 2);
    put(&s, c, branch(), 1);
    uint64_t p3 = put(&s, c, sync_at(0x80000040), 1);
    for (int i = 0; i < 6; i++)
        put(&s, c, branch(), 2);
    uint64_t p4 = put(&s, c, sync_at(0x80001040), 2);
    CHECK(p4 - p2 > p3 - p1 + 1 && p2 - p1 < p3 - p1);

    rvt_index *x = NULL;
    CHECK_EQ(rvt_index_build(c, s.b, s.n, 0, p3 - p1 + 1, &x), 0);
    CHECK_EQ(rvt_index_sources(x), 2);
    uint16_t src = 99;
    uint64_t first = 99;
    CHECK(rvt_index_source(x, 0, &src, &first) == 0 && src == 2 && first == o2);
    CHECK(rvt_index_source(x, 1, &src, &first) == 0 && src == 1 && first == p1);
    CHECK_EQ(rvt_index_source(x, 2, &src, &first), RVT_ERR_INVAL);
    CHECK_EQ(rvt_index_source(x, 0, NULL, &first), RVT_ERR_INVAL);
    CHECK_EQ(rvt_index_count(x), 3);
    const rvt_index_point *p = rvt_index_at(x, 0);
    CHECK(p && p->offset == p1 && p->src == 1 && p->state == RVT_INDEX_NONE);
    p = rvt_index_at(x, 1);
    CHECK(p && p->offset == p2 && p->src == 2 && p->state == o2 && p->context == 7);
    p = rvt_index_at(x, 2);
    CHECK(p && p->offset == p4 && p->src == 2);

    /* the file keeps only the count: the sources are not known */
    FILE *f = tmpfile();
    CHECK(f && rvt_index_write(x, f) == 0);
    rewind(f);
    rvt_index *y = NULL;
    CHECK_EQ(rvt_index_read(f, &y, NULL, NULL), 0);
    fclose(f);
    CHECK_EQ(rvt_index_sources(y), 2);
    CHECK_EQ(rvt_index_source(y, 0, &src, &first), RVT_ERR_STATE);
    rvt_index_free(y);
    rvt_index_free(x);
    free(s.b);
    rvt_proto_cfg_free(c);
}

/* ---- a decoder's own errors ---- */

static const rvt_insn *no_code(void *ctx, uint64_t pc)
{
    (void)ctx;
    (void)pc;
    return NULL;
}

typedef struct seen {
    unsigned errors;
    uint64_t err_off[4];
    uint16_t err_src[4];
} seen;

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    seen *s = ctx;
    if (ev->kind == RVT_EV_ERROR && s->errors < 4) {
        s->err_off[s->errors] = ev->offset;
        s->err_src[s->errors++] = ev->src;
    }
    return 0;
}

/* The same through the protocol API (proto.h): its stats say which
 * errors were the decoder's own (rvtrace.dask counts them once over the
 * sources' pieces, docs/python.md). */
static void proto_own_errors(const rvt_proto_cfg *c, const te_buf *s, int filter)
{
    seen got = { 0 };
    int st = 0;
    rvt_mem *mem = rvt_mem_new();
    rvt_proto_decoder *d = rvt_proto_decoder_new(c, mem, on_event, &got, &st);
    CHECK(d != NULL);
    if (d) {
        CHECK_EQ(rvt_proto_decoder_set_source(d, filter), 0);
        CHECK(rvt_proto_decoder_run(d, s->b, s->n) >= 0);
        rvt_proto_dec_stats ds;
        CHECK_EQ(rvt_proto_decoder_stats(d, &ds), 0);
        CHECK_EQ(ds.errors, 2);
        CHECK_EQ(ds.unsynced_errors, 1);
        CHECK_EQ(got.errors, 2);
    }
    rvt_proto_decoder_free(d);
    rvt_mem_free(mem);
}

/* Junk before the first message (no source synchronised: the decoder's
 * own error, src 1 being its filter), a sync of source 1, junk again (a
 * loss of source 1, not the decoder's), a message of source 2 the filter
 * passes over.  msg_end: the end of source 2's message, the last whole
 * one of any source. */
static void own_errors(void)
{
    rvt_proto_cfg *c = two_bit_src();
    static const uint8_t junk[] = { 0x01, 0x02, 0x03 };
    te_buf s = { 0 };
    te_buf_put(&s, junk, sizeof junk);
    put(&s, c, sync_at(0x80000000), 1);
    uint64_t j2 = s.n;
    te_buf_put(&s, junk, sizeof junk);
    put(&s, c, branch(), 2);
    uint64_t end = s.n;
    for (int filter = 1; filter >= -1; filter -= 2) {
        seen got = { 0 };
        int st = 0;
        rvt_nt_decoder *d = rvt_nt_decoder_new(ncfg(c), no_code, NULL, filter, on_event, &got, &st);
        CHECK(d != NULL);
        if (!d)
            break;
        CHECK_EQ(rvt_nt_decode(d, s.b, s.n), 0);
        rvt_nt_dec_stats ds;
        CHECK_EQ(rvt_nt_decoder_stats(d, &ds), 0);
        CHECK_EQ(ds.unsynced_errors, 1);
        CHECK_EQ(ds.msg_end, end);
        CHECK_EQ(got.errors, 2);
        /* the first: the decoder's own, for its filter's source or src 0 */
        CHECK(got.err_off[0] == 0 && got.err_src[0] == (filter < 0 ? 0 : 1));
        CHECK(got.err_off[1] == j2 && got.err_src[1] == 1);
        rvt_nt_decoder_free(d);
        proto_own_errors(c, &s, filter);
    }
    free(s.b);
    rvt_proto_cfg_free(c);
}

int main(void)
{
    index_sources();
    own_errors();
    return TH_DONE();
}
