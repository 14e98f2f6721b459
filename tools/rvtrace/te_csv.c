/* The E-Trace reference flow's encoder-input CSV (header
 * itype_0,cause,tval,priv,iaddr_0,context[,time],ctype[,sijump_0],
 * iretire_0,ilastsize_0; tval and iaddr hex) read into ingress records. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "te_opts.h"

enum { C_ITYPE, C_CAUSE, C_TVAL, C_PRIV, C_IADDR, C_CONTEXT, C_TIME, C_CTYPE,
       C_SIJUMP, C_IRETIRE, C_ILASTSIZE, C_N };
static const char *col_names[C_N] = { "itype_0", "cause", "tval", "priv", "iaddr_0",
    "context", "time", "ctype", "sijump_0", "iretire_0", "ilastsize_0" };

static int header(char *line, int *map)
{
    int n = 0;
    for (char *tok = strtok(line, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), n++) {
        if (n >= 16)
            return -1;
        map[n] = -1;
        for (int c = 0; c < C_N; c++)
            if (!strcmp(tok, col_names[c]))
                map[n] = c;
    }
    return n;
}

static void row_to_rec(const uint64_t *v, bool single, rvt_irec *r)
{
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
    /* 4.2.1: with single retirement iretire counts instructions. */
    r->iretire = single ? (v[C_IRETIRE] ? 1u << r->ilastsize : 0) : (uint32_t)v[C_IRETIRE];
    r->ninstr = single ? (uint32_t)v[C_IRETIRE] : 0;
}

int te_csv_replay(const char *path, bool single, const rvt_irec_sink *sink)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_err("%s: cannot open", path);
        return -1;
    }
    char line[1024];
    int map[16], ncol = -1, st = 0;
    uint64_t lineno = 0;
    rvt_irec batch[256];
    size_t nb = 0;
    while (st >= 0 && fgets(line, sizeof line, f)) {
        lineno++;
        if (ncol < 0) {
            ncol = header(line, map);
            if (ncol <= 0) {
                cli_err("%s: line 1: not an encoder-input CSV header", path);
                st = -1;
            }
            continue;
        }
        uint64_t v[C_N] = { 0 };
        char *s = line;
        for (int i = 0; i < ncol; i++) {
            char *end;
            int c = map[i];
            bool hex = c == C_TVAL || c == C_IADDR;
            uint64_t x = strtoull(s, &end, hex ? 16 : 10);
            if (end == s || (*end != ',' && *end != '\n' && *end != '\r' && *end)) {
                cli_err("%s: line %llu: bad field %d", path, (unsigned long long)lineno, i + 1);
                st = -1;
                break;
            }
            if (c >= 0)
                v[c] = x;
            s = *end == ',' ? end + 1 : end;
        }
        if (st < 0)
            break;
        row_to_rec(v, single, &batch[nb++]);
        if (nb == sizeof batch / sizeof batch[0]) {
            st = sink->put(sink->ctx, batch, nb);
            nb = 0;
        }
    }
    if (st >= 0 && nb)
        st = sink->put(sink->ctx, batch, nb);
    fclose(f);
    return st;
}
