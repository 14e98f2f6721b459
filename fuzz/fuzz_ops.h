/* Operation encodings of the model fuzz targets (fuzz/targets/ctr.c and
 * pmu.c), shared with the seed tool fuzz/tools/mkops.c that turns what
 * rvtrace's hart did into the same operations. */
#ifndef RVT_FUZZ_OPS_H
#define RVT_FUZZ_OPS_H

#include "fuzz.h"
#include "rvtrace/ctr.h"
#include "rvtrace/pmu.h"

/* ---- ctr ----
 * byte 0: bit 0 MXLEN 32, bit 1 no S-mode, bit 2 no U-mode; then operations,
 * opcode byte mod 6:
 *   0 CSR write: csr, value:8, priv, cycles:1
 *   1 CSR read:  csr
 *   2, 3 transfer: type, src:8, tgt:8, privs (src 1:0, tgt 3:2, cycle
 *        shift 7:4), cause, cycles:2
 *   4 entry register: write (bit 0), select - 0x1F0:2 (mod 0x120), reg,
 *        [value:8 when writing]
 *   5 check every entry
 * csr: an index into rvt_fuzz_ctr_csrs, or (>= its size) 2 bytes of
 * CSR number; type: an index into rvt_fuzz_ctr_types (mod its size); a
 * privilege: an index into rvt_fuzz_privs. */
enum { RVT_FUZZ_CTR_CSRW = 0, RVT_FUZZ_CTR_CSRR = 1, RVT_FUZZ_CTR_XFER = 2,
       RVT_FUZZ_CTR_IREG = 4, RVT_FUZZ_CTR_CHECK = 5, RVT_FUZZ_CTR_NOPS = 6 };
#define RVT_FUZZ_CTR_SEL_BASE 0x1F0u

static const unsigned rvt_fuzz_ctr_csrs[] = {
    RVT_CSR_SCTRCONTROL, RVT_CSR_SCTRCONTROLH, RVT_CSR_SCTRSTATUS, RVT_CSR_VSCTRCONTROL,
    RVT_CSR_VSCTRCONTROLH, RVT_CSR_MCTRCONTROL, RVT_CSR_MCTRCONTROLH, RVT_CSR_MCTRSTATUS,
};
#define RVT_FUZZ_CTR_NCSRS (sizeof rvt_fuzz_ctr_csrs / sizeof rvt_fuzz_ctr_csrs[0])

static const unsigned rvt_fuzz_ctr_types[] = {
    RVT_CTR_EXCEPTION, RVT_CTR_INTERRUPT, RVT_CTR_TRAP_RETURN, RVT_CTR_NT_BRANCH,
    RVT_CTR_T_BRANCH, RVT_CTR_IND_CALL, RVT_CTR_DIR_CALL, RVT_CTR_IND_JUMP,
    RVT_CTR_DIR_JUMP, RVT_CTR_CO_SWAP, RVT_CTR_RETURN, RVT_CTR_OTHER_IND_JUMP,
    RVT_CTR_OTHER_DIR_JUMP,
};
#define RVT_FUZZ_CTR_NTYPES (sizeof rvt_fuzz_ctr_types / sizeof rvt_fuzz_ctr_types[0])

/* Privilege modes 0 U, 1 S, 3 M (2 is reserved: M again). */
static const unsigned rvt_fuzz_privs[] = { 0, 1, 3, 3 };

/* ---- pmu ----
 * byte 0: bit 0 XLEN 32, bit 1 tally; then operations by opcode byte:
 *   < 0xA0 SBI call: fid (< 0xF0: fid mod 10, else 8 bytes), 6 arguments
 *   < 0xE0 counted events: priv, event mask:3, cycles:2
 *   else   firmware event: code (mod 32)
 * An argument is a tag byte and its payload (rvt_fuzz_pmu_arg). */
#define RVT_FUZZ_PMU_CALL 0x00u
#define RVT_FUZZ_PMU_COUNT 0xA0u
#define RVT_FUZZ_PMU_FW 0xE0u
#define RVT_FUZZ_PMU_RAM 0x80000000ull
#define RVT_FUZZ_PMU_RAMSZ 16384u
enum { RVT_FUZZ_ARG_ZERO = 0, RVT_FUZZ_ARG_BYTE = 1, RVT_FUZZ_ARG_RAM = 2, RVT_FUZZ_ARG_EVENT = 3,
       RVT_FUZZ_ARG_ONES = 4, RVT_FUZZ_ARG_BIT = 5, RVT_FUZZ_ARG_U64 = 7 };

/* Event indices worth trying: hardware general (cycles, instructions,
 * branches, one not offered), cache, raw and raw v2, firmware, reserved. */
static const uint32_t rvt_fuzz_pmu_events[] = {
    0x00001, 0x00002, 0x00005, 0x00003, 0x10000, 0x20000, 0x30000,
    0xF0000, 0xF0001, 0xF0003, 0xF0015, 0xF0016, 0xFFFFF, 0x100001,
};
#define RVT_FUZZ_PMU_NEVENTS (sizeof rvt_fuzz_pmu_events / sizeof rvt_fuzz_pmu_events[0])

static inline uint64_t rvt_fuzz_bytes(rvt_fuzz_in *in, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)rvt_fuzz_u8(in) << (8 * i);
    return v;
}

/* An argument register.  Tag bits 2:0 select the kind; for RAM, bits 7:6
 * shift the 2-byte offset and bits 5:3 are address bits cleared (an
 * unaligned address now and then); for EVENT and BIT, bits 7:3 index the
 * event table / give the bit. */
static inline uint64_t rvt_fuzz_pmu_arg(rvt_fuzz_in *in)
{
    uint8_t t = rvt_fuzz_u8(in);
    switch (t & 7) {
    case RVT_FUZZ_ARG_ZERO: return 0;
    case RVT_FUZZ_ARG_BYTE: return rvt_fuzz_u8(in);
    case RVT_FUZZ_ARG_RAM:
        return RVT_FUZZ_PMU_RAM + ((rvt_fuzz_bytes(in, 2) << (t >> 6)) & ~(uint64_t)((t >> 3) & 7));
    case RVT_FUZZ_ARG_EVENT: return rvt_fuzz_pmu_events[(t >> 3) % RVT_FUZZ_PMU_NEVENTS];
    case RVT_FUZZ_ARG_ONES: return UINT64_MAX;
    case RVT_FUZZ_ARG_BIT: return 1ull << (t >> 3);
    default: return rvt_fuzz_bytes(in, 8);
    }
}

#endif
