/* F and D encodings. */
#include "isa/isa_internal.h"

bool rvt_isa_decode_fp(uint32_t raw, unsigned xlen, rvt_insn *out)
{
    (void)raw; (void)xlen; (void)out;
    return false;
}

bool rvt_isa_decode16_fp(uint32_t raw, unsigned xlen, rvt_insn *out)
{
    (void)raw; (void)xlen; (void)out;
    return false;
}
