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

/* Data access types (E-Trace table 4.9). */
enum rvt_dtype {
    RVT_DTYPE_LOAD = 0, RVT_DTYPE_STORE = 1,
    RVT_DTYPE_CSR_RW = 4, RVT_DTYPE_CSR_RS = 5, RVT_DTYPE_CSR_RC = 6,
    RVT_DTYPE_AMO_SWAP = 8, RVT_DTYPE_AMO_ADD = 9, RVT_DTYPE_AMO_AND = 10,
    RVT_DTYPE_AMO_OR = 11, RVT_DTYPE_AMO_XOR = 12, RVT_DTYPE_AMO_MAX = 13,
    RVT_DTYPE_AMO_MIN = 14,
};

/* One data access (E-Trace 4.4, unified form).  For CSRs and atomics the
 * store data is `data` and the load data/operand is `data2` (4.4: store
 * data in the LSBs, load data in the MSBs of the hardware signal). */
typedef struct rvt_drec {
    uint64_t iaddr;     /* address of the accessing instruction */
    uint64_t addr;      /* data address, or CSR number */
    uint64_t data;
    uint64_t data2;
    uint8_t dtype;      /* rvt_dtype */
    uint8_t dsize;      /* 2^dsize bytes */
    uint8_t dblock;     /* block within the cycle (4.4) */
    uint8_t flags;      /* bit 0: store-conditional failed */
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
#define RVT_TEE_MAX 8
typedef struct rvt_irec_tee {
    rvt_irec_sink out[RVT_TEE_MAX];
    size_t n;
} rvt_irec_tee;
void rvt_irec_tee_init(rvt_irec_tee *tee);
int rvt_irec_tee_add(rvt_irec_tee *tee, const rvt_irec_sink *sink);
rvt_irec_sink rvt_irec_tee_sink(rvt_irec_tee *tee);

/* ---- .rvi files (docs/formats.md) ---- */
typedef struct rvt_rvi_writer rvt_rvi_writer;
typedef struct rvt_rvi_reader rvt_rvi_reader;

rvt_rvi_writer *rvt_rvi_writer_open(const char *path, unsigned xlen, int *status);
rvt_irec_sink rvt_rvi_writer_sink(rvt_rvi_writer *w);
int rvt_rvi_writer_close(rvt_rvi_writer *w);   /* flushes and frees */

rvt_rvi_reader *rvt_rvi_reader_open(const char *path, int *status);
void rvt_rvi_reader_set_diag(rvt_rvi_reader *r, rvt_diag_fn fn, void *ctx);
unsigned rvt_rvi_reader_xlen(const rvt_rvi_reader *r);
/* Next record: returns 1 with *irec or *drec filled (*is_data tells which),
 * 0 at a clean end of file, or a negative status (offset via _offset()). */
int rvt_rvi_reader_next(rvt_rvi_reader *r, rvt_irec *irec, rvt_drec *drec, bool *is_data);
uint64_t rvt_rvi_reader_offset(const rvt_rvi_reader *r);
void rvt_rvi_reader_close(rvt_rvi_reader *r);
/* Stream a whole .rvi file into a sink. */
int rvt_rvi_replay(const char *path, const rvt_irec_sink *sink,
                   rvt_diag_fn diag, void *diag_ctx);

#ifdef __cplusplus
}
#endif
#endif
