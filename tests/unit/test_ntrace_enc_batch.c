/* The N-Trace encoder takes a version-2 .rvi file's runs of plain
 * instructions whole (rvt_nt_encoder_steps, rvt_rvi_replay_steps): the
 * stream, statistics and status are those of the same records put one by
 * one, in every setting where a plain instruction can make the encoder
 * act: I-CNT reaching its limit inside a run (8.4.4, HTM and BTM),
 * periodic sync counted in messages, cycles or I-CNT (trTeInstSyncMode),
 * a full HIST (8.3.1) and repeated history (9.3), ownership and time
 * stamps (7.1, 8.7), trace starting disabled (8.6), triggers (4.2.4). */
#include "tharness.h"
#include "rvtrace/ntrace.h"
#include "test_enc_loop.h"

#define MAXR 40000

static rvt_irec recs[MAXR];

/* The settings kv ("name=value ...") over the defaults. */
static rvt_nt_cfg cfg_of(const char *kv)
{
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", kv);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        char *eq = strchr(t, '=');
        CHECK(eq != NULL);
        if (!eq)
            continue;
        *eq = 0;
        CHECK_EQ(rvt_nt_cfg_set(&c, t, eq + 1), 0);
    }
    CHECK_EQ(rvt_nt_cfg_check(&c), 0);
    return c;
}

/* enc_run_fn of the N-Trace encoder. */
static void encode(const char *kv, const rvt_irec *r, size_t n, const char *path, bool with_steps,
                   enc_result *res)
{
    rvt_nt_cfg c = cfg_of(kv);
    memset(res, 0, sizeof *res);
    rvt_nt_encoder *e = rvt_nt_encoder_new(&c, te_buf_put, &res->out, &res->st);
    CHECK(e != NULL);
    if (!e)
        return;
    if (path) {
        rvt_irec_sink s = rvt_nt_encoder_sink(e);
        rvt_irec_steps st = rvt_nt_encoder_steps(e);
        res->st = rvt_rvi_replay_steps(path, &s, with_steps ? &st : NULL, NULL, NULL);
    } else {
        for (size_t i = 0; i < n && res->st == 0; i++)
            res->st = rvt_nt_encoder_put(e, &r[i], 1);
        if (res->st == 0)
            res->st = rvt_nt_encoder_end(e);
    }
    rvt_nt_enc_stats stats;
    rvt_nt_encoder_stats(e, &stats);
    res->instructions = stats.instructions;
    res->halfwords = stats.halfwords;
    res->messages = stats.messages;
    rvt_nt_encoder_free(e);
}

static const char *const modes[] = {
    "",
    "trTeInstEnSequentialJump=1 trTeInstImplicitReturnMode=3 trTeInstEnRepeatedHistory=1",
    "trTeInstMode=3",
    "rvtIcntBits=6",                                        /* limit 32 half-words */
    "rvtIcntBits=6 trTeInstMode=3",
    "trTeInstSyncMode=3 trTeInstSyncMax=2",                 /* every 64 half-words */
    "trTeInstSyncMode=2 trTeInstSyncMax=1 trTsEnable=1",    /* every 32 cycles */
    "trTeInstSyncMode=2 trTeInstSyncMax=3",
    "trTeInstSyncMode=1 trTeInstSyncMax=0",                 /* every 16 messages */
    "trTeContext=1 trTsEnable=1",
    "rvtHistBits=3",
    "trTeInstEnRepeatedHistory=1 rvtRepeatKinds=2 rvtHistBits=8",
    "trTeInstEnAllJumps=1 rvtItypeBits=3",
    "rvtStartDisabled=1",
};

static void test_modes(void)
{
    size_t n = enc_loop(recs, MAXR, 1500);
    CHECK(n > 6000);
    enc_same_from_rvi(encode, recs, n, modes, sizeof modes / sizeof modes[0]);
}

/* Trace off by trigger[1] before a run, on by trigger[0] inside one, and
 * a notify (table 25 SYNC=6) on the call before a run. */
static void test_triggers(void)
{
    size_t n = enc_loop(recs, MAXR, 60);
    recs[20].flags |= RVT_IREC_F_TRIG_STOP;
    recs[60].flags |= RVT_IREC_F_TRIG_START;
    for (size_t i = 100; i < n; i++) {
        if (recs[i].itype == 9) {                   /* jal ra, F */
            recs[i].flags |= RVT_IREC_F_TRIG_NOTIFY;
            break;
        }
    }
    enc_same_from_rvi(encode, recs, n, modes, 3);
}

/* A plain block, a run of 20 plain instructions of 2, 2, 1 half-words
 * by turns from the third (7 of 1, 13 of 2: 33), an indirect jump and one
 * instruction at its target: ProgTraceSync I-CNT 0 at the start (7.5),
 * IndirectBranch with I-CNT 2 + 33 + 2 = 37 half-words (8.4), its
 * target's two half-words in the closing ProgTraceCorrelation (7.12). */
static void test_icnt(void)
{
    enc_gen g = { recs, 0, MAXR, 0 };
    uint64_t a = 0x1000;
    enc_gen_add(&g, a, 2, 0);
    a += 4;
    for (unsigned k = 0; k < 20; k++) {
        unsigned hw = k % 3 ? 2 : 1;
        enc_gen_add(&g, a, hw, 0);
        a += 2 * hw;
    }
    enc_gen_add(&g, a, 2, 14);                      /* jalr x0, 0(t0) */
    enc_gen_add(&g, 0x3000, 2, 0);
    char path[] = "/tmp/rvt_test_nt_enc_icnt_XXXXXX";
    if (!enc_loop_rvi(path, recs, g.n))
        return;
    enc_result r;
    encode("", recs, g.n, path, true, &r);
    remove(path);
    CHECK_EQ(r.st, 0);
    CHECK_EQ(r.instructions, 23);
    CHECK_EQ(r.halfwords, 2 + 33 + 2 + 2);
    rvt_nt_cfg c = cfg_of("");
    rvt_nt_reader rd;
    rvt_nt_msg m[4];
    size_t k = 0;
    rvt_nt_reader_init(&rd, r.out.b, r.out.n, &c);
    while (k < 4 && rvt_nt_reader_next(&rd, &m[k]) == 1)
        k++;
    CHECK_EQ(k, 3);
    if (k == 3) {
        CHECK_EQ(m[0].tcode, RVT_NT_PROG_TRACE_SYNC);
        CHECK_EQ(m[0].f[RVT_NT_F_ICNT], 0);
        CHECK_EQ(m[1].tcode, RVT_NT_INDIRECT_BRANCH);   /* empty HIST: ch. 10 rule 4 */
        CHECK_EQ(m[1].f[RVT_NT_F_ICNT], 37);
        CHECK_EQ(m[2].tcode, RVT_NT_PROG_TRACE_CORRELATION);
        CHECK_EQ(m[2].f[RVT_NT_F_ICNT], 2);
    }
    free(r.out.b);
}

int main(void)
{
    test_icnt();
    test_modes();
    test_triggers();
    return TH_DONE();
}
