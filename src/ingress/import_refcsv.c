/* The E-Trace reference flow's encoder-input CSV (one row per cycle of a
 * single-retirement hart, E-Trace 4.2 tables 4.1/4.3):
 *   itype_0,cause,tval,priv,iaddr_0,context,[time,]ctype,[sijump_0,]iretire_0,ilastsize_0
 * tval and iaddr in hex without 0x, the rest decimal. */
#include <stdlib.h>
#include <string.h>
#include "ingress/import_internal.h"

enum { C_ITYPE, C_CAUSE, C_TVAL, C_PRIV, C_IADDR, C_CONTEXT, C_TIME, C_CTYPE, C_SIJUMP,
       C_IRETIRE, C_ILASTSIZE, C_N };
static const char *const names[C_N] = { "itype_0", "cause", "tval", "priv", "iaddr_0", "context",
                                        "time", "ctype", "sijump_0", "iretire_0", "ilastsize_0" };
static const bool required[C_N] = { 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1 };

static int check_itype(imp *m, const imp_csv *c, int col, uint64_t it)
{
    /* Table 4.1: 7 is reserved; 6 exists only with 3-bit itype; 8-15 only
     * with 4-bit itype. */
    bool three = m->cfg->itype3;
    if (it == 7 || (three && it > 7))
        return imp_fail(m, RVT_ERR_RANGE, c->at[col], "itype %u is reserved for %d-bit itype",
                        (unsigned)it, three ? 3 : 4);
    if (!three && it == 6)
        return imp_fail(m, RVT_ERR_RANGE, c->at[col], "itype 6 is reserved for 4-bit itype "
                        "(a 3-bit itype file? use --itype3)");
    return RVT_OK;
}

static int parse_row(imp *m, const imp_csv *c, const int *ix, rvt_irec *r)
{
    uint64_t v[C_N] = { 0 };
    static const uint64_t max[C_N] = { 15, 0xffff, UINT64_MAX, 7, UINT64_MAX, UINT64_MAX,
                                       UINT64_MAX, 3, 1, 1, 3 };
    for (int i = 0; i < C_N; i++) {
        if (ix[i] < 0)
            continue;
        int rc = i == C_TVAL || i == C_IADDR
                     ? imp_csv_hex(m, c, ix[i], names[i], max[i], &v[i])
                     : imp_csv_dec(m, c, ix[i], names[i], max[i], &v[i]);
        if (rc < 0)
            return rc;
    }
    int rc = check_itype(m, c, ix[C_ITYPE], v[C_ITYPE]);
    if (rc < 0)
        return rc;
    memset(r, 0, sizeof *r);
    r->itype = (uint8_t)v[C_ITYPE];
    r->cause = (uint16_t)v[C_CAUSE];
    r->tval = v[C_TVAL];
    r->priv = (uint8_t)v[C_PRIV];
    r->iaddr = v[C_IADDR];
    r->context = v[C_CONTEXT];
    r->time = v[C_TIME];
    r->ctype = (uint8_t)v[C_CTYPE];
    r->sijump = (uint8_t)v[C_SIJUMP];
    r->ilastsize = (uint8_t)v[C_ILASTSIZE];
    /* Table 4.3: iretire_0 counts instructions (0/1); rvt_irec counts
     * half-words, so a retired instruction is 2^ilastsize of them. */
    r->ninstr = (uint32_t)v[C_IRETIRE];
    r->iretire = r->ninstr << r->ilastsize;
    return RVT_OK;
}

int imp_refcsv(imp *m)
{
    imp_csv *c = malloc(sizeof *c);
    if (!c)
        return RVT_ERR_NOMEM;
    int ix[C_N];
    m->res->itype_width = m->cfg->itype3 ? 3 : 4;
    int rc = imp_next_line(m);
    if (rc == 0)
        rc = imp_fail(m, RVT_ERR_FORMAT, 0, "empty file (no CSV header)");
    if (rc > 0 && (rc = imp_csv_split(m, c)) >= 0)
        rc = imp_csv_header(m, c, names, required, C_N, ix);
    unsigned ncols = c->n;
    while (rc >= 0 && (rc = imp_next_line(m)) > 0) {
        if (!m->line[0]) {
            m->res->skipped++;
            continue;
        }
        rvt_irec r;
        if ((rc = imp_csv_split(m, c)) < 0)
            break;
        if (c->n != ncols) {
            rc = imp_fail(m, RVT_ERR_FORMAT, 0, "%u columns, the header has %u", c->n, ncols);
            break;
        }
        if ((rc = parse_row(m, c, ix, &r)) < 0 || (rc = imp_emit(m, &r)) < 0)
            break;
    }
    free(c);
    return rc;
}
