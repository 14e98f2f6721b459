/* Trace Funnel (TCI 1.0 "Trace Funnel"): merges the encoders' streams,
 * one packet at a time in the order they come (each call of rvt_tci_put
 * is one packet or message: no input can hold the others off).
 * trFunnelDisInput has a bit per hart; its timestamp unit counts the
 * system clock and is the one the encoders' Shared mode reads. */
#include "tci/tci_int.h"

#define FUNNEL_DIS_INPUT 0x008u

void tci_funnel_reset(tci_funnel *f)
{
    f->control = 0;
    f->dis_input = 0;
    tci_ts_reset(&f->ts);
}

bool tci_funnel_passes(const tci_funnel *f, unsigned input)
{
    return (f->control & (RVT_TCI_ACTIVE | RVT_TCI_ENABLE)) == (RVT_TCI_ACTIVE | RVT_TCI_ENABLE) &&
           !(f->dis_input >> input & 1u);
}

uint32_t tci_funnel_read(const tci_funnel *f, unsigned off)
{
    if (off >= TCI_TS_BASE && off < TCI_TS_BASE + 0x10)
        return tci_ts_read(&f->ts, NULL, off - TCI_TS_BASE);
    switch (off) {
    case TCI_CONTROL:
        return f->control | RVT_TCI_EMPTY;     /* it queues nothing */
    case TCI_IMPL:
        return TCI_IMPL_V1(TCI_TYPE_FUNNEL);
    case FUNNEL_DIS_INPUT:
        return f->dis_input;
    default:
        return 0;
    }
}

void tci_funnel_write(tci_funnel *f, unsigned off, uint32_t v)
{
    if (off == TCI_CONTROL) {
        switch (tci_ctl_op_of(f->control, v)) {
        case TCI_CTL_RESET:
            tci_funnel_reset(f);
            break;
        case TCI_CTL_RELEASE:
            f->control = RVT_TCI_ACTIVE;
            break;
        case TCI_CTL_SET:
            f->control = RVT_TCI_ACTIVE | (v & RVT_TCI_ENABLE);
            break;
        }
        return;
    }
    if (!(f->control & RVT_TCI_ACTIVE))
        return;
    if (off >= TCI_TS_BASE && off < TCI_TS_BASE + 0x10)
        tci_ts_write(&f->ts, off - TCI_TS_BASE, v);
    else if (off == FUNNEL_DIS_INPUT)      /* WARL: only the inputs that exist */
        f->dis_input = v & ((1u << f->ninputs) - 1u);
}
