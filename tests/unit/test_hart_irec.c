/* Reference hart: the ingress records (E-Trace 4.2, tables 4.1-4.3, the
 * multiple-retirement grouping of 4.2.5, and 4.4 data records), checked
 * field by field against blocks derived by hand from the listings. */
#include "test_hart_util.h"

/* retire_width 1: one block per instruction. */
static const tinsn rec1[] = {
    I4(0x00000297), /* 00000: auipc x5,0x0 */
    I4(0x04428293), /* 00004: addi x5,x5,68 */
    I4(0x30529073), /* 00008: csrrw x0,mtvec,x5 */
    I4(0x00100293), /* 0000c: addi x5,x0,1 */
    I4(0x00000463), /* 00010: beq x0,x0,80000018 */
    I4(0x00000013), /* 00014: addi x0,x0,0 */
    I4(0x00001063), /* 00018: bne x0,x0,80000018 */
    I4(0x00000317), /* 0001c: auipc x6,0x0 */
    I4(0x00c30067), /* 00020: jalr x0,12(x6) */
    I4(0x00000013), /* 00024: addi x0,x0,0 */
    I4(0x004000ef), /* 00028: jal x1,8000002c */
    I4(0x00000073), /* 0002c: ecall  */
    I4(0x0000000b), /* 00030: .word 0x0000000b */
    I4(0x00100fb7), /* 00034: lui x31,0x100 */
    I4(0x00005f37), /* 00038: lui x30,0x5 */
    I4(0x555f0f13), /* 0003c: addi x30,x30,1365 */
    I4(0x01efa023), /* 00040: sw x30,0(x31) */
    I4(0x341023f3), /* 00044: csrrs x7,mepc,x0 */
    I4(0x00438393), /* 00048: addi x7,x7,4 */
    I4(0x34139073), /* 0004c: csrrw x0,mepc,x7 */
    I4(0x30200073), /* 00050: mret  */
};

typedef struct wantrec {
    uint64_t iaddr;      /* offset from TBASE */
    uint32_t iretire;
    uint8_t itype, ilastsize, sijump;
    uint16_t cause;
    uint64_t tval;
    uint8_t flags;
} wantrec;

static void check_recs(const tcap *c, size_t first, const wantrec *w, size_t n)
{
    CHECK(c->n >= first + n);
    for (size_t i = 0; i < n && first + i < c->n; i++) {
        const rvt_irec *r = &c->rec[first + i];
        bool ok = r->iaddr == TBASE + w[i].iaddr && r->iretire == w[i].iretire &&
                  r->itype == w[i].itype && r->ilastsize == w[i].ilastsize &&
                  r->sijump == w[i].sijump && r->flags == w[i].flags &&
                  (w[i].itype > 2 || w[i].itype == 0 || (r->cause == w[i].cause && r->tval == w[i].tval));
        if (ok) {
            th_passed++;
        } else {
            TH_FAIL("record %zu: iaddr 0x%" PRIx64 " iretire %u itype %u ilastsize %u sijump %u "
                    "cause %u tval 0x%" PRIx64 " flags %u", first + i, r->iaddr, r->iretire,
                    r->itype, r->ilastsize, r->sijump, r->cause, r->tval, r->flags);
        }
    }
}

static void test_width1(void)
{
    trun t;
    trun_start(&t, rec1, NINSN(rec1), NULL);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    const uint8_t E = RVT_IREC_F_CYCLE_END;
    /* Derivation: every 4-byte instruction is iretire 2, ilastsize 1.
     * beq taken = 5, bne not taken = 4; jalr x0,12(x6) right after
     * auipc x6 = uninferable tail call (10) with sijump; jal x1 = inferable
     * call (9); ecall retires with itype 1 cause 11 tval 0; the custom-0
     * word does not retire: iretire 0 at its own address, cause 2, tval =
     * its bits.  Priv M throughout; every block ends its cycle. */
    static const wantrec w[] = {
        { 0x00, 2, 0, 1, 0, 0, 0, E },        /* auipc */
        { 0x04, 2, 0, 1, 0, 0, 0, E },        /* addi */
        { 0x08, 2, 0, 1, 0, 0, 0, E },        /* csrw mtvec */
        { 0x0c, 2, 0, 1, 0, 0, 0, E },        /* addi */
        { 0x10, 2, 5, 1, 0, 0, 0, E },        /* beq taken */
        { 0x18, 2, 4, 1, 0, 0, 0, E },        /* bne not taken */
        { 0x1c, 2, 0, 1, 0, 0, 0, E },        /* auipc x6 */
        { 0x20, 2, 10, 1, 1, 0, 0, E },       /* jalr x0: tail, sijump */
        { 0x28, 2, 9, 1, 0, 0, 0, E },        /* jal x1 */
        { 0x2c, 2, 1, 1, 0, 11, 0, E },       /* ecall */
        { 0x44, 2, 0, 1, 0, 0, 0, E },        /* handler: csrr */
        { 0x48, 2, 0, 1, 0, 0, 0, E },
        { 0x4c, 2, 0, 1, 0, 0, 0, E },
        { 0x50, 2, 3, 1, 0, 0, 0, E },        /* mret */
        { 0x30, 0, 1, 0, 0, 2, 0xb, E },      /* illegal: not retired */
    };
    check_recs(t.cap, 0, w, NINSN(w));
    for (size_t i = 0; i < t.cap->n; i++)
        CHECK_EQ(t.cap->rec[i].priv, 3);
    CHECK_EQ(t.cap->ends, 1);
    trun_free(&t);
}

/* retire_width 4, in the style of E-Trace table 4.8: divuw, add, or,
 * c.jalr end one block (iretire 7 = 2+2+2+1 half-words, itype 8: c.jalr
 * a5 is an uninferable call); then addi, c.beqz (not taken: iretire 3,
 * itype 4), c.bnez (taken: iretire 1, itype 5) and lbu, which fills the
 * cycle (iretire 2, itype 0) -- three blocks in one cycle, CYCLE_END on the
 * last. */
static const tinsn rec4[] = {
    I4(0x00000797), /* 00000: auipc x15,0x0 */
    I4(0x01a78793), /* 00004: addi x15,x15,26 */
    I2(0x451d), /* 00008: c.li x10,7 */
    I2(0x4589), /* 0000a: c.li x11,2 */
    I4(0x02b5563b), /* 0000c: divuw x12,x10,x11 */
    I4(0x00b506b3), /* 00010: add x13,x10,x11 */
    I4(0x00b56733), /* 00014: or x14,x10,x11 */
    I2(0x9782), /* 00018: c.jalr x15 */
    I4(0x00150513), /* 0001a: addi x10,x10,1 */
    I2(0xc191), /* 0001e: c.beqz x11,80000022 */
    I2(0xe191), /* 00020: c.bnez x11,80000024 */
    I2(0x0001), /* 00022: c.addi x0,0 */
    I4(0x0007c603), /* 00024: lbu x12,0(x15) */
    I4(0x34051073), /* 00028: csrrw x0,mscratch,x10 */
    I4(0x00100fb7), /* 0002c: lui x31,0x100 */
    I4(0x00005f37), /* 00030: lui x30,0x5 */
    I4(0x555f0f13), /* 00034: addi x30,x30,1365 */
    I4(0x01efa023), /* 00038: sw x30,0(x31) */
};

static void test_width4(void)
{
    rvt_hart_cfg cfg = { .retire_width = 4 };
    trun t;
    trun_start(&t, rec4, NINSN(rec4), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    const uint8_t E = RVT_IREC_F_CYCLE_END;
    static const wantrec w[] = {
        { 0x00, 6, 0, 0, 0, 0, 0, E },       /* auipc, addi, c.li, c.li: cycle full */
        { 0x0c, 7, 8, 0, 0, 0, 0, E },       /* divuw, add, or, c.jalr */
        { 0x1a, 3, 4, 0, 0, 0, 0, 0 },       /* addi, c.beqz not taken */
        { 0x20, 1, 5, 0, 0, 0, 0, 0 },       /* c.bnez taken */
        { 0x24, 2, 0, 1, 0, 0, 0, E },       /* lbu: 4th of the cycle */
        { 0x28, 8, 0, 1, 0, 0, 0, E },       /* csrrw, lui, lui, addi */
        { 0x38, 2, 0, 1, 0, 0, 0, E },       /* sw to the finisher, closed at finish */
    };
    check_recs(t.cap, 0, w, NINSN(w));
    CHECK_EQ(t.cap->n, NINSN(w));
    for (size_t i = 0; i < t.cap->n; i++)
        CHECK_EQ(t.cap->rec[i].ninstr, i == 2 ? 2 : i == 3 || i == 4 || i == 6 ? 1 : 4);
    rvt_hart_stats st;
    rvt_hart_get_stats(t.h, &st);
    CHECK_EQ(st.cycles, 5);
    trun_free(&t);
}

/* E-Trace 4.4: one data record per access, delivered after the block of its
 * instruction: sd (store 5), ld (load 5), amoadd.w (operand 5, old 0),
 * csrrw mscratch (write 5, old 0). */
static const tinsn data[] = {
    I4(0x00001517), /* 00000: auipc x10,0x1 */
    I4(0x00500313), /* 00004: addi x6,x0,5 */
    I4(0x00653423), /* 00008: sd x6,8(x10) */
    I4(0x00853383), /* 0000c: ld x7,8(x10) */
    I4(0x0065242f), /* 00010: amoadd.w x8,x6,(x10) */
    I4(0x340314f3), /* 00014: csrrw x9,mscratch,x6 */
    I4(0x00100fb7), /* 00018: lui x31,0x100 */
    I4(0x00005f37), /* 0001c: lui x30,0x5 */
    I4(0x555f0f13), /* 00020: addi x30,x30,1365 */
    I4(0x01efa023), /* 00024: sw x30,0(x31) */
};

static void test_data(void)
{
    rvt_hart_cfg cfg = { .data_records = true };
    trun t;
    trun_start(&t, data, NINSN(data), &cfg);
    CHECK_EQ(t.why, RVT_HART_EXITED);
    CHECK_EQ(t.cap->nd, 5);     /* + the finisher store */
    static const struct { unsigned dtype, dsize; uint64_t addr, data, data2; size_t after; } w[] = {
        { RVT_DTYPE_STORE, 3, TDATA + 8, 5, 0, 3 },
        { RVT_DTYPE_LOAD, 3, TDATA + 8, 5, 0, 4 },
        { RVT_DTYPE_AMO_ADD, 2, TDATA, 5, 0, 5 },
        { RVT_DTYPE_CSR_RW, 3, 0x340, 5, 0, 6 },
        { RVT_DTYPE_STORE, 2, 0x100000, 0x5555, 0, 10 },
    };
    for (size_t i = 0; i < NINSN(w) && i < t.cap->nd; i++) {
        const rvt_drec *d = &t.cap->d[i];
        CHECK_EQ(d->dtype, w[i].dtype);
        CHECK_EQ(d->dsize, w[i].dsize);
        CHECK_EQ(d->addr, w[i].addr);
        CHECK_EQ(d->data, w[i].data);
        CHECK_EQ(d->data2, w[i].data2);
        CHECK_EQ(t.cap->d_after[i], w[i].after);   /* right after its block */
        CHECK_EQ(d->iaddr, t.cap->rec[w[i].after - 1].iaddr);
    }
    trun_free(&t);
}

/* docs/hart.md "Context": records carry satp.ASID (0 while satp is Bare),
 * and the first record after a write that changes it has ctype 2, "report
 * context precisely" (E-Trace table 4.4); the writing csrrw still belongs
 * to the old context.  satp = 8 << 60 | 5 << 44 (Sv39, ASID 5, root 0:
 * M-mode never translates). */
static const tinsn ctxprog[] = {
    I4(0x00800293), /* 00000: addi x5,x0,8 */
    I4(0x03c29293), /* 00004: slli x5,x5,60 */
    I4(0x00500313), /* 00008: addi x6,x0,5 */
    I4(0x02c31313), /* 0000c: slli x6,x6,44 */
    I4(0x0062e2b3), /* 00010: or x5,x5,x6 */
    I4(0x18029073), /* 00014: csrrw x0,satp,x5 */
    I4(0x00000013), /* 00018: addi x0,x0,0   ASID 5, ctype 2 */
    I4(0x18029073), /* 0001c: csrrw x0,satp,x5   the same: no change */
    I4(0x00000013), /* 00020: addi x0,x0,0   ASID 5, ctype 0 */
    I4(0x18001073), /* 00024: csrrw x0,satp,x0   Bare */
    I4(0x00000013), /* 00028: addi x0,x0,0   context 0, ctype 2 */
    I4(0x00100fb7), /* 0002c: lui x31,0x100 */
    I4(0x00005f37), /* 00030: lui x30,0x5 */
    I4(0x555f0f13), /* 00034: addi x30,x30,1365 */
    I4(0x01efa023), /* 00038: sw x30,0(x31) */
};

/* The record holding the instruction at TBASE + off. */
static const rvt_irec *rec_at(const tcap *c, uint64_t off)
{
    for (size_t i = 0; i < c->n; i++) {
        const rvt_irec *r = &c->rec[i];
        if (TBASE + off >= r->iaddr && TBASE + off < r->iaddr + 2ull * r->iretire)
            return r;
    }
    return NULL;
}

static void check_ctx(const tcap *c, uint64_t off, uint64_t ctx, unsigned ctype, bool starts)
{
    const rvt_irec *r = rec_at(c, off);
    CHECK(r != NULL);
    if (!r)
        return;
    if (r->context != ctx || r->ctype != ctype || (starts && r->iaddr != TBASE + off))
        TH_FAIL("insn at +0x%" PRIx64 ": record at 0x%" PRIx64 " context %" PRIu64 " ctype %u, "
                "want context %" PRIu64 " ctype %u%s", off, r->iaddr, r->context, r->ctype, ctx,
                ctype, starts ? " starting there" : "");
    else
        th_passed++;
}

static void test_context(unsigned width)
{
    trun t;
    rvt_hart_cfg cfg = { .retire_width = width };
    trun_start(&t, ctxprog, NINSN(ctxprog), &cfg);
    check_ctx(t.cap, 0x10, 0, 0, false);
    check_ctx(t.cap, 0x14, 0, 0, false);   /* the write itself: old context */
    check_ctx(t.cap, 0x18, 5, 2, true);
    check_ctx(t.cap, 0x28, 0, 2, true);
    if (width == 1) {
        check_ctx(t.cap, 0x1c, 5, 0, false);
        check_ctx(t.cap, 0x20, 5, 0, false);
    } else {
        check_ctx(t.cap, 0x1c, 5, 2, false);   /* in 0x18's block */
    }
    trun_free(&t);
}

int main(void)
{
    test_context(1);
    test_context(4);
    test_width1();
    test_width4();
    test_data();
    return TH_DONE();
}
