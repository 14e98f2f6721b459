/* The writer registry: constant, in rvt_out_kind order (rvt_out_new indexes
 * it), so there is no global mutable state.  A new writer: its file and one
 * line here. */
#include <string.h>
#include "out/writers.h"

static const rvt_out_writer *const writers[] = {
    &rvt_out_pcs_writer,        /* RVT_OUT_PCS */
    &rvt_out_listing_writer,    /* RVT_OUT_LISTING */
    &rvt_out_json_writer,       /* RVT_OUT_JSON */
    &rvt_out_folded_writer,     /* RVT_OUT_FOLDED */
    &rvt_out_report_writer,     /* the profile table (rvtrace report) */
    &rvt_out_flamegraph_writer, /* flame-graph SVG */
    &rvt_out_speedscope_writer, /* speedscope JSON */
    &rvt_out_timeline_writer,   /* Chrome trace-event JSON */
    &rvt_out_html_writer,       /* one-page HTML report */
    &rvt_out_lcov_writer,       /* lcov tracefile (--lcov FILE) */
    &rvt_out_coverage_listing_writer,
    &rvt_out_lbr_writer,
    &rvt_out_pcs_bin_writer,   /* binary PC list (--pcs-bin FILE) */
};

const rvt_out_writer *rvt_out_writer_at(size_t i)
{
    return i < sizeof writers / sizeof writers[0] ? writers[i] : NULL;
}

const rvt_out_writer *rvt_out_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
        if (!strcmp(writers[i]->name, name))
            return writers[i];
    return NULL;
}
