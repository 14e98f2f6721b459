/* One rvt_mem (include/rvtrace/mem.h) shared by decoders on two threads
 * (issue 14, "What must hold"): programs/crc.elf run on the hart gives an
 * E-Trace stream with the default options, one with every compressing
 * option, and an N-Trace stream; each thread decodes the same E-Trace
 * stream at the same time as the other, then a stream of its own, twice
 * over.  Every decode must give what a decoder alone gives (instruction
 * count, a hash of the PC sequence, no errors).  Built with
 * -DRVT_TSAN=ON (make tsan) ThreadSanitizer checks that no decoder writes
 * what another reads: the images are only read, the caches are each
 * decoder's own.  No CHECK in the threads: the harness counters are not
 * theirs to share. */
#include <pthread.h>
#include "test_etrace_util.h"
#include "rvtrace/hart.h"
#include "rvtrace/mem.h"
#include "rvtrace/ntrace.h"

typedef struct stream {
    te_buf b;
    bool ntrace;
    rvt_te_attrs a;
    rvt_nt_cfg cfg;
} stream;

typedef struct result {
    uint64_t insns, hash, errors;
} result;

static int count_ev(void *ctx, const rvt_flow_event *ev)
{
    result *r = ctx;
    if (ev->kind == RVT_EV_INSN) {
        r->insns++;
        r->hash = (r->hash ^ ev->pc) * 0x100000001b3ull;   /* FNV-1a over PCs */
    } else if (ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_LOST) {
        r->errors++;
    }
    return 0;
}

static result decode(const rvt_mem *m, const stream *s)
{
    result r = { 0, 0xcbf29ce484222325ull, 0 };
    int st = 0;
    if (s->ntrace) {
        rvt_nt_decoder *d = rvt_nt_decoder_new_mem(&s->cfg, m, -1, count_ev, &r, &st);
        if (!d || rvt_nt_decode(d, s->b.b, s->b.n) || rvt_nt_decode_end(d))
            r.errors++;
        rvt_nt_decoder_free(d);
    } else {
        rvt_te_decoder *d = rvt_te_decoder_new_mem(&s->a, m, count_ev, &r, &st);
        if (!d || rvt_te_decoder_run(d, s->b.b, s->b.n))
            r.errors++;
        rvt_te_decoder_free(d);
    }
    return r;
}

static int nt_put(void *ctx, const uint8_t *b, size_t n)
{
    return te_buf_put(ctx, b, n);
}

/* Run the program on the hart into s's encoder. */
static void record(rvt_image *img, stream *s)
{
    int st = 0;
    rvt_te_encoder *te = NULL;
    rvt_nt_encoder *nt = NULL;
    rvt_irec_sink sink;
    if (s->ntrace) {
        nt = rvt_nt_encoder_new(&s->cfg, nt_put, &s->b, &st);
        CHECK(nt != NULL);
        sink = rvt_nt_encoder_sink(nt);
    } else {
        te = rvt_te_encoder_new(&s->a, te_buf_put, &s->b, &st);
        CHECK(te != NULL);
        sink = rvt_te_encoder_sink(te);
    }
    rvt_hart_cfg cfg = { .sink = &sink };
    rvt_hart *h = (te || nt) ? rvt_hart_new(&cfg, img, &st) : NULL;
    CHECK(h != NULL);
    if (h) {
        CHECK_EQ(rvt_hart_run(h, 0), RVT_HART_EXITED);
        CHECK_EQ(rvt_hart_finish(h), 0);
        CHECK_EQ(rvt_hart_exit_code(h), 0);
    }
    rvt_hart_free(h);
    rvt_te_encoder_free(te);
    rvt_nt_encoder_free(nt);
    CHECK(s->b.n > 0);
}

#define ROUNDS 2
typedef struct job {
    const rvt_mem *m;
    const stream *first, *second;
    result got[ROUNDS][2];
} job;

static void *worker(void *p)
{
    job *j = p;
    for (int k = 0; k < ROUNDS; k++) {
        j->got[k][0] = decode(j->m, j->first);
        j->got[k][1] = decode(j->m, j->second);
    }
    return NULL;
}

static void check_same(const result *got, const result *want, const char *what)
{
    if (got->insns != want->insns || got->hash != want->hash || got->errors != want->errors)
        TH_FAIL("%s: %" PRIu64 " instructions (hash %016" PRIx64 ", %" PRIu64 " errors), alone "
                "%" PRIu64 " (%016" PRIx64 ", %" PRIu64 ")", what, got->insns, got->hash,
                got->errors, want->insns, want->hash, want->errors);
    else
        th_passed++;
}

int main(void)
{
    const char *src = getenv("RVT_SRC");
    char path[4096];
    snprintf(path, sizeof path, "%s/programs/crc.elf", src ? src : ".");
    rvt_image *img = rvt_image_new();
    if (rvt_image_load_elf(img, path) < 0) {
        printf("%s: not found, skipped\n", path);
        rvt_image_free(img);
        return 0;
    }
    stream s[3];
    memset(s, 0, sizeof s);
    for (int i = 0; i < 2; i++) {
        rvt_te_attrs_default(&s[i].a);
        if (i) {   /* the e2e round trip's "compress" mode (etrace_roundtrip.sh) */
            s[i].a.options = RVT_TE_OPT_COMPRESSING;
            CHECK_EQ(rvt_te_attrs_set(&s[i].a, "return_stack_size=5"), 0);
        }
        rvt_te_attrs_fill(&s[i].a);
    }
    s[2].ntrace = true;
    rvt_nt_cfg_default(&s[2].cfg);
    for (int i = 0; i < 3; i++)
        record(img, &s[i]);

    /* The reference decodes use an image of their own: the shared one is
     * cold when the threads start (every cache fills under both). */
    rvt_image *shared = rvt_image_new();
    CHECK_EQ(rvt_image_load_elf(shared, path), 0);
    rvt_mem *m = rvt_mem_new(), *ref = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(m, NULL, shared), 0);
    CHECK_EQ(rvt_mem_add_image(ref, NULL, img), 0);
    result alone[3];
    for (int i = 0; i < 3; i++) {
        alone[i] = decode(ref, &s[i]);
        CHECK_EQ(alone[i].errors, 0);
        CHECK(alone[i].insns > 300000);          /* crc runs 362,912 */
    }
    CHECK_EQ(alone[0].insns, alone[1].insns);
    CHECK_EQ(alone[0].hash, alone[1].hash);      /* one program, two encodings */

    job a = { m, &s[0], &s[1], { { { 0 } } } }, b = { m, &s[0], &s[2], { { { 0 } } } };
    pthread_t ta, tb;
    CHECK_EQ(pthread_create(&ta, NULL, worker, &a), 0);
    CHECK_EQ(pthread_create(&tb, NULL, worker, &b), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    for (int k = 0; k < ROUNDS; k++) {
        check_same(&a.got[k][0], &alone[0], "thread A, E-Trace (shared stream)");
        check_same(&a.got[k][1], &alone[1], "thread A, E-Trace compressed");
        check_same(&b.got[k][0], &alone[0], "thread B, E-Trace (shared stream)");
        check_same(&b.got[k][1], &alone[2], "thread B, N-Trace");
    }
    rvt_mem_free(m);
    rvt_mem_free(ref);
    rvt_image_free(shared);
    rvt_image_free(img);
    for (int i = 0; i < 3; i++)
        free(s[i].b.b);
    return TH_DONE();
}
