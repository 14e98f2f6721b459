/* bench/wrapped.c on a small workload: a 1 MiB wrapped sink buffer (the
 * encapsulated E-Trace of sort, cut one byte into a packet, repeated)
 * decodes from its first sync point without errors, to at least the
 * instructions of its whole copies, in memory that does not grow with the
 * buffer (well under its size). */
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "test_hart_util.h"
#include "test_bytes_util.h"
#include "rvtrace/etrace.h"
#include "../../bench/wrapped.h"

int main(void)
{
    rvt_image *img = th_program("sort");
    if (!img) {
        printf("no programs/sort.elf: skipped\n");
        return 0;
    }
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.iaddress_width = 64;
    rvt_te_attrs_fill(&a);
    te_buf g = { 0 };
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(&a, te_buf_put, &g, &st);
    CHECK(e != NULL);
    rvt_irec_sink s = rvt_te_encoder_sink(e);
    th_trace(img, &s, 0);
    rvt_te_encoder_free(e);
    char elf[1024];
    const char *src = getenv("RVT_SRC");
    snprintf(elf, sizeof elf, "%s/programs/sort.elf", src ? src : ".");
    wrapped_result w;
    const uint64_t size = 1u << 20;
    CHECK_EQ(wrapped_measure(elf, &a, g.b, g.n, size, &w), 0);
    CHECK_EQ(w.buffer_bytes, size);
    CHECK_EQ(w.errors, 0);
    CHECK(w.plain_insns > 0);
    /* the encapsulated copy is a little longer than the plain stream; the
     * buffer holds at least size / (2 * plain bytes) whole copies */
    uint64_t copies = size / (2 * g.n);
    CHECK(copies >= 1);
    CHECK(w.insns >= copies * w.plain_insns);
    /* the cut is one byte into a packet: something is skipped, less than
     * the 4 KiB between sync sequences plus one sequence */
    CHECK(w.skipped > 0 && w.skipped < 4096 + 64);
    if (w.rss_peak_reset)
        CHECK(w.rss_peak_kib - w.rss_start_kib < 4096);   /* 1 MiB chunk + decoder */
    free(g.b);
    rvt_image_free(img);
    return TH_DONE();
}
