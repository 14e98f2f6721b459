/* Trace Encoder filter and comparator registers (TCI 1.0 "Trace Encoder
 * Filter Registers": trTeFilter<i>* at 0x400 + 0x20*i, trTeComp<j>* at
 * 0x600 + 0x20*j) and the filter configuration they make for src/filter
 * (E-Trace ch. 5 / tables 2.3-2.6: the same fields, bit for bit).  16
 * filters and 8 comparators, as src/filter has (trTeFilterComp1..3 are 3
 * bits); the comparators at 0x700..0x7FF do not exist. */
#include "tci/tci_int.h"

enum { F_CONTROL, F_MATCH_INST, F_ECAUSE_LO, F_ECAUSE_HI, F_IMPDEF_VALUE, F_IMPDEF_MASK, F_DATA };
enum { C_CONTROL = 0, C_P_LO = 4, C_P_HI = 5, C_S_LO = 6, C_S_HI = 7 };
#define FILTER_BASE 0x400u
#define COMP_BASE 0x600u

bool tci_te_filter_reg(unsigned off)
{
    return off >= FILTER_BASE && off < COMP_BASE + TCI_TE_NCOMP * 0x20u;
}

static uint32_t *slot(tci_te *te, unsigned off)
{
    unsigned r = (off & 0x1f) / 4;
    if (off < COMP_BASE)
        return &te->filt[(off - FILTER_BASE) / 0x20][r];
    return &te->comp[(off - COMP_BASE) / 0x20][r];
}

uint32_t tci_te_filter_read(const tci_te *te, unsigned off)
{
    return *slot((tci_te *)te, off);
}

/* trTeFilter<i>Control: Enable, MatchPrivilege, MatchEcause,
 * MatchInterrupt, MatchComp1-3 with their comparator, MatchImpdef; with
 * data trace MatchDtype and MatchDsize. */
static uint32_t legal_filter(const tci_te *te, unsigned r, uint32_t v)
{
    uint32_t data = te->data_impl ? ~0u : 0u;
    switch (r) {
    case F_CONTROL:
        return v & (0x1FFFFu | (0x3000000u & data));
    case F_MATCH_INST:
        return v & 0x1FFu;
    case F_ECAUSE_LO:
    case F_IMPDEF_VALUE:
    case F_IMPDEF_MASK:
        return v;
    case F_DATA:
        return v & 0xFFFFFFu & data;
    default:
        return 0;     /* causes 32..63: src/filter keeps 32 */
    }
}

/* trTeComp<j>Control: PInput, SInput, PFunction (6, "always false / prime
 * the latch", is not there: keeps the field), SFunction, MatchMode,
 * PNotify/SNotify only with an iaddr input ("Requires trTeCompPInput to be 0"). */
static uint32_t legal_comp_control(uint32_t old, uint32_t v)
{
    uint32_t c = v & 0xF77Fu;
    if (tci_field(c, 4, 3) == 6)
        c = tci_put(c, 4, 3, tci_field(old, 4, 3));
    if (tci_field(c, 0, 2) != 0)
        c &= ~(1u << 14);
    if (tci_field(c, 2, 2) != 0)
        c &= ~(1u << 15);
    return c;
}

void tci_te_filter_write(tci_te *te, unsigned off, uint32_t v)
{
    uint32_t *p = slot(te, off);
    unsigned r = (off & 0x1f) / 4;
    if (off < COMP_BASE)
        *p = legal_filter(te, r, v);
    else if (r == C_CONTROL)
        *p = legal_comp_control(*p, v);
    else if (r >= C_P_LO)
        *p = v;
}

static void filter_ctl(const uint32_t *f, rvt_filter_ctl *c)
{
    uint32_t ctl = f[F_CONTROL];
    c->enable = ctl & 1u;
    c->match_privilege = ctl >> 1 & 1u;
    c->match_ecause = ctl >> 2 & 1u;
    c->match_interrupt = ctl >> 3 & 1u;
    for (unsigned k = 0; k < 3; k++) {
        c->match_comp[k] = ctl >> (4 + 4 * k) & 1u;
        c->comp[k] = (uint8_t)tci_field(ctl, 5 + 4 * k, 3);
    }
    c->match_impdef = ctl >> 16 & 1u;
    c->match_dtype = ctl >> 24 & 1u;
    c->match_dsize = ctl >> 25 & 1u;
    c->choice_privilege = (uint8_t)f[F_MATCH_INST];
    c->value_interrupt = f[F_MATCH_INST] >> 8 & 1u;
    c->choice_ecause = f[F_ECAUSE_LO];
    c->value_impdef = f[F_IMPDEF_VALUE];
    c->mask_impdef = f[F_IMPDEF_MASK];
    c->choice_dtype = (uint16_t)f[F_DATA];
    c->choice_dsize = (uint8_t)(f[F_DATA] >> 16);
}

static void comparator(const uint32_t *r, rvt_filter_cmp *c)
{
    uint32_t ctl = r[C_CONTROL];
    c->p_input = (uint8_t)tci_field(ctl, 0, 2);
    c->s_input = (uint8_t)tci_field(ctl, 2, 2);
    c->p_function = (uint8_t)tci_field(ctl, 4, 3);
    c->s_function = (uint8_t)tci_field(ctl, 8, 3);
    c->match_mode = (uint8_t)tci_field(ctl, 12, 2);
    c->p_notify = ctl >> 14 & 1u;
    c->s_notify = ctl >> 15 & 1u;
    c->p_match = r[C_P_LO] | (uint64_t)r[C_P_HI] << 32;
    c->s_match = r[C_S_LO] | (uint64_t)r[C_S_HI] << 32;
}

bool tci_te_filter_cfg(const tci_te *te, rvt_filter_cfg *cfg)
{
    rvt_filter_cfg_init(cfg);
    cfg->ifilters = (uint16_t)te->filters;
    cfg->dfilters = (uint16_t)te->data_filters;
    for (unsigned i = 0; i < TCI_TE_NFILT; i++)
        filter_ctl(te->filt[i], &cfg->filt[i]);
    for (unsigned j = 0; j < TCI_TE_NCOMP; j++)
        comparator(te->comp[j], &cfg->cmp[j]);
    return cfg->ifilters || cfg->dfilters;
}
