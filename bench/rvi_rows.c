/* Issue 18 .rvi rows (rvi_rows.h).  Each version's file is written once by
 * the hart, then replayed (rvt_rvi_replay: the batch reader) into a null
 * sink, and into each encoder as `rvtrace encode` does
 * (rvt_rvi_replay_steps: run records whole to an encoder that takes
 * them).  The encoder alone is the hart feeding it from memory less the
 * hart alone, as the long workload's encoder rows (interleaved runs). */
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "rvi_rows.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double rate(uint64_t n, double s)
{
    return s > 0 ? (double)n / s / 1e6 : 0;
}

typedef struct { uint64_t records, insns; } tally;

static int tally_put(void *ctx, const rvt_irec *r, size_t n)
{
    tally *t = ctx;
    t->records += n;
    for (size_t i = 0; i < n; i++)
        t->insns += r[i].ninstr;
    return 0;
}

/* The hart's records into a version-v file at path. */
static int write_rvi(const char *elf, unsigned xlen, unsigned v, const char *path,
                     const bench_rvi_hooks *h, bench_rvi *r, int i)
{
    int st = 0;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, xlen, &st);
    if (!w || rvt_rvi_writer_set_version(w, v) < 0)
        return -1;
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    double t0 = cpu_s();
    int rc = h->run(elf, &s, &r->instret, &(double){ 0 });
    rc = rvt_rvi_writer_close(w) < 0 ? -1 : rc;
    r->write_mips[i] = rate(r->instret, cpu_s() - t0);
    struct stat sb;
    r->bytes[i] = stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
    return rc;
}

/* CPU seconds of replaying path into s (best of repeat), or < 0. */
static double replay_cpu(const char *path, const rvt_irec_sink *s, const rvt_irec_steps *steps)
{
    double t0 = cpu_s();
    return rvt_rvi_replay_steps(path, s, steps, NULL, NULL) < 0 ? -1 : cpu_s() - t0;
}

static double best_null(const char *path, int repeat, tally *t)
{
    double best = -1;
    for (int k = 0; k < repeat; k++) {
        *t = (tally){ 0, 0 };
        rvt_irec_sink s = { t, tally_put, NULL, NULL };
        double c = replay_cpu(path, &s, NULL);
        best = best < 0 || (c >= 0 && c < best) ? c : best;
    }
    return best;
}

static double best_encode(const char *path, unsigned xlen, int k, const bench_rvi_hooks *h,
                          int repeat)
{
    double best = -1;
    for (int i = 0; i < repeat; i++) {
        void *enc;
        rvt_irec_sink s;
        rvt_irec_steps steps;
        if (h->enc_open(k, xlen, &enc, &s, &steps) < 0)
            return -1;
        double c = replay_cpu(path, &s, &steps);
        h->enc_close(enc);
        best = best < 0 || (c >= 0 && c < best) ? c : best;
    }
    return best;
}

/* CPU seconds of encoder k alone, fed by the hart from memory: (hart to
 * the encoder) - (hart to a null sink), best of repeat pairs. */
static double best_alone(const char *elf, unsigned xlen, int k, const bench_rvi_hooks *h, int repeat)
{
    double best = -1;
    for (int i = 0; i < repeat; i++) {
        tally t = { 0, 0 };
        rvt_irec_sink null = { &t, tally_put, NULL, NULL };
        uint64_t n;
        double plain = 0, with = 0;
        void *enc;
        rvt_irec_sink s;
        rvt_irec_steps steps;
        if (h->run(elf, &null, &n, &plain) < 0 || h->enc_open(k, xlen, &enc, &s, &steps) < 0)
            return -1;
        int rc = h->run(elf, &s, &n, &with);
        h->enc_close(enc);
        double c = with - plain;
        if (rc >= 0 && c > 0)
            best = best < 0 || c < best ? c : best;
    }
    return best;
}

static int measure_version(const char *elf, unsigned xlen, const bench_rvi_hooks *h, int repeat,
                           bench_rvi *r, int i)
{
    char path[] = "/tmp/rvtrace-bench-rvi-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    int rc = write_rvi(elf, xlen, i ? RVT_RVI_VERSION_2 : RVT_RVI_VERSION_1, path, h, r, i);
    tally t;
    double null_cpu = rc < 0 ? -1 : best_null(path, repeat, &t);
    if (null_cpu > 0) {
        r->records = t.records;
        r->read_mrecs[i] = rate(t.records, null_cpu);
        r->read_mips[i] = rate(t.insns, null_cpu);
        for (int k = 0; k < BENCH_RVI_ENCODERS; k++) {
            double c = best_encode(path, xlen, k, h, repeat);
            r->enc_mips[i][k] = c > 0 ? rate(t.insns, c) : 0;
            if (i)
                r->enc_alone_mips[k] = rate(t.insns, best_alone(elf, xlen, k, h, repeat));
        }
    }
    remove(path);
    return null_cpu > 0 ? 0 : -1;
}

int bench_rvi_measure(const char *elf, unsigned xlen, const bench_rvi_hooks *h, int repeat,
                      bench_rvi *r)
{
    int rc = 0;
    for (int i = 0; i < BENCH_RVI_VERSIONS; i++) {
        fprintf(stderr, "bench: .rvi version %d rows\n", i + 1);
        rc |= measure_version(elf, xlen, h, repeat, r, i);
    }
    return rc;
}

static double per_insn(uint64_t bytes, uint64_t insns)
{
    return insns ? (double)bytes / (double)insns : 0;
}

void bench_rvi_report(FILE *f, const bench_rvi *r, const char *long_name)
{
    fprintf(f, ".rvi ingress files (issue #18; bench/rvi_rows.c, `rvtrace_bench --rvi-only`): %s, "
               "%" PRIu64 " instructions in %" PRIu64 " records; the reader is rvt_rvi_replay (the "
               "batch reader) into a null sink, goal >= 100 M records/s; encoding from it is "
               "rvt_rvi_replay_steps as `rvtrace encode` runs it (each encoder takes each run "
               "record whole); \"encoder alone\" is the hart "
               "feeding the encoder from memory less the hart alone; E-Trace all modes, N-Trace "
               "HTM+sj+ir+rpt; CPU time, best of 3 runs each (the full bench: 1 run).\n\n"
               "| .rvi | bytes | bytes/instr | hart writes it (M instr/s) | reader alone (M records/s) "
               "| E-Trace encode from it (M instr/s) | N-Trace encode from it (M instr/s) |\n"
               "|---|---:|---:|---:|---:|---:|---:|\n", long_name, r->instret, r->records);
    for (int i = 0; i < BENCH_RVI_VERSIONS; i++)
        fprintf(f, "| version %d | %" PRIu64 " | %.3f | %.0f | %.0f | %.0f | %.0f |\n", i + 1,
                r->bytes[i], per_insn(r->bytes[i], r->instret), r->write_mips[i], r->read_mrecs[i],
                r->enc_mips[i][0], r->enc_mips[i][1]);
    fprintf(f, "| encoder alone | | | | | %.0f | %.0f |\n\n", r->enc_alone_mips[0],
            r->enc_alone_mips[1]);
}
