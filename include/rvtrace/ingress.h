/* rvtrace ingress records: the E-Trace hart-to-encoder interface (4.2 and
 * 4.4) as data, streaming sinks/sources, the .rvi file, and importers. */
#ifndef RVTRACE_INGRESS_H
#define RVTRACE_INGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* rvt_irec.flags */
#define RVT_IREC_F_CYCLE_END  0x01u  /* last block retired in this cycle (4.2) */
#define RVT_IREC_F_HALTED     0x02u  /* sideband: hart halted (table 4.5) */
#define RVT_IREC_F_RESET      0x04u  /* sideband: hart in reset (table 4.5) */
#define RVT_IREC_F_TRIG_START 0x08u  /* trigger[0]: trace on (4.2.4) */
#define RVT_IREC_F_TRIG_STOP  0x10u  /* trigger[1]: trace off */
#define RVT_IREC_F_TRIG_NOTIFY 0x20u /* trigger[2]: trace notify */
/* The block is not qualified (E-Trace 8 "unqualified", chapter 5 filters;
 * N-Trace 8.6 trace disabled by filters): no encoder traces it, and the
 * first qualified block after it restarts the trace.  Set by the filter
 * stage (rvtrace/filter.h); trigger[0]/[1] keep their own on/off state. */
#define RVT_IREC_F_UNQUAL     0x40u

/* One instruction block (E-Trace 4.2, tables 4.1-4.3): a contiguous run of
 * instructions starting at iaddr, all retired in the same cycle, ending with
 * an instruction of type itype.
 *
 * Conventions (docs/formats.md):
 * - itype is always the 4-bit code; rvt_isa_itype3() maps it for 3-bit users.
 * - itype 1/2 (exception/interrupt): the trap happened after the last
 *   retired instruction of the block; iretire may be 0.  An instruction that
 *   faults (illegal, access fault, misaligned) does not retire; ecall and
 *   ebreak do retire (they end their block with itype 1).  tval/cause as in
 *   xtval/xcause.  The next record's iaddr is the trap handler.
 * - iretire counts half-words (4.2, table 4.2); ninstr counts instructions.
 * - ilastsize: the last instruction is 2^ilastsize half-words.
 * - time is the hart's cycle count when the block retired. */
typedef struct rvt_irec {
    uint64_t iaddr;
    uint64_t tval;
    uint64_t context;
    uint64_t time;
    uint32_t iretire;
    uint32_t ninstr;
    uint16_t cause;
    uint8_t itype;
    uint8_t ilastsize;
    uint8_t priv;       /* 0 U, 1 S, 3 M (4 = debug, if ever) */
    uint8_t ctype;      /* table 4.4 */
    uint8_t sijump;     /* 4.2: jump is sequentially inferable */
    uint8_t flags;      /* RVT_IREC_F_* */
} rvt_irec;

/* Is r a block an encoder can take?  itype and ilastsize in range, at
 * least one half-word per instruction, and the last instruction (2^ilastsize
 * half-words) within iretire: the .rvi reader's rules (docs/format-rvi.md).
 * The encoders refuse anything else with RVT_ERR_INVAL. */
static inline bool rvt_irec_ok(const rvt_irec *r)
{
    return r->itype <= 15 && r->ilastsize <= 3 && r->ninstr <= r->iretire &&
           (r->ninstr == 0 || r->iretire >= (1u << r->ilastsize));
}

/* Data access types (E-Trace table 4.9). */
enum rvt_dtype {
    RVT_DTYPE_LOAD = 0, RVT_DTYPE_STORE = 1,
    RVT_DTYPE_CSR_RW = 4, RVT_DTYPE_CSR_RS = 5, RVT_DTYPE_CSR_RC = 6,
    RVT_DTYPE_AMO_SWAP = 8, RVT_DTYPE_AMO_ADD = 9, RVT_DTYPE_AMO_AND = 10,
    RVT_DTYPE_AMO_OR = 11, RVT_DTYPE_AMO_XOR = 12, RVT_DTYPE_AMO_MAX = 13,
    RVT_DTYPE_AMO_MIN = 14,
};

/* rvt_drec.flags */
#define RVT_DREC_F_SC_FAIL   0x01u  /* store-conditional failed */
/* Split interface (E-Trace 4.3, table 4.9; docs/format-rvi.md): a load or
 * atomic in two records linked by lrid.  The request comes at retirement
 * (dtype, dsize, addr, and for an atomic its operand in `data`); the
 * response when the data returns (lrid = lid, lresp, the load data in
 * `data` for a load and in `data2` for an atomic, as in the unified form).
 * A response repeats its request's iaddr/addr/dtype/dsize for readers; an
 * encoder uses only lrid, lresp and the load data, as the hardware
 * response phase carries nothing else.  At most one request per lrid is
 * outstanding (table 4.9). */
#define RVT_DREC_F_SPLIT_REQ 0x02u
#define RVT_DREC_F_RESPONSE  0x04u
#define RVT_DREC_F_KNOWN     0x07u

/* Table 4.9 lresp. */
enum rvt_lresp { RVT_LRESP_NONE = 0, RVT_LRESP_OKAY = 2, RVT_LRESP_ERROR = 3 };

/* One data access (E-Trace 4.4, unified form, or one phase of the split
 * form).  For CSRs and atomics the store data is `data` and the load
 * data/operand is `data2` (4.4: store data in the LSBs, load data in the
 * MSBs of the hardware signal). */
typedef struct rvt_drec {
    uint64_t iaddr;     /* address of the accessing instruction */
    uint64_t addr;      /* data address, or CSR number */
    uint64_t data;
    uint64_t data2;
    uint8_t dtype;      /* rvt_dtype */
    uint8_t dsize;      /* 2^dsize bytes */
    uint8_t dblock;     /* block within the cycle (4.4) */
    uint8_t flags;      /* RVT_DREC_F_* */
    uint16_t lrid;      /* split: request ID (lrid) / response ID (lid) */
    uint8_t lresp;      /* split response: rvt_lresp; 0 otherwise */
} rvt_drec;

/* A streaming consumer of ingress records.  put() receives blocks in
 * retirement order; data() (may be NULL) receives each data access right
 * after the block containing its instruction; end() flushes at end of trace.
 * Each returns 0 or a negative rvt_status that stops the producer. */
typedef struct rvt_irec_sink {
    void *ctx;
    int (*put)(void *ctx, const rvt_irec *recs, size_t n);
    int (*data)(void *ctx, const rvt_drec *recs, size_t n);
    int (*end)(void *ctx);
} rvt_irec_sink;

/* A fan-out sink: forwards to up to RVT_TEE_MAX sinks. */
#define RVT_TEE_MAX 32
typedef struct rvt_irec_tee {
    rvt_irec_sink out[RVT_TEE_MAX];
    size_t n;
} rvt_irec_tee;
void rvt_irec_tee_init(rvt_irec_tee *tee);
int rvt_irec_tee_add(rvt_irec_tee *tee, const rvt_irec_sink *sink);
rvt_irec_sink rvt_irec_tee_sink(rvt_irec_tee *tee);

/* ---- .rvi files (docs/format-rvi.md) ---- */
typedef struct rvt_rvi_writer rvt_rvi_writer;
typedef struct rvt_rvi_reader rvt_rvi_reader;

/* .rvi header flags */
#define RVT_RVI_F_ITYPE3 0x01u   /* itype values came from a 3-bit source (6 = any uninferable jump) */
#define RVT_RVI_F_KNOWN  0x01u

/* .rvi versions: 1 (full and short blocks), 2 (1 plus steps and runs of
 * single-instruction cycles: ~1 byte an instruction where 1 takes 12). */
#define RVT_RVI_VERSION_1 1u
#define RVT_RVI_VERSION_2 2u

/* path "-" writes to stdout.  Writes version 2. */
rvt_rvi_writer *rvt_rvi_writer_open(const char *path, unsigned xlen, int *status);
/* Write version 1 or 2 instead; only before the first record. */
int rvt_rvi_writer_set_version(rvt_rvi_writer *w, unsigned version);
/* Set header flags (RVT_RVI_F_*); only before the first record. */
int rvt_rvi_writer_set_flags(rvt_rvi_writer *w, unsigned flags);
rvt_irec_sink rvt_rvi_writer_sink(rvt_rvi_writer *w);
int rvt_rvi_writer_close(rvt_rvi_writer *w);   /* flushes and frees */

/* Opens and checks the header; path "-" reads stdin. */
rvt_rvi_reader *rvt_rvi_reader_open(const char *path, int *status);
/* The same, with header errors reported (with their offset) to diag. */
rvt_rvi_reader *rvt_rvi_reader_open_diag(const char *path, rvt_diag_fn diag, void *diag_ctx,
                                         int *status);
void rvt_rvi_reader_set_diag(rvt_rvi_reader *r, rvt_diag_fn fn, void *ctx);
unsigned rvt_rvi_reader_xlen(const rvt_rvi_reader *r);
unsigned rvt_rvi_reader_flags(const rvt_rvi_reader *r);   /* RVT_RVI_F_* */
unsigned rvt_rvi_reader_version(const rvt_rvi_reader *r);
/* Next record: returns 1 with *irec or *drec filled (*is_data tells which),
 * 0 at a clean end of file, or a negative status (offset via _offset()). */
int rvt_rvi_reader_next(rvt_rvi_reader *r, rvt_irec *irec, rvt_drec *drec, bool *is_data);
/* Batch form for blocks: up to max block records into recs (*n of them),
 * stopping early before a data record (read it with _next()).  Returns 1
 * while records remain, 0 at the clean end (*n may be > 0 then), or a
 * negative status with *n the good blocks before the bad record. */
int rvt_rvi_reader_blocks(rvt_rvi_reader *r, rvt_irec *recs, size_t max, size_t *n);
uint64_t rvt_rvi_reader_offset(const rvt_rvi_reader *r);
void rvt_rvi_reader_close(rvt_rvi_reader *r);
/* Stream a whole .rvi file into a sink.  At a truncated or corrupt record
 * every record before it still reaches the sink, then that record's status
 * is returned (sink->end is not called); a sink's own error stops the
 * replay and is returned. */
int rvt_rvi_replay(const char *path, const rvt_irec_sink *sink,
                   rvt_diag_fn diag, void *diag_ctx);
/* Where a sink can take a run of steps whole: n plain steps after *prev,
 * the block put last, as a version-2 .rvi run holds them (docs/
 * format-rvi.md): one instruction each (ninstr 1, iretire 2^ilastsize,
 * ilastsize bit i of sizes, LSB first), itype and sijump 0, each where
 * the one before ends and one cycle (time) after it, with prev's priv
 * and context, ctype, tval and cause 0, flags RVT_IREC_F_CYCLE_END.
 * It must do what putting those n records would. */
typedef struct rvt_irec_steps {
    void *ctx;
    int (*steps)(void *ctx, const rvt_irec *prev, size_t n, const uint8_t *sizes);
} rvt_irec_steps;
/* rvt_rvi_replay, handing each run record's steps to steps (when it is
 * not NULL and steps->steps is set) instead of a record each to sink. */
int rvt_rvi_replay_steps(const char *path, const rvt_irec_sink *sink, const rvt_irec_steps *steps,
                         rvt_diag_fn diag, void *diag_ctx);

/* ---- importers (docs/format-import.md) ----
 * Each reads a text trace line by line and produces single-retirement
 * blocks (ninstr 0 or 1) into a sink, ending with sink->end().  Errors go
 * to cfg->diag as "LINE N: ..." with the byte offset of the line (or of the
 * bad field) and stop the import. */
struct rvt_image;

typedef enum rvt_import_fmt {
    RVT_IMPORT_REFCSV,     /* E-Trace reference-flow encoder input CSV */
    RVT_IMPORT_SPIKECSV,   /* reference-flow Spike-style trace CSV */
    RVT_IMPORT_SPIKELOG,   /* spike --log-commits (and -l) log */
    RVT_IMPORT_PCS,        /* one hex pc per line, with a program image */
} rvt_import_fmt;

typedef struct rvt_import_cfg {
    bool itype3;                  /* refcsv: itype column is the 3-bit form */
    unsigned xlen;                /* 32/64 for decoding; 0 = image's, else 64 */
    bool priv_set;                /* pcs: report `priv` (else 3, M-mode) */
    unsigned priv;
    struct rvt_image *image;      /* pcs: required; others: unused */
    rvt_diag_fn diag;
    void *diag_ctx;
} rvt_import_cfg;

typedef struct rvt_import_result {
    uint64_t lines;               /* lines read */
    uint64_t records;             /* blocks produced */
    uint64_t traps;               /* blocks with itype 1 or 2 */
    uint64_t inferred_traps;      /* pcs: discontinuities reported as exceptions */
    uint64_t skipped;             /* lines ignored (blank, comments, foreign log lines) */
    unsigned itype_width;         /* 3 if itype values are 3-bit codes, else 4 */
    uint64_t err_line;            /* line of the error, 0 if none */
    uint64_t err_offset;          /* byte offset of the error */
} rvt_import_result;

/* Name ("refcsv", "spikecsv", "spikelog", "pcs") -> format; -1 if unknown. */
int rvt_import_format(const char *name);
const char *rvt_import_format_name(rvt_import_fmt fmt);
/* Import a file ("-" = stdin).  res may be NULL. */
int rvt_import_file(rvt_import_fmt fmt, const char *path, const rvt_import_cfg *cfg,
                    const rvt_irec_sink *sink, rvt_import_result *res);

/* ---- reference-flow encoder-input CSV writer ---- */
#define RVT_REFCSV_ITYPE3      0x01u  /* write 3-bit itype codes */
#define RVT_REFCSV_TIME_SIJUMP 0x02u  /* the itype4-sijump-time columns */
typedef struct rvt_refcsv_writer rvt_refcsv_writer;
/* path "-" writes to stdout.  Blocks with more than one instruction cannot
 * be written (the CSV is single-retirement): put() returns RVT_ERR_RANGE. */
rvt_refcsv_writer *rvt_refcsv_writer_open(const char *path, unsigned flags, int *status);
rvt_irec_sink rvt_refcsv_writer_sink(rvt_refcsv_writer *w);
int rvt_refcsv_writer_close(rvt_refcsv_writer *w);

/* ---- reference-flow Spike trace CSV writer (docs/format-import.md) ----
 * One row per instruction of each block (VALID,ADDRESS,INSN,PRIVILEGE,
 * EXCEPTION,ECAUSE,TVAL,INTERRUPT), the input of the reference flow's
 * post-iss and of `rvtrace import spikecsv`.  Instruction words come from
 * img (16 bits for a compressed one; 0 where img has nothing), so code
 * written at run time shows its loaded bytes.  An exception marks the
 * trapping row: the block's ecall/ebreak, else the instruction after its
 * last retired one; an interrupt marks the last retired row.  ECAUSE is
 * the cause code (no interrupt bit).  Data records and sideband flags are
 * dropped.  path "-" writes to stdout; img must outlive the writer. */
typedef struct rvt_spikecsv_writer rvt_spikecsv_writer;
rvt_spikecsv_writer *rvt_spikecsv_writer_open(const char *path, const struct rvt_image *img,
                                              unsigned xlen, int *status);
rvt_irec_sink rvt_spikecsv_writer_sink(rvt_spikecsv_writer *w);
int rvt_spikecsv_writer_close(rvt_spikecsv_writer *w);

/* ---- reference-flow data-trace input writer (docs/format-import.md) ----
 * The data records (sink->data) as DRETIRE,DTYPE,DADDR,DSIZE,DATA rows,
 * the input of the reference flow's data_encoder_model.py: 4.4's unified
 * interface, CSRs and atomics with both values in DATA (store data in the
 * LSBs, load data/operand in the MSBs) and DSIZE one more; dtype 15 for a
 * failed store-conditional; split requests dropped (their responses repeat
 * them).  Blocks are ignored.  path "-" writes to stdout. */
typedef struct rvt_spikedata_writer rvt_spikedata_writer;
rvt_spikedata_writer *rvt_spikedata_writer_open(const char *path, int *status);
rvt_irec_sink rvt_spikedata_writer_sink(rvt_spikedata_writer *w);
int rvt_spikedata_writer_close(rvt_spikedata_writer *w);

#ifdef __cplusplus
}
#endif
#endif
