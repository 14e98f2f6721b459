/* mkops: seeds of the model fuzz targets (fuzz/targets/ctr.c, pmu.c) from
 * what rvtrace's hart did, in the operation encoding of fuzz/fuzz_ops.h.
 *
 *   mkops ctr RUN.rvi CONTROL OUT   -- `rvtrace run P.elf --ingress RUN.rvi
 *        --data-out F` (the .rvi then holds the data records): every
 *        control transfer becomes a transfer operation, every CSR access
 *        to a CTR CSR a CSR write, every *ireg access (after *iselect) an
 *        entry-register operation.  CONTROL: the --ctr-control value the
 *        run started with (written first).
 *   mkops pmu RUN.tvt XLEN OUT      -- `rvtrace run P.elf --tv RUN.tvt` of a
 *        program that makes SBI PMU calls: at every ecall with a7 =
 *        0x504D55 the registers a0..a6 become an SBI call; the
 *        instructions between calls become a counted-events operation.
 *
 * The operations are cut into seeds OUT-0, OUT-1, ... of at most 2 KB (the
 * targets' -max_len); each ctr seed after the first starts with a write of
 * the mctrcontrol value in force. */
#include "fuzz_ops.h"
#include "rvtrace/ingress.h"
#include "rvtrace/tv.h"

#define SEED_MAX 2048
#define MAX_SEEDS 16

typedef struct seeds {
    const char *out;
    uint8_t cfg;
    uint8_t buf[SEED_MAX];
    size_t n;
    unsigned count;
    uint64_t control;           /* ctr: mctrcontrol in force */
    bool ctr;
} seeds;

static void put(uint8_t *op, size_t *n, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        op[(*n)++] = (uint8_t)(v >> (8 * i));
}

static void flush(seeds *s)
{
    if (s->n <= 1 || s->count >= MAX_SEEDS)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s-%u", s->out, s->count++);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(s->buf, 1, s->n, f);
        fclose(f);
    }
    s->n = 0;
}

static void ctr_csr_write_op(uint8_t *op, size_t *n, unsigned csr, uint64_t v, unsigned priv)
{
    op[(*n)++] = RVT_FUZZ_CTR_CSRW;
    unsigned k = 0;
    while (k < RVT_FUZZ_CTR_NCSRS && rvt_fuzz_ctr_csrs[k] != csr)
        k++;
    op[(*n)++] = (uint8_t)k;
    if (k == RVT_FUZZ_CTR_NCSRS)
        put(op, n, csr, 2);
    put(op, n, v, 8);
    op[(*n)++] = (uint8_t)(priv == 3 ? 2 : priv);
    op[(*n)++] = 1;
}

/* Append one operation; a new seed starts when it does not fit. */
static void emit(seeds *s, const uint8_t *op, size_t n)
{
    if (s->n + n > SEED_MAX)
        flush(s);
    if (s->n == 0) {
        s->buf[s->n++] = s->cfg;
        if (s->ctr && s->control)
            ctr_csr_write_op(s->buf, &s->n, RVT_CSR_MCTRCONTROL, s->control, 3);
    }
    memcpy(s->buf + s->n, op, n);
    s->n += n;
}

/* ---- ctr ---- */

static void ctr_xfer(seeds *s, const rvt_irec *b, const rvt_irec *next)
{
    unsigned k = 0;
    while (k < RVT_FUZZ_CTR_NTYPES && rvt_fuzz_ctr_types[k] != b->itype)
        k++;
    if (k == RVT_FUZZ_CTR_NTYPES)
        return;                 /* no transfer (itype 0) or none CTR records */
    uint8_t op[32];
    size_t n = 0;
    /* E-Trace 4.2: iretire halfwords, the last instruction 2^ilastsize of them */
    uint64_t src = b->iaddr + 2ull * b->iretire - (2ull << b->ilastsize);
    uint64_t dt = next->time > b->time ? next->time - b->time : 0;
    op[n++] = RVT_FUZZ_CTR_XFER;
    op[n++] = (uint8_t)k;
    put(op, &n, src, 8);
    put(op, &n, next->iaddr, 8);
    op[n++] = (uint8_t)((b->priv == 3 ? 2 : b->priv & 3) | (next->priv == 3 ? 2 : next->priv & 3) << 2);
    op[n++] = (uint8_t)b->cause;
    put(op, &n, dt > 0xffff ? 0xffff : dt, 2);
    emit(s, op, n);
}

static void ctr_data(seeds *s, const rvt_drec *d, unsigned priv, unsigned *isel)
{
    if (d->dtype < RVT_DTYPE_CSR_RW || d->dtype > RVT_DTYPE_CSR_RC)
        return;
    /* rvt_te_data decoder / hart: data = operand, data2 = the old value */
    uint64_t v = d->dtype == RVT_DTYPE_CSR_RW ? d->data
               : d->dtype == RVT_DTYPE_CSR_RS ? d->data2 | d->data : d->data2 & ~d->data;
    unsigned csr = (unsigned)d->addr;
    uint8_t op[32];
    size_t n = 0;
    if (csr == 0x350 || csr == 0x150) {         /* miselect, siselect */
        *isel = (unsigned)v & 0xfff;
        return;
    }
    unsigned low = csr & 0xff;
    if ((csr >> 8 == 3 || csr >> 8 == 1) && low >= 0x51 && low <= 0x57 && low != 0x54) {
        unsigned reg = low == 0x51 ? 1 : low >= 0x55 ? low - 0x51 : low - 0x50;
        bool write = d->dtype == RVT_DTYPE_CSR_RW || d->data;
        op[n++] = RVT_FUZZ_CTR_IREG;
        op[n++] = write;
        put(op, &n, (*isel - RVT_FUZZ_CTR_SEL_BASE) & 0xffff, 2);
        op[n++] = (uint8_t)reg;
        if (write)
            put(op, &n, v, 8);
        emit(s, op, n);
        return;
    }
    for (unsigned k = 0; k < RVT_FUZZ_CTR_NCSRS; k++) {
        if (rvt_fuzz_ctr_csrs[k] != csr)
            continue;
        ctr_csr_write_op(op, &n, csr, v, priv);
        emit(s, op, n);
        if (csr == RVT_CSR_MCTRCONTROL)
            s->control = v;
        op[0] = RVT_FUZZ_CTR_CHECK;
        emit(s, op, 1);
        return;
    }
}

static int mk_ctr(const char *rvi, uint64_t control, seeds *s)
{
    int st = 0;
    rvt_rvi_reader *r = rvt_rvi_reader_open(rvi, &st);
    if (!r)
        return 1;
    s->ctr = true;
    s->control = control;
    s->cfg = rvt_rvi_reader_xlen(r) == 32 ? 1 : 0;
    rvt_irec b, prev;
    rvt_drec d;
    bool is_data, have = false;
    unsigned isel = 0;
    while (rvt_rvi_reader_next(r, &b, &d, &is_data) > 0) {
        if (is_data) {
            ctr_data(s, &d, have ? prev.priv : 3, &isel);
            continue;
        }
        if (have)
            ctr_xfer(s, &prev, &b);
        prev = b;
        have = true;
    }
    rvt_rvi_reader_close(r);
    flush(s);
    return 0;
}

/* ---- pmu ---- */

static void pmu_arg(uint8_t *op, size_t *n, uint64_t v)
{
    if (v == 0) {
        op[(*n)++] = RVT_FUZZ_ARG_ZERO;
    } else if (v < 256) {
        op[(*n)++] = RVT_FUZZ_ARG_BYTE;
        op[(*n)++] = (uint8_t)v;
    } else if (v >= RVT_FUZZ_PMU_RAM && v - RVT_FUZZ_PMU_RAM < 0x10000) {
        op[(*n)++] = RVT_FUZZ_ARG_RAM;
        put(op, n, v - RVT_FUZZ_PMU_RAM, 2);
    } else {
        op[(*n)++] = RVT_FUZZ_ARG_U64;
        put(op, n, v, 8);
    }
}

static void pmu_call(seeds *s, const uint64_t *x, uint64_t insns)
{
    uint8_t op[80];
    size_t n = 0;
    if (insns) {            /* the instructions since the last call, in S-mode */
        op[n++] = RVT_FUZZ_PMU_COUNT;
        op[n++] = 1;
        put(op, &n, 1u << RVT_PMU_EV_INSTRUCTIONS | 1u << RVT_PMU_EV_BRANCHES, 3);
        put(op, &n, insns > 0xffff ? 0xffff : insns, 2);
    }
    op[n++] = RVT_FUZZ_PMU_CALL;
    uint64_t fid = x[16];
    if (fid < 10) {
        op[n++] = (uint8_t)fid;
    } else {
        op[n++] = 0xF0;
        put(op, &n, fid, 8);
    }
    for (unsigned i = 10; i < 16; i++)
        pmu_arg(op, &n, x[i]);
    emit(s, op, n);
}

static int mk_pmu(const char *tvt, unsigned xlen, seeds *s)
{
    size_t len = 0;
    FILE *f = fopen(tvt, "rb");
    if (!f)
        return 1;
    static uint8_t buf[1 << 22];
    len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    rvt_tv_cfg cfg = { xlen, xlen, xlen };
    int st = 0;
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&cfg, buf, len, &st);
    if (!r)
        return 1;
    uint64_t x[32] = { 0 }, mask = xlen == 32 ? 0xffffffffull : UINT64_MAX, insns = 0;
    rvt_tv_item it;
    uint64_t eoff;
    unsigned errors = 0;
    while ((st = rvt_tv_reader_next(r, &it, &eoff)) != RVT_ERR_EOS) {
        if (st < 0) {
            if (st == RVT_ERR_TRUNC || ++errors > 100)
                break;
            continue;
        }
        if (it.op == RVT_TV_INSN32 || it.op == RVT_TV_INSN16) {
            insns++;
            if (it.op == RVT_TV_INSN32 && it.value == 0x00000073 && x[17] == RVT_SBI_EXT_PMU) {
                pmu_call(s, x, insns);
                insns = 0;
            }
            continue;
        }
        if (it.reg < RVT_TV_REG_GPR(0) || it.reg >= RVT_TV_REG_GPR(32))
            continue;
        uint64_t *g = &x[it.reg - RVT_TV_REG_GPR(0)];
        if (it.op == RVT_TV_FULL_REG) *g = it.value & mask;
        else if (it.op == RVT_TV_INCR_REG) *g = (*g + it.value) & mask;
        else if (it.op == RVT_TV_OR_REG) *g = (*g | it.value) & mask;
    }
    rvt_tv_reader_free(r);
    flush(s);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: mkops ctr RUN.rvi CONTROL OUT | mkops pmu RUN.tvt XLEN OUT\n");
        return 2;
    }
    static seeds s;
    s.out = argv[4];
    uint64_t v = strtoull(argv[3], NULL, 0);
    if (!strcmp(argv[1], "ctr"))
        return mk_ctr(argv[2], v, &s);
    s.cfg = v == 32 ? 1 : 0;
    return mk_pmu(argv[2], v == 32 ? 32 : 64, &s);
}

/* The shared headers declare the fuzzer entry points; this tool has none. */
int LLVMFuzzerInitialize(int *argc, char ***argv) { (void)argc; (void)argv; return 0; }
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { (void)data; (void)size; return 0; }
