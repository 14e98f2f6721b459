/* The Trace Control Interface window (include/rvtrace/tci.h): which
 * component an offset belongs to, and the trace path encoder -> funnel ->
 * sinks (TCI 1.0 "Connections Between Components"). */
#include <stdlib.h>
#include "tci/tci_int.h"

static bool cfg_ok(const rvt_tci_cfg *c)
{
    if (!c || c->nharts == 0 || c->nharts > RVT_TCI_MAX_HARTS)
        return false;
    if (c->sram_size && (c->sram_size < 64 || c->sram_size > (16u << 20) || (c->sram_size & (c->sram_size - 1))))
        return false;
    if (c->smem_size && ((c->smem_base | c->smem_size) & 3 || c->smem_base + c->smem_size < c->smem_base))
        return false;
    return c->sram_size || c->smem_size;
}

rvt_tci *rvt_tci_new(const rvt_tci_cfg *cfg, int *status)
{
    int st = RVT_OK;
    rvt_tci *t = NULL;
    if (!cfg_ok(cfg))
        st = RVT_ERR_INVAL;
    else if (!(t = calloc(1, sizeof *t)) || (cfg->sram_size && !(t->ram.sram = calloc(1, cfg->sram_size))))
        st = RVT_ERR_NOMEM;
    if (st < 0) {
        if (t)
            free(t);
        if (status)
            *status = st;
        return NULL;
    }
    t->cfg = *cfg;
    for (unsigned h = 0; h < RVT_TCI_MAX_HARTS; h++) {
        t->te[h].data_impl = cfg->data_trace;
        tci_te_reset(&t->te[h]);
    }
    t->funnel.ninputs = cfg->nharts;
    t->funnel.ts.in_funnel = true;
    tci_funnel_reset(&t->funnel);
    t->ram = (tci_ram){ .sram = t->ram.sram, .sram_size = cfg->sram_size, .smem_base = cfg->smem_base,
                        .smem_size = cfg->smem_size, .idle = cfg->idle_byte,
                        .mem_write = cfg->mem_write, .ctx = cfg->ctx };
    tci_ram_reset(&t->ram);
    t->pib = (tci_pib){ .out = cfg->pib_out, .ctx = cfg->ctx };
    if (status)
        *status = RVT_OK;
    return t;
}

void rvt_tci_free(rvt_tci *t)
{
    if (!t)
        return;
    free(t->ram.sram);
    free(t);
}

unsigned rvt_tci_nharts(const rvt_tci *t)
{
    return t ? t->cfg.nharts : 0;
}

/* The component at off, and the offset inside it. */
enum comp { C_NONE, C_TE, C_FUNNEL, C_RAM, C_PIB };
static enum comp component(const rvt_tci *t, uint64_t off, unsigned *idx, unsigned *in)
{
    *idx = (unsigned)(off / RVT_TCI_COMP);
    *in = (unsigned)(off % RVT_TCI_COMP);
    if (off >= RVT_TCI_SIZE || (off & 3))
        return C_NONE;
    if (*idx < RVT_TCI_MAX_HARTS)
        return *idx < t->cfg.nharts ? C_TE : C_NONE;
    static const enum comp after[] = { C_FUNNEL, C_RAM, C_PIB };   /* RVT_TCI_FUNNEL, _RAM, _PIB */
    return after[*idx - RVT_TCI_MAX_HARTS];
}

bool rvt_tci_read(rvt_tci *t, uint64_t off, uint32_t *v)
{
    unsigned idx, in;
    if (!t || !v || (off & 3) || off >= RVT_TCI_SIZE)
        return false;
    switch (component(t, off, &idx, &in)) {
    case C_TE:
        *v = tci_te_read(&t->te[idx], &t->funnel.ts, in);
        break;
    case C_FUNNEL:
        *v = tci_funnel_read(&t->funnel, in);
        break;
    case C_RAM:
        *v = tci_ram_read(&t->ram, in);
        break;
    case C_PIB:
        *v = tci_pib_read(&t->pib, in);
        break;
    default:
        *v = 0;     /* the blocks of harts that are not there: reserved */
        break;
    }
    return true;
}

/* A write that stops tracing (trTeInstTracing or trTeEnable to 0, a
 * reset) ends the encoder session first, while the encoder still passes
 * its bytes on: "Setting trTeEnable to 0 flushes any queued trace data to
 * the sink or funnel attached to this encoder". */
static void te_write(rvt_tci *t, unsigned h, unsigned in, uint32_t v)
{
    tci_te *te = &t->te[h];
    uint32_t old = te->control;
    bool was = tci_te_tracing(te);
    tci_te_write(te, in, v);
    if (!was || tci_te_tracing(te) || !t->feeder[h])
        return;
    uint32_t now = te->control;
    te->control = old;
    tci_te_feeder_stop(t->feeder[h]);
    if (now & RVT_TCI_ACTIVE)   /* bytes lost in the flush stay reported */
        now |= te->control & RVT_TCI_TE_STALL_OR_OVERFLOW;
    te->control = now;
}

bool rvt_tci_write(rvt_tci *t, uint64_t off, uint32_t v)
{
    unsigned idx, in;
    if (!t || (off & 3) || off >= RVT_TCI_SIZE)
        return false;
    switch (component(t, off, &idx, &in)) {
    case C_TE:
        te_write(t, idx, in, v);
        break;
    case C_FUNNEL:
        tci_funnel_write(&t->funnel, in, v);
        break;
    case C_RAM:
        tci_ram_write(&t->ram, in, v);
        break;
    case C_PIB:
        tci_pib_write(&t->pib, in, v);
        break;
    default:
        break;
    }
    return true;
}

bool rvt_tci_tracing(const rvt_tci *t, unsigned h)
{
    return t && h < t->cfg.nharts && tci_te_tracing(&t->te[h]);
}

size_t rvt_tci_put(rvt_tci *t, unsigned h, const uint8_t *bytes, size_t n)
{
    if (!t || h >= t->cfg.nharts || !bytes || !tci_te_passes(&t->te[h]))
        return 0;
    size_t took = 0;
    if (tci_funnel_passes(&t->funnel, h)) {
        size_t ram = tci_ram_put(&t->ram, bytes, n);
        size_t pib = tci_pib_put(&t->pib, bytes, n);
        took = ram > pib ? ram : pib;
    }
    if (took < n)       /* trace lost (TCI 1.0 trTeInstStallOrOverflow) */
        t->te[h].control |= RVT_TCI_TE_STALL_OR_OVERFLOW;
    return took;
}

bool rvt_tci_triggers(rvt_tci *t, unsigned h, unsigned actions, bool *notify)
{
    if (notify)
        *notify = false;
    if (!t || h >= t->cfg.nharts)
        return false;
    tci_te *te = &t->te[h];
    bool was = tci_te_tracing(te);
    /* "Debug Trigger Module": trace-on/off set/clear trTeDataTracing when
     * trTeDataTrigEnable is 1 (data trace built), trTeInstTracing when
     * trTeInstTrigEnable is 1 */
    if (te->data_control & TCI_TE_DATA_TRIG_ENABLE) {
        if (actions & RVT_TCI_TRIG_ON)
            te->data_control |= TCI_TE_DATA_TRACING;
        if (actions & RVT_TCI_TRIG_OFF)
            te->data_control &= ~TCI_TE_DATA_TRACING;
    }
    if (!(te->control & RVT_TCI_TE_INST_TRIG_ENABLE))
        actions &= RVT_TCI_TRIG_NOTIFY;
    /* "Triggers Precedence": on covers the cycle from its oldest
     * instruction, off covers it up to its newest */
    if (actions & RVT_TCI_TRIG_ON)
        tci_te_set_tracing(te, true);
    bool traced = tci_te_tracing(te) || was;
    if (actions & RVT_TCI_TRIG_OFF)
        tci_te_set_tracing(te, false);
    if (notify)
        *notify = (actions & RVT_TCI_TRIG_NOTIFY) && traced;
    return traced;
}

bool rvt_tci_ext_trigger(rvt_tci *t, unsigned h, unsigned in, bool *notify)
{
    if (notify)
        *notify = false;
    if (!t || h >= t->cfg.nharts || in >= RVT_TCI_EXT_INPUTS)
        return false;
    unsigned a = tci_field(t->te[h].ext_in, 4 * in, 4);
    unsigned act = a == 2 ? RVT_TCI_TRIG_ON : a == 3 ? RVT_TCI_TRIG_OFF : a == 4 ? RVT_TCI_TRIG_NOTIFY : 0;
    return rvt_tci_triggers(t, h, act, notify);
}

uint64_t rvt_tci_ext_out_count(const rvt_tci *t, unsigned h)
{
    return t && h < t->cfg.nharts ? t->te[h].ext_out_count : 0;
}

void rvt_tci_clock(rvt_tci *t, uint64_t now)
{
    if (t && now > t->now)
        rvt_tci_tick(t, now - t->now);
}

void rvt_tci_tick(rvt_tci *t, uint64_t ticks)
{
    if (!t)
        return;
    t->now += ticks;
    for (unsigned h = 0; h < t->cfg.nharts; h++)
        tci_ts_tick(&t->te[h].ts, ticks);
    tci_ts_tick(&t->funnel.ts, ticks);
}

int rvt_tci_ram_state(const rvt_tci *t, rvt_sink_state *s, const uint8_t **sram)
{
    if (!t || !s)
        return RVT_ERR_INVAL;
    const tci_ram *r = &t->ram;
    if (r->limit < r->start)
        return RVT_ERR_STATE;
    *s = (rvt_sink_state){ .start = r->start, .limit = r->limit, .wp = r->wp, .wrap = r->wrap,
                           .stop_on_wrap = (r->control & TCI_RAM_STOP_ON_WRAP) != 0, .present = true };
    if (sram)
        *sram = rvt_tci_ram_smem(t) ? NULL : r->sram;
    return RVT_OK;
}

bool rvt_tci_ram_smem(const rvt_tci *t)
{
    return t && (t->ram.control & TCI_RAM_MODE);
}

uint64_t rvt_tci_async_interval(const rvt_tci *t)
{
    unsigned n = t ? tci_field(t->ram.control, TCI_RAM_ASYNC_LO, 3) : 0;
    return n ? 1ull << (7 + n) : 0;
}
