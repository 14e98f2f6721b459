/* The Trace Control Interface registers of rvtrace's board (TCI 1.0,
 * docs/tci.md) and the driver steps every TCI program here shares:
 * "Reset and Discovery" and a control write waited on. */
#ifndef TCI_REGS_H
#define TCI_REGS_H

#include "rt.h"

/* The board's fixed window; variables, because a driver given a device
 * tree takes the components' addresses from it instead (tci_drv.c). */
#define TCI 0x18000000UL
static ureg TE __attribute__((unused)) = TCI;
static ureg FUNNEL __attribute__((unused)) = TCI + 0x10000;
static ureg RAMSINK __attribute__((unused)) = TCI + 0x11000;
#define TE_OF(h) (TE + 0x1000UL * (h))      /* hart h's Trace Encoder */

#define ACTIVE 0x1u
#define ENABLE 0x2u
#define INST_TRACING 0x4u
#define EMPTY 0x8u
#define RAM_SMEM (1u << 4)

static volatile uint32_t *reg(ureg base, unsigned off)
{
    return (volatile uint32_t *)(base + off);
}

/* "Reset and Discovery": 0 and wait, 1 and wait, then the component type */
static int discover(ureg base, unsigned type)
{
    *reg(base, 0) = 0;
    while (*reg(base, 0) & ACTIVE)
        ;
    *reg(base, 0) = ACTIVE;
    while (!(*reg(base, 0) & ACTIVE))
        ;
    uint32_t impl = *reg(base, 4);
    if ((impl & 0xf) != 1 || ((impl >> 8) & 0xf) != type)
        return 1;
    return (*reg(base, 0) & EMPTY) ? 0 : 2;
}

static void set_wait(ureg base, uint32_t v, uint32_t mask, uint32_t want)
{
    *reg(base, 0) = v;
    while ((*reg(base, 0) & mask) != want)
        ;
}

/* "Disabling the trace": an encoder (trTeInstTracing and Enable off, then
 * Enable 0 and Empty 1) ... */
static void stop_encoder(ureg te_base)
{
    uint32_t te = *reg(te_base, 0) & ~(EMPTY | INST_TRACING);
    *reg(te_base, 0) = te;
    set_wait(te_base, te & ~ENABLE, ENABLE | EMPTY, EMPTY);
}

/* ... after the encoders, the funnel, then the RAM sink */
static void stop_funnel_and_ram_sink(void)
{
    set_wait(FUNNEL, ACTIVE, ENABLE | EMPTY, EMPTY);
    set_wait(RAMSINK, (*reg(RAMSINK, 0) & ~(EMPTY | ENABLE)), ENABLE | EMPTY, EMPTY);
}

#endif
