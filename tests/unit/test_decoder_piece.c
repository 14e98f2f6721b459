/* A pull decoder over one piece of a stream (proto.h
 * rvt_proto_decoder_prime, rvt_proto_decoder_set_input_piece; etrace.h,
 * ntrace.h): an E-Trace stream of crc.elf cut at an index point P (a sync
 * packet at address S) into [0, end of P's packet) and [P, end).  The
 * first piece sends no RVT_EV_END (the stream goes on) and its last
 * instruction is S (11.1: the format 3 address ends the walk); the second,
 * primed with P's support packet and sealed, starts with S alone as a
 * block; together they retire the whole stream's instructions and S
 * twice.  The statuses: NULL, a unit that is not a support packet or
 * Ownership message, after decoding began; N-Trace takes no seam. */
#include "rvtrace/index.h"
#include "test_proto_util.h"

typedef struct tally {
    uint64_t insns, ends, blocks;
    rvt_block first, last;
} tally;

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    tally *t = ctx;
    t->ends += ev->kind == RVT_EV_END;
    return 0;
}

static int on_blocks(void *ctx, const rvt_block *b, size_t n)
{
    tally *t = ctx;
    if (!t->blocks)
        t->first = b[0];
    t->last = b[n - 1];
    t->blocks += n;
    for (size_t k = 0; k < n; k++)
        t->insns += b[k].ninsn;
    return 0;
}

/* bytes [from, len) of k's stream, the packets before stop, primed with
 * the unit at `state` (RVT_INDEX_NONE: none). */
static tally piece(const th_proto_case *k, uint64_t from, uint64_t stop, uint64_t state, bool seam)
{
    tally t = { 0 };
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k->cfg, k->mem, NULL, NULL, &st);
    CHECK(d != NULL);
    if (!d)
        return t;
    if (state != RVT_INDEX_NONE)
        CHECK_EQ(rvt_proto_decoder_prime(d, k->s.b + state, k->s.n - state), 0);
    CHECK_EQ(rvt_proto_decoder_set_input_piece(d, k->s.b + from, k->s.n - from, stop, seam), 0);
    CHECK_EQ(rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, &t), 0);
    /* decoding has begun: no priming now */
    CHECK_EQ(rvt_proto_decoder_prime(d, k->s.b, k->s.n), RVT_ERR_STATE);
    rvt_proto_decoder_free(d);
    return t;
}

static void etrace_pieces(void)
{
    th_proto_case k = { .img = th_program("crc") };
    CHECK(k.img != NULL);
    if (!k.img)
        return;
    k.mem = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(k.mem, NULL, k.img), 0);
    k.cfg = th_proto_config("etrace", k.img);
    CHECK_EQ(rvt_proto_cfg_set(k.cfg, "resync_max", "2"), 0);
    th_proto_stream(k.cfg, k.img, &k.s);
    rvt_index *idx = NULL;
    CHECK_EQ(rvt_index_build(k.cfg, k.s.b, k.s.n, 0, 0, &idx), 0);
    CHECK(idx && rvt_index_count(idx) > 4);
    if (!idx || rvt_index_count(idx) <= 4) {
        rvt_index_free(idx);
        th_proto_case_close(&k);
        return;
    }
    const rvt_index_point *p = rvt_index_at(idx, 3);
    CHECK(p->state != RVT_INDEX_NONE);
    tally whole = piece(&k, 0, UINT64_MAX, RVT_INDEX_NONE, false);
    tally a = piece(&k, 0, p->offset + p->size, RVT_INDEX_NONE, false);
    tally b = piece(&k, p->offset, UINT64_MAX, p->state, true);
    CHECK_EQ(whole.ends, 1);
    CHECK_EQ(a.ends, 0);            /* the stream goes on */
    CHECK_EQ(b.ends, 1);
    CHECK_EQ(a.last.end_pc, p->pc);   /* the walk ends on the sync's address */
    CHECK_EQ(a.last.end, RVT_BLK_END);
    CHECK_EQ(b.first.start_pc, p->pc);
    CHECK_EQ(b.first.ninsn, 1);     /* sealed */
    CHECK_EQ(b.first.offset, 0);    /* its packet, the first of the piece's bytes */
    CHECK_EQ(a.insns + b.insns, whole.insns + 1);
    /* a sync packet is no support packet */
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k.cfg, k.mem, NULL, NULL, &st);
    CHECK_EQ(rvt_proto_decoder_prime(d, k.s.b + p->offset, k.s.n - p->offset), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_prime(d, NULL, 0), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_prime(NULL, k.s.b, k.s.n), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_input_piece(NULL, k.s.b, k.s.n, UINT64_MAX, false), RVT_ERR_INVAL);
    rvt_proto_decoder_free(d);
    rvt_index_free(idx);
    th_proto_case_close(&k);
}

static void ntrace_statuses(void)
{
    th_proto_case k;
    if (!th_proto_case_open(&k, "ntrace", "crc"))
        return;
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(k.cfg, k.mem, NULL, NULL, &st);
    /* the stream starts with a sync message: no Ownership message */
    CHECK_EQ(rvt_proto_decoder_prime(d, k.s.b, k.s.n), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_input_piece(d, k.s.b, k.s.n, UINT64_MAX, true), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_set_input_piece(d, k.s.b, k.s.n, k.s.n / 2, false), 0);
    CHECK_EQ(rvt_proto_decoder_prime(d, k.s.b, k.s.n), RVT_ERR_STATE);
    rvt_proto_decoder_free(d);
    th_proto_case_close(&k);
}

int main(void)
{
    etrace_pieces();
    ntrace_statuses();
    return TH_DONE();
}
