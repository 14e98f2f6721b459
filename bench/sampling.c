/* Issue 17 bench rows (sampling.h).  "Sampling from CTR": one hart run gives the full per-function instruction counts
 * (every retired PC); another, with CTR recording (mctrcontrol 0x10007),
 * takes a branch-stack sample every `period` instructions and credits the
 * instructions of each sample's linear ranges (from one entry's target to
 * the next newer entry's source, as llvm-profgen counts them) to their
 * functions.  The two rankings are compared on the full profile's top 20. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <inttypes.h>
#include "sampling.h"
#include "out/cov_map.h"
#include "out/lbr.h"
#include "rvtrace/ctr.h"
#include "rvtrace/hart.h"

#define LONG_PERIOD 10007u     /* ~24,000 samples of long.elf */
#define FPU_PERIOD 1009u        /* ~1,200 samples of fpu.elf */
#define PGO_PERIOD 1009u        /* as programs/pgo.sh samples pgo.elf */
#define MAX_FUNCS 4096
#define MAX_RANGE 4096u         /* instructions: a longer "range" is bogus */

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- per-function profiles ---- */
typedef struct fprof {
    const char *name[MAX_FUNCS];
    double count[MAX_FUNCS];
    size_t n;
} fprof;

static void credit(fprof *p, rvt_image *img, uint64_t pc, double c)
{
    const char *s = rvt_image_symbol(img, pc, NULL);
    if (!s)
        s = "[unknown]";
    for (size_t i = 0; i < p->n; i++)
        if (p->name[i] == s) {
            p->count[i] += c;
            return;
        }
    if (p->n < MAX_FUNCS) {
        p->name[p->n] = s;
        p->count[p->n++] = c;
    }
}

static void on_pc(void *ctx, uint64_t pc, bool retired)
{
    if (retired)
        rvt_cov_event(ctx, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = pc });
}

static rvt_hart *new_hart(rvt_image *img, rvt_hart_cfg *cfg)
{
    int st = 0;
    cfg->sbi_pmu = rvt_hart_wants_sbi(img);
    return rvt_hart_new(cfg, img, &st);
}

/* The hart alone: the cost sampling is measured against. */
static int plain_run(rvt_image *img, bench_ctr_row *row)
{
    rvt_hart_cfg cfg = { 0 };
    rvt_hart *h = new_hart(img, &cfg);
    if (!h)
        return -1;
    double t0 = cpu_s();
    rvt_hart_run(h, 0);
    row->run_s = cpu_s() - t0;
    rvt_hart_stats st;
    rvt_hart_get_stats(h, &st);
    row->instret = st.instret;
    rvt_hart_free(h);
    return 0;
}

/* Every retired PC counted: the full profile. */
static uint64_t distinct(const rvt_cov *c)
{
    uint64_t n = 0;
    for (size_t r = 0; r < c->nrange; r++)
        for (uint64_t pc = c->range[r].start; pc < c->range[r].end; pc += 2)
            n += c->range[r].exec[(pc - c->range[r].start) >> 1] != 0;
    return n;
}

static int full_profile(rvt_image *img, fprof *p, bench_ctr_row *row)
{
    rvt_cov *c = rvt_cov_new(img);
    rvt_hart_cfg cfg = { .on_pc = on_pc, .pc_ctx = c };
    rvt_hart *h = c ? new_hart(img, &cfg) : NULL;
    if (!h) {
        rvt_cov_free(c);
        return -1;
    }
    rvt_hart_run(h, 0);
    for (size_t r = 0; r < c->nrange; r++)
        for (uint64_t pc = c->range[r].start; pc < c->range[r].end; pc += 2) {
            uint64_t n = c->range[r].exec[(pc - c->range[r].start) >> 1];
            if (n)
                credit(p, img, pc, (double)n);
        }
    row->pcs_run = distinct(c);
    rvt_hart_free(h);
    rvt_cov_free(c);
    return 0;
}

/* The linear ranges of one sample, newest first: [e[i].to, e[i-1].from]. */
static void credit_sample(fprof *p, rvt_cov *seen, rvt_image *img, const rvt_lbr_entry *e, unsigned n)
{
    for (unsigned i = 1; i < n; i++) {
        uint64_t pc = e[i].to, end = e[i - 1].from;
        for (unsigned k = 0; pc <= end && k < MAX_RANGE; k++) {
            const rvt_insn *in = rvt_image_insn(img, pc);
            credit(p, img, pc, 1);
            rvt_cov_event(seen, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = pc });
            pc += in && in->len ? in->len : 2;
        }
    }
}

static void take_sample(rvt_hart *h, rvt_image *img, fprof *p, rvt_cov *seen, FILE *f, uint64_t *samples)
{
    const rvt_ctr *c = rvt_hart_ctr(h);
    rvt_lbr_entry e[RVT_LBR_MAX_DEPTH];
    rvt_ctr_entry r;
    unsigned n = 0, depth = rvt_ctr_depth(c);
    for (unsigned i = 0; i < depth && n < RVT_LBR_MAX_DEPTH; i++)
        if (rvt_ctr_get(c, i, &r) == 1)
            e[n++] = (rvt_lbr_entry){ r.source & ~1ull, r.target & ~1ull };
    if (!n)
        return;
    rvt_lbr_write_sample(f, rvt_hart_pc(h), e, n);
    credit_sample(p, seen, img, e, n);
    ++*samples;
}

/* CTR samples every row->period instructions: the sampled profile.  The
 * run's time covers the sampling; the text goes to f (its size counted). */
static int sampled_profile(rvt_image *img, fprof *p, bench_ctr_row *s)
{
    FILE *f = tmpfile();
    rvt_cov *seen = rvt_cov_new(img);
    rvt_hart_cfg cfg = { .ctr_control = 0x10007 };
    rvt_hart *h = f && seen ? new_hart(img, &cfg) : NULL;
    if (!h) {
        if (f)
            fclose(f);
        rvt_cov_free(seen);
        return -1;
    }
    double t0 = cpu_s();
    while (rvt_hart_run(h, s->period) == RVT_HART_STEP_LIMIT)
        take_sample(h, img, p, seen, f, &s->samples);
    s->sampled_run_s = cpu_s() - t0;
    s->pcs_sampled = distinct(seen);
    rvt_cov_free(seen);
    fflush(f);
    long size = ftell(f);
    s->sample_bytes = size > 0 ? (uint64_t)size : 0;
    fclose(f);
    rvt_hart_free(h);
    return 0;
}

/* Functions by descending count (ties by name, so the order is stable). */
static void rank(const fprof *p, size_t *order)
{
    for (size_t i = 0; i < p->n; i++)
        order[i] = i;
    for (size_t i = 1; i < p->n; i++)
        for (size_t k = i; k > 0; k--) {
            size_t a = order[k - 1], b = order[k];
            if (p->count[a] > p->count[b] ||
                (p->count[a] == p->count[b] && strcmp(p->name[a], p->name[b]) <= 0))
                break;
            order[k - 1] = b;
            order[k] = a;
        }
}

static size_t rank_of(const fprof *p, const size_t *order, const char *name)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->name[order[i]] == name)
            return i;
    return p->n;                /* never sampled: below the last */
}

static void compare(const fprof *full, const fprof *smp, bench_ctr_row *s)
{
    static size_t fo[MAX_FUNCS], so[MAX_FUNCS];
    rank(full, fo);
    rank(smp, so);
    s->funcs = full->n;
    s->top = full->n < BENCH_TOP ? full->n : BENCH_TOP;
    double err = 0;
    for (size_t i = 0; i < s->top; i++) {
        size_t r = rank_of(smp, so, full->name[fo[i]]);
        s->overlap += r < s->top;
        err += r > i ? (double)(r - i) : (double)(i - r);
    }
    s->rank_err = s->top ? err / (double)s->top : 0;
}

static int ctr_row(const char *elf, uint64_t period, bench_ctr_row *row)
{
    static fprof full, smp;
    memset(&full, 0, sizeof full);
    memset(&smp, 0, sizeof smp);
    memset(row, 0, sizeof *row);
    const char *base = strrchr(elf, '/');
    snprintf(row->name, sizeof row->name, "%s", base ? base + 1 : elf);
    row->period = period;
    rvt_image *img = rvt_image_new();
    int rc = -1;
    if (img && rvt_image_load_elf(img, elf) == 0 && plain_run(img, row) == 0 &&
        full_profile(img, &full, row) == 0 && sampled_profile(img, &smp, row) == 0) {
        compare(&full, &smp, row);
        rc = 0;
    }
    rvt_image_free(img);
    return rc;
}

int bench_sampling_measure(const char *elf, size_t te_len, bench_sampling *s)
{
    memset(s, 0, sizeof *s);
    s->trace_bytes = te_len;
    if (ctr_row(elf, LONG_PERIOD, &s->row[s->nrows]) == 0)
        s->nrows++;
    /* fpu.elf beside the long workload: enough functions for a top 20 */
    char fpu[1024];
    const char *slash = strrchr(elf, '/');
    int dir = slash ? (int)(slash - elf) : 1;
    snprintf(fpu, sizeof fpu, "%.*s/fpu.elf", dir, slash ? elf : ".");
    if (ctr_row(fpu, FPU_PERIOD, &s->row[s->nrows]) == 0)
        s->nrows++;
    snprintf(fpu, sizeof fpu, "%.*s/pgo.elf", dir, slash ? elf : ".");
    if (ctr_row(fpu, PGO_PERIOD, &s->row[s->nrows]) == 0)
        s->nrows++;
    snprintf(fpu, sizeof fpu, "%.*s/pgo_fdo.elf", dir, slash ? elf : ".");
    bench_ctr_row fdo;
    if (s->nrows && !strcmp(s->row[s->nrows - 1].name, "pgo.elf") && ctr_row(fpu, PGO_PERIOD, &fdo) == 0) {
        s->pgo_base = s->row[s->nrows - 1].instret;     /* the hart: one cycle each */
        s->pgo_fdo = fdo.instret;
    }
    return s->nrows ? 0 : -1;
}

static double share(double x, double of)
{
    return of > 0 ? 100.0 * x / of : 0;
}

void bench_sampling_report(FILE *f, const bench_sampling *s, const char *long_name)
{
    fprintf(f, "## Sampling from CTR (32 entries) against the full trace\n\n");
    fprintf(f, "| workload | instructions | period | samples | functions run | top-N overlap | "
               "mean rank error | PCs run / in sampled ranges | hart CPU s: plain / sampling | "
               "sample text bytes |\n|---|---:|---:|---:|---:|---:|---:|---|---|---:|\n");
    for (size_t i = 0; i < s->nrows; i++) {
        const bench_ctr_row *r = &s->row[i];
        fprintf(f, "| %s | %" PRIu64 " | %" PRIu64 " | %" PRIu64 " | %zu | %zu of %zu | %.2f | "
                   "%" PRIu64 " / %" PRIu64 " (%.0f %%) | %.2f / %.2f (%+.0f %%) | %" PRIu64 " |\n",
                r->name, r->instret, r->period, r->samples, r->funcs, r->overlap, r->top, r->rank_err,
                r->pcs_run, r->pcs_sampled, share((double)r->pcs_sampled, (double)r->pcs_run),
                r->run_s, r->sampled_run_s,
                r->run_s > 0 ? 100.0 * (r->sampled_run_s - r->run_s) / r->run_s : 0, r->sample_bytes);
    }
    fprintf(f, "\nThe full E-Trace stream of %s is %" PRIu64 " bytes.  ", long_name, s->trace_bytes);
    fprintf(f, "The full profile counts every retired instruction\n"
               "per function; the sampled one credits each sample's linear ranges (target of one\n"
               "entry to the source of the next newer one) as llvm-profgen does.  Top-N overlap:\n"
               "how many of the full profile's N hottest functions (N = 20, or all there are)\n"
               "are among the sampled profile's N hottest; rank error: the mean distance\n"
               "between their places in the two orders.\n\n");
    if (s->pgo_base)
        fprintf(f, "## The PGO loop (programs/pgo.sh)\n\n"
                   "| build | cycles on the hart |\n|---|---:|\n"
                   "| pgo.elf (clang-19 -O2) | %" PRIu64 " |\n"
                   "| pgo_fdo.elf (-fprofile-sample-use, profile from script --lbr + llvm-profgen) | %" PRIu64
                   " (%+.1f %%) |\n\nThe profile's coverage: the pgo.elf row above (PCs in sampled "
                   "ranges of the PCs run).\n\n",
                s->pgo_base, s->pgo_fdo, 100.0 * ((double)s->pgo_fdo - (double)s->pgo_base) / (double)s->pgo_base);
}
