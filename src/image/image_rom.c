/* Spike's reset vector: the five instructions at 0x1000 that every trace
 * taken on Spike starts with (riscv-isa-sim, sim.cc, reset_vec), so that
 * its streams decode without a hand-made ROM image.  Only the code: the
 * words after it (the start address at 0x1018 that `ld/lw t0,24(t0)`
 * loads, and the device tree) never execute, and the jump's target comes
 * from the trace (an uninferable jump). */
#include "rvtrace/image.h"

/* Encodings by hand from the base ISA formats (unprivileged ISA 2.4-2.6,
 * Zicsr for csrrs; register numbers t0 = x5, a0 = x10, a1 = x11):
 * U-type imm[31:12] rd opcode, I-type imm[11:0] rs1 funct3 rd opcode. */
#define U_TYPE(imm20, rd, op) (((uint32_t)(imm20) << 12) | ((rd) << 7) | (op))
#define I_TYPE(imm12, rs1, f3, rd, op) \
    (((uint32_t)(imm12) << 20) | ((rs1) << 15) | ((f3) << 12) | ((rd) << 7) | (op))

void rvt_spike_reset_vector_words(unsigned xlen, uint32_t w[RVT_SPIKE_RESET_VECTOR_WORDS])
{
    w[0] = U_TYPE(0, 5, 0x17);                      /* auipc t0,0          0x00000297 */
    w[1] = I_TYPE(32, 5, 0, 11, 0x13);              /* addi  a1,t0,32      0x02028593 */
    w[2] = I_TYPE(0xf14, 0, 2, 10, 0x73);           /* csrr  a0,mhartid    0xf1402573 */
    w[3] = I_TYPE(24, 5, xlen == 32 ? 2 : 3, 5, 0x03); /* lw/ld t0,24(t0) 0x0182a283/0x0182b283 */
    w[4] = I_TYPE(0, 5, 0, 0, 0x67);                /* jr    t0 (jalr x0)  0x00028067 */
}

int rvt_image_add_spike_reset_vector(rvt_image *img, unsigned xlen)
{
    uint32_t w[RVT_SPIKE_RESET_VECTOR_WORDS];
    uint8_t bytes[sizeof w];
    rvt_spike_reset_vector_words(xlen, w);
    for (unsigned i = 0; i < RVT_SPIKE_RESET_VECTOR_WORDS; i++)
        for (unsigned b = 0; b < 4; b++)
            bytes[4 * i + b] = (uint8_t)(w[i] >> (8 * b));   /* little-endian */
    return rvt_image_add_bytes(img, RVT_SPIKE_RESET_VECTOR, bytes, sizeof bytes,
                               "spike reset vector");
}
