/* Writer plug-ins (out.h): the registry finds every writer by name, in
 * rvt_out_kind order; rvt_out_open takes a caller's own writer and keeps
 * the counters; bad arguments give NULL. */
#include <string.h>
#include "tharness.h"
#include "rvtrace/out.h"

/* A writer of the test's own: counts what reaches it. */
typedef struct probe { unsigned opened, events, finished; uint64_t last_pc; } probe;
static probe the_probe;

static void *probe_open(FILE *f, rvt_image *img)
{
    (void)f;
    (void)img;
    the_probe.opened++;
    return &the_probe;
}

static void probe_event(void *state, const rvt_flow_event *ev)
{
    probe *p = state;
    p->events++;
    p->last_pc = ev->pc;
}

static void probe_finish(void *state)
{
    ((probe *)state)->finished++;
}

static const rvt_out_writer probe_writer = {
    .name = "probe", .needs_image = false,
    .open = probe_open, .event = probe_event, .finish = probe_finish,
};

static void registry(void)
{
    static const char *const names[] = { "pcs", "listing", "json", "folded" };
    for (size_t i = 0; i < 4; i++) {
        const rvt_out_writer *w = rvt_out_find(names[i]);
        CHECK(w != NULL);
        CHECK(w == rvt_out_writer_at(i));        /* rvt_out_kind order */
        CHECK_STR(w->name, names[i]);
        CHECK_EQ(w->needs_image, i != RVT_OUT_PCS);
        CHECK(!w->file_option);                   /* --NAME: stdout */
    }
    /* issue #17: the report writers (stdout or report --NAME FILE), then the
     * file writers (--NAME FILE only), after the rvt_out_kind ones */
    static const char *const more[] = { "report", "flamegraph", "speedscope", "timeline", "html" };
    for (size_t i = 0; i < 5; i++) {
        const rvt_out_writer *w = rvt_out_find(more[i]);
        CHECK(w != NULL);
        CHECK(w == rvt_out_writer_at(4 + i));
        CHECK(w && w->needs_image && !w->file_option);
    }
    static const char *const files[] = { "lcov", "coverage-listing", "lbr" };
    for (size_t i = 0; i < 3; i++) {
        const rvt_out_writer *w = rvt_out_find(files[i]);
        CHECK(w != NULL);
        CHECK(w == rvt_out_writer_at(9 + i));
        CHECK(w && w->file_option && w->needs_image);
    }
    /* issue #18: the binary PC list, --pcs-bin FILE, needing no image */
    const rvt_out_writer *pb = rvt_out_find("pcs-bin");
    CHECK(pb != NULL && pb == rvt_out_writer_at(12));
    CHECK(pb && pb->file_option && !pb->needs_image);
    CHECK(rvt_out_writer_at(13) == NULL);
    CHECK(rvt_out_find("probe") == NULL);
    CHECK(rvt_out_find("JSON") == NULL);
    CHECK(rvt_out_find("") == NULL);
    CHECK(rvt_out_find(NULL) == NULL);
}

static void bad_arguments(void)
{
    CHECK(rvt_out_open(NULL, stdout, NULL) == NULL);
    CHECK(rvt_out_open(rvt_out_find("pcs"), NULL, NULL) == NULL);
    CHECK(rvt_out_open(rvt_out_find("json"), stdout, NULL) == NULL);   /* needs an image */
    CHECK(rvt_out_new((rvt_out_kind)4, stdout, NULL) == NULL);
}

static void own_writer(void)
{
    rvt_out *o = rvt_out_open(&probe_writer, stdout, NULL);
    CHECK(o != NULL);
    rvt_flow_event insn = { .kind = RVT_EV_INSN, .pc = 0x80000010 };
    rvt_flow_event lost = { .kind = RVT_EV_LOST, .pc = 0x20 };
    CHECK_EQ(rvt_out_event(o, &insn), 0);
    CHECK_EQ(rvt_out_event(o, &lost), 0);
    CHECK_EQ(rvt_out_insns(o), 1);
    CHECK_EQ(rvt_out_lost(o), 1);
    CHECK_EQ(rvt_out_errors(o), 0);
    rvt_out_free(o);
    CHECK_EQ(the_probe.opened, 1);
    CHECK_EQ(the_probe.events, 2);
    CHECK_EQ(the_probe.last_pc, 0x20);
    CHECK_EQ(the_probe.finished, 1);
}

int main(void)
{
    registry();
    bad_arguments();
    own_writer();
    return TH_DONE();
}
