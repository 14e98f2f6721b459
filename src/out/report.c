/* The "report" writer: the profile (profile.c) with the default options,
 * printed when the output finishes; `rvtrace report` sets its own. */
#include <stdlib.h>
#include "out/profile.h"
#include "out/writers.h"

typedef struct rep_out {
    rvt_profile *p;
    FILE *f;
} rep_out;

static void *rep_open(FILE *f, rvt_image *img)
{
    rep_out *o = calloc(1, sizeof *o);
    if (!o || !(o->p = rvt_profile_new(img))) {
        free(o);
        return NULL;
    }
    o->f = f;
    return o;
}

static void rep_event(void *state, const rvt_flow_event *ev)
{
    rvt_profile_event(((rep_out *)state)->p, ev);
}

static void rep_block(void *state, const struct rvt_block *b)
{
    rvt_profile_block(((rep_out *)state)->p, b);
}

static uint64_t rep_blocks(void *state, const struct rvt_block *b, size_t n)
{
    return rvt_profile_blocks(((rep_out *)state)->p, b, n);
}

static void rep_finish(void *state)
{
    rep_out *o = state;
    rvt_profile_opts opts = { 0 };
    rvt_profile_write(o->p, o->f, &opts);
    rvt_profile_free(o->p);
    free(o);
}

const rvt_out_writer rvt_out_report_writer = {
    .name = "report", .needs_image = true,
    .open = rep_open, .event = rep_event, .finish = rep_finish, .block = rep_block,
    .blocks = rep_blocks,
};
