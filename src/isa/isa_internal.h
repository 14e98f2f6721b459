/* Internal helpers shared by the ISA layer's decoders, classifier and
 * disassembler.  Include as "isa/isa_internal.h". */
#ifndef RVT_ISA_INTERNAL_H
#define RVT_ISA_INTERNAL_H

#include "rvtrace/isa.h"
#include "util/bitio.h"

/* Bits hi..lo of an encoding (unprivileged spec 2.2 notation inst[hi:lo]). */
static inline uint32_t rvt_isa_bits(uint32_t raw, unsigned hi, unsigned lo)
{
    return (raw >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* Each sub-decoder fills `out` (already zeroed, raw/len set) and returns
 * false for an encoding it does not accept on this XLEN. */
bool rvt_isa_decode32(uint32_t raw, unsigned xlen, rvt_insn *out);
bool rvt_isa_decode16(uint32_t raw, unsigned xlen, rvt_insn *out);
bool rvt_isa_decode_fp(uint32_t raw, unsigned xlen, rvt_insn *out);

/* rvt_isa_fp_operands: which operand fields name f registers. */
#define RVT_FPR_RD 0x1u
#define RVT_FPR_RS1 0x2u
#define RVT_FPR_RS2 0x4u
#define RVT_FPR_RS3 0x8u
unsigned rvt_isa_fp_operands(unsigned op);

/* Control-transfer class from the decoded fields (E-Trace 4.1.1). */
rvt_jclass rvt_isa_jclass(const rvt_insn *insn);

const char *rvt_isa_freg_name(unsigned reg);

/* CSR number -> standard name, or NULL (used by the disassembler). */
const char *rvt_isa_csr_name(unsigned csr);

#endif
