/* rvtrace perf.data (issue #16): the file Linux `perf record` writes, as
 * tools/perf/Documentation/perf.data-file-format.txt lays it out: a header
 * (magic "PERFILE2", the attrs, data and event_types sections, the feature
 * bitmap), the attributes (struct perf_event_attr + an ids section each),
 * then the data section of records, each a perf_event_header {u32 type,
 * u16 misc, u16 size} and its body.  AUX area trace (a trace encoder's
 * sink, per CPU) arrives in PERF_RECORD_AUXTRACE records whose `size`
 * bytes of data follow the record itself.
 *
 * The reader works on a buffer (not copied; it must outlive the reader),
 * little-endian files only, and checks every length against the buffer:
 * a hostile file gives an error and the byte offset where it is wrong.
 * The writer makes the few records a test needs (COMM, MMAP2, AUXTRACE_INFO,
 * AUXTRACE) into a file Debian's perf reads. */
#ifndef RVTRACE_PERFDATA_H
#define RVTRACE_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Record types (linux/perf_event.h; perf's own user records from 64). */
enum {
    RVT_PERF_RECORD_MMAP = 1,
    RVT_PERF_RECORD_COMM = 3,
    RVT_PERF_RECORD_EXIT = 4,
    RVT_PERF_RECORD_FORK = 7,
    RVT_PERF_RECORD_SAMPLE = 9,
    RVT_PERF_RECORD_MMAP2 = 10,
    RVT_PERF_RECORD_AUX = 11,
    RVT_PERF_RECORD_ITRACE_START = 12,
    RVT_PERF_RECORD_FINISHED_ROUND = 68,
    RVT_PERF_RECORD_ID_INDEX = 69,
    RVT_PERF_RECORD_AUXTRACE_INFO = 70,
    RVT_PERF_RECORD_AUXTRACE = 71,
    RVT_PERF_RECORD_AUXTRACE_ERROR = 72,
    RVT_PERF_RECORD_TIME_CONV = 79,
    RVT_PERF_RECORD_FINISHED_INIT = 82,
};

/* The parts of a perf_event_attr rvtrace uses. */
typedef struct rvt_perf_attr {
    uint32_t type, size;
    uint64_t config, sample_type, flags;   /* flags: the bit-field word */
    uint64_t ids_offset, ids_size;         /* its ids section */
} rvt_perf_attr;

typedef struct rvt_perf_record {
    uint64_t offset;          /* file offset of the record header */
    uint32_t type;
    uint16_t misc, size;      /* header.size (AUXTRACE: without its data) */
    uint32_t pid, tid;        /* MMAP, MMAP2, COMM; AUXTRACE: tid */
    uint64_t addr, len, pgoff; /* MMAP, MMAP2 */
    uint32_t prot, flags;     /* MMAP2 */
    const char *name;         /* MMAP/MMAP2 filename, COMM comm (NUL-terminated
                                 inside the record), else NULL */
    uint32_t aux_type;        /* AUXTRACE_INFO type */
    const uint8_t *priv;      /* AUXTRACE_INFO priv[] */
    size_t npriv;             /*   its u64 count */
    uint64_t aux_offset, aux_ref; /* AUXTRACE offset, reference */
    uint32_t aux_idx, cpu;    /* AUXTRACE idx, cpu */
    const uint8_t *data;      /* AUXTRACE: its data, data_len bytes, */
    uint64_t data_len;        /*   at file offset data_offset */
    uint64_t data_offset;
    const uint8_t *body;      /* any record: the bytes after its header */
    size_t body_len;
} rvt_perf_record;

typedef struct rvt_perf_file rvt_perf_file;

/* True when buf starts with the PERFILE2 magic (little-endian). */
bool rvt_perf_is(const uint8_t *buf, size_t len);
/* Check the header and attributes of buf[0..len).  NULL with *status
 * (RVT_ERR_FORMAT, RVT_ERR_TRUNC, RVT_ERR_VERSION for a big-endian or
 * version 1 file, RVT_ERR_NOMEM) and *bad_offset the byte at fault. */
rvt_perf_file *rvt_perf_open(const uint8_t *buf, size_t len, int *status, uint64_t *bad_offset);
void rvt_perf_close(rvt_perf_file *f);
size_t rvt_perf_nattrs(const rvt_perf_file *f);
const rvt_perf_attr *rvt_perf_attr_at(const rvt_perf_file *f, size_t i);
/* The data section: offset and size. */
void rvt_perf_data_section(const rvt_perf_file *f, uint64_t *offset, uint64_t *size);
/* Feature bit n (0..255) of the header's adds_features. */
bool rvt_perf_has_feature(const rvt_perf_file *f, unsigned n);
/* The next record of the data section: 1 with *r, 0 at the end, or a
 * negative status with r->offset at the byte at fault (the reader then
 * stays at the end: a record's length is the only way to the next). */
int rvt_perf_next(rvt_perf_file *f, rvt_perf_record *r);
/* Back to the first record of the data section. */
void rvt_perf_rewind(rvt_perf_file *f);
/* "MMAP2", "AUXTRACE", ... or NULL for a type rvtrace does not name. */
const char *rvt_perf_record_name(uint32_t type);

/* ---- RISC-V trace encoder settings in AUXTRACE_INFO (docs/formats.md
 * "perf.data AUXTRACE_INFO for RISC-V trace") ----
 * priv[0] = PMU type << 32 | number of encoder blocks; then per block:
 * cpu, nparams, and nparams values: trTeFormat, trTeContext,
 * trTeInhibitSrc, trTeSrcBits, trTeSrcID (the layout proposed for Linux
 * perf's RISC-V trace support), then rvtrace's addition, the whole
 * trTeInstFeatures register (Trace Control Interface 1.0). */
#define RVT_PERF_AUXTRACE_RISCV 8u    /* PERF_AUXTRACE_RISCV_TRACE as proposed */
#define RVT_PERF_RISCV_PARAMS 6u      /* values per block rvtrace writes */
typedef struct rvt_perf_riscv_te {
    uint32_t cpu;
    uint32_t format;         /* trTeFormat: 0 E-Trace, 1 N-Trace */
    bool context;            /* trTeContext: context/privilege fields sent */
    bool inhibit_src;        /* trTeInhibitSrc: no source field */
    unsigned src_bits;       /* trTeSrcBits (0..12; the encapsulation srcID width) */
    unsigned src_id;         /* trTeSrcID */
    bool has_features;       /* the block holds trTeInstFeatures */
    uint32_t features;       /* trTeInstFeatures (bit 0 NoAddrDiff, 2
                                EnSequentialJump, 3 EnImplicitReturn, 4
                                EnBranchPrediction, 5 EnJumpTargetCache) */
} rvt_perf_riscv_te;
/* The block of CPU cpu in AUXTRACE_INFO record r: 1 with *out, 0 when r is
 * not of type RVT_PERF_AUXTRACE_RISCV or has no block for cpu,
 * RVT_ERR_FORMAT when its blocks do not fit the record (a count or nparams
 * past its end, nparams < 5), RVT_ERR_INVAL for NULL arguments. */
int rvt_perf_riscv_te_info(const rvt_perf_record *r, uint32_t cpu, rvt_perf_riscv_te *out);
/* The priv words of such a record for n encoders te[] into priv (room for
 * 1 + n * (2 + RVT_PERF_RISCV_PARAMS) words); the word count. */
size_t rvt_perf_riscv_te_priv(uint32_t pmu_type, const rvt_perf_riscv_te *te, size_t n,
                              uint64_t *priv);

/* ---- writer (for tests and `rvtrace` runs) ---- */
typedef struct rvt_perf_writer rvt_perf_writer;
rvt_perf_writer *rvt_perf_writer_new(int *status);
void rvt_perf_writer_free(rvt_perf_writer *w);
int rvt_perf_write_comm(rvt_perf_writer *w, uint32_t pid, uint32_t tid, const char *comm);
/* prot: PROT_* bits (1 read, 2 write, 4 exec); flags: MAP_* (2 private). */
int rvt_perf_write_mmap2(rvt_perf_writer *w, uint32_t pid, uint32_t tid, uint64_t addr,
                         uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags,
                         const char *filename);
int rvt_perf_write_auxtrace_info(rvt_perf_writer *w, uint32_t type, const uint64_t *priv,
                                 size_t npriv);
/* n bytes of CPU cpu's AUX data; the record's offset is where they start in
 * that CPU's AUX stream (the sum of what went before), idx = cpu. */
int rvt_perf_write_auxtrace(rvt_perf_writer *w, uint32_t cpu, uint32_t tid, const uint8_t *data,
                            size_t n);
/* The whole file (header, one attribute, data section): *buf stays the
 * writer's until it is freed. */
int rvt_perf_writer_finish(rvt_perf_writer *w, const uint8_t **buf, size_t *len);

#ifdef __cplusplus
}
#endif
#endif
