/* The Trace Control Interface window on the board (docs/tci.md): 32-bit
 * registers (TCI 1.0 "Trace Component Register Map"); a 64-bit access is
 * the two registers it covers, low one first; byte and half-word accesses
 * are access faults, as is any access when the board has no TCI.
 *
 * A write takes effect at the store: the records of every instruction
 * retired before it reach the encoder first (hart_flush), so they are
 * traced, or not, under the registers as they were; the store itself and
 * what follows under the new values (docs/tci.md "Per-instruction
 * enable"). */
#include "hart_int.h"
#include "rvtrace/tci.h"

bool hart_tci_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    uint32_t lo = 0, hi = 0;
    if (!h->cfg.tci || (size != 4 && size != 8) || !rvt_tci_read(h->cfg.tci, off, &lo))
        return false;
    if (size == 8 && !rvt_tci_read(h->cfg.tci, off + 4, &hi))
        return false;
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

bool hart_tci_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    if (!h->cfg.tci || (size != 4 && size != 8) || (off & 3))
        return false;
    hart_flush(h);
    if (!rvt_tci_write(h->cfg.tci, off, (uint32_t)v))
        return false;
    return size == 4 || rvt_tci_write(h->cfg.tci, off + 4, (uint32_t)(v >> 32));
}
