/* The programmable counters mhpmcounter3..31 / mhpmevent3..31 (priv 3.1.10)
 * with Sscofpmf's OF bit and mode inhibits, and the tool-side tally. */
#include <stdlib.h>
#include "rvtrace/pmu.h"

#define FIRST 3u
#define LAST 31u
#define NO_EV 0xFFu
#define PRIVS 4u
/* Sscofpmf bits implemented (no H: VSINH/VUINH read 0). */
#define EVENT_W (RVT_MHPMEVENT_OF | RVT_MHPMEVENT_MINH | RVT_MHPMEVENT_SINH | \
                 RVT_MHPMEVENT_UINH | RVT_MHPMEVENT_SEL)

struct rvt_pmu {
    uint64_t ctr[32], evt[32];
    uint8_t ev_of[32];        /* rvt_pmu_ev counted by counter n, or NO_EV */
    uint32_t inhibit;
    uint32_t active[PRIVS];   /* counters counting in each mode */
    bool tally_on;
    uint64_t tally[PRIVS][RVT_PMU_EV_COUNT];
};

rvt_pmu *rvt_pmu_new(const rvt_pmu_cfg *cfg)
{
    rvt_pmu *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tally_on = cfg && cfg->tally;
    for (unsigned n = 0; n < 32; n++)
        p->ev_of[n] = NO_EV;
    return p;
}

void rvt_pmu_free(rvt_pmu *p)
{
    free(p);
}

static bool valid(unsigned n)
{
    return n >= FIRST && n <= LAST;
}

/* Sscofpmf: xINH stops counting in mode x. */
static void recompute(rvt_pmu *p)
{
    static const uint64_t inh[PRIVS] = { RVT_MHPMEVENT_UINH, RVT_MHPMEVENT_SINH, 0,
                                         RVT_MHPMEVENT_MINH };
    for (unsigned m = 0; m < PRIVS; m++) {
        uint32_t a = 0;
        for (unsigned n = FIRST; n <= LAST; n++)
            if (p->ev_of[n] != NO_EV && !((p->inhibit >> n) & 1) && !(p->evt[n] & inh[m]))
                a |= 1u << n;
        p->active[m] = a;
    }
}

int rvt_pmu_counter_read(const rvt_pmu *p, unsigned n, uint64_t *v)
{
    if (!valid(n))
        return RVT_ERR_INVAL;
    *v = p->ctr[n];
    return RVT_OK;
}

int rvt_pmu_counter_write(rvt_pmu *p, unsigned n, uint64_t v)
{
    if (!valid(n))
        return RVT_ERR_INVAL;
    p->ctr[n] = v;
    return RVT_OK;
}

int rvt_pmu_event_read(const rvt_pmu *p, unsigned n, uint64_t *v)
{
    if (!valid(n))
        return RVT_ERR_INVAL;
    *v = p->evt[n];
    return RVT_OK;
}

/* docs/pmu.md: the selector is stored as written; one that names no event
 * counts nothing. */
int rvt_pmu_event_write(rvt_pmu *p, unsigned n, uint64_t v)
{
    if (!valid(n))
        return RVT_ERR_INVAL;
    p->evt[n] = v & EVENT_W;
    int ev = rvt_pmu_event_by_selector(v & RVT_MHPMEVENT_SEL);
    p->ev_of[n] = ev < 0 ? NO_EV : (uint8_t)ev;
    recompute(p);
    return RVT_OK;
}

void rvt_pmu_set_inhibit(rvt_pmu *p, uint32_t mcountinhibit)
{
    p->inhibit = mcountinhibit;
    recompute(p);
}

uint32_t rvt_pmu_overflow_bits(const rvt_pmu *p)
{
    uint32_t b = 0;
    for (unsigned n = FIRST; n <= LAST; n++)
        if (p->evt[n] & RVT_MHPMEVENT_OF)
            b |= 1u << n;
    return b;
}

bool rvt_pmu_active(const rvt_pmu *p)
{
    return p->tally_on || (p->active[0] | p->active[1] | p->active[3]);
}

/* Sscofpmf: a counter wrapping to 0 sets OF; the LCOFI is raised only when
 * OF was clear. */
bool rvt_pmu_count(rvt_pmu *p, unsigned priv, uint32_t mask, uint64_t cycles)
{
    priv &= PRIVS - 1;
    if (cycles)
        mask |= 1u << RVT_PMU_EV_CYCLES;
    if (p->tally_on)
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned e = (unsigned)__builtin_ctz(m);
            p->tally[priv][e] += e == RVT_PMU_EV_CYCLES ? cycles : 1;
        }
    bool irq = false;
    for (uint32_t a = p->active[priv]; a; a &= a - 1) {
        unsigned n = (unsigned)__builtin_ctz(a), e = p->ev_of[n];
        if (!((mask >> e) & 1))
            continue;
        uint64_t old = p->ctr[n];
        p->ctr[n] += e == RVT_PMU_EV_CYCLES ? cycles : 1;
        if (p->ctr[n] < old && !(p->evt[n] & RVT_MHPMEVENT_OF)) {
            p->evt[n] |= RVT_MHPMEVENT_OF;
            irq = true;
        }
    }
    return irq;
}

uint64_t rvt_pmu_tally(const rvt_pmu *p, unsigned ev, unsigned privmask)
{
    uint64_t s = 0;
    for (unsigned m = 0; ev < RVT_PMU_EV_COUNT && m < PRIVS; m++)
        if ((privmask >> m) & 1)
            s += p->tally[m][ev];
    return s;
}
