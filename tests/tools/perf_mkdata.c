/* Test tool: a perf.data of rvtrace's own making (rvtrace/perfdata.h), so
 * that the reader and `rvtrace decode perf.data` can be tested without a
 * capture and Debian's perf can check the layout.
 *   perf_mkdata OUT NAME ADDR LEN [--pgoff OFF] [--info TYPE] [--chunk BYTES] CPU:STREAM...
 * writes COMM "prog" (pid/tid 1), an MMAP2 of NAME at ADDR (LEN bytes of
 * the file from offset OFF, default 0; r-x, private), optionally an AUXTRACE_INFO of TYPE, then each CPU's
 * STREAM file as AUXTRACE records of at most BYTES (default 4096) bytes,
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

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: perf_mkdata OUT NAME ADDR LEN [--pgoff OFF] [--info TYPE] "
                        "[--chunk N] CPU:STREAM...\n");
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
        if (!strcmp(argv[i], "--pgoff") && i + 1 < argc) {
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
