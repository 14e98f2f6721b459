/* Test tool: a perf.data of rvtrace's own making (rvtrace/perfdata.h), so
 * that the reader and `rvtrace decode perf.data` can be tested without a
 * capture and Debian's perf can check the layout.
 *   perf_mkdata OUT NAME ADDR LEN [--pgoff OFF] [--info TYPE]
 *               [--riscv-info SRCBITS,SRCID,CONTEXT,FEATURES(hex)] [--chunk BYTES] CPU:STREAM...
 * writes COMM "prog" (pid/tid 1), an MMAP2 of NAME at ADDR (LEN bytes of
 * the file from offset OFF, default 0; r-x, private), optionally an
 * AUXTRACE_INFO of TYPE (no private words) or a RISC-V one
 * (rvt_perf_riscv_te_priv: PMU type 8, E-Trace, one block per CPU given,
 * with these trTeSrcBits, trTeSrcID, trTeContext and trTeInstFeatures
 * values), then each CPU's STREAM file as AUXTRACE records of at most BYTES (default 4096) bytes,
 * the CPUs' records taking turns as perf writes them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/perfdata.h"
#include "../unit/test_bytes_util.h"

#define MAX_CPUS 16

typedef struct cpu_stream {
    unsigned cpu;
    uint8_t *buf;
    size_t len, pos;
} cpu_stream;

/* The CPUs' data in turns of at most chunk bytes. */
static int write_aux(rvt_perf_writer *w, cpu_stream *s, int n, size_t chunk)
{
    for (int more = 1; more;) {
        more = 0;
        for (int i = 0; i < n; i++) {
            size_t k = s[i].len - s[i].pos < chunk ? s[i].len - s[i].pos : chunk;
            if (!k)
                continue;
            if (rvt_perf_write_auxtrace(w, s[i].cpu, 1, s[i].buf + s[i].pos, k) < 0)
                return -1;
            s[i].pos += k;
            more = 1;
        }
    }
    return 0;
}

/* A RISC-V AUXTRACE_INFO with one E-Trace encoder block per CPU stream. */
static int write_riscv_info(rvt_perf_writer *w, const char *spec, const cpu_stream *s, int n)
{
    unsigned bits, id, ctx, feat;
    if (sscanf(spec, "%u,%u,%u,%x", &bits, &id, &ctx, &feat) != 4)
        return -1;
    rvt_perf_riscv_te te[MAX_CPUS];
    uint64_t priv[1 + MAX_CPUS * (2 + RVT_PERF_RISCV_PARAMS)];
    for (int i = 0; i < n; i++)
        te[i] = (rvt_perf_riscv_te){ .cpu = s[i].cpu, .context = ctx != 0, .src_bits = bits,
                                     .src_id = id, .has_features = true, .features = feat };
    size_t k = rvt_perf_riscv_te_priv(8, te, (size_t)n, priv);
    return rvt_perf_write_auxtrace_info(w, RVT_PERF_AUXTRACE_RISCV, priv, k);
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: perf_mkdata OUT NAME ADDR LEN [--pgoff OFF] [--info TYPE] "
                        "[--riscv-info B,ID,CTX,FEAT] [--chunk N] CPU:STREAM...\n");
        return 2;
    }
    rvt_perf_writer *w = rvt_perf_writer_new(NULL);
    cpu_stream s[MAX_CPUS];
    int n = 0, rc = 0;
    size_t chunk = 4096;
    uint64_t pgoff = 0;
    for (int i = 5; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--pgoff"))
            pgoff = strtoull(argv[i + 1], NULL, 0);
    rvt_perf_write_comm(w, 1, 1, "prog");
    rvt_perf_write_mmap2(w, 1, 1, strtoull(argv[3], NULL, 0), strtoull(argv[4], NULL, 0), pgoff,
                         5, 2, argv[2]);
    for (int i = 5; i < argc; i++) {
        if ((!strcmp(argv[i], "--pgoff") || !strcmp(argv[i], "--riscv-info")) && i + 1 < argc) {
            i++;
        } else if (!strcmp(argv[i], "--info") && i + 1 < argc) {
            rvt_perf_write_auxtrace_info(w, (uint32_t)strtoul(argv[++i], NULL, 0), NULL, 0);
        } else if (!strcmp(argv[i], "--chunk") && i + 1 < argc) {
            chunk = strtoull(argv[++i], NULL, 0);
        } else if (strchr(argv[i], ':') && n < MAX_CPUS) {
            s[n].cpu = (unsigned)strtoul(argv[i], NULL, 0);
            s[n].pos = 0;
            if (!(s[n].buf = th_slurp(strchr(argv[i], ':') + 1, &s[n].len))) {
                fprintf(stderr, "perf_mkdata: cannot read %s\n", argv[i]);
                return 1;
            }
            n++;
        }
    }
    for (int i = 5; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--riscv-info") && write_riscv_info(w, argv[i + 1], s, n) < 0)
            rc = 1;
    const uint8_t *b;
    size_t len;
    FILE *f = fopen(argv[1], "wb");
    if (!chunk || write_aux(w, s, n, chunk) < 0 || rvt_perf_writer_finish(w, &b, &len) < 0 || !f ||
        fwrite(b, 1, len, f) != len)
        rc = 1;
    if (f && fclose(f))
        rc = 1;
    for (int i = 0; i < n; i++)
        free(s[i].buf);
    rvt_perf_writer_free(w);
    return rc;
}
