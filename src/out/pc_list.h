/* What the PC-list writers (pcs.c text, pcs_bin.c binary) share
 * (pc_list.c): a buffer, and one put per retired pc, from events or from
 * blocks walked through their cached shapes (block_shape.h). */
#ifndef RVT_OUT_PC_LIST_H
#define RVT_OUT_PC_LIST_H

#include "rvtrace/out.h"
#include "out/block_shape.h"
#include "out/fmt.h"

struct rvt_pc_list;
/* Writes pcs[0..n) (n <= RVT_SHAPE_MAX) to l->b. */
typedef void (*rvt_pc_put)(struct rvt_pc_list *l, const uint64_t *pcs, size_t n);

typedef struct rvt_pc_list {
    rvt_pc_put put;
    /* The text writer's (pcs.c) digits of the last pc >> 8: consecutive
     * pcs share them, only the last two digits are new. */
    uint64_t hi;                /* that pc >> 8; 0: none (pcs below 256 take the long way) */
    char hi_digits[16];
    unsigned hi_len;
    rvt_shapes shapes;
    rvt_obuf b;
} rvt_pc_list;

/* The state for output to f (img: the lengths of blocks' instructions;
 * may be NULL), or NULL (out of memory). */
rvt_pc_list *rvt_pc_list_new(FILE *f, rvt_image *img, rvt_pc_put put);
/* rvt_out_writer event, block and finish. */
void rvt_pc_list_event(void *state, const rvt_flow_event *ev);
void rvt_pc_list_block(void *state, const struct rvt_block *b);
void rvt_pc_list_finish(void *state);

#endif
