/* perf.data reader (rvtrace/perfdata.h): header, attributes, then the data
 * section one record at a time, every length checked against the file. */
#include <stdlib.h>
#include "rvtrace/perfdata.h"
#include "perf_fmt.h"

struct rvt_perf_file {
    const uint8_t *buf;
    size_t len;
    uint64_t data_off, data_end, pos;
    rvt_perf_attr *attrs;
    size_t nattrs;
    const uint8_t *features;
};

bool rvt_perf_is(const uint8_t *buf, size_t len)
{
    return buf && len >= 8 && !memcmp(buf, PERF_MAGIC, 8);
}

/* A section {offset, size} at header byte at: inside the file? */
static bool section_ok(const uint8_t *buf, size_t len, unsigned at, uint64_t *off, uint64_t *size)
{
    *off = perf_get(buf + at, 8);
    *size = perf_get(buf + at + 8, 8);
    return *off <= len && *size <= len - *off;
}

static int read_attrs(rvt_perf_file *f, uint64_t attr_size, uint64_t off, uint64_t size,
                      uint64_t *bad)
{
    /* each: perf_event_attr (attr_size - 16 bytes) then its ids section */
    if (attr_size < PERF_ATTR_SIZE_VER0 + PERF_FILE_SECTION || size % attr_size) {
        *bad = PERF_HDR_ATTR_SIZE;
        return RVT_ERR_FORMAT;
    }
    f->nattrs = size / attr_size;
    if (f->nattrs && !(f->attrs = calloc(f->nattrs, sizeof *f->attrs)))
        return RVT_ERR_NOMEM;
    for (size_t i = 0; i < f->nattrs; i++) {
        const uint8_t *a = f->buf + off + i * attr_size;
        rvt_perf_attr *x = &f->attrs[i];
        x->type = (uint32_t)perf_get(a, 4);
        x->size = (uint32_t)perf_get(a + 4, 4);
        x->config = perf_get(a + 8, 8);
        x->sample_type = perf_get(a + 24, 8);
        x->flags = perf_get(a + 40, 8);
        const uint8_t *ids = a + attr_size - PERF_FILE_SECTION;
        x->ids_offset = perf_get(ids, 8);
        x->ids_size = perf_get(ids + 8, 8);
        if (x->ids_offset > f->len || x->ids_size > f->len - x->ids_offset) {
            *bad = (uint64_t)(ids - f->buf);
            return RVT_ERR_FORMAT;
        }
    }
    return 0;
}

static int check_header(rvt_perf_file *f, uint64_t *bad)
{
    const uint8_t *b = f->buf;
    *bad = 0;
    if (f->len < 8)
        return RVT_ERR_TRUNC;
    if (memcmp(b, PERF_MAGIC, 8))   /* "2ELIFREP": big-endian; "PERFFILE": version 1 */
        return !memcmp(b, "2ELIFREP", 8) || !memcmp(b, "PERFFILE", 8) ? RVT_ERR_VERSION
                                                                      : RVT_ERR_FORMAT;
    if (f->len < PERF_HEADER_SIZE)
        return *bad = f->len, RVT_ERR_TRUNC;
    uint64_t hsize = perf_get(b + 8, 8), aoff, asize;
    if (hsize < PERF_HEADER_SIZE || hsize > f->len)
        return *bad = 8, RVT_ERR_FORMAT;
    if (!section_ok(b, f->len, PERF_HDR_ATTRS, &aoff, &asize))
        return *bad = PERF_HDR_ATTRS, RVT_ERR_FORMAT;
    uint64_t doff, dsize;
    if (!section_ok(b, f->len, PERF_HDR_DATA, &doff, &dsize))
        return *bad = PERF_HDR_DATA, RVT_ERR_FORMAT;
    f->data_off = f->pos = doff;
    f->data_end = doff + dsize;
    f->features = b + PERF_HDR_FEATURES;
    return read_attrs(f, perf_get(b + PERF_HDR_ATTR_SIZE, 8), aoff, asize, bad);
}

rvt_perf_file *rvt_perf_open(const uint8_t *buf, size_t len, int *status, uint64_t *bad_offset)
{
    uint64_t bad = 0;
    int st = buf ? 0 : RVT_ERR_INVAL;
    rvt_perf_file *f = st ? NULL : calloc(1, sizeof *f);
    if (!st && !f)
        st = RVT_ERR_NOMEM;
    if (f) {
        f->buf = buf;
        f->len = len;
        st = check_header(f, &bad);
    }
    if (st) {
        rvt_perf_close(f);
        f = NULL;
    }
    if (status)
        *status = st;
    if (bad_offset)
        *bad_offset = bad;
    return f;
}

void rvt_perf_close(rvt_perf_file *f)
{
    if (f)
        free(f->attrs);
    free(f);
}

size_t rvt_perf_nattrs(const rvt_perf_file *f)
{
    return f ? f->nattrs : 0;
}

const rvt_perf_attr *rvt_perf_attr_at(const rvt_perf_file *f, size_t i)
{
    return f && i < f->nattrs ? &f->attrs[i] : NULL;
}

void rvt_perf_data_section(const rvt_perf_file *f, uint64_t *offset, uint64_t *size)
{
    *offset = f->data_off;
    *size = f->data_end - f->data_off;
}

bool rvt_perf_has_feature(const rvt_perf_file *f, unsigned n)
{
    return n < 256 && (f->features[n / 8] >> (n % 8) & 1);
}

/* A NUL-terminated string at body byte at, inside the body. */
static const char *name_at(const rvt_perf_record *r, size_t at)
{
    if (at >= r->body_len || !memchr(r->body + at, 0, r->body_len - at))
        return NULL;
    return (const char *)r->body + at;
}

static int parse_mmap(rvt_perf_record *r, bool two)
{
    const uint8_t *p = r->body;
    size_t fixed = two ? PERF_MMAP2_FIXED : PERF_MMAP_FIXED;
    if (r->body_len < fixed)
        return RVT_ERR_FORMAT;
    r->pid = (uint32_t)perf_get(p, 4);
    r->tid = (uint32_t)perf_get(p + 4, 4);
    r->addr = perf_get(p + 8, 8);
    r->len = perf_get(p + 16, 8);
    r->pgoff = perf_get(p + 24, 8);
    if (two) {
        r->prot = (uint32_t)perf_get(p + 56, 4);
        r->flags = (uint32_t)perf_get(p + 60, 4);
    }
    return (r->name = name_at(r, fixed)) ? 0 : RVT_ERR_FORMAT;
}

static int parse_comm(rvt_perf_record *r)
{
    if (r->body_len < PERF_COMM_FIXED)
        return RVT_ERR_FORMAT;
    r->pid = (uint32_t)perf_get(r->body, 4);
    r->tid = (uint32_t)perf_get(r->body + 4, 4);
    return (r->name = name_at(r, PERF_COMM_FIXED)) ? 0 : RVT_ERR_FORMAT;
}

static int parse_auxtrace_info(rvt_perf_record *r)
{
    if (r->body_len < PERF_AUXTRACE_INFO_FIXED)
        return RVT_ERR_FORMAT;
    r->aux_type = (uint32_t)perf_get(r->body, 4);
    r->priv = r->body + PERF_AUXTRACE_INFO_FIXED;
    r->npriv = (r->body_len - PERF_AUXTRACE_INFO_FIXED) / 8;
    return 0;
}

/* The data follows the record and is not counted in header.size. */
static int parse_auxtrace(rvt_perf_file *f, rvt_perf_record *r)
{
    const uint8_t *p = r->body;
    if (r->body_len < PERF_AUXTRACE_FIXED)
        return RVT_ERR_FORMAT;
    r->data_len = perf_get(p, 8);
    r->aux_offset = perf_get(p + 8, 8);
    r->aux_ref = perf_get(p + 16, 8);
    r->aux_idx = (uint32_t)perf_get(p + 24, 4);
    r->tid = (uint32_t)perf_get(p + 28, 4);
    r->cpu = (uint32_t)perf_get(p + 32, 4);
    r->data_offset = r->offset + r->size;
    if (r->data_len > f->data_end - r->data_offset)
        return RVT_ERR_TRUNC;
    r->data = f->buf + r->data_offset;
    return 0;
}

static int parse_body(rvt_perf_file *f, rvt_perf_record *r)
{
    switch (r->type) {
    case RVT_PERF_RECORD_MMAP: return parse_mmap(r, false);
    case RVT_PERF_RECORD_MMAP2: return parse_mmap(r, true);
    case RVT_PERF_RECORD_COMM: return parse_comm(r);
    case RVT_PERF_RECORD_AUXTRACE_INFO: return parse_auxtrace_info(r);
    case RVT_PERF_RECORD_AUXTRACE: return parse_auxtrace(f, r);
    default: return 0;
    }
}

int rvt_perf_next(rvt_perf_file *f, rvt_perf_record *r)
{
    memset(r, 0, sizeof *r);
    r->offset = f->pos;
    if (f->pos >= f->data_end)
        return 0;
    int st = 0;
    if (f->data_end - f->pos < PERF_EVENT_HEADER) {
        st = RVT_ERR_TRUNC;
    } else {
        const uint8_t *h = f->buf + f->pos;
        r->type = (uint32_t)perf_get(h, 4);
        r->misc = (uint16_t)perf_get(h + 4, 2);
        r->size = (uint16_t)perf_get(h + 6, 2);
        if (r->size < PERF_EVENT_HEADER)
            st = RVT_ERR_FORMAT;
        else if (r->size > f->data_end - f->pos)
            st = RVT_ERR_TRUNC;
    }
    if (!st) {
        r->body = f->buf + f->pos + PERF_EVENT_HEADER;
        r->body_len = r->size - PERF_EVENT_HEADER;
        st = parse_body(f, r);
    }
    if (st) {
        f->pos = f->data_end;
        return st;
    }
    f->pos += r->size + r->data_len;
    return 1;
}

void rvt_perf_rewind(rvt_perf_file *f)
{
    f->pos = f->data_off;
}

const char *rvt_perf_record_name(uint32_t type)
{
    static const struct { uint32_t type; const char *name; } names[] = {
        { RVT_PERF_RECORD_MMAP, "MMAP" },
        { RVT_PERF_RECORD_COMM, "COMM" },
        { RVT_PERF_RECORD_EXIT, "EXIT" },
        { RVT_PERF_RECORD_FORK, "FORK" },
        { RVT_PERF_RECORD_SAMPLE, "SAMPLE" },
        { RVT_PERF_RECORD_MMAP2, "MMAP2" },
        { RVT_PERF_RECORD_AUX, "AUX" },
        { RVT_PERF_RECORD_ITRACE_START, "ITRACE_START" },
        { RVT_PERF_RECORD_FINISHED_ROUND, "FINISHED_ROUND" },
        { RVT_PERF_RECORD_ID_INDEX, "ID_INDEX" },
        { RVT_PERF_RECORD_AUXTRACE_INFO, "AUXTRACE_INFO" },
        { RVT_PERF_RECORD_AUXTRACE, "AUXTRACE" },
        { RVT_PERF_RECORD_AUXTRACE_ERROR, "AUXTRACE_ERROR" },
        { RVT_PERF_RECORD_TIME_CONV, "TIME_CONV" },
        { RVT_PERF_RECORD_FINISHED_INIT, "FINISHED_INIT" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].type == type)
            return names[i].name;
    return NULL;
}
