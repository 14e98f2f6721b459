/* perf.data layout constants shared by the reader and the writer
 * (tools/perf/Documentation/perf.data-file-format.txt; linux/perf_event.h). */
#ifndef RVT_PERF_FMT_H
#define RVT_PERF_FMT_H

#include <stdint.h>
#include <string.h>

/* struct perf_file_header: magic, size, attr_size, then the attrs, data
 * and event_types sections {offset, size}, then adds_features (256 bits). */
#define PERF_MAGIC "PERFILE2"
#define PERF_HEADER_SIZE 104u
#define PERF_HDR_ATTR_SIZE 16u
#define PERF_HDR_ATTRS 24u
#define PERF_HDR_DATA 40u
#define PERF_HDR_FEATURES 72u
/* struct perf_event_attr: PERF_ATTR_SIZE_VER0 is the smallest a file may
 * hold; the writer uses VER5 (up to aux_sample_size), which perf 4.x-6.x
 * all read.  In a file each attr is followed by its ids section. */
#define PERF_ATTR_SIZE_VER0 64u
#define PERF_ATTR_SIZE_VER5 112u
#define PERF_FILE_SECTION 16u
/* struct perf_event_header */
#define PERF_EVENT_HEADER 8u
/* the fixed parts of the record bodies rvtrace reads */
#define PERF_MMAP_FIXED 32u        /* pid tid addr len pgoff */
#define PERF_MMAP2_FIXED 64u       /* + maj min ino ino_generation, prot flags */
#define PERF_COMM_FIXED 8u         /* pid tid */
#define PERF_AUXTRACE_INFO_FIXED 8u /* type, reserved */
#define PERF_AUXTRACE_FIXED 40u    /* size offset reference idx tid cpu reserved */

static inline uint64_t perf_get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static inline void perf_put(uint8_t *p, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, v >>= 8)
        p[i] = (uint8_t)v;
}

#endif
