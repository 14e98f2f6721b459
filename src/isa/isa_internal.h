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
bool rvt_isa_decode16_fp(uint32_t raw, unsigned xlen, rvt_insn *out);

/* Control-transfer class from the decoded fields (E-Trace 4.1.1). */
rvt_jclass rvt_isa_jclass(const rvt_insn *insn);

/* CSR number -> standard name, or NULL (used by the disassembler). */
const char *rvt_isa_csr_name(unsigned csr);

#endif
