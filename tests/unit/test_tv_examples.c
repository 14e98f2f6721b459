/* TV spec Appendix C, byte-exact: each table's items are encoded with the
 * Appendix C parameters (rv64gc, Sv48: XLEN=64, FLEN=64, MLEN=64) and must
 * give the bytes of the table's "Bytes" column; the bytes must decode back
 * to the same items.  The expected bytes are copied from the spec tables
 * (hex); where the draft's own bytes contradict its ch. 2 tables, the
 * comment says which was chosen (docs/tv.md "Appendix C errata"). */
#include "tharness.h"
#include "rvtrace/tv.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const rvt_tv_cfg C64 = { 64, 64, 64 };

static void check_example(const char *name, const rvt_tv_item *items, size_t n,
                          const uint8_t *want, size_t want_len)
{
    uint8_t got[512];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        int r = rvt_tv_encode(&C64, &items[i], got + len);
        CHECK(r > 0);
        if (r > 0)
            len += (size_t)r;
    }
    if (len != want_len || memcmp(got, want, len))
        TH_FAIL("%s: encoded bytes differ (%zu vs %zu bytes)", name, len, want_len);
    else
        th_passed++;
    /* decode back: same ops and fields */
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        rvt_tv_item it = { 0 };
        int r = rvt_tv_decode(&C64, want + pos, want_len - pos, -1, &it);
        CHECK(r > 0);
        if (r <= 0)
            return;
        pos += (size_t)r;
        CHECK_EQ(it.op, items[i].op);
        CHECK_EQ(it.reg, items[i].reg);
        CHECK_EQ(it.id, items[i].id);
        CHECK_EQ(it.value, items[i].value);
    }
    CHECK_EQ(pos, want_len);
}

#define B RVT_TV_BEGIN
#define E RVT_TV_END
#define EX(name, items, bytes) check_example(name, items, N(items), bytes, sizeof bytes)

/* C.1 add gp, t0, t1: 01 begin; 03 incr pc; 11 = opcode 17 (32-bit insn);
 * b3 81 62 00 = 0x006281b3 little endian; 04 full reg; 03 10 = 0x1003
 * (GPR base 0x1000 + x3, debug-spec numbering); gp = 0x1234 in 8 bytes LE;
 * 02 end. */
static void c1(void)
{
    static const uint8_t want[] = { 0x01, 0x03, 0x11, 0xb3, 0x81, 0x62, 0x00, 0x04, 0x03, 0x10,
                                    0x34, 0x12, 0, 0, 0, 0, 0, 0, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_INCR_PC }, { .op = RVT_TV_INSN32, .value = 0x006281b3 },
        { .op = RVT_TV_FULL_REG, .reg = 0x1003, .value = 0x1234 }, { .op = E },
    };
    EX("C.1", it, want);
}

/* C.2 jr 256(sp): 07 additional state; identifier pc; new pc 00 01 00 0c
 * ... = 0x0c000100.  The table prints the identifier as "10" in its hex
 * Bytes column, but ch. 2 defines pc as identifier 10 (decimal; the same
 * table's privilege and paddr rows print 01 and 02, and opcode 17 prints
 * as 11): we write 0x0a.  11 = 32-bit insn 0x10010067 (jalr x0, 256(x2)). */
static void c2(void)
{
    static const uint8_t want[] = { 0x01, 0x07, 0x0a, 0x00, 0x01, 0x00, 0x0c, 0, 0, 0, 0,
                                    0x11, 0x67, 0x00, 0x01, 0x10, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = 0x0c000100 },
        { .op = RVT_TV_INSN32, .value = 0x10010067 }, { .op = E },
    };
    EX("C.2", it, want);
}

/* C.3 fadd.s ft7, fa3, fa7: insn 0x0116f3d3; 27 10 = 0x1027 = FPR base
 * 0x1020 + f7, FLEN (64) bits of data: ffffffff66fef4f9 (NaN-boxed);
 * 06 OR-incremental; 03 00 = CSR 0x003 fcsr; mask 01. */
static void c3(void)
{
    static const uint8_t want[] = { 0x01, 0x03, 0x11, 0xd3, 0xf3, 0x16, 0x01, 0x04, 0x27, 0x10,
                                    0xf9, 0xf4, 0xfe, 0x66, 0xff, 0xff, 0xff, 0xff,
                                    0x06, 0x03, 0x00, 0x01, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_INCR_PC }, { .op = RVT_TV_INSN32, .value = 0x0116f3d3 },
        { .op = RVT_TV_FULL_REG, .reg = 0x1027, .value = 0xffffffff66fef4f9ull },
        { .op = RVT_TV_OR_REG, .reg = 0x0003, .value = 1 }, { .op = E },
    };
    EX("C.3", it, want);
}

/* C.4 c.sub a0, a1: 10 = opcode 16 (16-bit insn) with 2 bytes 0d 8d =
 * 0x8d0d; 10 10 = 0x1010 = x10; a0 = 0xffffffff12345678. */
static void c4(void)
{
    static const uint8_t want[] = { 0x01, 0x03, 0x10, 0x0d, 0x8d, 0x04, 0x10, 0x10,
                                    0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_INCR_PC }, { .op = RVT_TV_INSN16, .value = 0x8d0d },
        { .op = RVT_TV_FULL_REG, .reg = 0x1010, .value = 0xffffffff12345678ull }, { .op = E },
    };
    EX("C.4", it, want);
}

/* C.5 lw tp, 8(t0): the table labels "10" as "32-bit instruction" and
 * follows it with 4 bytes; opcode 16 takes 2, so the 32-bit opcode 17
 * (0x11) is meant and written here.  insn 0x0082a203; 04 10 = x4;
 * 07 02 = physical address, MLEN 64 = 8 bytes: 0x01000008. */
static void c5(void)
{
    static const uint8_t want[] = { 0x01, 0x03, 0x11, 0x03, 0xa2, 0x82, 0x00, 0x04, 0x04, 0x10,
                                    0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55, 0xaa, 0x55,
                                    0x07, 0x02, 0x08, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_INCR_PC }, { .op = RVT_TV_INSN32, .value = 0x0082a203 },
        { .op = RVT_TV_FULL_REG, .reg = 0x1004, .value = 0x55aa55aa55aa55aaull },
        { .op = RVT_TV_STATE, .id = RVT_TV_S_PADDR, .value = 0x01000008 }, { .op = E },
    };
    EX("C.5", it, want);
}

/* C.6 csrrc s1, mie, a1: insn 0x3045b4f3; 09 10 = x9 = 0x888; 04 03 =
 * CSR 0x304 mie = 0x880. */
static void c6(void)
{
    static const uint8_t want[] = { 0x01, 0x03, 0x11, 0xf3, 0xb4, 0x45, 0x30,
                                    0x04, 0x09, 0x10, 0x88, 0x08, 0, 0, 0, 0, 0, 0,
                                    0x04, 0x04, 0x03, 0x80, 0x08, 0, 0, 0, 0, 0, 0, 0x02 };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_INCR_PC }, { .op = RVT_TV_INSN32, .value = 0x3045b4f3 },
        { .op = RVT_TV_FULL_REG, .reg = 0x1009, .value = 0x888 },
        { .op = RVT_TV_FULL_REG, .reg = 0x0304, .value = 0x880 }, { .op = E },
    };
    EX("C.6", it, want);
}

/* The trap CSRs of C.7 and C.8: mepc 0x341, mcause 0x342, mstatus 0x300
 * (0x0000000a000018b0), mtval 0x343, then privilege (identifier 1) =
 * 3 (machine, PRIVLEN 2 zero-extended to 8 bits). */
#define TRAP_ITEMS(epc, cause) \
    { .op = RVT_TV_FULL_REG, .reg = 0x0341, .value = (epc) }, \
    { .op = RVT_TV_FULL_REG, .reg = 0x0342, .value = (cause) }, \
    { .op = RVT_TV_FULL_REG, .reg = 0x0300, .value = 0x0a000018b0ull }, \
    { .op = RVT_TV_FULL_REG, .reg = 0x0343, .value = 0 }, \
    { .op = RVT_TV_STATE, .id = RVT_TV_S_PRIV, .value = 3 }, { .op = E }
#define TRAP_BYTES(e0, e1, e2, c0, c7) \
    0x04, 0x41, 0x03, e0, e1, e2, 0, 0, 0, 0, 0, \
    0x04, 0x42, 0x03, c0, 0, 0, 0, 0, 0, 0, c7, \
    0x04, 0x00, 0x03, 0xb0, 0x18, 0, 0, 0x0a, 0, 0, 0, \
    0x04, 0x43, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, \
    0x07, 0x01, 0x03, 0x02

/* C.7 illegal instruction 00000000: pc identifier (0x0a, see C.2) with
 * the trap vector 0x10000; insn32 0; mepc 0x81234; mcause 2. */
static void c7(void)
{
    static const uint8_t want[] = { 0x01, 0x07, 0x0a, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0,
                                    0x11, 0, 0, 0, 0, TRAP_BYTES(0x34, 0x12, 0x08, 0x02, 0) };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = 0x10000 },
        { .op = RVT_TV_INSN32, .value = 0 }, TRAP_ITEMS(0x81234, 2),
    };
    EX("C.7", it, want);
}

/* C.8 interrupt: no instruction (ch. 3); mepc 0x81256; mcause
 * 0x8000000000000003 (interrupt bit 63, machine software interrupt). */
static void c8(void)
{
    static const uint8_t want[] = { 0x01, 0x07, 0x0a, 0x00, 0x00, 0x01, 0, 0, 0, 0, 0,
                                    TRAP_BYTES(0x56, 0x12, 0x08, 0x03, 0x80) };
    const rvt_tv_item it[] = {
        { .op = B }, { .op = RVT_TV_STATE, .id = RVT_TV_S_PC, .value = 0x10000 },
        TRAP_ITEMS(0x81256, 0x8000000000000003ull),
    };
    EX("C.8", it, want);
}

/* Items Appendix C does not show, from the ch. 2 tables.
 * Memory request, MLEN 64: 08, addr 8 bytes LE, then op in bits 3:0 and
 * size in bits 7:4 (ch. 3: "first field starting at the least significant
 * bit"), store of 32 bits: op 1, size 2 -> 0x21, data 4 bytes.  Response
 * of a load of 64 bits: 09, size 3 | result 0 << 4 = 0x03, 8 data bytes.
 * Incremental register x5 by -2: 05 05 10 fe.  mtime: 07 08 + 8 bytes.
 * Hart reset 0a, state initialization 0b. */
static void others(void)
{
    static const uint8_t store[] = { 0x08, 0x10, 0x32, 0x54, 0x76, 0, 0, 0, 0x80, 0x21,
                                     0xef, 0xbe, 0xad, 0xde };
    rvt_tv_item req = { .op = RVT_TV_MEM_REQ, .addr = 0x8000000076543210ull,
                        .mem_op = RVT_TV_M_STORE, .mem_size = 2, .has_data = true,
                        .data = 0xdeadbeef };
    uint8_t got[RVT_TV_ITEM_MAX];
    CHECK_EQ(rvt_tv_encode(&C64, &req, got), sizeof store);
    CHECK_MEM(got, store, sizeof store);
    /* a store's response has no data: 09 size 2, result 1 (failure) = 0x12 */
    static const uint8_t rsp_st[] = { 0x09, 0x12 };
    rvt_tv_item it = { 0 };
    CHECK_EQ(rvt_tv_decode(&C64, rsp_st, 2, RVT_TV_M_STORE, &it), 2);
    CHECK_EQ(it.mem_size, 2);
    CHECK_EQ(it.result, 1);
    CHECK(!it.has_data);
    static const uint8_t rsp_ld[] = { 0x09, 0x03, 1, 2, 3, 4, 5, 6, 7, 8 };
    CHECK_EQ(rvt_tv_decode(&C64, rsp_ld, sizeof rsp_ld, RVT_TV_M_LOAD, &it), 10);
    CHECK_EQ(it.data, 0x0807060504030201ull);
    /* without a request before it, a response cannot be sized */
    CHECK_EQ(rvt_tv_decode(&C64, rsp_ld, sizeof rsp_ld, -1, &it), RVT_ERR_FORMAT);
    static const uint8_t incr[] = { 0x05, 0x05, 0x10, 0xfe };
    rvt_tv_item inc = { .op = RVT_TV_INCR_REG, .reg = 0x1005, .value = (uint64_t)-2 };
    CHECK_EQ(rvt_tv_encode(&C64, &inc, got), 4);
    CHECK_MEM(got, incr, 4);
    CHECK_EQ(rvt_tv_decode(&C64, incr, 4, -1, &it), 4);
    CHECK_EQ(it.value, (uint64_t)-2);
    inc.value = 200;
    CHECK_EQ(rvt_tv_encode(&C64, &inc, got), RVT_ERR_RANGE);
    /* RV32 with MLEN 34 (Sv32): addresses take 5 bytes, GPRs 4 */
    rvt_tv_cfg c32 = { 32, 32, 34 };
    rvt_tv_item pa = { .op = RVT_TV_STATE, .id = RVT_TV_S_PADDR, .value = 0x312345678ull };
    static const uint8_t pa32[] = { 0x07, 0x02, 0x78, 0x56, 0x34, 0x12, 0x03 };
    CHECK_EQ(rvt_tv_encode(&c32, &pa, got), sizeof pa32);
    CHECK_MEM(got, pa32, sizeof pa32);
    rvt_tv_item wide = { .op = RVT_TV_FULL_REG, .reg = 0x1001, .value = 0x100000000ull };
    CHECK_EQ(rvt_tv_encode(&c32, &wide, got), RVT_ERR_RANGE);
    rvt_tv_item rst = { .op = RVT_TV_RESET }, ini = { .op = RVT_TV_INIT };
    CHECK_EQ(rvt_tv_encode(&C64, &rst, got), 1);
    CHECK_EQ(got[0], 0x0a);
    CHECK_EQ(rvt_tv_encode(&C64, &ini, got), 1);
    CHECK_EQ(got[0], 0x0b);
    /* undefined opcode / identifier / privilege above 3 are format errors */
    static const uint8_t bad_op[] = { 0x0c }, bad_id[] = { 0x07, 0x0b, 0 },
                         bad_priv[] = { 0x07, 0x01, 0x04 };
    CHECK_EQ(rvt_tv_decode(&C64, bad_op, 1, -1, &it), RVT_ERR_FORMAT);
    CHECK_EQ(rvt_tv_decode(&C64, bad_id, 3, -1, &it), RVT_ERR_FORMAT);
    CHECK_EQ(rvt_tv_decode(&C64, bad_priv, 3, -1, &it), RVT_ERR_FORMAT);
}

int main(void)
{
    c1(); c2(); c3(); c4(); c5(); c6(); c7(); c8();
    others();
    return TH_DONE();
}
