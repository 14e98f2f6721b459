/* The E-Trace encoder takes runs of plain instructions a batch at a time
 * (te_enc_absorb_many) and steps a branch between them without the rest
 * of figure 8.1 (quiet_step): neither may change what it writes.  The
 * same records give the same bytes, statistics and errors whether they
 * come in one call, one at a time or in odd-sized pieces, in every mode
 * where absorbing has a condition of its own: resync counting half-words
 * or cycles (the count can come due inside a run), context changes
 * without a context field (6.1), a field too wide for its packet field
 * inside a run (table 9.1), trace switched off by trigger[1] (4.2.4),
 * branch prediction (3.2.6: a full count, a failed prediction).  And
 * from a version-2 .rvi, its run records handed to the encoder whole
 * (rvt_rvi_replay_steps) give the bytes of its records put one by one. */
#include "test_etrace_util.h"
#include "test_enc_loop.h"

#define MAXR 40000

static rvt_irec recs[MAXR];

static size_t make_loop(unsigned iters)
{
    return enc_loop(recs, MAXR, iters);
}

typedef struct run {
    te_buf out;
    int st;
    char why[96];
    rvt_te_enc_stats stats;
} run;

/* An encoder with the attributes kv ("name=value ..."), writing to res. */
static rvt_te_encoder *new_encoder(const char *kv, run *res)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " "))
        CHECK_EQ(rvt_te_attrs_set(&a, t), 0);
    memset(res, 0, sizeof *res);
    rvt_te_encoder *e = rvt_te_encoder_new(&a, te_buf_put, &res->out, &res->st);
    CHECK(e != NULL);
    return e;
}

/* Encode r[0..n) in pieces of `piece` records (0: all at once). */
static void encode(const char *kv, const rvt_irec *r, size_t n, size_t piece, run *res)
{
    rvt_te_encoder *e = new_encoder(kv, res);
    if (!e)
        return;
    size_t step = piece ? piece : n;
    for (size_t i = 0; i < n && res->st == 0; i += step)
        res->st = rvt_te_encoder_put(e, r + i, n - i < step ? n - i : step);
    if (res->st == 0)
        res->st = rvt_te_encoder_end(e);
    snprintf(res->why, sizeof res->why, "%s", rvt_te_encoder_why(e));
    res->stats = *rvt_te_encoder_stats(e);
    rvt_te_encoder_free(e);
}

static void same(const char *kv, const rvt_irec *r, size_t n)
{
    static const size_t pieces[] = { 1, 7, 1024 };
    run whole, part;
    encode(kv, r, n, 0, &whole);
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        encode(kv, r, n, pieces[p], &part);
        bool ok = whole.st == part.st && whole.out.n == part.out.n &&
                  !memcmp(whole.out.b, part.out.b, whole.out.n) && !strcmp(whole.why, part.why) &&
                  whole.stats.instructions == part.stats.instructions &&
                  whole.stats.halfwords == part.stats.halfwords && whole.stats.packets == part.stats.packets;
        if (!ok)
            TH_FAIL("%s, pieces of %zu: status %d/%d, %zu/%zu bytes, %llu/%llu instructions", kv,
                    pieces[p], whole.st, part.st, whole.out.n, part.out.n,
                    (unsigned long long)whole.stats.instructions,
                    (unsigned long long)part.stats.instructions);
        else
            th_passed++;
        free(part.out.b);
    }
    free(whole.out.b);
}

static const char *const modes[] = {
    "",
    "options=all",
    "options=all version=1.1",
    "options=all resync_mode=halfwords resync_interval=37",
    "options=all resync_mode=halfwords resync_interval=500",
    "options=all resync_mode=cycles resync_interval=400",
    "options=implicit-return resync_mode=cycles resync_interval=53 notime=0 time_width=64",
    "options=all nocontext=1",
    "options=all nocontext=0 context_width=32",
    "options=branch-prediction bpred_size=4",
    "options=full-address resync_max=0",
};

/* Every mode: batches and single records agree. */
static void test_modes(void)
{
    size_t n = make_loop(1500);
    CHECK(n > 6000);
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        same(modes[m], recs, n);
}

/* Encode r[0..n) from a version-2 .rvi file written of them, its runs
 * handed over whole (with_steps) or as records. */
static void encode_rvi(const char *kv, const char *path, bool with_steps, run *res)
{
    rvt_te_encoder *e = new_encoder(kv, res);
    if (!e)
        return;
    rvt_irec_sink s = rvt_te_encoder_sink(e);
    rvt_irec_steps st = rvt_te_encoder_steps(e);
    res->st = rvt_rvi_replay_steps(path, &s, with_steps ? &st : NULL, NULL, NULL);
    res->stats = *rvt_te_encoder_stats(e);
    rvt_te_encoder_free(e);
}

/* enc_run_fn of the E-Trace encoder. */
static void encode_way(const char *kv, const rvt_irec *r, size_t n, const char *path, bool with_steps,
                       enc_result *res)
{
    run x;
    if (path)
        encode_rvi(kv, path, with_steps, &x);
    else
        encode(kv, r, n, 1, &x);
    *res = (enc_result){ x.out, x.st, x.stats.instructions, x.stats.halfwords, x.stats.packets };
}

static void test_rvi_runs(void)
{
    size_t n = make_loop(1500);
    enc_same_from_rvi(encode_way, recs, n, modes, sizeof modes / sizeof modes[0]);
}

/* The run counts every instruction once, its half-words too: 3 plain
 * instructions of 2, 1, 2 half-words and a branch of 2 per pass. */
static void test_counts(void)
{
    size_t n = make_loop(4);        /* passes 0-3: no call, no trap */
    CHECK_EQ(n, 16);
    run r;
    encode("options=all", recs, n, 0, &r);
    CHECK_EQ(r.st, 0);
    CHECK_EQ(r.stats.instructions, 16);
    CHECK_EQ(r.stats.halfwords, 4 * 7);
    free(r.out.b);
}

/* A plain instruction whose address does not fit iaddress_width=32, in
 * the middle of a run: refused at that record however it comes. */
static void test_wide_address(void)
{
    size_t n = make_loop(40);
    rvt_irec *r = malloc(n * sizeof *r);
    CHECK(r != NULL);
    if (!r)
        return;
    memcpy(r, recs, n * sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i].iaddr = (r[i].iaddr & 0xfffffffful) | (i >= 101 ? 0x100000000ull : 0);
    run whole;
    encode("iaddress_width=32", r, n, 0, &whole);
    CHECK_EQ(whole.st, RVT_ERR_RANGE);
    CHECK_HAS(whole.why, "does not fit iaddress_width=32");
    same("iaddress_width=32", r, n);
    free(whole.out.b);
    free(r);
}

/* A run of plain instructions crossing 2^32 with iaddress_width=32: the
 * first one past it is refused, however the run comes, after the same
 * bytes. */
static void test_wide_in_run(void)
{
    enc_gen g = { recs, 0, MAXR, 0 };
    enc_gen_add(&g, 0xffffff00ull, 2, 11);
    for (uint64_t a = 0xffffffe0ull; a < 0x100000020ull; a += 4)
        enc_gen_add(&g, a, 2, 0);
    run whole;
    encode("iaddress_width=32", recs, g.n, 0, &whole);
    CHECK_EQ(whole.st, RVT_ERR_RANGE);
    CHECK_STR(whole.why, "address 4294967296 (0x100000000) does not fit iaddress_width=32");
    same("iaddress_width=32", recs, g.n);
    free(whole.out.b);
}

/* trigger[1] ends the trace after its block; plain records after it are
 * not traced (not absorbed into the last view) until trigger[0]. */
static void test_trigger_off(void)
{
    size_t n = make_loop(60);
    recs[20].flags |= RVT_IREC_F_TRIG_STOP;
    recs[30].flags |= RVT_IREC_F_TRIG_START;
    run r;
    encode("options=all", recs, n, 0, &r);
    CHECK_EQ(r.st, 0);
    CHECK_EQ(r.stats.instructions, n - 9);      /* records 21-29 untraced */
    same("options=all", recs, n);
    free(r.out.b);
}

int main(void)
{
    test_modes();
    test_counts();
    test_wide_address();
    test_trigger_off();
    test_wide_in_run();
    test_rvi_runs();
    return TH_DONE();
}
