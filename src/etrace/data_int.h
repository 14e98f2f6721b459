/* Data trace internals shared by the te_data codec, encoder and decoder
 * (E-Trace ch. 7).  Internal header. */
#ifndef RVT_ETRACE_DATA_INT_H
#define RVT_ETRACE_DATA_INT_H

#include <stdint.h>
#include "rvtrace/etrace.h"

/* Width of the diff field of the data-only and CSR forms (7.1.3). */
unsigned rvt_te_ddiff_width(const rvt_te_attrs *a);
/* Width of the CSR data_len/op_len fields (7.3.2). */
unsigned rvt_te_csr_len_width(const rvt_te_attrs *a);

/* How the address and the data of a packet are coded. */
enum rvt_te_dmode { DM_FULL = 0, DM_XOR = 1, DM_DIFF = 2, DM_NONE = 3 };
typedef struct rvt_te_dcoding {
    uint8_t addr;   /* DM_FULL, DM_DIFF or DM_NONE */
    uint8_t data;   /* DM_FULL, DM_XOR, DM_DIFF or DM_NONE */
} rvt_te_dcoding;

/* Meaning of a packet's diff field (tables 7.1-7.3, 7.6-7.8, 7.11-7.13);
 * RVT_ERR_FORMAT for a reserved code. */
int rvt_te_dcoding_of(const rvt_te_attrs *a, unsigned format, unsigned diff, rvt_te_dcoding *c);
/* The diff code for a coding, or -1 if the options cannot express it. */
int rvt_te_diff_of(const rvt_te_attrs *a, unsigned format, rvt_te_dcoding c);

/* Compression state (7.1.3): per access size, the last address and data;
 * for CSRs the last CSR number and read value.  valid/dvalid: an address /
 * data reference exists (always both on the unified interface; a split
 * request sets the address, its response the data). */
typedef struct rvt_te_dstate {
    uint64_t addr[4], data[4];
    bool valid[4], dvalid[4];
    uint64_t csr_addr, csr_data;
    bool csr_valid;
} rvt_te_dstate;

/* Outstanding split transfers (4.3) by index: the request each response
 * completes, and the 7.10 size table of the packet walker. */
#define RVT_TE_SPLIT_IDS (1u << RVT_TE_MAX_INDEX_WIDTH)
typedef struct rvt_te_split {
    rvt_drec req[RVT_TE_SPLIT_IDS];
    bool busy[RVT_TE_SPLIT_IDS];
    uint8_t sizes[RVT_TE_SPLIT_IDS];
} rvt_te_split;
/* Empty table. */
void rvt_te_split_init(rvt_te_split *t);
/* IDs an attribute set allows: 2^index_width when split, else all. */
unsigned rvt_te_split_ids(const rvt_te_attrs *a);
/* Is the record a load or atomic (the accesses that may split, 4.3)? */
bool rvt_te_drec_splits(const rvt_drec *d);

/* Packets between the data encoder's own full packets. */
#define RVT_TE_DATA_RESYNC 256



/* Width of a packet's diff field. */
unsigned rvt_te_diff_width(const rvt_te_attrs *a, unsigned format);

/* Data value coding (7.1.3): full and XOR values are unsigned, a
 * difference is signed; `bits` is the access width.  *nbytes gets the
 * significant bytes (at least 1) that a data_len field must carry. */
uint64_t rvt_te_dval_encode(unsigned mode, uint64_t v, uint64_t prev, unsigned bits,
                            unsigned *nbytes);
/* Inverse: field of fbits bits (a difference is sign-extended from it). */
uint64_t rvt_te_dval_decode(unsigned mode, uint64_t field, unsigned fbits, uint64_t prev,
                            unsigned bits);
/* Address coding: the full address or the difference to prev, in units of
 * 2^shift bytes (aligned formats) when *aligned; the field is aw bits. */
uint64_t rvt_te_daddr_encode(unsigned mode, uint64_t addr, uint64_t prev, unsigned aw,
                             unsigned shift, bool *aligned);
uint64_t rvt_te_daddr_decode(unsigned mode, uint64_t field, uint64_t prev, unsigned aw,
                             unsigned shift);
#endif
