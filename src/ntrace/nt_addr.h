/* N-Trace address and PROCESS field arithmetic (8.1, 7.1).  Internal. */
#ifndef RVT_NT_ADDR_H
#define RVT_NT_ADDR_H

#include <stdbool.h>
#include <stdint.h>

/* 8.1: F-ADDR is the PC from bit 1. */
static inline uint64_t nt_faddr(uint64_t pc) { return pc >> 1; }
/* 8.1: U-ADDR is (PC XOR reference) from bit 1, high zeroes suppressed. */
static inline uint64_t nt_uaddr(uint64_t ref, uint64_t pc) { return (ref ^ pc) >> 1; }
static inline uint64_t nt_uaddr_apply(uint64_t ref, uint64_t uaddr) { return ref ^ (uaddr << 1); }
/* The PC an F-ADDR names, and the PC a U-ADDR names given the source's
 * reference address (trTeInstNoAddrDiff: U-ADDR is the address itself),
 * both within XLEN. */
static inline uint64_t nt_faddr_pc(uint64_t faddr, uint64_t xmask) { return (faddr << 1) & xmask; }
static inline uint64_t nt_uaddr_pc(uint64_t ref, uint64_t uaddr, bool no_diff, uint64_t xmask)
{
    return (no_diff ? uaddr << 1 : nt_uaddr_apply(ref, uaddr)) & xmask;
}

/* 7.1 table 12: PROCESS = {CONTEXT, V, PRV[1:0], FORMAT[1:0]}. */
enum { NT_PROC_PRIV = 0, NT_PROC_SCONTEXT = 2, NT_PROC_HCONTEXT = 3 };
static inline uint64_t nt_process(unsigned format, unsigned prv, unsigned v, uint64_t context)
{
    uint64_t p = (format & 3u) | (prv & 3u) << 2 | (uint64_t)(v & 1u) << 4;
    return format == NT_PROC_PRIV ? p : p | context << 5;
}

#endif
