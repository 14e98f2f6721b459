/* PC lists: one retired instruction's address per line (hex, optional 0x;
 * blank lines and '#' comments skipped), plus the program image for the
 * instruction words.  Where the next pc is neither the sequential one nor
 * a target the instruction can reach, a trap must have happened after it:
 * the block is reported as an exception with cause 0 ("unknown"), except
 * ecall (8 + priv) and ebreak (3), whose cause is certain. */
#include <ctype.h>
#include "ingress/import_internal.h"

static bool reachable(const rvt_insn *in, uint64_t pc, uint64_t next)
{
    uint64_t seq = pc + in->len, target = pc + (uint64_t)in->imm;
    if (rvt_isa_is_uninferable(in))
        return true;                        /* jalr, mret, sret: anywhere */
    if (rvt_isa_is_branch(in))
        return next == seq || next == target;
    if (rvt_isa_is_inferable_jump(in))
        return next == target;
    return next == seq;
}

static int finish_pc(imp *m, imp_flow *fl, uint64_t pc, uint64_t line, bool has_next,
                     uint64_t next)
{
    const rvt_insn *in = rvt_image_insn(m->cfg->image, pc);
    unsigned priv = m->cfg->priv_set ? m->cfg->priv : 3;
    if (!in)
        return imp_fail(m, RVT_ERR_NOCODE, 0, "no program image at 0x%llx (line %llu)",
                        (unsigned long long)pc, (unsigned long long)line);
    rvt_irec r;
    if (has_next && !reachable(in, pc, next)) {
        /* Privileged spec: ecall from U/S/M is cause 8/9/11, breakpoint 3. */
        uint64_t cause = in->op == RVT_OP_ECALL ? 8 + priv : in->op == RVT_OP_EBREAK ? 3 : 0;
        imp_trap_block(fl, in, pc, priv, true, false, cause, 0, &r);
        m->res->inferred_traps++;
    } else {
        imp_block(fl, in, pc, priv, has_next, next, &r);
    }
    return imp_emit(m, &r);
}

static int parse_pc(imp *m, uint64_t *pc)
{
    const char *s = m->line;
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = imp_parse_hex(s, pc);
    const char *e = s + n;
    while (*e == ' ' || *e == '\t')
        e++;
    if (!n || (*e && *e != '#'))
        return imp_fail(m, RVT_ERR_FORMAT, (size_t)(s - m->line), "'%.40s' is not a hex address",
                        s);
    if (m->xlen == 32 && *pc > UINT32_MAX)
        return imp_fail(m, RVT_ERR_RANGE, (size_t)(s - m->line), "address 0x%llx beyond RV32",
                        (unsigned long long)*pc);
    return RVT_OK;
}

/* A PC list that the image cannot explain at many places is a list of
 * another program: more than 1 in IMP_PCS_TRAP_SHARE instructions followed
 * by an inferred trap (at least IMP_PCS_TRAP_MIN of them) stops the import.
 * Real lists stay far below: the trap-heaviest workloads (ebreak, ecall,
 * privs) have under 1 in 100 (docs/format-import.md). */
#define IMP_PCS_TRAP_SHARE 20u
#define IMP_PCS_TRAP_MIN 64u

static int check_fit(imp *m, bool at_end)
{
    const rvt_import_result *r = m->res;
    if (r->inferred_traps < IMP_PCS_TRAP_MIN || r->inferred_traps * IMP_PCS_TRAP_SHARE <= r->records)
        return RVT_OK;
    if (!at_end && r->records < 64u * IMP_PCS_TRAP_SHARE)
        return RVT_OK;      /* too few to judge yet */
    return imp_fail(m, RVT_ERR_FORMAT, 0, "the program image does not fit this PC list: %llu of the "
                    "first %llu instructions would be followed by an inferred trap (more than 1 in "
                    "%u): wrong --elf?", (unsigned long long)r->inferred_traps,
                    (unsigned long long)r->records, IMP_PCS_TRAP_SHARE);
}

int imp_pcs(imp *m)
{
    imp_flow fl = { 0 };
    uint64_t pend = 0, pend_line = 0;
    bool have = false;
    int rc;
    while ((rc = imp_next_line(m)) > 0) {
        const char *s = m->line;
        while (isspace((unsigned char)*s))
            s++;
        if (!*s || *s == '#') {
            m->res->skipped++;
            continue;
        }
        uint64_t pc;
        if ((rc = parse_pc(m, &pc)) < 0)
            break;
        if (have && ((rc = finish_pc(m, &fl, pend, pend_line, true, pc)) < 0 ||
                     (rc = check_fit(m, false)) < 0))
            break;
        pend = pc;
        pend_line = m->lineno;
        have = true;
    }
    if (rc == 0 && have)
        rc = finish_pc(m, &fl, pend, pend_line, false, 0);
    if (rc == 0)
        rc = check_fit(m, true);
    return rc;
}
