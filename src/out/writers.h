/* The writers the registry (registry.c) lists, one file each. */
#ifndef RVT_OUT_WRITERS_H
#define RVT_OUT_WRITERS_H

#include "rvtrace/out.h"

extern const rvt_out_writer rvt_out_pcs_writer;       /* pcs.c */
extern const rvt_out_writer rvt_out_listing_writer;   /* listing.c */
extern const rvt_out_writer rvt_out_json_writer;      /* json.c */
extern const rvt_out_writer rvt_out_folded_writer;    /* folded.c */
extern const rvt_out_writer rvt_out_report_writer;    /* report.c */
extern const rvt_out_writer rvt_out_flamegraph_writer; /* flamegraph.c */
extern const rvt_out_writer rvt_out_speedscope_writer; /* speedscope.c */
extern const rvt_out_writer rvt_out_timeline_writer;  /* timeline.c */
extern const rvt_out_writer rvt_out_html_writer;      /* html.c */

extern const rvt_out_writer rvt_out_coverage_listing_writer;   /* coverage_listing.c */
extern const rvt_out_writer rvt_out_lcov_writer;      /* lcov.c */
extern const rvt_out_writer rvt_out_lbr_writer;       /* lbr.c */
extern const rvt_out_writer rvt_out_pcs_bin_writer;   /* pcs_bin.c */

#endif
