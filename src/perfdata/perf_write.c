/* perf.data writer (rvtrace/perfdata.h): a header, one attribute (the AUX
 * trace PMU's: PERF_ATTR_SIZE_VER5 bytes, no sample_id_all, so records
 * carry no sample_id trailer) and the data section, built in memory; the
 * header's data section size is filled in by rvt_perf_writer_finish. */
#include <stdlib.h>
#include "rvtrace/perfdata.h"
#include "perf_fmt.h"
#include "../util/grow.h"

#define PERF_ATTR_TYPE_DYNAMIC 8u   /* a dynamic PMU's type, as a trace PMU has */
#define PERF_MAX_CPUS 1024u

struct rvt_perf_writer {
    uint8_t *buf;
    size_t n, cap;
    uint64_t aux_off[PERF_MAX_CPUS];   /* AUX bytes written so far per CPU */
    uint64_t ref;
};

static uint8_t *room(rvt_perf_writer *w, size_t n)
{
    uint8_t *b = rvt_grow(w->buf, &w->cap, w->n + n, 1, 4096);
    if (!b)
        return NULL;
    w->buf = b;
    memset(b + w->n, 0, n);
    w->n += n;
    return b + w->n - n;
}

rvt_perf_writer *rvt_perf_writer_new(int *status)
{
    rvt_perf_writer *w = calloc(1, sizeof *w);
    const size_t attr_size = PERF_ATTR_SIZE_VER5 + PERF_FILE_SECTION;
    uint8_t *h = w ? room(w, PERF_HEADER_SIZE + attr_size) : NULL;
    if (!h) {
        rvt_perf_writer_free(w);
        if (status)
            *status = RVT_ERR_NOMEM;
        return NULL;
    }
    memcpy(h, PERF_MAGIC, 8);
    perf_put(h + 8, PERF_HEADER_SIZE, 8);
    perf_put(h + PERF_HDR_ATTR_SIZE, attr_size, 8);
    perf_put(h + PERF_HDR_ATTRS, PERF_HEADER_SIZE, 8);
    perf_put(h + PERF_HDR_ATTRS + 8, attr_size, 8);
    perf_put(h + PERF_HDR_DATA, PERF_HEADER_SIZE + attr_size, 8);
    uint8_t *a = h + PERF_HEADER_SIZE;
    perf_put(a, PERF_ATTR_TYPE_DYNAMIC, 4);
    perf_put(a + 4, PERF_ATTR_SIZE_VER5, 4);
    perf_put(a + 16, 1, 8);            /* sample_period */
    perf_put(a + 40, 1, 8);            /* flags: disabled (enabled by exec) */
    if (status)
        *status = 0;
    return w;
}

void rvt_perf_writer_free(rvt_perf_writer *w)
{
    if (w)
        free(w->buf);
    free(w);
}

/* A record of type with a fixed part of `fixed` bytes and a string (NUL
 * padded to 8 bytes, as perf writes them); the fixed part is returned. */
static uint8_t *record(rvt_perf_writer *w, uint32_t type, uint16_t misc, size_t fixed,
                       const char *s)
{
    size_t sl = s ? (strlen(s) + 8) / 8 * 8 : 0;
    size_t size = PERF_EVENT_HEADER + fixed + sl;
    if (size > UINT16_MAX)
        return NULL;
    uint8_t *r = room(w, size);
    if (!r)
        return NULL;
    perf_put(r, type, 4);
    perf_put(r + 4, misc, 2);
    perf_put(r + 6, size, 2);
    if (s)
        memcpy(r + PERF_EVENT_HEADER + fixed, s, strlen(s));
    return r + PERF_EVENT_HEADER;
}

int rvt_perf_write_comm(rvt_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm)
{
    uint8_t *p = record(w, RVT_PERF_RECORD_COMM, 0, PERF_COMM_FIXED, comm);
    if (!p)
        return RVT_ERR_NOMEM;
    perf_put(p, pid, 4);
    perf_put(p + 4, tid, 4);
    return 0;
}

int rvt_perf_write_mmap2(rvt_perf_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
                         uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags,
                         const char *filename)
{
    /* misc 2: PERF_RECORD_MISC_USER */
    uint8_t *p = record(w, RVT_PERF_RECORD_MMAP2, 2, PERF_MMAP2_FIXED, filename);
    if (!p)
        return RVT_ERR_NOMEM;
    perf_put(p, pid, 4);
    perf_put(p + 4, tid, 4);
    perf_put(p + 8, addr, 8);
    perf_put(p + 16, len, 8);
    perf_put(p + 24, pgoff, 8);
    perf_put(p + 56, prot, 4);
    perf_put(p + 60, flags, 4);
    return 0;
}

int rvt_perf_write_auxtrace_info(rvt_perf_writer *w, uint32_t type, const uint64_t *priv,
                                 size_t npriv)
{
    if (npriv > 1024)
        return RVT_ERR_RANGE;
    uint8_t *p = record(w, RVT_PERF_RECORD_AUXTRACE_INFO, 0, PERF_AUXTRACE_INFO_FIXED + 8 * npriv,
                        NULL);
    if (!p)
        return RVT_ERR_NOMEM;
    perf_put(p, type, 4);
    for (size_t i = 0; i < npriv; i++)
        perf_put(p + PERF_AUXTRACE_INFO_FIXED + 8 * i, priv[i], 8);
    return 0;
}

int rvt_perf_write_auxtrace(rvt_perf_writer *w, uint32_t cpu, uint32_t tid, const uint8_t *data,
                            size_t n)
{
    if (cpu >= PERF_MAX_CPUS)
        return RVT_ERR_RANGE;
    /* perf pads AUX data to 8 bytes; size counts the padding */
    size_t padded = (n + 7) / 8 * 8;
    uint8_t *p = record(w, RVT_PERF_RECORD_AUXTRACE, 0, PERF_AUXTRACE_FIXED, NULL);
    if (!p)
        return RVT_ERR_NOMEM;
    perf_put(p, padded, 8);
    perf_put(p + 8, w->aux_off[cpu], 8);
    perf_put(p + 16, ++w->ref, 8);
    perf_put(p + 24, cpu, 4);          /* idx: the CPU's buffer */
    perf_put(p + 28, tid, 4);
    perf_put(p + 32, cpu, 4);
    uint8_t *d = room(w, padded);
    if (!d)
        return RVT_ERR_NOMEM;
    if (n)
        memcpy(d, data, n);
    w->aux_off[cpu] += padded;
    return 0;
}

int rvt_perf_writer_finish(rvt_perf_writer *w, const uint8_t **buf, size_t *len)
{
    uint64_t data_off = perf_get(w->buf + PERF_HDR_DATA, 8);
    perf_put(w->buf + PERF_HDR_DATA + 8, w->n - data_off, 8);
    *buf = w->buf;
    *len = w->n;
    return 0;
}
