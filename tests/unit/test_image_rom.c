/* Spike's reset vector (src/image/image_rom.c): the words, by hand from
 * the ISA's instruction formats, what they disassemble to, and where the
 * image puts them. */
#include "rvtrace/image.h"
#include "rvtrace/isa.h"
#include "tharness.h"

static void words(void)
{
    /* auipc t0,0: U-type, imm 0, rd 5, opcode 0010111 -> 5 << 7 | 0x17.
     * addi a1,t0,32: imm 32 << 20, rs1 5 << 15, funct3 0, rd 11 << 7, 0x13.
     * csrr a0,mhartid = csrrs a0,0xf14,x0: 0xf14 << 20, funct3 2, rd 10, 0x73.
     * ld t0,24(t0): 24 << 20, rs1 5, funct3 3 (lw: 2), rd 5, opcode 0x03.
     * jr t0 = jalr x0,0(t0): rs1 5 << 15 | 0x67. */
    static const uint32_t want64[] = { 0x00000297, 0x02028593, 0xf1402573, 0x0182b283, 0x00028067 };
    uint32_t w[RVT_SPIKE_RESET_VECTOR_WORDS];
    rvt_spike_reset_vector_words(64, w);
    CHECK_MEM(w, want64, sizeof want64);
    rvt_spike_reset_vector_words(32, w);
    CHECK_EQ(w[3], 0x0182a283);
    CHECK_EQ(w[0], want64[0]);
    CHECK_EQ(w[4], want64[4]);
}

/* The text is objdump's (binutils 2.40 on these bytes): it spells the
 * addi after an auipc of its base register `add`; the op is addi. */
static void disassembly(unsigned xlen, const char *load)
{
    const char *want[] = { "auipc\tt0,0x0", "add\ta1,t0,32", "csrr\ta0,mhartid", load, "jr\tt0" };
    const char *op[] = { "auipc", "addi", "csrrs", xlen == 32 ? "lw" : "ld", "jalr" };
    rvt_image *img = rvt_image_new();
    CHECK(img != NULL);
    if (!img)
        return;
    CHECK_EQ(rvt_image_add_spike_reset_vector(img, xlen), 0);
    uint8_t b[4];
    CHECK_EQ(rvt_image_read(img, 0x1000, b, 4), 4);
    CHECK_EQ(b[0], 0x97);                  /* little-endian: 0x00000297 */
    CHECK_EQ(b[1], 0x02);
    for (unsigned i = 0; i < 5; i++) {
        const rvt_insn *in = rvt_image_insn(img, 0x1000 + 4 * i);
        CHECK(in != NULL);
        if (!in)
            continue;
        CHECK_EQ(in->len, 4);
        CHECK_STR(rvt_isa_op_name(in->op), op[i]);
        char text[64];
        rvt_isa_disasm(in, 0x1000 + 4 * i, text, sizeof text, NULL, NULL);
        CHECK_STR(text, want[i]);
    }
    /* The jr is the only uninferable jump: its target comes from the trace. */
    const rvt_insn *jr = rvt_image_insn(img, 0x1010);
    CHECK(jr != NULL && rvt_isa_is_uninferable(jr));
    CHECK(rvt_image_insn(img, 0x1014) == NULL);
    rvt_image_free(img);
}

int main(void)
{
    words();
    disassembly(64, "ld\tt0,24(t0)");
    disassembly(32, "lw\tt0,24(t0)");
    return TH_DONE();
}
