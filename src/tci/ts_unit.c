/* Timestamp unit (TCI 1.0 "Timestamp Unit"): trTsControl at +0x40 of an
 * encoder or the funnel, trTsCounterLow/High at +0x48/+0x4C.  The funnel's
 * unit counts the system clock (Internal System, mode 2); an encoder's
 * counts its hart's clock (Internal Core, 3) or reads the funnel's
 * (Shared, 4).  With an encoder's trTsEnable its packets carry the
 * counter (te_etrace.c: the encapsulation's T bytes, Encapsulation 1.0
 * 2.1.1); the funnel's trTsEnable is 0 ("for Trace Encoder only"). */
#include "tci/tci_int.h"

enum {
    TS_ACTIVE = 1u << 0, TS_COUNT = 1u << 1, TS_RESET = 1u << 2,
    TS_MODE_LO = 4, TS_PRESCALE_LO = 8, TS_ENABLE = 1u << 15, TS_WIDTH_LO = 24,
    MODE_NONE = 0, MODE_SYSTEM = 2, MODE_CORE = 3, MODE_SHARED = 4,
};

void tci_ts_reset(tci_ts *ts)
{
    ts->control = 0;
    ts->counter = ts->sub = 0;
}

static bool mode_legal(const tci_ts *ts, unsigned mode)
{
    if (mode == MODE_NONE)
        return true;
    return ts->in_funnel ? mode == MODE_SYSTEM : mode == MODE_CORE || mode == MODE_SHARED;
}

static unsigned mode_of(const tci_ts *ts)
{
    return tci_field(ts->control, TS_MODE_LO, 3);
}

uint64_t tci_ts_value(const tci_ts *ts, const tci_ts *shared)
{
    return mode_of(ts) == MODE_SHARED && shared ? shared->counter : ts->counter;
}

bool tci_ts_stamps(const tci_ts *ts)
{
    return (ts->control & TS_ACTIVE) && (ts->control & TS_ENABLE);
}

uint32_t tci_ts_read(const tci_ts *ts, const tci_ts *shared, unsigned off)
{
    uint64_t c = tci_ts_value(ts, shared);
    switch (off) {
    case 0x0:
        return ts->control | TCI_TS_WIDTH << TS_WIDTH_LO;   /* trTsWidth: RO, SD */
    case 0x8:
        return (uint32_t)c;
    case 0xC:
        return (uint32_t)(c >> 32);
    default:
        return 0;
    }
}

void tci_ts_write(tci_ts *ts, unsigned off, uint32_t v)
{
    if (off != 0)
        return;                 /* the counter registers are RO */
    switch (tci_ctl_op_of(ts->control, v)) {
    case TCI_CTL_RESET:
        tci_ts_reset(ts);
        return;
    case TCI_CTL_RELEASE:
        ts->control = TS_ACTIVE;     /* defaults: stopped, mode None, prescale 1 */
        return;
    case TCI_CTL_SET:
        break;
    }
    if (v & TS_RESET)           /* W1: reads 0 */
        ts->counter = ts->sub = 0;
    uint32_t c = TS_ACTIVE | (v & TS_COUNT);    /* trTsRunInDebug 0: no debug mode */
    unsigned mode = tci_field(v, TS_MODE_LO, 3);
    c = tci_put(c, TS_MODE_LO, 3, mode_legal(ts, mode) ? mode : mode_of(ts));
    c = tci_put(c, TS_PRESCALE_LO, 2, tci_field(v, TS_PRESCALE_LO, 2));
    if (!ts->in_funnel)
        c |= v & TS_ENABLE;
    ts->control = c;
}

void tci_ts_tick(tci_ts *ts, uint64_t ticks)
{
    unsigned mode = mode_of(ts);
    if (!(ts->control & TS_ACTIVE) || !(ts->control & TS_COUNT) ||
        (mode != MODE_SYSTEM && mode != MODE_CORE))
        return;
    /* trTsPrescale: the clock divided by 2^(2 * trTsPrescale) */
    unsigned shift = 2 * tci_field(ts->control, TS_PRESCALE_LO, 2);
    uint64_t total = ts->sub + ticks;
    ts->sub = total & ((1ull << shift) - 1);
    ts->counter = (ts->counter + (total >> shift)) & ((1ull << TCI_TS_WIDTH) - 1);
}
