/* The Trace Encoder's filter and comparator registers (TCI 1.0 "Trace
 * Encoder Filter Registers"; src/tci/te_filter.c) and what they do to the
 * encoder behind them through src/filter (E-Trace ch. 5, the same fields).
 * Expected values from the register tables:
 *   trTeFilter<i>Control: bits 0-16 (Enable .. MatchImpdef), 24-25
 *     (MatchDtype, MatchDsize: data trace only), the rest reserved;
 *   trTeFilter<i>MatchInst: bits 0-8;
 *   trTeComp<j>Control: bits 0-6, 8-10, 12-15; PNotify (14) / SNotify (15)
 *     need their input to be iaddr (0). */
#include "tharness.h"
#include "tci/tci_int.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/transport.h"

#define TE RVT_TCI_TE(0)
#define FILT(i, r) (TE + 0x400 + 0x20 * (i) + 4 * (r))
#define COMP(j, r) (TE + 0x600 + 0x20 * (j) + 4 * (r))

static uint32_t rd(rvt_tci *t, uint64_t off)
{
    uint32_t v = 0xdead;
    CHECK(rvt_tci_read(t, off, &v));
    return v;
}

static rvt_tci *model(bool data)
{
    rvt_tci_cfg c = { .nharts = 1, .data_trace = data, .sram_size = 4096 };
    rvt_tci *t = rvt_tci_new(&c, NULL);
    rvt_tci_write(t, TE, 1);
    return t;
}

/* RAM sink and funnel enabled (TCI 1.0 "Enabling the trace": sinks first). */
static void sinks_on(rvt_tci *t)
{
    rvt_tci_write(t, RVT_TCI_RAM, 1);
    rvt_tci_write(t, RVT_TCI_RAM, 3);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 1);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 3);
}

/* The encoder enabled and tracing (trTeControl |= ctl_bits), and the
 * encoder model behind it with default settings. */
static rvt_tci_te *trace_on(rvt_tci *t, uint32_t ctl_bits)
{
    uint32_t ctl = rd(t, TE) & ~RVT_TCI_EMPTY;
    rvt_tci_write(t, TE, ctl | ctl_bits | RVT_TCI_ENABLE | RVT_TCI_TE_INST_TRACING);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    return rvt_tci_te_new(t, 0, &a, NULL);
}

static void warl(void)
{
    rvt_tci *t = model(false);
    rvt_tci_write(t, FILT(0, 0), 0xffffffff);
    CHECK_EQ(rd(t, FILT(0, 0)), 0x1FFFF);
    rvt_tci_write(t, FILT(0, 1), 0xffffffff);
    CHECK_EQ(rd(t, FILT(0, 1)), 0x1FF);
    rvt_tci_write(t, FILT(0, 3), 0xffffffff);        /* causes 32-63 */
    CHECK_EQ(rd(t, FILT(0, 3)), 0);
    rvt_tci_write(t, FILT(15, 6), 0xffffffff);       /* MatchData: no data trace */
    CHECK_EQ(rd(t, FILT(15, 6)), 0);
    rvt_tci_write(t, COMP(0, 0), 0xffffffff);        /* inputs 3: no notify */
    CHECK_EQ(rd(t, COMP(0, 0)), 0x377F);
    rvt_tci_write(t, COMP(1, 0), 0x0000C000 | 5u << 4);
    CHECK_EQ(rd(t, COMP(1, 0)), 0xC050);             /* iaddr inputs: notify kept */
    rvt_tci_write(t, COMP(1, 0), 0x0000C000 | 6u << 4);   /* PFunction 6: kept 5 */
    CHECK_EQ(rd(t, COMP(1, 0)) >> 4 & 7, 5);
    rvt_tci_write(t, COMP(7, 7), 0x12345678);
    CHECK_EQ(rd(t, COMP(7, 7)), 0x12345678);
    rvt_tci_write(t, COMP(8, 0), 0xffffffff);        /* comparator 8 is not there */
    CHECK_EQ(rd(t, COMP(8, 0)), 0);
    CHECK_EQ(rd(t, COMP(0, 1)), 0);                  /* reserved word */
    rvt_tci_write(t, TE + 0x0C, 0xffffffff);         /* trTeInstFilters: 16 filters */
    CHECK_EQ(rd(t, TE + 0x0C), 0xFFFF);
    rvt_tci_write(t, TE + 0x1C, 0xffffffff);         /* trTeDataFilters: no data trace */
    CHECK_EQ(rd(t, TE + 0x1C), 0);
    rvt_tci_write(t, TE, 0);                         /* reset clears them */
    CHECK_EQ(rd(t, FILT(0, 0)), 0);
    rvt_tci_free(t);
    t = model(true);
    rvt_tci_write(t, FILT(0, 0), 0xffffffff);
    CHECK_EQ(rd(t, FILT(0, 0)), 0x301FFFF);
    rvt_tci_write(t, FILT(0, 6), 0xffffffff);
    CHECK_EQ(rd(t, FILT(0, 6)), 0xFFFFFF);
    rvt_tci_free(t);
}

/* Filter 0: Enable, MatchPrivilege, MatchComp1 with comparator 2
 * (Control = 1 | 2 | 0x10 | 2 << 5 = 0x53); privilege U (MatchInst bit 0);
 * comparator 2: iaddr > 0x80001000 (PFunction 4: 0x40). */
static void mapping(void)
{
    rvt_tci *t = model(false);
    rvt_tci_write(t, TE + 0x0C, 1);
    rvt_tci_write(t, FILT(0, 0), 0x53);
    rvt_tci_write(t, FILT(0, 1), 0x1);
    rvt_tci_write(t, COMP(2, 0), 0x40);
    rvt_tci_write(t, COMP(2, 4), 0x80001000);
    rvt_filter_cfg cfg;
    CHECK(tci_te_filter_cfg(&t->te[0], &cfg));
    CHECK_EQ(cfg.ifilters, 1);
    CHECK(cfg.filt[0].enable && cfg.filt[0].match_privilege && cfg.filt[0].match_comp[0]);
    CHECK(!cfg.filt[0].match_comp[1] && !cfg.filt[0].match_ecause);
    CHECK_EQ(cfg.filt[0].comp[0], 2);
    CHECK_EQ(cfg.filt[0].choice_privilege, 1);
    CHECK_EQ(cfg.cmp[2].p_input, RVT_FILTER_IN_IADDR);
    CHECK_EQ(cfg.cmp[2].p_function, RVT_FILTER_GT);
    CHECK_EQ(cfg.cmp[2].match_mode, RVT_FILTER_MODE_P);
    CHECK_EQ(cfg.cmp[2].p_match, 0x80001000);
    CHECK_EQ(rvt_filter_cfg_check(&cfg, NULL, 0), 0);
    rvt_tci_free(t);
}

/* The encoder behind the registers: with filter 0 = privilege U only,
 * M-mode blocks are unqualified and produce no trace; U-mode ones do. */
static void qualifies(void)
{
    rvt_tci *t = model(false);
    sinks_on(t);
    rvt_tci_write(t, TE + 0x0C, 1);
    rvt_tci_write(t, FILT(0, 0), 0x3);               /* Enable, MatchPrivilege */
    rvt_tci_write(t, FILT(0, 1), 0x1);               /* U */
    rvt_tci_te *e = trace_on(t, 0);
    rvt_irec_sink k = rvt_tci_te_sink(e);
    rvt_sink_state s;
    for (unsigned i = 0; i < 8; i++) {
        rvt_irec r = { .iaddr = 0x80000000u + 8u * i, .iretire = 4, .ninstr = 2, .ilastsize = 1, .priv = 3 };
        CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    }
    CHECK_EQ(rvt_tci_ram_state(t, &s, NULL), 0);
    CHECK_EQ(s.wp, 0);                               /* nothing qualified: nothing written */
    for (unsigned i = 0; i < 8; i++) {
        rvt_irec r = { .iaddr = 0x80001000u + 8u * i, .iretire = 4, .ninstr = 2, .ilastsize = 1, .priv = 0 };
        CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    }
    CHECK_EQ(k.end(k.ctx), 0);
    CHECK_EQ(rvt_tci_ram_state(t, &s, NULL), 0);
    CHECK(s.wp > 32);                                /* a sync sequence and packets */
    rvt_tci_te_free(e);
    rvt_tci_free(t);
}

/* A model with data trace built, RAM sink and funnel on, trTeDataControl
 * = dc. */
static rvt_tci *data_model(uint32_t dc)
{
    rvt_tci *t = model(true);
    sinks_on(t);
    rvt_tci_write(t, TE + 0x10, dc);
    return t;
}

/* Instruction tracing on, then n blocks (block i with flags[i]: trigger
 * actions), each followed by a load and a store; the number of te_data
 * packets (encapsulation type 1, Encapsulation 1.0 3.3) in the sink.
 * E-Trace 7: one te_data packet per access. */
static unsigned data_packets(rvt_tci *t, const uint8_t *flags, unsigned n)
{
    rvt_tci_te *e = trace_on(t, 0);
    rvt_irec_sink k = rvt_tci_te_sink(e);
    for (unsigned i = 0; i < n; i++) {
        uint64_t pc = 0x80000000u + 8u * i;
        rvt_irec r = { .iaddr = pc, .iretire = 4, .ninstr = 2, .ilastsize = 1, .priv = 3,
                       .flags = flags[i] };
        rvt_drec d[2] = {
            { .iaddr = pc, .addr = 0x80010000u + 8u * i, .data = i, .dtype = RVT_DTYPE_LOAD, .dsize = 3 },
            { .iaddr = pc + 4, .addr = 0x80020000u + 8u * i, .data = i, .dtype = RVT_DTYPE_STORE, .dsize = 3 },
        };
        CHECK_EQ(k.put(k.ctx, &r, 1), 0);
        CHECK_EQ(k.data(k.ctx, d, 2), 0);
    }
    CHECK_EQ(k.end(k.ctx), 0);
    rvt_sink_state s;
    const uint8_t *sram = NULL;
    CHECK_EQ(rvt_tci_ram_state(t, &s, &sram), 0);
    unsigned nd = 0, insts = 0;
    rvt_transport *tp = sram ? rvt_tp_new("encap", rvt_tci_te_container(e), sram, s.wp, NULL) : NULL;
    rvt_tp_frame f;
    int st;
    while (tp && (st = rvt_tp_next(tp, &f)) != 0) {
        CHECK(st > 0);
        if (st < 0)
            break;
        nd += f.type == 1;
        insts += f.type == 0;
    }
    CHECK(tp != NULL);
    CHECK(insts > 0);
    rvt_tp_free(tp);
    rvt_tci_te_free(e);
    return nd;
}

/* trTeDataFilters = filter 0 = Enable | MatchDtype (bit 24) with
 * MatchData's dtype choice = stores (bit RVT_DTYPE_STORE): of 4 blocks,
 * each with a load and a store, 4 te_data packets reach the sink, one per
 * store; without the filter 8. */
static void data_filters(void)
{
    static const uint8_t none[4];
    rvt_tci *t = data_model(1u << 1);                /* trTeDataTracing */
    CHECK_EQ(data_packets(t, none, 4), 8);
    rvt_tci_free(t);
    t = data_model(1u << 1);
    rvt_tci_write(t, TE + 0x1C, 1);                  /* trTeDataFilters: filter 0 */
    rvt_tci_write(t, FILT(0, 0), 1u | 1u << 24);
    rvt_tci_write(t, FILT(0, 6), 1u << RVT_DTYPE_STORE);
    CHECK_EQ(data_packets(t, none, 4), 4);
    rvt_tci_free(t);
}

/* TCI 1.0 "Debug Trigger Module": with trTeDataTrigEnable (bit 2) and
 * trTeDataTracing 0, trace-on (block 1) sets trTeDataTracing and trace-off
 * (block 3) clears it; as for instructions ("Triggers Precedence") the
 * trace-on block's accesses are traced from its first instruction and the
 * trace-off block's up to its last: blocks 1, 2 and 3, 6 packets.
 * trTeInstTrigEnable is 0, so instruction tracing stays on throughout. */
static void data_triggers(void)
{
    static const uint8_t flags[5] = { 0, RVT_IREC_F_TRIG_START, 0, RVT_IREC_F_TRIG_STOP, 0 };
    rvt_tci *t = data_model(1u << 2);
    CHECK_EQ(data_packets(t, flags, 5), 6);
    CHECK_EQ(rd(t, TE + 0x10) & 0x6u, 1u << 2);      /* tracing off again, enable kept */
    CHECK(rd(t, TE) & RVT_TCI_TE_INST_TRACING);
    rvt_tci_free(t);
    t = data_model(0);                               /* no trTeDataTrigEnable: no data */
    CHECK_EQ(data_packets(t, flags, 5), 0);
    rvt_tci_free(t);
}

/* An N-Trace session (trTeFormat 1) takes its controls from the registers
 * (N-Trace ch. 4 names the same ones): trTeInstEnImplicitReturn (features
 * bit 3) -> implicit return mode 3 (trTeInstImplicitReturnMode reads 0:
 * the encoder's choice, docs/tci.md), the encoder's Timestamp unit with
 * trTsEnable (bit 15) -> TSTAMP fields. */
static const rvt_nt_cfg *nt_session(rvt_tci *t, bool ir, bool ts, rvt_tci_te **out)
{
    sinks_on(t);
    rvt_tci_write(t, TE + 0x08, ir ? 1u << 3 : 0);
    if (ts) {
        rvt_tci_write(t, TE + 0x40, 1);                          /* trTsActive */
        rvt_tci_write(t, TE + 0x40, 1u | 1u << 1 | 3u << 4 | 1u << 15);
    }
    rvt_tci_te *e = trace_on(t, 1u << 24);     /* trTeFormat 1 */
    rvt_irec_sink k = rvt_tci_te_sink(e);
    rvt_irec r = { .iaddr = 0x80000000u, .iretire = 4, .ninstr = 2, .ilastsize = 1, .priv = 3, .time = 5 };
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    CHECK_EQ(k.end(k.ctx), 0);
    *out = e;
    return rvt_tci_te_nt_cfg(e);
}

static void ntrace_controls(void)
{
    for (int on = 0; on < 2; on++) {
        rvt_tci *t = model(false);
        rvt_tci_te *e = NULL;
        const rvt_nt_cfg *c = nt_session(t, on, on, &e);
        CHECK(c != NULL);
        if (c) {
            CHECK_EQ(c->implicit_return, on ? 3 : 0);
            CHECK_EQ(c->timestamps, on);
            CHECK_EQ(c->inst_mode, RVT_NT_MODE_HTM);
        }
        rvt_tci_te_free(e);
        rvt_tci_free(t);
    }
}

int main(void)
{
    warl();
    mapping();
    qualifies();
    data_filters();
    data_triggers();
    ntrace_controls();
    return TH_DONE();
}
