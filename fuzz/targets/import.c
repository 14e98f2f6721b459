/* Fuzz target: the text importers (rvt_import_file, src/ingress): the
 * E-Trace reference-flow encoder-input CSV (3- and 4-bit itype), the
 * Spike-style trace CSV, spike --log-commits logs and PC lists (against a
 * fixed program image from programs/).  Input: byte 0 selects the format
 * (bits 1:0), 3-bit itype (bit 2) and RV32 (bit 3); the rest is the file.
 * An error must name a line and an offset inside the file; the records
 * produced are bounded by the lines read, and all of them reach the sink.
 * FUZZ_ARGS: -max_len=4096 */
#include "../fuzz.h"
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"

static rvt_image *img;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    char path[4096];
    img = rvt_image_new();
    if (rvt_image_load_elf(img, rvt_fuzz_src("programs/sort.elf", path, sizeof path)) < 0) {
        fprintf(stderr, "import: cannot load %s: PC lists are fuzzed without code\n", path);
    }
    return 0;
}

typedef struct counter {
    uint64_t blocks;
    bool ended;
} counter;

static int count_put(void *ctx, const rvt_irec *recs, size_t n)
{
    counter *c = ctx;
    RVT_FUZZ_ASSERT(!c->ended);
    for (size_t i = 0; i < n; i++)
        RVT_FUZZ_ASSERT(recs[i].itype < 16 && recs[i].ninstr <= 1);
    c->blocks += n;
    return 0;
}

static int count_end(void *ctx)
{
    ((counter *)ctx)->ended = true;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const rvt_import_fmt fmts[4] = { RVT_IMPORT_REFCSV, RVT_IMPORT_SPIKECSV,
                                            RVT_IMPORT_SPIKELOG, RVT_IMPORT_PCS };
    rvt_fuzz_diag_ctx d = { .limit = size - 1 };
    rvt_import_cfg cfg = { .itype3 = (data[0] >> 2) & 1u, .xlen = (data[0] & 8u) ? 32u : 64u,
                           .image = img, .diag = rvt_fuzz_diag, .diag_ctx = &d };
    counter c = { 0 };
    rvt_irec_sink sink = { &c, count_put, NULL, count_end };
    rvt_import_result res;
    memset(&res, 0, sizeof res);
    int st = rvt_import_file(fmts[data[0] & 3u], rvt_fuzz_file(data + 1, size - 1), &cfg,
                             &sink, &res);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(res.lines <= size);
    /* Streaming semantics: every record counted reached the sink, on an
     * error too (tests/regress/import/pcs-error-batch); end only on success. */
    RVT_FUZZ_ASSERT(c.blocks == res.records);
    RVT_FUZZ_ASSERT(c.ended == (st >= 0));
    RVT_FUZZ_ASSERT(res.records <= res.lines + 1);
    if (st < 0 && res.err_line) {
        RVT_FUZZ_ASSERT(res.err_line <= res.lines + 1);
        RVT_FUZZ_ASSERT(res.err_offset <= size - 1);
    }
    return 0;
}
