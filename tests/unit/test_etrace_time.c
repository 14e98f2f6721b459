/* E-Trace 2.0 time fields (7.3 Timestamping; format 3 subformats 0-2
 * carry *time* unless notime) reach the flow as RVT_EV_TIME (issue #17:
 * "E-Trace time" in profiles and timelines).  Hand-made stream, time_width
 * 8 (the field keeps the time's low 8 bits):
 *
 *   support (enable)
 *   sync at leaf2 (0x50), time 250     -> TIME 250 at 0x50, then INSN 0x50
 *   context packet, time 4             -> 4 < 250: wrapped, TIME 256+4 = 260
 *   context packet, time 44            -> TIME 256+44 = 300
 *   support (enable 0, ended_rep)
 *
 * The profile then spans 300 - 250 = 50 cycles and the timeline's time
 * base is the timestamps.  Version 1.1.1, or 2.0 with notime=1, has no
 * time field: no TIME events. */
#include <stdio.h>
#include "test_etrace_util.h"
#include "rvtrace/profile.h"
#include "out/profile.h"

static size_t stream_of(const rvt_te_attrs *a, uint8_t *b, size_t cap)
{
    const rvt_te_pkt pk[] = {
        { .format = 3, .subformat = 3, .enable = 1 },
        { .format = 3, .subformat = 0, .branch = 1, .privilege = 3, .time = 250,
          .address = (TE_BASE + 0x50) >> 1 },
        { .format = 3, .subformat = 2, .privilege = 3, .time = 4 },
        { .format = 3, .subformat = 2, .privilege = 3, .time = 44 },
        { .format = 3, .subformat = 3, .enable = 0, .qual_status = RVT_TE_QUAL_ENDED_REP },
    };
    size_t n = 0;
    for (size_t i = 0; i < sizeof pk / sizeof pk[0]; i++) {
        int k = rvt_te_frame(a, &pk[i], b + n, cap - n);
        CHECK(k > 0);
        n += k > 0 ? (size_t)k : 0;
    }
    return n;
}

static void attrs(rvt_te_attrs *a, unsigned version, unsigned notime)
{
    rvt_te_attrs_default(a);
    a->version = version;
    a->notime = notime;
    a->time_width = 8;
}

static void check_times(const te_evs *e, const uint64_t *want, size_t nwant, const char *what)
{
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++) {
        if (e->ev[i].kind != RVT_EV_TIME)
            continue;
        if (k >= nwant || e->ev[i].aux != want[k])
            TH_FAIL("%s: time event %zu is %" PRIu64, what, k, e->ev[i].aux);
        k++;
    }
    if (k != nwant)
        TH_FAIL("%s: %zu time events, want %zu", what, k, nwant);
}

/* The first time event comes before the sync's instruction, at its pc. */
static void check_first_order(const te_evs *e)
{
    for (size_t i = 0; i < e->n; i++) {
        if (e->ev[i].kind == RVT_EV_INSN)
            TH_FAIL("the instruction came before the sync's time");
        if (e->ev[i].kind == RVT_EV_TIME) {
            CHECK_EQ(e->ev[i].pc, TE_BASE + 0x50);
            return;
        }
    }
}

/* A decoder feeding an rvt_out writer by name; its output in buf. */
static int to_out(void *o, const rvt_flow_event *ev) { return rvt_out_event(o, ev); }

static void timeline_base(const rvt_te_attrs *a, rvt_image *img, const uint8_t *b, size_t n)
{
    char buf[4096] = { 0 };
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    CHECK(f != NULL);
    if (!f)
        return;
    rvt_out *o = rvt_out_open(rvt_out_find("timeline"), f, img);
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, to_out, o, &st);
    CHECK(o != NULL && d != NULL);
    if (d)
        rvt_te_decoder_run(d, b, n);
    rvt_te_decoder_free(d);
    rvt_out_free(o);
    fclose(f);
    CHECK(strstr(buf, "\"time_base\":\"timestamps\"") != NULL);
}

int main(void)
{
    rvt_image *img = te_image(te_prog, sizeof te_prog / 4);
    CHECK(img != NULL);
    uint8_t b[128];
    rvt_te_attrs a;
    te_evs e = { 0 };

    attrs(&a, RVT_TE_V20, 0);
    size_t n = stream_of(&a, b, sizeof b);
    CHECK_EQ(te_decode(&a, img, b, n, &e), 0);
    static const uint64_t want[] = { 250, 260, 300 };
    check_times(&e, want, 3, "2.0 with time");
    check_first_order(&e);

    rvt_profile *p = rvt_profile_new(img);
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(&a, img, rvt_profile_event, p, &st);
    CHECK(p != NULL && d != NULL);
    if (d)
        rvt_te_decoder_run(d, b, n);
    rvt_te_decoder_free(d);
    if (p) {
        CHECK_EQ(rvt_profile_cycles(p), 50);
        CHECK_EQ(rvt_profile_insns(p), 1);
    }
    rvt_profile_free(p);
    timeline_base(&a, img, b, n);

    attrs(&a, RVT_TE_V20, 1);
    n = stream_of(&a, b, sizeof b);
    CHECK_EQ(te_decode(&a, img, b, n, &e), 0);
    check_times(&e, NULL, 0, "2.0 notime");

    attrs(&a, RVT_TE_V11, 0);
    n = stream_of(&a, b, sizeof b);
    CHECK_EQ(te_decode(&a, img, b, n, &e), 0);
    check_times(&e, NULL, 0, "1.1.1");

    free(e.ev);
    rvt_image_free(img);
    return TH_DONE();
}
