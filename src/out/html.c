/* The "html" writer: one self-contained page (styles and the flame
 * graph's script inline, nothing fetched): a summary, the top functions,
 * the flame graph (flamegraph.c), instructions executed per function and
 * the traps, from one profile (profile.c). */
#include <inttypes.h>
#include <stdlib.h>
#include "util/thousands.h"
#include "out/event_text.h"
#include "out/flamegraph.h"
#include "out/profile.h"
#include "out/writers.h"

#define HTML_TOP 25               /* rows of the top-functions table */

typedef struct html_out {
    rvt_profile *p;
    FILE *f;
} html_out;

static void *html_open(FILE *f, rvt_image *img)
{
    html_out *o = calloc(1, sizeof *o);
    if (!o || !(o->p = rvt_profile_new(img))) {
        free(o);
        return NULL;
    }
    o->f = f;
    return o;
}

static void html_event(void *state, const rvt_flow_event *ev)
{
    rvt_profile_event(((html_out *)state)->p, ev);
}

static void html_block(void *state, const struct rvt_block *b)
{
    rvt_profile_block(((html_out *)state)->p, b);
}

static uint64_t html_blocks(void *state, const struct rvt_block *b, size_t n)
{
    return rvt_profile_blocks(((html_out *)state)->p, b, n);
}

static double pct(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void row_num(FILE *f, uint64_t v)
{
    char a[32];
    fprintf(f, "<td class=\"n\">%s</td>", rvt_thousands(v, a, sizeof a));
}

static void summary(FILE *f, const rvt_profile *p)
{
    uint64_t traps = 0;
    for (size_t i = 0; i < p->trap_ix.n; i++)
        traps += p->trap_counts[i];
    fputs("<section id=\"summary\"><h2>Summary</h2><table>\n<tr><th>Instructions retired</th>", f);
    row_num(f, p->insns);
    fputs("</tr>\n<tr><th>Functions</th>", f);
    row_num(f, p->fn_ix.n);
    if (p->have_time) {
        fputs("</tr>\n<tr><th>Cycles (first to last timestamp)</th>", f);
        row_num(f, rvt_profile_cycles(p));
    }
    fputs("</tr>\n<tr><th>Traps and interrupts</th>", f);
    row_num(f, traps);
    for (unsigned m = 0; m < 8; m++) {
        if (!p->priv_insns[m])
            continue;
        fprintf(f, "</tr>\n<tr><th>Instructions in %s-mode</th>", rvt_out_priv_name(m));
        row_num(f, p->priv_insns[m]);
    }
    fputs("</tr>\n<tr><th>Decode errors / losses</th>", f);
    fprintf(f, "<td class=\"n\">%" PRIu64 " / %" PRIu64 "%s</td></tr>\n</table></section>\n", p->errors, p->lost,
            p->incomplete ? " (the trace stops early)" : "");
}

static void name_cell(FILE *f, const char *name)
{
    fputs("<td>", f);
    rvt_out_xml_text(f, name);
    fputs("</td>", f);
}

static void top_functions(FILE *f, const rvt_profile *p, const size_t *ix, size_t n)
{
    fputs("<section id=\"top\"><h2>Top functions</h2><table>\n<tr><th>Function</th><th>Children</th>"
          "<th>Self</th><th>Instructions</th><th>Self instructions</th><th>Calls</th></tr>\n", f);
    for (size_t k = 0; k < n && k < HTML_TOP; k++) {
        const rvt_prof_fn *fn = &p->fns[ix[k]];
        fputs("<tr>", f);
        name_cell(f, fn->name);
        fprintf(f, "<td class=\"n\">%.2f%%</td><td class=\"n\">%.2f%%</td>", pct(fn->total, p->insns),
                pct(fn->self, p->insns));
        row_num(f, fn->total);
        row_num(f, fn->self);
        row_num(f, fn->calls);
        fputs("</tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

/* Coverage per function: the instructions executed in it (the self count). */
static void coverage(FILE *f, const rvt_profile *p, const size_t *ix, size_t n)
{
    fputs("<section id=\"coverage\"><h2>Coverage per function</h2>\n<p>Instructions executed in each "
          "function (its own, not its callees').</p><table>\n<tr><th>Function</th>"
          "<th>Instructions executed</th><th>Share</th></tr>\n", f);
    for (size_t k = 0; k < n; k++) {
        const rvt_prof_fn *fn = &p->fns[ix[k]];
        fputs("<tr>", f);
        name_cell(f, fn->name);
        row_num(f, fn->self);
        fprintf(f, "<td class=\"n\">%.2f%%</td></tr>\n", pct(fn->self, p->insns));
    }
    fputs("</table></section>\n", f);
}

static void traps(FILE *f, const rvt_profile *p)
{
    char name[64];
    fputs("<section id=\"traps\"><h2>Traps</h2>\n", f);
    if (!p->trap_ix.n) {
        fputs("<p>No traps or interrupts.</p></section>\n", f);
        return;
    }
    fputs("<table>\n<tr><th>Trap</th><th>Count</th></tr>\n", f);
    for (size_t i = 0; i < p->trap_ix.n; i++) {
        fputs("<tr>", f);
        name_cell(f, rvt_profile_trap_name(p, i, name, sizeof name));
        row_num(f, p->trap_counts[i]);
        fputs("</tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

static void page(FILE *f, rvt_profile *p)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rvtrace report</title>\n"
          "<style>body{font-family:sans-serif;margin:1em 2em;color:#222}table{border-collapse:collapse}"
          "td,th{padding:2px 10px;border-bottom:1px solid #ddd;text-align:left}td.n{text-align:right;"
          "font-variant-numeric:tabular-nums}h2{margin-top:1.5em}svg{max-width:100%;height:auto}</style>\n"
          "</head><body>\n<h1>rvtrace report</h1>\n", f);
    rvt_profile_totals(p);
    size_t n;
    size_t *ix = rvt_profile_sorted(p, RVT_PROF_SORT_CHILDREN, &n);
    size_t *self = rvt_profile_sorted(p, RVT_PROF_SORT_SELF, &n);
    summary(f, p);
    if (ix)
        top_functions(f, p, ix, n);
    fputs("<section id=\"flamegraph\"><h2>Flame graph</h2>\n<p>Click a box to zoom; widths are "
          "instructions retired.</p>\n", f);
    rvt_flamegraph_svg(p->fo, f, "Flame graph (instructions retired)", false);
    fputs("</section>\n", f);
    if (self)
        coverage(f, p, self, n);
    traps(f, p);
    fputs("</body></html>\n", f);
    free(ix);
    free(self);
}

static void html_finish(void *state)
{
    html_out *o = state;
    page(o->f, o->p);
    rvt_profile_free(o->p);
    free(o);
}

const rvt_out_writer rvt_out_html_writer = {
    .name = "html", .needs_image = true,
    .open = html_open, .event = html_event, .finish = html_finish, .block = html_block,
    .blocks = html_blocks,
};
