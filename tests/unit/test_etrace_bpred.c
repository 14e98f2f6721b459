/* E-Trace branch prediction (3.2.6, 6.8): a loop the predictor learns.
 * Encoder output checked byte-exactly against a hand derivation, then the
 * decoder replays the same predictor to rebuild every PC. */
#include <string.h>
#include "tharness.h"
#include "rvtrace/etrace.h"
#include "rvtrace/isa.h"

typedef struct buf { uint8_t b[256]; size_t n; } buf;

static int put(void *ctx, const uint8_t *b, size_t n)
{
    buf *o = ctx;
    if (o->n + n > sizeof o->b)
        return RVT_ERR_LIMIT;
    memcpy(o->b + o->n, b, n);
    o->n += n;
    return 0;
}

/* 0x100: bne x1,x2,0 (a branch to itself, 0x00209063); 0x104: addi x0,x0,0. */
static rvt_insn code[2];
static const rvt_insn *lookup(void *ctx, uint64_t pc)
{
    (void)ctx;
    return pc == 0x100 ? &code[0] : pc == 0x104 ? &code[1] : NULL;
}

typedef struct pcs { uint64_t pc[64]; size_t n; } pcs;
static int on_ev(void *ctx, const rvt_flow_event *ev)
{
    pcs *p = ctx;
    if (ev->kind == RVT_EV_INSN && p->n < 64)
        p->pc[p->n++] = ev->pc;
    return 0;
}

int main(void)
{
    CHECK(rvt_isa_decode(0x00209063, 64, &code[0]) >= 0);
    CHECK(rvt_isa_decode(0x00000013, 64, &code[1]) >= 0);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.options = RVT_TE_OPT_BRANCH_PRED;
    a.bpred_size = 2;
    a.resync_mode = RVT_TE_RESYNC_OFF;
    buf out = { .n = 0 };
    int st;
    rvt_te_encoder *e = rvt_te_encoder_new(&a, put, &out, &st);
    CHECK(e != NULL);
    /* 40 taken executions of the branch, one not taken, then the nop. */
    rvt_irec r = { .iaddr = 0x100, .iretire = 2, .ilastsize = 1, .ninstr = 1, .priv = 3 };
    for (int i = 0; i < 41; i++) {
        r.itype = i < 40 ? 5 : 4;
        CHECK_EQ(rvt_te_encoder_put(e, &r, 1), 0);
    }
    rvt_irec last = { .iaddr = 0x104, .iretire = 2, .ilastsize = 1, .ninstr = 1, .priv = 3 };
    CHECK_EQ(rvt_te_encoder_put(e, &last, 1), 0);
    CHECK_EQ(rvt_te_encoder_end(e), 0);
    rvt_te_encoder_free(e);
    /* Derivation: the sync (format 3) reports execution 1; the reset entry
     * (01) learns "taken" and becomes 11.  Executions 2-40 are predicted:
     * 31 fill the map with correct predictions, so it turns into a count
     * (6.8), 39 in all.  Execution 41 (not taken) fails: format 0
     * subformat 0 (no f0s field with one optional format), branch_count =
     * 39 - 31 = 8, branch_fmt = 0: bits 00 | 8 << 2 | 00 << 34 = 0x20,
     * sign-compressed to one byte; header 2 << 5 | 1 = 0x41.  The nop ends
     * the trace with a format 2 of delta (0x104 - 0x100) >> 1 = 2. */
    static const uint8_t count_pkt[] = { 0x41, 0x20 };
    bool found = false;
    for (size_t i = 0; i + 2 <= out.n; i++)
        found |= !memcmp(out.b + i, count_pkt, 2);
    CHECK(found);
    /* support (4 bytes) + sync + count + format 2 + support: no maps. */
    CHECK(out.n < 4 + 12 + 2 + 4 + 4);
    pcs got = { .n = 0 };
    rvt_te_decoder *d = rvt_te_decoder_new_fn(&a, lookup, NULL, on_ev, &got, &st);
    CHECK(d != NULL);
    CHECK_EQ(rvt_te_decoder_run(d, out.b, out.n), 0);
    rvt_te_dec_stats ds;
    CHECK_EQ(rvt_te_decoder_stats(d, &ds), 0);
    CHECK_EQ(ds.errors, 0);
    CHECK_EQ(got.n, 42);
    for (size_t i = 0; i < got.n && i < 42; i++)
        CHECK_EQ(got.pc[i], i < 41 ? 0x100 : 0x104);
    rvt_te_decoder_free(d);
    return TH_DONE();
}
