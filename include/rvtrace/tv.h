/* rvtrace tandem-verification trace (Tandem Verification Trace Protocol,
 * draft 2018-11-20): the item codec (ch. 2), a streaming writer and
 * reader, the writer fed by the hart's commit hook, and the shadow-state
 * verifier (3.1, Appendix A).  Byte format: docs/format-tvt.md; choices
 * where the draft is ambiguous: docs/tv.md. */
#ifndef RVTRACE_TV_H
#define RVTRACE_TV_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "rvtrace/hart.h"
#include "rvtrace/image.h"
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Ch. 2 opcode table. */
enum rvt_tv_op {
    RVT_TV_BEGIN = 1, RVT_TV_END = 2, RVT_TV_INCR_PC = 3, RVT_TV_FULL_REG = 4,
    RVT_TV_INCR_REG = 5, RVT_TV_OR_REG = 6, RVT_TV_STATE = 7, RVT_TV_MEM_REQ = 8,
    RVT_TV_MEM_RSP = 9, RVT_TV_RESET = 10, RVT_TV_INIT = 11, RVT_TV_INSN16 = 16,
    RVT_TV_INSN32 = 17,
};

/* Ch. 2 additional-state identifiers (opcode 7). */
enum rvt_tv_state_id {
    RVT_TV_S_PRIV = 1, RVT_TV_S_PADDR = 2, RVT_TV_S_EADDR = 3, RVT_TV_S_DATA8 = 4,
    RVT_TV_S_DATA16 = 5, RVT_TV_S_DATA32 = 6, RVT_TV_S_DATA64 = 7, RVT_TV_S_MTIME = 8,
    RVT_TV_S_PC_PADDR = 9, RVT_TV_S_PC = 10,
};

/* Ch. 2 memory request opcodes (0..13) and results. */
enum rvt_tv_mem_op {
    RVT_TV_M_LOAD = 0, RVT_TV_M_STORE = 1, RVT_TV_M_LR = 2, RVT_TV_M_SC = 3,
    RVT_TV_M_AMO_SWAP = 4, /* ... add xor and or min max minu */ RVT_TV_M_AMO_MAXU = 12,
    RVT_TV_M_FETCH = 13,
};
enum { RVT_TV_RESULT_OK = 0, RVT_TV_RESULT_FAIL = 1 };

/* Register address space (ch. 3 notes: as the debug spec). */
#define RVT_TV_REG_GPR(n) (0x1000u + (n))
#define RVT_TV_REG_FPR(n) (0x1020u + (n))

/* Parameters encoder and decoder must agree on (ch. 3); zero = the
 * Appendix C hart: XLEN 64, FLEN = XLEN, MLEN = XLEN. */
typedef struct rvt_tv_cfg {
    unsigned xlen;     /* 32 or 64 */
    unsigned flen;     /* 32 or 64 */
    unsigned mlen;     /* 32..64; fields take ceil(mlen/8) bytes */
} rvt_tv_cfg;

/* The longest item: memory request with MLEN 64 and 64-bit data. */
#define RVT_TV_ITEM_MAX 18

/* One trace item.  Which fields mean something depends on op. */
typedef struct rvt_tv_item {
    uint8_t op;          /* enum rvt_tv_op */
    uint8_t id;          /* STATE: enum rvt_tv_state_id */
    uint16_t reg;        /* FULL_REG / INCR_REG / OR_REG: register address */
    uint8_t mem_op;      /* MEM_REQ: enum rvt_tv_mem_op */
    uint8_t mem_size;    /* MEM_REQ / MEM_RSP: 0..3 = 8..64 bits */
    uint8_t result;      /* MEM_RSP */
    bool has_data;       /* MEM_REQ / MEM_RSP: data field present */
    uint64_t value;      /* register value, INCR_REG offset (sign-extended),
                            OR mask, STATE value, instruction bits */
    uint64_t addr;       /* MEM_REQ address */
    uint64_t data;       /* MEM_REQ / MEM_RSP data */
    uint64_t offset;     /* reader: byte offset of the opcode */
    uint64_t index;      /* reader: item number from 0 */
} rvt_tv_item;

/* Fill in the defaults; RVT_ERR_INVAL for values outside the ranges above. */
int rvt_tv_cfg_resolve(const rvt_tv_cfg *in, rvt_tv_cfg *out);

/* Encode one item into out[RVT_TV_ITEM_MAX]: returns its length, or
 * RVT_ERR_INVAL (unknown op/id, bad size) / RVT_ERR_RANGE (a value wider
 * than its field).  cfg must be resolved. */
int rvt_tv_encode(const rvt_tv_cfg *cfg, const rvt_tv_item *it, uint8_t *out);

/* Decode one item from buf[0..len).  prev_req: the mem_op of the memory
 * request just before (a response's data depends on it, ch. 3), or -1.
 * Returns bytes used; RVT_ERR_TRUNC if buf ends inside the item;
 * RVT_ERR_FORMAT for an unknown opcode/identifier or a response without a
 * request. */
int rvt_tv_decode(const rvt_tv_cfg *cfg, const uint8_t *buf, size_t len, int prev_req,
                  rvt_tv_item *it);

/* Names for dumps: "begin", "full_reg", ...; "priv", "paddr", ...;
 * "load", "store", ...; register names ("x3", "mstatus", "f7", "csr0x7c0"). */
const char *rvt_tv_op_name(unsigned op);
const char *rvt_tv_state_name(unsigned id);
const char *rvt_tv_mem_op_name(unsigned op);
const char *rvt_tv_reg_name(unsigned reg, char *buf, size_t n);

/* ---- writer: items -> bytes through a sink ---- */
typedef int (*rvt_tv_write_fn)(void *ctx, const uint8_t *buf, size_t n);
typedef struct rvt_tv_writer rvt_tv_writer;

typedef struct rvt_tv_writer_cfg {
    rvt_tv_cfg tv;
    rvt_tv_write_fn write;
    void *write_ctx;
    /* What rvt_tv_writer_commit() writes besides pc, instruction,
     * registers, privilege and (physical address, store data): */
    bool eaddr;          /* effective address too (identifier 3) */
    bool mem_bus;        /* memory request/response items (opcodes 8, 9) */
} rvt_tv_writer_cfg;

rvt_tv_writer *rvt_tv_writer_new(const rvt_tv_writer_cfg *cfg, int *status);
int rvt_tv_writer_put(rvt_tv_writer *w, const rvt_tv_item *it);
/* One group for a hart commit (docs/tv.md lists the items written). */
int rvt_tv_writer_commit(rvt_tv_writer *w, const rvt_hart_commit *c);
/* A state-initialization group (ch. 3): pc, privilege, the non-zero GPRs. */
int rvt_tv_writer_init_state(rvt_tv_writer *w, const rvt_hart *h);
int rvt_tv_writer_flush(rvt_tv_writer *w);
uint64_t rvt_tv_writer_bytes(const rvt_tv_writer *w);
uint64_t rvt_tv_writer_items(const rvt_tv_writer *w);
/* Flushes, then frees; returns the flush status. */
int rvt_tv_writer_free(rvt_tv_writer *w);

/* A commit hook for rvt_hart_cfg.on_commit (ctx = the writer). */
int rvt_tv_writer_on_commit(void *ctx, const rvt_hart_commit *c);

/* ---- reader: bytes -> items ---- */
/* Returns bytes read (0 at end of input) or a negative status. */
typedef long (*rvt_tv_read_fn)(void *ctx, uint8_t *buf, size_t n);
typedef struct rvt_tv_reader rvt_tv_reader;

rvt_tv_reader *rvt_tv_reader_new(const rvt_tv_cfg *cfg, rvt_tv_read_fn read, void *ctx,
                                  int *status);
rvt_tv_reader *rvt_tv_reader_new_mem(const rvt_tv_cfg *cfg, const uint8_t *buf, size_t len,
                                      int *status);
void rvt_tv_reader_free(rvt_tv_reader *r);
/* Next item: RVT_OK, RVT_ERR_EOS at the end, or an error whose byte offset
 * is *err_offset (the reader then resyncs at the next begin-group byte;
 * the next call continues there).  RVT_ERR_TRUNC: input ends inside an
 * item. */
int rvt_tv_reader_next(rvt_tv_reader *r, rvt_tv_item *it, uint64_t *err_offset);
/* Bytes skipped while resyncing so far. */
uint64_t rvt_tv_reader_skipped(const rvt_tv_reader *r);

/* ---- QEMU's state log as a TV trace (docs/tv.md "QEMU as the DUT") ----
 * Lines of `qemu-system-riscv64 -singlestep -d cpu,fpu,nochain,int` in,
 * one group per instruction (and per interrupt) out through `out`. */
typedef struct rvt_tv_qemu rvt_tv_qemu;
typedef struct rvt_tv_qemu_cfg {
    unsigned xlen;            /* 32 or 64 */
    uint64_t start;           /* first pc traced (the ELF entry; QEMU's reset ROM is skipped) */
    const rvt_image *img;     /* instruction words (mret/sret, the last one's length) */
    rvt_tv_writer *out;
} rvt_tv_qemu_cfg;
rvt_tv_qemu *rvt_tv_qemu_new(const rvt_tv_qemu_cfg *cfg, int *status);
void rvt_tv_qemu_free(rvt_tv_qemu *q);
/* One line without its newline: RVT_OK, RVT_ERR_FORMAT for a malformed
 * state or trap line (a dump cut in the middle), or the writer's error. */
int rvt_tv_qemu_line(rvt_tv_qemu *q, const char *line);
/* The end of the log: the last instruction's group.  RVT_ERR_FORMAT if the
 * log never reached `start`. */
int rvt_tv_qemu_end(rvt_tv_qemu *q);
uint64_t rvt_tv_qemu_lines(const rvt_tv_qemu *q);
/* The CSRs the log shows (their TV numbers) into out[0..max); returns how
 * many there are. */
unsigned rvt_tv_qemu_csrs(uint16_t *out, unsigned max);

/* ---- verifier: shadow state + a second reference hart (3.1) ---- */
typedef struct rvt_tv_verifier rvt_tv_verifier;

typedef struct rvt_tv_verify_cfg {
    rvt_tv_cfg tv;
    rvt_hart_cfg hart;      /* xlen, ram, isa, hartid of the reference hart */
    uint64_t max_report;    /* divergences reported through diag; 0 = 1 */
    /* A DUT that shows only some CSRs (QEMU's log: rvt_tv_qemu_csrs):
     * the CSRs the hart changes are compared only if listed here (TV 3.2,
     * absent elements); ncsr_scope 0 = every CSR. */
    const uint16_t *csr_scope;
    unsigned ncsr_scope;
    /* The DUT cannot show instruction bits (QEMU's log): an absent
     * instruction item is not a divergence (TV 3.2). */
    bool no_insn;
    rvt_diag_fn diag;
    void *diag_ctx;
} rvt_tv_verify_cfg;

/* A difference between the reference hart ("expected") and the trace. */
typedef struct rvt_tv_divergence {
    uint64_t item;          /* index of the item that carries the value, or
                               of the group's first item if it is missing */
    uint64_t offset;        /* byte offset of that item */
    uint64_t group;         /* group number from 0 */
    uint64_t pc;            /* pc of the instruction of the group */
    char what[24];          /* "pc", "x10", "mstatus", "store data", ... */
    uint64_t expected, traced;
    bool missing;           /* the trace lacks the value (traced is 0) */
    bool unexpected;        /* the trace has a value the hart did not produce */
} rvt_tv_divergence;

typedef struct rvt_tv_verify_stats {
    uint64_t items, groups, steps, divergences;
} rvt_tv_verify_stats;

rvt_tv_verifier *rvt_tv_verifier_new(const rvt_tv_verify_cfg *cfg, rvt_image *img, int *status);
void rvt_tv_verifier_free(rvt_tv_verifier *v);
/* Feed the items in stream order.  Returns RVT_OK, or
 * RVT_ERR_MISMATCH when the group this item closed diverged. */
int rvt_tv_verifier_put(rvt_tv_verifier *v, const rvt_tv_item *it);
/* Close an open group at the end of the trace. */
int rvt_tv_verifier_end(rvt_tv_verifier *v);
/* Whether the trace took the program to its end: the verifier hart's last
 * step wrote the test finisher (docs/hart.md).  A trace that stops before
 * (empty, cut short) verified only a prefix of the run. */
bool rvt_tv_verifier_complete(const rvt_tv_verifier *v);
/* The first divergence (false if none). */
bool rvt_tv_verifier_first(const rvt_tv_verifier *v, rvt_tv_divergence *d);
void rvt_tv_verifier_stats(const rvt_tv_verifier *v, rvt_tv_verify_stats *s);
/* Format a divergence as one line. */
const char *rvt_tv_divergence_str(const rvt_tv_divergence *d, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
