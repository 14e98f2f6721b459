/* Instruction formats of the unprivileged spec (2.2 figure 2.2, 11.x R4)
 * as packing macros, written independently of the decoder; shared by the
 * ISA unit tests. */
#ifndef RVT_TEST_ISA_ENC_H
#define RVT_TEST_ISA_ENC_H

#include <stdint.h>

/* R: funct7[31:25] rs2[24:20] rs1[19:15] funct3[14:12] rd[11:7] opcode[6:0] */
#define R(f7, rs2, rs1, f3, rd, opc) \
    (((uint32_t)(f7) << 25) | ((rs2) << 20) | ((rs1) << 15) | ((f3) << 12) | ((rd) << 7) | (opc))
/* I: imm[11:0] at [31:20] */
#define I(imm, rs1, f3, rd, opc) \
    ((((uint32_t)(imm) & 0xfff) << 20) | ((rs1) << 15) | ((f3) << 12) | ((rd) << 7) | (opc))
/* S: imm[11:5] at [31:25], imm[4:0] at [11:7] */
#define S(imm, rs2, rs1, f3, opc) \
    (((((uint32_t)(imm) >> 5) & 0x7f) << 25) | ((rs2) << 20) | ((rs1) << 15) | ((f3) << 12) | \
     (((uint32_t)(imm) & 0x1f) << 7) | (opc))
/* B: imm[12|10:5] at [31:25], imm[4:1|11] at [11:7] */
#define BR(imm, rs2, rs1, f3) \
    (((((uint32_t)(imm) >> 12) & 1) << 31) | ((((uint32_t)(imm) >> 5) & 0x3f) << 25) | \
     ((rs2) << 20) | ((rs1) << 15) | ((f3) << 12) | ((((uint32_t)(imm) >> 1) & 0xf) << 8) | \
     ((((uint32_t)(imm) >> 11) & 1) << 7) | 0x63)
/* U: imm[31:12] */
#define U(imm, rd, opc) (((uint32_t)(imm) & 0xfffff000u) | ((rd) << 7) | (opc))
/* J: imm[20|10:1|11|19:12] at [31:12] */
#define J(imm, rd) \
    (((((uint32_t)(imm) >> 20) & 1) << 31) | ((((uint32_t)(imm) >> 1) & 0x3ff) << 21) | \
     ((((uint32_t)(imm) >> 11) & 1) << 20) | ((((uint32_t)(imm) >> 12) & 0xff) << 12) | \
     ((rd) << 7) | 0x6f)
/* AMO: funct5[31:27] aq[26] rl[25] rs2 rs1 funct3 rd 0101111 */
#define AMO(f5, aqrl, rs2, rs1, w, rd) R(((f5) << 2) | (aqrl), rs2, rs1, (w), rd, 0x2f)

/* R4: rs3[31:27] fmt[26:25] rs2 rs1 rm rd opcode */
#define R4(rs3, fmt, rs2, rs1, rm, rd, opc) R(((rs3) << 2) | (fmt), rs2, rs1, rm, rd, opc)

#endif
