/* Trace RAM Sink (TCI 1.0 "Trace RAM Sink", "Accessing and Detecting RAM
 * Sink Registers"): a circular buffer [trRamStart, trRamLimit + 4) filled
 * a 32-bit word at a time at trRamWP, in dedicated SRAM (trRamMode 0,
 * read back through trRamRP/trRamData) or in system memory (trRamMode 1,
 * the "SMEM Generic" configuration: trRamStart/Limit set by the tool
 * within the memory the board gives the sink).  After the word at
 * trRamLimit, trRamWP goes back to trRamStart and trRamWrap is set; with
 * trRamStopOnWrap the sink then disables itself. */
#include <string.h>
#include "tci/tci_int.h"

enum {
    RAM_START_LO = 0x010, RAM_START_HI = 0x014, RAM_LIMIT_LO = 0x018, RAM_LIMIT_HI = 0x01C,
    RAM_WP_LO = 0x020, RAM_WP_HI = 0x024, RAM_RP_LO = 0x028, RAM_RP_HI = 0x02C, RAM_DATA = 0x040,
};
enum { MODE = TCI_RAM_MODE, STOP_ON_WRAP = TCI_RAM_STOP_ON_WRAP, ASYNC_LO = TCI_RAM_ASYNC_LO };

static bool smem(const tci_ram *r)
{
    return (r->control & MODE) != 0;
}

/* The addresses the buffer may use in the current mode: [lo, hi] words */
static void bounds(const tci_ram *r, uint64_t *lo, uint64_t *hi)
{
    if (smem(r)) {
        *lo = r->smem_base;
        *hi = r->smem_base + r->smem_size - 4;
    } else {
        *lo = 0;
        *hi = r->sram_size - 4u;
    }
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
    v &= ~3ull;
    return v < lo ? lo : v > hi ? hi : v;
}

/* "Typical Trace RAM Sink Configurations": the whole memory at reset */
static void pointers_reset(tci_ram *r)
{
    bounds(r, &r->start, &r->limit);
    r->wp = r->rp = r->start;
    r->wrap = false;
    r->nword = 0;
}

static bool has_mode(const tci_ram *r, bool want_smem)
{
    return want_smem ? r->smem_size != 0 : r->sram_size != 0;
}

void tci_ram_reset(tci_ram *r)
{
    r->control = has_mode(r, false) ? 0 : MODE;   /* trRamMode: the mode there is */
    pointers_reset(r);
    r->control = 0;
}

bool tci_ram_accepts(const tci_ram *r)
{
    uint32_t on = RVT_TCI_ACTIVE | RVT_TCI_ENABLE;
    return (r->control & on) == on && r->limit >= r->start;
}

static bool empty(const tci_ram *r)
{
    return r->nword == 0;
}

static uint32_t impl(const tci_ram *r)
{
    return TCI_IMPL_V1(TCI_TYPE_RAM) | (uint32_t)has_mode(r, false) << 12 | (uint32_t)has_mode(r, true) << 13;
}

static uint32_t sram_word(const tci_ram *r, uint64_t addr)
{
    const uint8_t *p = r->sram + addr;     /* LSB first (TCI 1.0: "placed in memory in LSB order") */
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* trRamData: the word at trRamRP, which then moves on (wrapping at trRamLimit) */
static uint32_t read_data(tci_ram *r)
{
    if (smem(r) || r->rp + 4 > r->sram_size)
        return 0;
    uint32_t w = sram_word(r, r->rp);
    r->rp = r->rp >= r->limit ? r->start : r->rp + 4;
    return w;
}

uint32_t tci_ram_read(tci_ram *r, unsigned off)
{
    bool rp = !smem(r);     /* trRamRP/trRamData: SRAM mode only */
    switch (off) {
    case TCI_CONTROL:
        return r->control | (empty(r) ? RVT_TCI_EMPTY : 0);
    case TCI_IMPL:
        return impl(r);
    case RAM_START_LO:
        return (uint32_t)r->start;
    case RAM_START_HI:
        return (uint32_t)(r->start >> 32);
    case RAM_LIMIT_LO:
        return (uint32_t)r->limit;
    case RAM_LIMIT_HI:
        return (uint32_t)(r->limit >> 32);
    case RAM_WP_LO:
        return (uint32_t)r->wp | r->wrap;
    case RAM_WP_HI:
        return (uint32_t)(r->wp >> 32);
    case RAM_RP_LO:
        return rp ? (uint32_t)r->rp : 0;
    case RAM_RP_HI:
        return rp ? (uint32_t)(r->rp >> 32) : 0;
    case RAM_DATA:
        return read_data(r);
    default:
        return 0;
    }
}

static void write_control(tci_ram *r, uint32_t v)
{
    uint32_t old = r->control;
    switch (tci_ctl_op_of(old, v)) {
    case TCI_CTL_RESET:
        tci_ram_reset(r);
        return;
    case TCI_CTL_RELEASE:
        r->control = RVT_TCI_ACTIVE | (has_mode(r, false) ? 0 : MODE);
        pointers_reset(r);
        return;
    case TCI_CTL_SET:
        break;
    }
    bool want_smem = (v & MODE) != 0;
    uint32_t c = RVT_TCI_ACTIVE | (v & (RVT_TCI_ENABLE | STOP_ON_WRAP));
    c |= (has_mode(r, want_smem) ? want_smem : smem(r)) ? MODE : 0;
    c = tci_put(c, ASYNC_LO, 3, tci_field(v, ASYNC_LO, 3));   /* trRamMemFormat: 0 only */
    if ((c & MODE) != (old & MODE) && (old & RVT_TCI_ENABLE))
        c = (c & ~MODE) | (old & MODE);     /* no mode change under a running capture */
    bool disabling = (old & RVT_TCI_ENABLE) && !(c & RVT_TCI_ENABLE);
    r->control = c;
    if ((c & MODE) != (old & MODE))
        pointers_reset(r);
    if (disabling && r->nword) {   /* flush: idle bytes fill the last word */
        uint8_t pad[4];
        memset(pad, r->idle, sizeof pad);
        r->control |= RVT_TCI_ENABLE;
        tci_ram_put(r, pad, 4 - r->nword);
        r->control &= ~RVT_TCI_ENABLE;
    }
}

static uint64_t set_half(uint64_t cur, bool high, uint32_t v)
{
    return high ? (cur & 0xffffffffull) | (uint64_t)v << 32 : (cur & ~0xffffffffull) | v;
}

/* trRamStart/Limit/WP: not while enabled or holding bytes ("the trace tool
 * should NOT write"); each clamped to what the mode allows. */
static void write_pointer(tci_ram *r, unsigned off, uint32_t v)
{
    uint64_t lo, hi;
    bounds(r, &lo, &hi);
    bool high = off & 4;
    switch (off & ~4u) {
    case RAM_START_LO:
        if (smem(r))        /* SRAM: trRamStart fixed at 0 */
            r->start = clamp(set_half(r->start, high, v), lo, hi);
        break;
    case RAM_LIMIT_LO:
        r->limit = clamp(set_half(r->limit, high, v), r->start > lo ? r->start : lo, hi);
        break;
    case RAM_WP_LO:
        if (!high)          /* trRamWrap is "only set to 0 if trRamWPLow is written" */
            r->wrap = v & 1u;
        r->wp = clamp(set_half(r->wp, high, v), r->start, r->limit < r->start ? r->start : r->limit);
        break;
    default:
        break;
    }
    /* start <= WP <= limit (and RP) whatever order the halves come in: a
     * start written above the old limit or WP carries them with it */
    if (r->limit < r->start)
        r->limit = r->start;
    r->wp = clamp(r->wp, r->start, r->limit);
    r->rp = clamp(r->rp, r->start, r->limit);
}

void tci_ram_write(tci_ram *r, unsigned off, uint32_t v)
{
    if (off == TCI_CONTROL) {
        write_control(r, v);
        return;
    }
    if (!(r->control & RVT_TCI_ACTIVE))
        return;
    if (off >= RAM_START_LO && off <= RAM_WP_HI) {
        if (!(r->control & RVT_TCI_ENABLE) && empty(r))
            write_pointer(r, off, v);
    } else if ((off == RAM_RP_LO || off == RAM_RP_HI) && !smem(r)) {
        r->rp = clamp(set_half(r->rp, off == RAM_RP_HI, v), r->start, r->limit);
    }
}

/* The word is full: to SRAM or the system bus at trRamWP, then on. */
static void store_word(tci_ram *r)
{
    if (!smem(r))
        memcpy(r->sram + r->wp, r->word, 4);
    else if (r->mem_write)
        r->mem_write(r->ctx, r->wp, r->word);   /* a bus error loses the word */
    r->nword = 0;
    if (r->wp < r->limit) {
        r->wp += 4;
        return;
    }
    r->wp = r->start;
    r->wrap = true;
    if (r->control & STOP_ON_WRAP)
        r->control &= ~RVT_TCI_ENABLE;
}

size_t tci_ram_put(tci_ram *r, const uint8_t *b, size_t n)
{
    size_t i = 0;
    for (; i < n && tci_ram_accepts(r); i++) {
        r->word[r->nword++] = b[i];
        if (r->nword == 4)
            store_word(r);
    }
    return i;
}
