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
/* Table 2.2 DataCompress: 0 if the options allow coding c, else
 * RVT_ERR_FORMAT (a conforming encoder cannot have sent it). */
int rvt_te_dcoding_allowed(const rvt_te_attrs *a, const rvt_te_dcoding *c);
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
/* Transfers still waiting for their response. */
unsigned rvt_te_split_outstanding(const rvt_te_split *t);

/* What a data encoder and its decoder keep in step: the options, the
 * compression references (7.1.3) and the outstanding split transfers. */
typedef struct rvt_te_dmodel {
    rvt_te_attrs a;
    rvt_te_dstate st;
    rvt_te_split split;
} rvt_te_dmodel;

/* Unified load/store and atomic packets (tables 7.1, 7.6; data_enc.c):
 * fill p for coding c; 1 if c cannot express d, <0 if no packet can
 * carry d. */
int rvt_te_dbuild_ls(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                     rvt_te_dpkt *p);
int rvt_te_dbuild_atomic(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                         rvt_te_dpkt *p);

/* ---- split interface, encoder side (data_split_enc.c) ---- */
/* Request (tables 7.4, 7.9) and response (7.5, 7.10) packets, as above;
 * a response is built from the completed access. */
int rvt_te_dbuild_req(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                      rvt_te_dpkt *p);
int rvt_te_dbuild_resp(const rvt_te_dmodel *m, const rvt_drec *d, rvt_te_dcoding c,
                       rvt_te_dpkt *p);
/* Hold a request record until its response (table 4.9 checks). */
int rvt_te_split_request(rvt_te_dmodel *m, const rvt_drec *r);
/* A response record: *done = the completed access (its request with the
 * loaded data and lresp); 1 if its request was never seen. */
int rvt_te_split_response(rvt_te_dmodel *m, const rvt_drec *r, rvt_drec *done);
/* A unified load or atomic as a request and its response (pair[0],
 * pair[1]) on the lowest free index. */
int rvt_te_split_pair(const rvt_te_dmodel *m, const rvt_drec *r, rvt_drec pair[2]);

/* ---- split interface, decoder side (data_split_dec.c) ---- */
enum rvt_te_dphase { RVT_TE_PH_UNIFIED, RVT_TE_PH_REQ, RVT_TE_PH_RESP };
/* Which phase a packet is: unified, a split request or a split response. */
int rvt_te_dphase_of(const rvt_te_attrs *a, const rvt_te_dpkt *p);
/* The coding of a split packet (RVT_ERR_FORMAT for one the options rule
 * out). */
int rvt_te_split_coding(const rvt_te_attrs *a, const rvt_te_dpkt *p, int ph, rvt_te_dcoding *c);
/* Why a split packet cannot be taken (table 4.9), or NULL. */
const char *rvt_te_split_misuse(const rvt_te_split *t, const rvt_te_dpkt *p, int ph);
/* Hold a request packet until its response; lost: it cannot be rebuilt
 * (kept for its size only).  RVT_ERR_FORMAT for a misaligned atomic. */
int rvt_te_split_hold(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c, bool lost);
/* A response packet: *r = the completed access; 1 if its request was
 * lost (not to be reported), <0 if it does not match its request. */
int rvt_te_split_complete(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c,
                          rvt_drec *r);
/* Skip a packet that needs a reference the decoder lacks: a request is
 * held as lost, a response frees its index. */
void rvt_te_split_skip(rvt_te_dmodel *m, const rvt_te_dpkt *p, rvt_te_dcoding c, int ph);
/* Access size (log2 bytes) of a packet; a response's is its request's. */
unsigned rvt_te_daccess_size(const rvt_te_dmodel *m, const rvt_te_dpkt *p, int ph);

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
