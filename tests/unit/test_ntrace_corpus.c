/* N-Trace round trip on real programs without the hart: the interop
 * corpus' QEMU PC lists are imported as ingress blocks (pcs importer),
 * encoded with every option, decoded against the ELF, and compared with
 * the retired PCs.  Passes vacuously without ../shared/interop. */
#include <stdlib.h>
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/image.h"

typedef struct vec { void *p; size_t n, cap, sz; } vec;
static void *vec_add(vec *v)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 1024;
        v->p = realloc(v->p, v->cap * v->sz);
    }
    return (char *)v->p + v->sz * v->n++;
}

static int rec_put(void *ctx, const rvt_irec *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *(rvt_irec *)vec_add(ctx) = r[i];
    return 0;
}
static int byte_put(void *ctx, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *(uint8_t *)vec_add(ctx) = b[i];
    return 0;
}
typedef struct got { vec pcs; uint64_t errors; } got;
static int got_ev(void *ctx, const rvt_flow_event *ev)
{
    got *g = ctx;
    if (ev->kind == RVT_EV_INSN)
        *(uint64_t *)vec_add(&g->pcs) = ev->pc;
    if (ev->kind == RVT_EV_ERROR)
        g->errors++;
    return 0;
}

static const char *const configs[] = {
    "", "seq", "ir3", "ir2", "rpt", "alljumps", "noaddrdiff", "extend", "context",
    "all", "sync+ts", "all+sync+ts",
};

static void apply(rvt_nt_cfg *c, const char *name)
{
    bool all = strstr(name, "all") == name && strcmp(name, "alljumps");
    if (all || !strcmp(name, "seq")) c->seq_jump = true;
    if (all || !strcmp(name, "ir3")) c->implicit_return = 3;
    if (!strcmp(name, "ir2")) c->implicit_return = 2;
    if (all || !strcmp(name, "rpt")) c->repeat_history = true;
    if (all || !strcmp(name, "alljumps")) c->all_jumps = true;
    if (!strcmp(name, "noaddrdiff")) c->no_addr_diff = true;
    if (all || !strcmp(name, "extend")) c->extend_addr_msb = true;
    if (all || !strcmp(name, "context")) c->context = true;
    if (strstr(name, "sync+ts")) { c->sync_mode = 3; c->sync_max = 6; c->timestamps = true; }
}

static double run(const char *prog, rvt_image *img, const vec *recs, const vec *want,
                  unsigned mode, const char *name)
{
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    cfg.inst_mode = mode;
    cfg.xlen = rvt_image_xlen(img);
    apply(&cfg, name);
    vec bytes = { .sz = 1 };
    int st;
    rvt_nt_encoder *e = rvt_nt_encoder_new(&cfg, byte_put, &bytes, &st);
    CHECK(e);
    CHECK_EQ(rvt_nt_encoder_put(e, recs->p, recs->n), 0);
    CHECK_EQ(rvt_nt_encoder_end(e), 0);
    rvt_nt_encoder_free(e);
    got g = { .pcs = { .sz = 8 } };
    rvt_nt_decoder *d = rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, -1, got_ev, &g, &st);
    CHECK_EQ(rvt_nt_decode(d, bytes.p, bytes.n), 0);
    rvt_nt_decoder_free(d);
    const uint64_t *a = want->p, *b = g.pcs.p;
    size_t i = 0;
    while (i < want->n && i < g.pcs.n && a[i] == b[i])
        i++;
    if (i != want->n || g.pcs.n != want->n || g.errors)
        TH_FAIL("%s %s %s: first difference at instruction #%zu: want %llx got %llx (%zu/%zu, %llu errors)",
                prog, mode == 3 ? "btm" : "htm", name, i + 1,
                i < want->n ? (unsigned long long)a[i] : 0ull,
                i < g.pcs.n ? (unsigned long long)b[i] : 0ull, g.pcs.n, want->n,
                (unsigned long long)g.errors);
    else
        th_passed++;
    double bpi = want->n ? 8.0 * (double)bytes.n / (double)want->n : 0;
    free(bytes.p);
    free(g.pcs.p);
    return bpi;
}

int main(void)
{
    const char *sh = getenv("RVT_SHARED");
    char base[1024];
    if (sh)
        snprintf(base, sizeof base, "%s/interop", sh);
    else
        snprintf(base, sizeof base, "%s/../shared/interop", getenv("RVT_SRC") ? getenv("RVT_SRC") : ".");
    char path[1200];
    snprintf(path, sizeof path, "%s/programs/traps.elf", base);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("no interop corpus: nothing to check\n");
        return 0;   /* unit tests have no skip status in CTest */
    }
    fclose(f);
    static const char *const progs[] = { "coswap", "deeprec", "traps", "privs", "branchy", "rv32mix" };
    double sum_htm = 0, sum_btm = 0;
    for (size_t p = 0; p < sizeof progs / sizeof progs[0]; p++) {
        rvt_image *img = rvt_image_new();
        snprintf(path, sizeof path, "%s/programs/%s.elf", base, progs[p]);
        CHECK_EQ(rvt_image_load_elf(img, path), 0);
        /* the PC list, uncompressed by the test's CTest wrapper script */
        snprintf(path, sizeof path, "%s/ntrace-refcode/inputs/%s.pcs.gz", base, progs[p]);
        char cmd[1400], tmp[] = "/tmp/rvt_nt_pcsXXXXXX";
        int fd = mkstemp(tmp);
        if (fd < 0) return 1;
        snprintf(cmd, sizeof cmd, "gzip -dc '%s' > %s", path, tmp);
        CHECK_EQ(system(cmd), 0);
        vec recs = { .sz = sizeof(rvt_irec) }, want = { .sz = 8 };
        rvt_irec_sink sink = { &recs, rec_put, NULL, NULL };
        rvt_import_cfg ic = { .image = img };
        CHECK(rvt_import_file(RVT_IMPORT_PCS, tmp, &ic, &sink, NULL) >= 0);
        remove(tmp);
        for (size_t i = 0; i < recs.n; i++) {
            const rvt_irec *r = (const rvt_irec *)recs.p + i;
            if (r->ninstr)
                *(uint64_t *)vec_add(&want) = r->iaddr;
        }
        for (unsigned mode = 3; mode <= 6; mode += 3)
            for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
                double bpi = run(progs[p], img, &recs, &want, mode, configs[c]);
                if (!strcmp(configs[c], "all")) {
                    printf("%-8s %s all options: %.3f bits/instr\n", progs[p], mode == 3 ? "btm" : "htm", bpi);
                    if (mode == 3) sum_btm += bpi; else sum_htm += bpi;
                }
            }
        free(recs.p);
        free(want.p);
        rvt_image_free(img);
    }
    printf("mean bits/instr, all options: btm %.3f htm %.3f\n", sum_btm / 6, sum_htm / 6);
    return TH_DONE();
}
