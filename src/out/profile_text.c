/* The profile's report (rvt_profile_write): perf-report-style tables with
 * thousands separators and shares, the caller/callee view of one
 * function, or the same as one JSON object (docs/report.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "util/thousands.h"
#include "out/event_text.h"
#include "out/profile.h"

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ---- the function table ---- */

static void header(const rvt_profile *p, FILE *f, const rvt_profile_opts *o)
{
    char a[32], b[32];
    fprintf(f, "# rvtrace report%s%s\n", o->title ? ": " : "", o->title ? o->title : "");
    fprintf(f, "# %s instructions in %s functions", rvt_thousands(p->insns, a, sizeof a),
            rvt_thousands(p->fn_ix.n, b, sizeof b));
    if (p->have_time)
        fprintf(f, "; %s cycles from the first timestamp to the last",
                rvt_thousands(rvt_profile_cycles(p), a, sizeof a));
    fputc('\n', f);
    if (p->errors || p->lost || p->incomplete)
        fprintf(f, "# the trace has %" PRIu64 " decode errors and %" PRIu64 " losses%s: the counts "
                "cover what was decoded\n", p->errors, p->lost, p->incomplete ? " and stops early" : "");
}

static void function_rows(const rvt_profile *p, FILE *f, const rvt_profile_opts *o, const size_t *ix,
                          size_t n)
{
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(f, "#\n# %8s %8s %15s %15s %11s", "Children", "Self", "Instructions", "Self instrs", "Calls");
    if (p->have_time)
        fprintf(f, " %15s %15s", "Cycles", "Self cycles");
    fputs("  Function\n", f);
    for (size_t k = 0; k < n; k++) {
        const rvt_prof_fn *fn = &p->fns[ix[k]];
        if (share(fn->total, p->insns) < o->percent_limit)
            continue;
        fprintf(f, "  %8.2f%% %7.2f%% %15s %15s %11s", share(fn->total, p->insns), share(fn->self, p->insns),
                rvt_thousands(fn->total, a, sizeof a), rvt_thousands(fn->self, b, sizeof b),
                rvt_thousands(fn->calls, c, sizeof c));
        if (p->have_time)
            fprintf(f, " %15s %15s", rvt_thousands(fn->total_cycles, d, sizeof d),
                    rvt_thousands(fn->self_cycles, e, sizeof e));
        fprintf(f, "  %s\n", fn->name);
    }
}

/* A count table (modes, contexts, harts, traps): one line per entry. */
static void count_row(FILE *f, uint64_t count, uint64_t whole, const char *what)
{
    char a[32];
    fprintf(f, "  %8.2f%% %15s  %s\n", share(count, whole), rvt_thousands(count, a, sizeof a), what);
}

static void image_table(const rvt_profile *p, FILE *f)
{
    size_t n;
    rvt_prof_image *im = rvt_profile_images(p, &n);
    if (!im)
        return;
    fprintf(f, "#\n# images\n# %8s %15s  Image\n", "Share", "Instructions");
    for (size_t i = 0; i < n; i++)
        count_row(f, im[i].insns, p->insns, im[i].name);
    free(im);
}

static void side_tables(const rvt_profile *p, FILE *f)
{
    char name[64];
    image_table(p, f);
    fprintf(f, "#\n# privilege modes\n# %8s %15s  Mode\n", "Share", "Instructions");
    for (unsigned m = 0; m < 8; m++)
        if (p->priv_insns[m])
            count_row(f, p->priv_insns[m], p->insns, rvt_out_priv_name(m));
    if (p->ctx_ix.n > 1 || (p->ctx_ix.n == 1 && p->ctx_ix.keys[0].a)) {
        fprintf(f, "#\n# contexts\n# %8s %15s  Context\n", "Share", "Instructions");
        for (size_t i = 0; i < p->ctx_ix.n; i++) {
            snprintf(name, sizeof name, "0x%" PRIx64, p->ctx_ix.keys[i].a);
            count_row(f, p->ctx_insns[i], p->insns, name);
        }
    }
    if (p->hart_ix.n > 1) {
        fprintf(f, "#\n# harts\n# %8s %15s  Hart\n", "Share", "Instructions");
        for (size_t i = 0; i < p->hart_ix.n; i++) {
            snprintf(name, sizeof name, "%" PRIu64, p->hart_ix.keys[i].a);
            count_row(f, p->hart_insns[i], p->insns, name);
        }
    }
    if (p->trap_ix.n) {
        char a[32];
        fprintf(f, "#\n# traps\n# %15s  Trap\n", "Count");
        for (size_t i = 0; i < p->trap_ix.n; i++)
            fprintf(f, "  %15s  %s\n", rvt_thousands(p->trap_counts[i], a, sizeof a),
                    rvt_profile_trap_name(p, i, name, sizeof name));
    }
}

/* ---- callers / callees of one function ---- */

typedef struct nbr_walk {
    const rvt_profile *p;
    const char *target;
    bool callers;
    rvt_keymap ix;                  /* neighbour name pointer -> rows */
    struct nbr { const char *name; uint64_t insns; } *rows;
    size_t cap;
    uint64_t total;
    bool oom;
} nbr_walk;

static const char nbr_root[] = "[root]";   /* nothing traced above it */
static const char nbr_self[] = "[self]";   /* its own instructions */

static void nbr_add(nbr_walk *w, const char *name, uint64_t insns)
{
    int added;
    size_t i = rvt_keymap_get(&w->ix, (uint64_t)(uintptr_t)name, 0, &added);
    if (i == SIZE_MAX) {
        w->oom = true;
        return;
    }
    if (added) {
        void *g = rvt_grow(w->rows, &w->cap, i + 1, sizeof *w->rows, 16);
        if (!g) {
            w->oom = true;
            return;
        }
        w->rows = g;
        w->rows[i].name = name;
        w->rows[i].insns = 0;
    }
    w->rows[i].insns += insns;
}

/* The outermost frame of the target in this stack decides (recursion
 * counts once): its caller above it, or its callee below. */
static void nbr_stack(void *ctx, const char *const *names, uint32_t n, uint64_t insns, uint64_t cycles)
{
    nbr_walk *w = ctx;
    (void)cycles;
    for (uint32_t k = 0; k < n; k++) {
        if (strcmp(names[k], w->target))
            continue;
        const char *nb = w->callers ? (k ? names[k - 1] : nbr_root) : (k + 1 < n ? names[k + 1] : nbr_self);
        nbr_add(w, nb, insns);
        w->total += insns;
        return;
    }
}

static int by_insns(const void *a, const void *b)
{
    const struct nbr *x = a, *y = b;
    if (x->insns != y->insns)
        return x->insns < y->insns ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Calls between a and b (either may be the root/self placeholder). */
static uint64_t edge_calls(const rvt_profile *p, const char *caller, const char *callee)
{
    uint64_t calls = 0;
    for (size_t i = 0; i < p->edge_ix.n; i++) {
        const char *c = (const char *)(uintptr_t)p->edge_ix.keys[i].a;
        const char *e = (const char *)(uintptr_t)p->edge_ix.keys[i].b;
        if (c && e && !strcmp(c, caller) && !strcmp(e, callee))
            calls += p->edge_calls[i];
    }
    return calls;
}

static void nbr_print(const nbr_walk *w, FILE *f, const rvt_profile_opts *o)
{
    char a[32], b[32];
    if (o->json) {
        fprintf(f, "{\"function\":");
        rvt_out_json_string(f, w->target);
        fprintf(f, ",\"instructions\":%" PRIu64 ",\"%s\":[", w->total, w->callers ? "callers" : "callees");
    } else {
        fprintf(f, "# %s of %s: %s instructions in it and its callees\n#\n# %8s %15s %11s  %s\n",
                w->callers ? "callers" : "callees", w->target, rvt_thousands(w->total, a, sizeof a),
                "Share", "Instructions", "Calls", w->callers ? "Caller" : "Callee");
    }
    for (size_t i = 0; i < w->ix.n; i++) {
        const struct nbr *r = &w->rows[i];
        bool placeholder = r->name == nbr_root || r->name == nbr_self;
        uint64_t calls = placeholder ? 0 : w->callers ? edge_calls(w->p, r->name, w->target)
                                                      : edge_calls(w->p, w->target, r->name);
        if (o->json) {
            fprintf(f, "%s{\"name\":", i ? "," : "");
            rvt_out_json_string(f, r->name);
            fprintf(f, ",\"instructions\":%" PRIu64 ",\"calls\":%" PRIu64 ",\"percent\":%.2f}", r->insns,
                    calls, share(r->insns, w->total));
        } else if (share(r->insns, w->total) >= o->percent_limit) {
            fprintf(f, "  %8.2f%% %15s %11s  %s\n", share(r->insns, w->total),
                    rvt_thousands(r->insns, a, sizeof a), rvt_thousands(calls, b, sizeof b), r->name);
        }
    }
    if (o->json)
        fputs("]}\n", f);
}

static int neighbours(rvt_profile *p, FILE *f, const rvt_profile_opts *o)
{
    nbr_walk w = { .p = p, .target = o->callers ? o->callers : o->callees, .callers = o->callers != NULL };
    rvt_folded_each(p->fo, nbr_stack, &w);
    int rc = 0;
    if (w.oom) {
        rc = -1;
    } else if (!w.total) {
        fprintf(f, "# %s never ran in this trace\n", w.target);
        rc = -1;
    } else {
        qsort(w.rows, w.ix.n, sizeof *w.rows, by_insns);
        nbr_print(&w, f, o);
    }
    rvt_keymap_free(&w.ix);
    free(w.rows);
    return rc;
}

/* ---- JSON ---- */

static void json_functions(const rvt_profile *p, FILE *f, const rvt_profile_opts *o, const size_t *ix,
                           size_t n)
{
    fputs(",\"functions\":[", f);
    bool first = true;
    for (size_t k = 0; k < n; k++) {
        const rvt_prof_fn *fn = &p->fns[ix[k]];
        if (share(fn->total, p->insns) < o->percent_limit)
            continue;
        fprintf(f, "%s{\"name\":", first ? "" : ",");
        rvt_out_json_string(f, fn->name);
        fprintf(f, ",\"children\":%" PRIu64 ",\"self\":%" PRIu64 ",\"calls\":%" PRIu64
                ",\"children_percent\":%.2f,\"self_percent\":%.2f", fn->total, fn->self, fn->calls,
                share(fn->total, p->insns), share(fn->self, p->insns));
        if (p->have_time)
            fprintf(f, ",\"cycles\":%" PRIu64 ",\"self_cycles\":%" PRIu64, fn->total_cycles, fn->self_cycles);
        fputc('}', f);
        first = false;
    }
    fputc(']', f);
}

static void json_tables(const rvt_profile *p, FILE *f)
{
    char name[64];
    fputs(",\"modes\":[", f);
    bool first = true;
    for (unsigned m = 0; m < 8; m++) {
        if (!p->priv_insns[m])
            continue;
        fprintf(f, "%s{\"mode\":\"%s\",\"instructions\":%" PRIu64 "}", first ? "" : ",", rvt_out_priv_name(m),
                p->priv_insns[m]);
        first = false;
    }
    fputs("],\"contexts\":[", f);
    for (size_t i = 0; i < p->ctx_ix.n; i++)
        fprintf(f, "%s{\"context\":\"0x%" PRIx64 "\",\"instructions\":%" PRIu64 "}", i ? "," : "",
                p->ctx_ix.keys[i].a, p->ctx_insns[i]);
    fputs("],\"harts\":[", f);
    for (size_t i = 0; i < p->hart_ix.n; i++)
        fprintf(f, "%s{\"hart\":%" PRIu64 ",\"instructions\":%" PRIu64 "}", i ? "," : "", p->hart_ix.keys[i].a,
                p->hart_insns[i]);
    fputs("],\"images\":[", f);
    size_t n;
    rvt_prof_image *im = rvt_profile_images(p, &n);
    for (size_t i = 0; im && i < n; i++) {
        fputs(i ? ",{\"image\":" : "{\"image\":", f);
        rvt_out_json_string(f, im[i].name);
        fprintf(f, ",\"instructions\":%" PRIu64 "}", im[i].insns);
    }
    free(im);
    fputs("],\"traps\":[", f);
    for (size_t i = 0; i < p->trap_ix.n; i++) {
        fprintf(f, "%s{\"trap\":", i ? "," : "");
        rvt_out_json_string(f, rvt_profile_trap_name(p, i, name, sizeof name));
        fprintf(f, ",\"count\":%" PRIu64 "}", p->trap_counts[i]);
    }
    fputc(']', f);
}

static void json_report(const rvt_profile *p, FILE *f, const rvt_profile_opts *o, const size_t *ix, size_t n)
{
    fputs("{\"title\":", f);
    rvt_out_json_string(f, o->title);
    fprintf(f, ",\"instructions\":%" PRIu64, p->insns);
    if (p->have_time)
        fprintf(f, ",\"cycles\":%" PRIu64, rvt_profile_cycles(p));
    fprintf(f, ",\"errors\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"incomplete\":%s", p->errors, p->lost,
            p->incomplete ? "true" : "false");
    json_functions(p, f, o, ix, n);
    json_tables(p, f);
    fputs("}\n", f);
}

int rvt_profile_write(rvt_profile *p, FILE *f, const rvt_profile_opts *o)
{
    rvt_profile_totals(p);
    if (o->callers || o->callees)
        return neighbours(p, f, o);
    size_t n;
    size_t *ix = rvt_profile_sorted(p, o->sort, &n);
    if (!ix)
        return -1;
    if (o->json) {
        json_report(p, f, o, ix, n);
    } else {
        header(p, f, o);
        function_rows(p, f, o, ix, n);
        side_tables(p, f);
    }
    free(ix);
    return p->oom ? -1 : 0;
}
