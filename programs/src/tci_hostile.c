/* tci_hostile: hostile register writes from a program (docs/tci.md): 20000
 * pseudo-random 32- and 64-bit stores of random values to random offsets
 * of the Trace Control Interface window (every component, reserved
 * registers included, so encoders, funnel and sinks switch on and off),
 * each followed by a load.  The RAM sink is kept out of SMEM mode (bit 4
 * of trRamControl cleared), or its trace would overwrite this program; the
 * PIB sink and SRAM take what the encoder writes.  The host must neither
 * crash nor hang; the program must get through all its writes. */
#include "rt.h"

#define TCI 0x18000000UL
#define TCI_SIZE 0x13000UL
#define RAM_CONTROL 0x11000UL
#define RAM_SMEM (1u << 4)

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

int main(void)
{
    uint64_t sum = 0;
    unsigned i;
    for (i = 0; i < 20000; i++) {
        uint64_t r = next();
        ureg off = (ureg)(r % TCI_SIZE) & ~(ureg)3;
        if ((r >> 32) % 4 == 0)
            off &= ~(ureg)0xfff;              /* the control registers, often */
        if ((r >> 40) % 8 == 0 && off + 8 <= TCI_SIZE && (off & ~(ureg)7) != RAM_CONTROL) {
            off &= ~(ureg)7;
            *(volatile uint64_t *)(TCI + off) = next();
            sum += *(volatile uint64_t *)(TCI + off);
        } else {
            uint32_t v = (uint32_t)next();
            *(volatile uint32_t *)(TCI + off) = off == RAM_CONTROL ? v & ~RAM_SMEM : v;
            sum += *(volatile uint32_t *)(TCI + off);
        }
    }
    (void)sum;
    return rt_report("tci_hostile", i, 0);
}
