/* The verifier's shadow state and the group being collected (TV 3.1 step
 * 1), shared by shadow.c and verifier.c. */
#ifndef RVT_TV_VERIFY_INT_H
#define RVT_TV_VERIFY_INT_H

#include "rvtrace/tv.h"

#define TV_NCSR 4096
#define TV_MAX_TOUCH 64

/* Where a value came from: the item and its byte offset. */
typedef struct tv_src {
    bool set;
    uint64_t item, offset;
} tv_src;

typedef struct tv_shadow {
    uint64_t pc, x[32], f[32], mtime;
    unsigned priv;
    uint64_t csr[TV_NCSR];
    uint8_t csr_known[TV_NCSR];
} tv_shadow;

typedef struct tv_group {
    bool open;
    uint64_t index;               /* group number */
    tv_src first;                 /* its first item */
    tv_src insn_src, pc_src, priv_src, mtime_src, addr_src, sdata_src, req_src, rsp_src;
    bool incr_pc, init, reset;
    uint32_t insn;
    unsigned insn_len;
    uint64_t addr;                /* paddr/eaddr (no translation: the same) */
    uint64_t sdata;
    unsigned sdata_bytes;
    rvt_tv_item req, rsp;
    unsigned nreq;
    unsigned ntouch;
    struct { uint16_t reg; tv_src src; } touch[TV_MAX_TOUCH];
    bool touch_overflow;
} tv_group;

/* shadow.c */
void tv_group_open(tv_group *g, const rvt_tv_item *it, uint64_t index);
void tv_shadow_apply(tv_shadow *s, tv_group *g, const rvt_tv_item *it, unsigned xlen);
bool tv_shadow_reg(const tv_shadow *s, unsigned reg, uint64_t *v);
/* The item that last set reg in this group, else the group's first item. */
tv_src tv_group_reg_src(const tv_group *g, unsigned reg);

#endif
