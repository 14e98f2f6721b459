/* Spike's commit log (--log-commits), optionally interleaved with its
 * instruction log (-l):
 *   core   0: 3 0x0000000080000000 (0x00000297) x5  0x0000000080000000   commit: priv pc (insn) writes
 *   core   0: 0x0000000080000000 (0x00000297) auipc   t0, 0x0          -l: fetched, not yet retired
 *   core   0: exception trap_illegal_instruction, epc 0x0000000080000048
 *   core   0:           tval 0x00000000c0001073
 * A trapping instruction is not committed, so its word comes from the -l
 * line with the same pc when there is one.  Other lines are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingress/import_internal.h"

typedef struct pend_commit {
    bool valid;
    uint64_t pc;
    rvt_insn in;
    unsigned priv;
} pend_commit;

typedef struct pend_trap {
    bool valid, interrupt;
    uint64_t epc, cause, tval;
} pend_trap;

typedef struct slog {
    imp *m;
    imp_flow fl;
    pend_commit c;           /* last commit, waiting for its successor */
    pend_trap t;             /* last trap, waiting for its tval/successor */
    bool have_fetch;
    uint64_t fetch_pc;       /* last -l line */
    uint32_t fetch_raw;
    unsigned priv;           /* privilege of the last commit */
} slog;

/* Spike trap names (riscv/trap.h) and their cause codes (privileged spec
 * table 3.6). */
static const struct { const char *name; unsigned cause; } traps[] = {
    { "trap_instruction_address_misaligned", 0 }, { "trap_instruction_access_fault", 1 },
    { "trap_illegal_instruction", 2 }, { "trap_breakpoint", 3 },
    { "trap_load_address_misaligned", 4 }, { "trap_load_access_fault", 5 },
    { "trap_store_address_misaligned", 6 }, { "trap_store_access_fault", 7 },
    { "trap_user_ecall", 8 }, { "trap_supervisor_ecall", 9 },
    { "trap_virtual_supervisor_ecall", 10 }, { "trap_machine_ecall", 11 },
    { "trap_instruction_page_fault", 12 }, { "trap_load_page_fault", 13 },
    { "trap_store_page_fault", 15 }, { "trap_instruction_guest_page_fault", 20 },
    { "trap_load_guest_page_fault", 21 }, { "trap_virtual_instruction", 22 },
    { "trap_store_guest_page_fault", 23 },
};

static int emit_commit(slog *g, bool has_next, uint64_t next)
{
    rvt_irec r;
    if (!g->c.valid)
        return RVT_OK;
    g->c.valid = false;
    imp_block(&g->fl, &g->c.in, g->c.pc, g->c.priv, has_next, next, &r);
    return imp_emit(g->m, &r);
}

/* The trapping instruction's word: the -l line for epc, else a commit of
 * epc itself (a log that commits ecall), else unknown. */
static bool trap_insn(slog *g, rvt_insn *in)
{
    if (g->c.valid && g->c.pc == g->t.epc) {
        *in = g->c.in;
        g->c.valid = false;
        return true;
    }
    if (g->have_fetch && g->fetch_pc == g->t.epc) {
        imp_decode(g->m, g->fetch_raw, in);
        return true;
    }
    /* Unknown word: assume a 4-byte instruction (ebreak for a breakpoint,
     * ecall otherwise; only the length and retirement are used). */
    imp_decode(g->m, g->t.cause == 3 ? 0x00100073u : 0x00000073u, in);
    return false;
}

static int emit_trap(slog *g)
{
    if (!g->t.valid)
        return RVT_OK;
    g->t.valid = false;
    rvt_irec r;
    rvt_insn in;
    if (g->t.interrupt) {
        /* The interrupt follows the last committed instruction. */
        if (g->c.valid) {
            g->c.valid = false;
            imp_trap_block(&g->fl, &g->c.in, g->c.pc, g->c.priv, true, true, g->t.cause,
                           g->t.tval, &r);
        } else {
            imp_decode(g->m, 0x13, &in);
            imp_trap_block(&g->fl, &in, g->t.epc, g->priv, false, true, g->t.cause, g->t.tval, &r);
        }
        return imp_emit(g->m, &r);
    }
    bool known = trap_insn(g, &in);
    int rc = emit_commit(g, true, g->t.epc);
    if (rc < 0)
        return rc;
    /* Without the word, breakpoint and ecall causes still imply a retired
     * ebreak/ecall; any other trapping instruction did not retire. */
    bool retired = known ? imp_retires_on_trap(&in)
                         : g->t.cause == 3 || (g->t.cause >= 8 && g->t.cause <= 11);
    imp_trap_block(&g->fl, &in, g->t.epc, g->priv, retired, false, g->t.cause, g->t.tval, &r);
    return imp_emit(g->m, &r);
}

/* "0x<hex>" at *s, advancing it. */
static bool take_hex(const char **s, uint64_t *v)
{
    if ((*s)[0] != '0' || (*s)[1] != 'x')
        return false;
    size_t n = imp_parse_hex(*s, v);
    *s += n;
    return n > 2;
}

static int on_commit(slog *g, const char *s, size_t col)
{
    unsigned priv = (unsigned)(*s - '0');
    uint64_t pc, raw;
    s++;
    while (*s == ' ')
        s++;
    if (!take_hex(&s, &pc) || strncmp(s, " (", 2) || (s += 2, !take_hex(&s, &raw)) || *s != ')' ||
        raw > UINT32_MAX || priv > 7)
        return imp_fail(g->m, RVT_ERR_FORMAT, col, "malformed commit line");
    int rc = g->t.valid ? emit_trap(g) : emit_commit(g, true, pc);
    if (rc < 0)
        return rc;
    g->c.valid = true;
    g->c.pc = pc;
    g->c.priv = g->priv = priv;
    imp_decode(g->m, (uint32_t)raw, &g->c.in);
    return RVT_OK;
}

static int on_exception(slog *g, const char *s, size_t col)
{
    int rc = emit_trap(g);        /* a trap taken on the handler's first instruction */
    if (rc < 0)
        return rc;
    const char *comma = strstr(s, ", epc ");
    const char *e = comma ? comma + 6 : NULL;
    uint64_t epc;
    if (!comma || !take_hex(&e, &epc))
        return imp_fail(g->m, RVT_ERR_FORMAT, col, "malformed exception line");
    size_t nlen = (size_t)(comma - s);
    unsigned code;
    pend_trap t = { true, false, epc, 0, 0 };
    if (sscanf(s, "interrupt #%u", &code) == 1) {
        t.interrupt = true;
        t.cause = code;
    } else if (sscanf(s, "trap #%u", &code) == 1) {
        t.cause = code;
    } else {
        size_t i = 0, n = sizeof traps / sizeof traps[0];
        while (i < n && (strlen(traps[i].name) != nlen || strncmp(s, traps[i].name, nlen)))
            i++;
        if (i == n)
            return imp_fail(g->m, RVT_ERR_FORMAT, col, "unknown trap '%.*s'", (int)(nlen > 60 ? 60 : nlen), s);
        t.cause = traps[i].cause;
    }
    if (t.cause > 0xffff)
        return imp_fail(g->m, RVT_ERR_RANGE, col, "cause %llu does not fit 16 bits",
                        (unsigned long long)t.cause);
    g->t = t;
    return RVT_OK;
}

static int on_line(slog *g)
{
    const char *line = g->m->line, *s = line;
    if (strncmp(s, "core", 4)) {
        g->m->res->skipped++;
        return RVT_OK;
    }
    s += 4;
    while (*s == ' ')
        s++;
    while (*s >= '0' && *s <= '9')
        s++;
    if (*s != ':') {
        g->m->res->skipped++;
        return RVT_OK;
    }
    s++;
    while (*s == ' ')
        s++;
    size_t col = (size_t)(s - line);
    uint64_t v;
    if (*s >= '0' && *s <= '7' && s[1] == ' ')
        return on_commit(g, s, col);
    if (!strncmp(s, "exception ", 10))
        return on_exception(g, s + 10, col);
    if (!strncmp(s, "tval ", 5)) {
        const char *e = s + 5;
        if (!g->t.valid || !take_hex(&e, &v))
            return imp_fail(g->m, RVT_ERR_FORMAT, col, "tval line without an exception");
        g->t.tval = v;
        return RVT_OK;
    }
    if (take_hex(&s, &v) && !strncmp(s, " (", 2)) {
        const char *e = s + 2;
        uint64_t raw;
        if (take_hex(&e, &raw) && raw <= UINT32_MAX) {
            g->have_fetch = true;
            g->fetch_pc = v;
            g->fetch_raw = (uint32_t)raw;
            return RVT_OK;
        }
    }
    g->m->res->skipped++;       /* ">>>> symbol" lines and others */
    return RVT_OK;
}

int imp_spikelog(imp *m)
{
    slog *g = calloc(1, sizeof *g);
    if (!g)
        return RVT_ERR_NOMEM;
    g->m = m;
    g->priv = 3;
    int rc;
    while ((rc = imp_next_line(m)) > 0)
        if ((rc = on_line(g)) < 0)
            break;
    if (rc == 0)
        rc = emit_trap(g);
    if (rc == 0)
        rc = emit_commit(g, false, 0);
    free(g);
    return rc;
}
