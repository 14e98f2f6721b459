/* The reference flow's Spike-style instruction trace CSV:
 *   VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT
 * one row per executed instruction.  A synchronous trap marks the row of
 * the trapping instruction (EXCEPTION=1; it retired only if it is an ecall
 * or ebreak) and the next row is the handler; an interrupt marks the last
 * retired row (INTERRUPT=1).  Rows are held back by one so each row's
 * itype can see where execution went next. */
#include <stdlib.h>
#include <string.h>
#include "ingress/import_internal.h"

enum { S_VALID, S_ADDR, S_INSN, S_PRIV, S_EXC, S_ECAUSE, S_TVAL, S_INT, S_N };
static const char *const names[S_N] = { "VALID", "ADDRESS", "INSN", "PRIVILEGE", "EXCEPTION",
                                        "ECAUSE", "TVAL", "INTERRUPT" };
static const bool required[S_N] = { 1, 1, 1, 1, 1, 1, 1, 1 };

typedef struct row {
    uint64_t v[S_N];
    uint64_t line;
} row;

static int parse_row(imp *m, const imp_csv *c, const int *ix, row *r)
{
    static const bool hex[S_N] = { 0, 1, 1, 1, 1, 1, 1, 1 };
    uint64_t amax = m->xlen == 32 ? UINT32_MAX : UINT64_MAX;
    const uint64_t max[S_N] = { 1, amax, UINT32_MAX, 7, 1, UINT64_MAX, UINT64_MAX, 1 };
    if (c->n != S_N)
        return imp_fail(m, RVT_ERR_FORMAT, 0, "%u columns, expected %d", c->n, S_N);
    for (int i = 0; i < S_N; i++) {
        int rc = hex[i] ? imp_csv_hex(m, c, ix[i], names[i], max[i], &r->v[i])
                        : imp_csv_dec(m, c, ix[i], names[i], max[i], &r->v[i]);
        if (rc < 0)
            return rc;
    }
    r->line = m->lineno;
    return RVT_OK;
}

/* mcause-style values carry the interrupt flag in the top bit; the block
 * keeps the cause code (E-Trace 4.2: cause as in xcause, ecause_width). */
static int cause_code(imp *m, uint64_t ecause, uint64_t *code)
{
    uint64_t top = UINT64_C(1) << (m->xlen == 32 ? 31 : 63);
    *code = ecause & ~top;
    if (*code > 0xffff)
        return imp_fail(m, RVT_ERR_RANGE, 0, "ECAUSE 0x%llx does not fit 16 bits",
                        (unsigned long long)ecause);
    return RVT_OK;
}

static int finish_row(imp *m, imp_flow *fl, const row *p, bool has_next, uint64_t next)
{
    rvt_insn in;
    imp_decode(m, (uint32_t)p->v[S_INSN], &in);
    rvt_irec r;
    uint64_t pc = p->v[S_ADDR], cause;
    unsigned priv = (unsigned)p->v[S_PRIV];
    if (p->v[S_EXC] || p->v[S_INT]) {
        int rc = cause_code(m, p->v[S_ECAUSE], &cause);
        if (rc < 0)
            return rc;
        bool intr = !p->v[S_EXC];
        imp_trap_block(fl, &in, pc, priv, intr || imp_retires_on_trap(&in), intr, cause,
                       p->v[S_TVAL], &r);
    } else {
        imp_block(fl, &in, pc, priv, has_next, next, &r);
        if (in.op == RVT_OP_ILLEGAL && has_next && next != pc + in.len)
            imp_warn(m, "row of line %llu: control flow changes after 0x%llx, which is neither "
                     "a jump nor marked as a trap", (unsigned long long)p->line,
                     (unsigned long long)pc);
    }
    return imp_emit(m, &r);
}

int imp_spikecsv(imp *m)
{
    imp_csv *c = malloc(sizeof *c);
    if (!c)
        return RVT_ERR_NOMEM;
    int ix[S_N];
    imp_flow fl = { 0 };
    row pend;
    bool have = false;
    int rc = imp_next_line(m);
    if (rc == 0)
        rc = imp_fail(m, RVT_ERR_FORMAT, 0, "empty file (no CSV header)");
    if (rc > 0 && (rc = imp_csv_split(m, c)) >= 0)
        rc = imp_csv_header(m, c, names, required, S_N, ix);
    while (rc >= 0 && (rc = imp_next_line(m)) > 0) {
        row cur;
        if (!m->line[0]) {
            m->res->skipped++;
            continue;
        }
        if ((rc = imp_csv_split(m, c)) < 0 || (rc = parse_row(m, c, ix, &cur)) < 0)
            break;
        if (!cur.v[S_VALID]) {
            m->res->skipped++;
            continue;
        }
        if (have && (rc = finish_row(m, &fl, &pend, true, cur.v[S_ADDR])) < 0)
            break;
        pend = cur;
        have = true;
    }
    /* The last row has no successor: a branch there counts as not taken. */
    if (rc == 0 && have)
        rc = finish_row(m, &fl, &pend, false, 0);
    free(c);
    return rc;
}
