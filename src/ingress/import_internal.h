/* Shared machinery of the text importers (docs/format-import.md): a
 * bounded line reader, CSV column maps, number parsing, batched output and
 * diagnostics with line numbers and byte offsets. */
#ifndef RVT_INGRESS_IMPORT_INTERNAL_H
#define RVT_INGRESS_IMPORT_INTERNAL_H

#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"

#define IMP_LINE_MAX 4096      /* longer lines are an error */
#define IMP_BATCH 256
#define IMP_MAX_COLS 16

typedef struct imp {
    const rvt_import_cfg *cfg;
    const rvt_irec_sink *sink;
    rvt_import_result *res;
    int fd;
    bool own_fd, eof;
    uint64_t base;             /* file offset of buf[0] */
    size_t pos, len;
    uint64_t lineno;
    uint64_t line_off;         /* offset of the current line */
    const char *line;          /* current line, NUL-terminated */
    unsigned xlen;
    rvt_irec batch[IMP_BATCH];
    size_t nbatch;
    char buf[65536 + 1];
} imp;

/* Next line (without the newline/CR): 1, 0 at EOF, or a negative status. */
int imp_next_line(imp *m);
/* Report an error at byte `col` of the current line; returns status. */
int imp_fail(imp *m, int status, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void imp_warn(imp *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Queue one block for the sink. */
int imp_emit(imp *m, const rvt_irec *r);

/* CSV: split the current line (a copy in `cols_buf`) into fields. */
typedef struct imp_csv {
    char copy[IMP_LINE_MAX + 1];
    char *f[IMP_MAX_COLS];
    size_t at[IMP_MAX_COLS];   /* column of each field in the line */
    unsigned n;
} imp_csv;
int imp_csv_split(imp *m, imp_csv *c);
/* Map header names to field indexes: idx[i] = column of names[i] or -1.
 * Unknown header columns and missing required ones (required[i]) fail. */
int imp_csv_header(imp *m, imp_csv *c, const char *const *names, const bool *required,
                   unsigned nnames, int *idx);
/* Parse field `col` as hex (optional 0x) or decimal, <= max. */
int imp_csv_hex(imp *m, const imp_csv *c, int col, const char *what, uint64_t max, uint64_t *v);
int imp_csv_dec(imp *m, const imp_csv *c, int col, const char *what, uint64_t max, uint64_t *v);
/* Parse hex digits (optional 0x) at s; returns chars used, 0 if none. */
size_t imp_parse_hex(const char *s, uint64_t *v);

/* A retired instruction turned into a single-retirement block. */
typedef struct imp_flow {
    bool have_prev;            /* previous retired instruction, for sijump */
    rvt_insn prev;
} imp_flow;
/* Decode raw (16- or 32-bit word) for m->xlen. */
void imp_decode(const imp *m, uint32_t raw, rvt_insn *in);
/* Fill r for `in` retired at pc in priv, followed by next (if has_next):
 * itype from the ISA layer (taken = next is not sequential), sijump when
 * an uninferable jump's base register was just set by lui/auipc (E-Trace
 * 4.1.1). */
void imp_block(imp_flow *fl, const rvt_insn *in, uint64_t pc, unsigned priv, bool has_next,
               uint64_t next, rvt_irec *r);
/* A block for a trap at pc: itype 1/2, cause, tval, and the instruction
 * counted as retired when `retired`. */
void imp_trap_block(imp_flow *fl, const rvt_insn *in, uint64_t pc, unsigned priv, bool retired,
                    bool interrupt, uint64_t cause, uint64_t tval, rvt_irec *r);
/* ecall/ebreak retire although they trap (E-Trace 4.2: itype 1 follows the
 * last retired instruction). */
bool imp_retires_on_trap(const rvt_insn *in);

/* The four importers, each after imp setup; they end with imp_finish. */
int imp_refcsv(imp *m);
int imp_spikecsv(imp *m);
int imp_spikelog(imp *m);
int imp_pcs(imp *m);

#endif
