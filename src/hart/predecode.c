/* Predecode cache: one hart_op per RAM half-word, allocated per 4 KiB page
 * on first fetch.  Stores into a page holding decodes clear the slots they
 * overlap (self-modifying code works without fence.i, as on QEMU); fence.i
 * clears everything (Zifencei). */
#include <stdlib.h>
#include "hart_int.h"

static bool rv64_only(unsigned op)
{
    switch (op) {
    case RVT_OP_LD: case RVT_OP_SD: case RVT_OP_LWU:
    case RVT_OP_ADDIW: case RVT_OP_SLLIW: case RVT_OP_SRLIW: case RVT_OP_SRAIW:
    case RVT_OP_ADDW: case RVT_OP_SUBW: case RVT_OP_SLLW: case RVT_OP_SRLW: case RVT_OP_SRAW:
    case RVT_OP_MULW: case RVT_OP_DIVW: case RVT_OP_DIVUW: case RVT_OP_REMW: case RVT_OP_REMUW:
        return true;
    default:
        return op >= RVT_OP_LR_D && op <= RVT_OP_AMOMAXU_D;
    }
}

/* Decode through the ISA layer, then reject what this hart does not have:
 * F/D without --isa ...fd, longer encodings, RV64-only ops on RV32, and 16-bit encodings
 * when C is off.  Illegal slots keep the instruction bits for xtval. */
static void fill(const rvt_hart *h, hart_op *o, uint32_t raw)
{
    rvt_insn in;
    memset(&in, 0, sizeof in);
    int rc = rvt_isa_decode(raw, h->xlen, &in);
    unsigned len = in.len ? in.len : rvt_isa_length((uint16_t)raw);
    /* A reserved >= 80-bit encoding: the hart fetched its first ILEN (32)
     * bits, which are what the illegal-instruction tval reports (priv
     * 3.1.16: the shortest of the instruction, its first ILEN bits and its
     * first MXLEN bits; QEMU agrees) */
    if (len == 0)
        len = 4;
    memset(o, 0, sizeof *o);
    o->len = (uint8_t)len;
    o->raw = len == 2 ? (raw & 0xffff) : raw;
    unsigned op = rc < 0 ? RVT_OP_ILLEGAL : in.op;
    if ((op >= RVT_OP_BASE_COUNT && h->cfg.no_fp) || len > 4 || (len == 2 && h->cfg.no_compressed) ||
        (h->xlen == 32 && rv64_only(op)))
        op = RVT_OP_ILLEGAL;
    o->op = (uint16_t)op;
    if (op == RVT_OP_ILLEGAL)
        return;
    o->imm = in.imm;
    o->csr = op >= RVT_OP_BASE_COUNT ? (uint16_t)(in.rs3 | in.aqrl << 8) : in.csr;
    o->rd = in.rd;
    o->rs1 = in.rs1;
    o->rs2 = in.rs2;
    o->itype_t = (uint8_t)rvt_isa_itype(&in, true);
    o->itype_n = (uint8_t)rvt_isa_itype(&in, false);
    o->uninf = op == RVT_OP_JALR;
    /* E-Trace 4.1.1: lui / c.lui / auipc may make the next jalr sequentially inferable */
    o->si_writer = (op == RVT_OP_LUI || op == RVT_OP_AUIPC) && in.rd != 0;
}

const hart_op *hart_fetch_raw(rvt_hart *h, uint32_t raw)
{
    fill(h, &h->tmp_op, raw);
    return &h->tmp_op;
}

/* Not in RAM: instruction access fault, xtval = the address (priv 3.1.16). */
static const hart_op *fetch_fault(rvt_hart *h, uint64_t pc)
{
    h->ifault_cause = CAUSE_FETCH_ACCESS;
    h->ifault_tval = pc;
    return NULL;
}

const hart_op *hart_fetch_slow(rvt_hart *h, uint64_t pc)
{
    uint64_t off = pc - h->ram_base;
    if (off >= h->ram_size && h->nregion) {
        const hart_op *o = hart_region_fetch(h, pc);   /* regions.c: not cached */
        return o ? o : fetch_fault(h, pc);
    }
    if (off >= h->ram_size || (pc & 1))
        return fetch_fault(h, pc);
    uint64_t avail = h->ram_size - off;
    uint32_t raw = 0;
    memcpy(&raw, h->ram + off, avail >= 4 ? 4 : 2);
    if (rvt_isa_length((uint16_t)raw) != 2 && avail < 4)
        return fetch_fault(h, pc);
    size_t page = off >> HART_PAGE_SHIFT;
    size_t idx = (off & (HART_PAGE_SIZE - 1)) >> 1;
    bool crosses = idx == HART_OPS_PER_PAGE - 1 && rvt_isa_length((uint16_t)raw) != 2;
    if (!crosses && !h->pages[page])
        h->pages[page] = calloc(HART_OPS_PER_PAGE, sizeof(hart_op));
    if (crosses || !h->pages[page]) {
        /* not cached: decoded again at every fetch */
        fill(h, &h->tmp_op, raw);
        return &h->tmp_op;
    }
    hart_op *o = &h->pages[page][idx];
    fill(h, o, raw);
    h->code[page] = 1;
    return o;
}

void hart_code_store(rvt_hart *h, uint64_t off, unsigned size)
{
    uint64_t first = off >= 2 ? off - 2 : 0;
    for (uint64_t a = first & ~1ull; a < off + size; a += 2) {
        hart_op *pg = h->pages[a >> HART_PAGE_SHIFT];
        if (pg)
            pg[(a & (HART_PAGE_SIZE - 1)) >> 1].len = 0;
    }
}

void hart_flush_icache(rvt_hart *h)
{
    for (size_t p = 0; p < h->npages; p++) {
        if (h->code[p] && h->pages[p])
            memset(h->pages[p], 0, HART_OPS_PER_PAGE * sizeof(hart_op));
        h->code[p] = 0;
    }
}
