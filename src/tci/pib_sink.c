/* Trace PIB Sink (TCI 1.0 "Trace PIB Sink"): the byte stream goes to the
 * pins, here a host file (rvt_tci_cfg.pib_out), LSB first as sent.
 * trPibMode: Off, SWT UART (5) and TRC_CLK + 1/2/4/8/16 TRC_DATA (8-12);
 * Manchester (4) and calibration are not modelled (WARL: a mode that is
 * not there keeps the field, trPibCalibrate reads 0). */
#include "tci/tci_int.h"

enum { MODE_LO = 4, CLK_CENTER = 1u << 8, ASYNC_LO = 12, DIVIDER_LO = 16 };
#define DIVIDER_RESET 0xFu   /* a safe (slow) clock after reset (SD) */

void tci_pib_reset(tci_pib *p)
{
    p->control = 0;
}

bool tci_pib_accepts(const tci_pib *p)
{
    uint32_t on = RVT_TCI_ACTIVE | RVT_TCI_ENABLE;
    return (p->control & on) == on && tci_field(p->control, MODE_LO, 4) != 0;
}

uint32_t tci_pib_read(const tci_pib *p, unsigned off)
{
    if (off == TCI_CONTROL)
        return p->control | RVT_TCI_EMPTY;
    return off == TCI_IMPL ? TCI_IMPL_V1(TCI_TYPE_PIB) : 0;
}

static bool mode_legal(unsigned m)
{
    return m == 0 || m == 5 || (m >= 8 && m <= 12);
}

void tci_pib_write(tci_pib *p, unsigned off, uint32_t v)
{
    if (off != TCI_CONTROL)
        return;
    switch (tci_ctl_op_of(p->control, v)) {
    case TCI_CTL_RESET:
        tci_pib_reset(p);
        return;
    case TCI_CTL_RELEASE:
        p->control = RVT_TCI_ACTIVE | DIVIDER_RESET << DIVIDER_LO;
        return;
    case TCI_CTL_SET:
        break;
    }
    unsigned mode = tci_field(v, MODE_LO, 4);
    if (!mode_legal(mode))
        mode = tci_field(p->control, MODE_LO, 4);
    uint32_t c = RVT_TCI_ACTIVE | (v & RVT_TCI_ENABLE) | mode << MODE_LO;
    if (mode >= 8)      /* "can be set only if trPibMode selects one of the parallel protocols" */
        c |= v & CLK_CENTER;
    c = tci_put(c, ASYNC_LO, 3, tci_field(v, ASYNC_LO, 3));
    p->control = tci_put(c, DIVIDER_LO, 16, tci_field(v, DIVIDER_LO, 16));
}

size_t tci_pib_put(tci_pib *p, const uint8_t *b, size_t n)
{
    if (!tci_pib_accepts(p))
        return 0;
    if (p->out && p->out(p->ctx, b, n) < 0)
        return 0;
    return n;
}
