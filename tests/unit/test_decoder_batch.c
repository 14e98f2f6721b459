/* rvt_proto_decoder_next_insns / next_blocks (proto.h, issue 18): batches
 * of any size give the instructions and blocks one-at-a-time pulling
 * gives, on an N-Trace and an E-Trace stream of a programs/ ELF traced by
 * the hart in process; 0 at the end, NULL refused. */
#include <stdlib.h>
#include "test_proto_util.h"

static rvt_proto_decoder *decoder(const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s)
{
    int st;
    rvt_proto_decoder *d = rvt_proto_decoder_new(c, m, NULL, NULL, &st);
    CHECK(d != NULL);
    CHECK_EQ(rvt_proto_decoder_set_input(d, s->b, s->n), 0);
    return d;
}

/* Every PC, one at a time. */
static size_t singles(const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s, uint64_t **pcs)
{
    rvt_proto_decoder *d = decoder(c, m, s);
    rvt_flow_insn in;
    size_t n = 0, cap = 0;
    *pcs = NULL;
    while (rvt_proto_decoder_next_insn(d, &in) > 0) {
        if (n == cap)
            *pcs = realloc(*pcs, (cap = cap ? 2 * cap : 4096) * sizeof **pcs);
        (*pcs)[n++] = in.pc;
    }
    rvt_proto_decoder_free(d);
    return n;
}

static void insns_in_batches(const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s,
                             const uint64_t *want, size_t nwant, size_t size)
{
    rvt_proto_decoder *d = decoder(c, m, s);
    rvt_flow_insn *b = calloc(size, sizeof *b);
    size_t n = 0, bad = 0;
    int got;
    while ((got = rvt_proto_decoder_next_insns(d, b, size)) > 0) {
        CHECK((size_t)got <= size);
        for (int i = 0; i < got; i++, n++)
            bad += n >= nwant || b[i].pc != want[n];
    }
    CHECK_EQ(got, 0);
    CHECK_EQ(n, nwant);
    CHECK_EQ(bad, 0);
    CHECK_EQ(rvt_proto_decoder_next_insns(d, b, size), 0);   /* still used up */
    free(b);
    rvt_proto_decoder_free(d);
}

/* Blocks in batches of 5: their instructions add up to every PC, each
 * block starting where the one-at-a-time walk is. */
static void blocks_in_batches(const rvt_proto_cfg *c, const rvt_mem *m, const te_buf *s,
                              const uint64_t *want, size_t nwant)
{
    rvt_proto_decoder *d = decoder(c, m, s);
    rvt_block b[5];
    size_t n = 0, bad = 0;
    int got;
    while ((got = rvt_proto_decoder_next_blocks(d, b, 5)) > 0)
        for (int i = 0; i < got; i++) {
            bad += n >= nwant || b[i].start_pc != want[n];
            n += b[i].ninsn;
        }
    CHECK_EQ(got, 0);
    CHECK_EQ(n, nwant);
    CHECK_EQ(bad, 0);
    CHECK_EQ(rvt_proto_decoder_next_blocks(NULL, b, 5), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_decoder_next_blocks(d, NULL, 5), RVT_ERR_INVAL);
    rvt_proto_decoder_free(d);
}

static void one_protocol(const char *proto, const char *prog)
{
    th_proto_case k;
    if (!th_proto_case_open(&k, proto, prog))
        return;
    const rvt_proto_cfg *c = k.cfg;
    const rvt_mem *m = k.mem;
    const te_buf s = k.s;
    uint64_t *want;
    size_t n = singles(c, m, &s, &want);
    CHECK(n > 1000);
    insns_in_batches(c, m, &s, want, n, 1);
    insns_in_batches(c, m, &s, want, n, 7);
    insns_in_batches(c, m, &s, want, n, 4096);
    blocks_in_batches(c, m, &s, want, n);
    CHECK_EQ(rvt_proto_decoder_next_insns(NULL, NULL, 1), RVT_ERR_INVAL);
    free(want);
    th_proto_case_close(&k);
}

int main(void)
{
    one_protocol("ntrace", "sort");
    one_protocol("etrace", "sort");
    return TH_DONE();
}
