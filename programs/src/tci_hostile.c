/* tci_hostile: hostile register writes from a program (docs/tci.md): 20000
 * pseudo-random 32- and 64-bit stores of random values to random offsets
 * of the Trace Control Interface window (every component, reserved
 * registers included, so encoders, funnel and sinks switch on and off and
 * a sink in SMEM mode may be pointed anywhere in RAM, this program's own
 * code and stack included), each followed by a load.  The host must
 * neither crash nor hang; what the program itself survives is its own
 * affair, so the result only says how far it got. */
#include "rt.h"

#define TCI 0x18000000UL
#define TCI_SIZE 0x13000UL

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
        if ((r >> 40) % 8 == 0 && off + 8 <= TCI_SIZE) {
            off &= ~(ureg)7;
            *(volatile uint64_t *)(TCI + off) = next();
            sum += *(volatile uint64_t *)(TCI + off);
        } else {
            *(volatile uint32_t *)(TCI + off) = (uint32_t)next();
            sum += *(volatile uint32_t *)(TCI + off);
        }
    }
    (void)sum;
    return rt_report("tci_hostile", i, 0);
}
