/* Trace-on/off/notify from the hart's debug trigger module (mcontrol
 * actions 2-4, carried as RVT_IREC_F_TRIG_* on the block) start and stop
 * the encoder behind a TCI Trace Encoder (src/tci/te_etrace.c) as TCI 1.0
 * "Trace Encoder Triggers" says: only with trTeInstTrigEnable; "Triggers
 * Precedence": the trace-on block is traced from its first instruction,
 * the trace-off block up to its last, both in one block trace that block
 * only.  Each tracing period is one encoder session. */
#include "tharness.h"
#include "rvtrace/tci.h"
#include "rvtrace/etrace.h"

#define TE RVT_TCI_TE(0)

static rvt_irec block(unsigned i, unsigned flags)
{
    /* two 4-byte instructions, sequential blocks */
    rvt_irec r = { .iaddr = 0x80000000u + 8u * i, .iretire = 4, .ninstr = 2, .ilastsize = 1,
                   .priv = 3, .flags = (uint8_t)flags };
    return r;
}

static uint64_t wp(rvt_tci *t)
{
    rvt_sink_state s;
    CHECK_EQ(rvt_tci_ram_state(t, &s, NULL), 0);
    return s.wp;
}

int main(void)
{
    rvt_tci_cfg c = { .nharts = 1, .sram_size = 4096 };
    rvt_tci *t = rvt_tci_new(&c, NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_tci_te *e = rvt_tci_te_new(t, 0, &a, NULL);
    CHECK(e != NULL);
    rvt_irec_sink k = rvt_tci_te_sink(e);
    /* sink (SRAM), funnel, encoder enabled; trTeInstTrigEnable, not tracing */
    rvt_tci_write(t, RVT_TCI_RAM, 1);
    rvt_tci_write(t, RVT_TCI_RAM, 3);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 1);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 3);
    rvt_tci_write(t, TE, 1);
    uint32_t ctl;
    rvt_tci_read(t, TE, &ctl);
    ctl = (ctl & ~RVT_TCI_EMPTY) | RVT_TCI_ENABLE | RVT_TCI_TE_INST_TRIG_ENABLE;
    rvt_tci_write(t, TE, ctl);
    unsigned i = 0;
    rvt_irec r = block(i++, 0);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(rvt_tci_te_sessions(e), 0);               /* not tracing: nothing */
    CHECK_EQ(wp(t), 0);
    r = block(i++, RVT_IREC_F_TRIG_START);             /* trace-on: this block on */
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(rvt_tci_te_sessions(e), 1);
    CHECK(rvt_tci_tracing(t, 0));
    r = block(i++, 0);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    r = block(i++, RVT_IREC_F_TRIG_STOP);              /* trace-off: traced, then off */
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK(!rvt_tci_tracing(t, 0));
    uint64_t after_first = wp(t);
    CHECK(after_first > 0);                            /* the session ended: flushed */
    r = block(i++, RVT_IREC_F_TRIG_NOTIFY);            /* not tracing: no notify, nothing */
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(wp(t), after_first);
    /* on and off in one block: that block alone, a session of its own */
    r = block(i++, RVT_IREC_F_TRIG_START | RVT_IREC_F_TRIG_STOP);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(rvt_tci_te_sessions(e), 2);
    CHECK(!rvt_tci_tracing(t, 0));
    uint64_t after_second = wp(t);
    CHECK(after_second > after_first);
    /* without trTeInstTrigEnable the triggers do nothing */
    rvt_tci_write(t, TE, ctl & ~RVT_TCI_TE_INST_TRIG_ENABLE);
    r = block(i++, RVT_IREC_F_TRIG_START);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(rvt_tci_te_sessions(e), 2);
    CHECK(!rvt_tci_tracing(t, 0));
    /* a write of trTeInstTracing starts tracing regardless of triggers */
    rvt_tci_write(t, TE, (ctl & ~RVT_TCI_TE_INST_TRIG_ENABLE) | RVT_TCI_TE_INST_TRACING);
    r = block(i++, RVT_IREC_F_TRIG_STOP);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(rvt_tci_te_sessions(e), 3);
    CHECK(rvt_tci_tracing(t, 0));                      /* trace-off ignored */
    CHECK_EQ(k.end(k.ctx), 0);
    CHECK(wp(t) > after_second);
    rvt_tci_te_free(e);
    rvt_tci_free(t);
    return TH_DONE();
}
