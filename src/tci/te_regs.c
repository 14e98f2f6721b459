/* Trace Encoder registers (TCI 1.0 "Trace Encoder Control Interface",
 * "Trace Encoder Triggers"): trTeControl, trTeImpl, trTeInstFeatures,
 * trTeInstFilters, trTeDataControl, trTeDataFilters, the trigger controls
 * and the encoder's timestamp unit.  The legal values are what rvtrace's
 * encoders do (docs/tci.md "Trace Encoder"). */
#include "tci/tci_int.h"

enum {
    TE_INST_FEATURES = 0x008, TE_INST_FILTERS = 0x00C, TE_DATA_CONTROL = 0x010,
    TE_DATA_FILTERS = 0x01C, TE_TRIG_DBG = 0x050, TE_TRIG_EXT_IN = 0x054, TE_TRIG_EXT_OUT = 0x058,
};
/* trTeControl fields */
enum {
    INST_MODE_LO = 4, CONTEXT = 1u << 9, INHIBIT_SRC = 1u << 15, SYNC_MODE_LO = 16,
    SYNC_MAX_LO = 20, FORMAT_LO = 24,
};
#define MODE_OPTIMIZED 6u     /* trTeInstMode 6: E-Trace's branch maps / N-Trace HTM */
#define FORMAT_ETRACE 0u
#define FORMAT_NTRACE 1u

void tci_te_reset(tci_te *te)
{
    bool data = te->data_impl;
    tci_ts ts = te->ts;
    *te = (tci_te){ .data_impl = data, .ext_out_count = te->ext_out_count, .ts = ts };
    tci_ts_reset(&te->ts);
}

bool tci_te_passes(const tci_te *te)
{
    return (te->control & (RVT_TCI_ACTIVE | RVT_TCI_ENABLE)) == (RVT_TCI_ACTIVE | RVT_TCI_ENABLE);
}

bool tci_te_tracing(const tci_te *te)
{
    return tci_te_passes(te) && (te->control & RVT_TCI_TE_INST_TRACING) &&
           tci_field(te->control, INST_MODE_LO, 3) != 0;
}

/* trTeTrigExtOutEvent0 bit 0: start transition, bit 1: stop transition */
void tci_te_set_tracing(tci_te *te, bool v)
{
    bool was = (te->control & RVT_TCI_TE_INST_TRACING) != 0;
    if (was == v)
        return;
    te->control = v ? te->control | RVT_TCI_TE_INST_TRACING : te->control & ~RVT_TCI_TE_INST_TRACING;
    if (te->ext_out & (v ? 1u : 2u))
        te->ext_out_count++;
}

/* trTeImpl: version 1.0, type 1; trTeProtocolMajor/Minor of trTeFormat:
 * E-Trace 2.0, N-Trace 1.0 */
static uint32_t impl(const tci_te *te)
{
    bool nt = tci_field(te->control, FORMAT_LO, 3) == FORMAT_NTRACE;
    return TCI_IMPL_V1(TCI_TYPE_TE) | (nt ? 1u : 2u) << 16 | 0u << 20;
}

uint32_t tci_te_read(const tci_te *te, const tci_ts *shared, unsigned off)
{
    if (off >= TCI_TS_BASE && off < TCI_TS_BASE + 0x10)
        return tci_ts_read(&te->ts, shared, off - TCI_TS_BASE);
    if (tci_te_filter_reg(off))
        return tci_te_filter_read(te, off);
    switch (off) {
    case TCI_CONTROL:
        return te->control | RVT_TCI_EMPTY;   /* nothing queued: bytes go out as made */
    case TCI_IMPL:
        return impl(te);
    case TE_INST_FEATURES:
        return te->features;
    case TE_INST_FILTERS:
        return te->filters;
    case TE_DATA_CONTROL:
        return te->data_impl ? te->data_control | 1u : 0;
    case TE_DATA_FILTERS:
        return te->data_filters;
    case TE_TRIG_EXT_IN:
        return te->ext_in;
    case TE_TRIG_EXT_OUT:
        return te->ext_out;
    default:
        return 0;       /* trTeTrigDbgControl (no vendor setup), reserved */
    }
}

static uint32_t legal_inst_mode(uint32_t m)
{
    return m == 0 ? 0 : MODE_OPTIMIZED;   /* "cannot revert to 0 but MUST revert to supported non-0 mode" */
}

/* WARL fields whose illegal values keep the field as it was */
static uint32_t keep_or(uint32_t old, uint32_t v, unsigned lo, unsigned w, bool legal)
{
    return tci_put(old, lo, w, legal ? tci_field(v, lo, w) : tci_field(old, lo, w));
}

static void write_control(tci_te *te, uint32_t v)
{
    uint32_t old = te->control;
    switch (tci_ctl_op_of(old, v)) {
    case TCI_CTL_RESET:
        tci_te_reset(te);
        return;
    case TCI_CTL_RELEASE:
        /* defaults: optimized mode, E-Trace, sync every 2^(12+4) half-words */
        te->control = RVT_TCI_ACTIVE | MODE_OPTIMIZED << INST_MODE_LO | 3u << SYNC_MODE_LO |
                      12u << SYNC_MAX_LO;
        return;
    case TCI_CTL_SET:
        break;
    }
    uint32_t c = RVT_TCI_ACTIVE | (v & RVT_TCI_ENABLE);
    c = tci_put(c, INST_MODE_LO, 3, legal_inst_mode(tci_field(v, INST_MODE_LO, 3)));
    c |= v & (CONTEXT | RVT_TCI_TE_INST_TRIG_ENABLE | INHIBIT_SRC);
    /* RW1C; cleared too when trTeEnable is set to 1 */
    bool enabling = (v & RVT_TCI_ENABLE) && !(old & RVT_TCI_ENABLE);
    if ((old & RVT_TCI_TE_STALL_OR_OVERFLOW) && !(v & RVT_TCI_TE_STALL_OR_OVERFLOW) && !enabling)
        c |= RVT_TCI_TE_STALL_OR_OVERFLOW;
    unsigned sync = tci_field(v, SYNC_MODE_LO, 2);
    c = keep_or(c | (old & (3u << SYNC_MODE_LO)), v, SYNC_MODE_LO, 2, sync != 2);  /* no cycle count */
    c = tci_put(c, SYNC_MAX_LO, 4, tci_field(v, SYNC_MAX_LO, 4));
    unsigned fmt = tci_field(v, FORMAT_LO, 3);
    c = keep_or(c | (old & (7u << FORMAT_LO)), v, FORMAT_LO, 3, fmt == FORMAT_ETRACE || fmt == FORMAT_NTRACE);
    te->control = c | (old & RVT_TCI_TE_INST_TRACING);
    tci_te_set_tracing(te, (v & RVT_TCI_TE_INST_TRACING) != 0);
}

/* trTeInstFeatures: NoAddrDiff, EnSequentialJump, EnImplicitReturn
 * (E-Trace full-address, sijump, implicit-return modes; te_etrace.c);
 * branch prediction and the jump target cache are not offered (0);
 * trTeSrcID 12 bits; trTeSrcBits 0..12. */
static uint32_t legal_features(uint32_t v)
{
    uint32_t f = v & (TCI_TE_FEATURE_MASK | 0xFFFu << 16);
    unsigned bits = tci_field(v, 28, 4);
    return tci_put(f, 28, 4, bits > 12 ? 12 : bits);
}

/* trTeDataControl: Tracing, TrigEnable, StallOrOverflow and Drop (RW1C),
 * NoValue, NoAddr, AddrCompress 0-2 (full, XOR, differential). */
static uint32_t legal_data_control(uint32_t old, uint32_t v)
{
    uint32_t c = v & (0x6u | 3u << 16);
    c |= old & 0x28u & ~v;                   /* RW1C bits 3 and 5 */
    unsigned comp = tci_field(v, 18, 2);
    return tci_put(c, 18, 2, comp == 3 ? tci_field(old, 18, 2) : comp);
}

/* trTeTrigExtInAction0/1: 0, 2, 3, 4; inputs 2..7 do not exist (0). */
static uint32_t legal_ext_in(uint32_t old, uint32_t v)
{
    uint32_t c = 0;
    for (unsigned i = 0; i < RVT_TCI_EXT_INPUTS; i++) {
        unsigned a = tci_field(v, 4 * i, 4);
        bool ok = a == 0 || (a >= 2 && a <= 4);
        c = tci_put(c, 4 * i, 4, ok ? a : tci_field(old, 4 * i, 4));
    }
    return c;
}

void tci_te_write(tci_te *te, unsigned off, uint32_t v)
{
    if (off == TCI_CONTROL) {
        write_control(te, v);
        return;
    }
    if (!(te->control & RVT_TCI_ACTIVE))
        return;     /* in reset: "other register locations may be inaccessible" */
    if (off >= TCI_TS_BASE && off < TCI_TS_BASE + 0x10) {
        tci_ts_write(&te->ts, off - TCI_TS_BASE, v);
        return;
    }
    if (tci_te_filter_reg(off)) {
        tci_te_filter_write(te, off, v);
        return;
    }
    switch (off) {
    case TE_INST_FEATURES:
        te->features = legal_features(v);
        break;
    case TE_DATA_CONTROL:
        if (te->data_impl)
            te->data_control = legal_data_control(te->data_control, v);
        break;
    case TE_TRIG_EXT_IN:
        te->ext_in = legal_ext_in(te->ext_in, v);
        break;
    case TE_TRIG_EXT_OUT:
        te->ext_out = v & 3u;   /* one output: start and stop transitions */
        break;
    case TE_INST_FILTERS:       /* one bit per filter: all 16 there */
        te->filters = v & 0xFFFFu;
        break;
    case TE_DATA_FILTERS:
        te->data_filters = te->data_impl ? v & 0xFFFFu : 0;
        break;
    default:
        break;      /* reserved */
    }
}
