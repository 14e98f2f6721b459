/* Device registers as a load/store of the hart reaches them (through the
 * board's device table, src/hart/mem.c): the hart unit tests of the board
 * and of several harts. */
#ifndef TEST_HART_DEV_H
#define TEST_HART_DEV_H

#include "hart/hart_int.h"
#include "tharness.h"

static inline uint64_t rd(rvt_hart *h, uint64_t a, unsigned size)
{
    uint64_t v = 0xdead;
    CHECK_EQ(hart_load_slow(h, a, size, &v), 0);
    return v;
}

static inline void wr(rvt_hart *h, uint64_t a, unsigned size, uint64_t v)
{
    CHECK_EQ(hart_store_slow(h, a, size, v), 0);
}

#endif
