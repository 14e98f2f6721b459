/* The stream index's insides (include/rvtrace/index.h).  Internal. */
#ifndef RVT_INDEX_INT_H
#define RVT_INDEX_INT_H

#include "rvtrace/index.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"

/* File form protocol codes (docs/formats.md). */
enum { IDX_ETRACE = 1, IDX_NTRACE = 2 };

/* A source of a multi-source stream (N-Trace SRC), as the scan met it. */
typedef struct idx_source {
    uint16_t src;
    uint64_t first;           /* offset of its first message */
    uint64_t last_kept;       /* building: its last point kept (min_gap) */
    bool kept;                /* a point of it was kept */
} idx_source;

struct rvt_index {
    unsigned proto;           /* IDX_* */
    uint64_t stream_size;
    unsigned sources;
    /* built by a scan that tells the sources (idx_source_seen): each
     * source, in the order of its first message; the file keeps only
     * the count (src_known false) */
    bool src_known;
    idx_source *srcs;
    size_t nsrc, src_cap;
    uint16_t *slot;           /* SRC -> srcs index + 1 (0: not met yet) */
    uint64_t min_gap;         /* building: keep points this far apart */
    rvt_index_done_fn done;   /* building: bytes read for good (or NULL) */
    void *done_ctx;
    uint64_t done_at;         /* the last offset told */
    size_t n, cap;
    rvt_index_point *pts;
};

rvt_index *idx_new(unsigned proto, uint64_t stream_size);
/* Append p (offsets increase) unless it is less than min_gap after the
 * last point kept of its source (of any point when the scan does not
 * tell sources); 0 or RVT_ERR_NOMEM. */
int idx_add(rvt_index *x, const rvt_index_point *p);

/* The scan met a message of source src at offset `at`: the first one
 * makes the source known (its order and first offset).  0 or
 * RVT_ERR_NOMEM. */
int idx_source_seen(rvt_index *x, uint16_t src, uint64_t at);

/* The scan has read everything before pos for good: tell x->done when
 * it has gone a step (a few MiB) past the last offset told. */
void idx_progress(rvt_index *x, uint64_t pos);

/* Where transport `name` (transport.h) finds its first sync point at or
 * after from: rvt_tp_sync_forward from there; 0 for from 0 (a stream
 * starts on a frame boundary); len when there is none. */
struct rvt_tp_config;
size_t idx_first_sync(const char *name, const struct rvt_tp_config *tc, const uint8_t *buf,
                      size_t len, uint64_t from);

/* The protocols' scans (index_te.c, index_nt.c). */
int idx_scan_te(rvt_index *x, const rvt_te_attrs *a, const uint8_t *buf, size_t len,
                uint64_t from);
int idx_scan_nt(rvt_index *x, const rvt_nt_cfg *c, const uint8_t *buf, size_t len,
                uint64_t from);

#endif
