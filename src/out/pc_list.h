/* What the PC-list writers (pcs.c text, pcs_bin.c binary) share
 * (pc_list.c): a buffer, and one put per retired pc, from events or from
 * blocks walked through their cached shapes (block_shape.h). */
#ifndef RVT_OUT_PC_LIST_H
#define RVT_OUT_PC_LIST_H

#include "rvtrace/out.h"
#include "out/block_shape.h"
#include "out/fmt.h"

struct rvt_pc_list;
/* Writes pcs[0..n) (n <= RVT_SHAPE_MAX) to l->b, at most RVT_PCL_BYTES. */
typedef void (*rvt_pc_put)(struct rvt_pc_list *l, const uint64_t *pcs, size_t n);

/* A block's output as written the first time, copied from here when it
 * retires again (issue #18: the PC lists a memcpy per block), direct
 * mapped by start pc: the keys apart from the bytes, so that the lookup
 * reads a small table (the bytes are read only on a hit).  A key is 32
 * bytes and a slot's bytes RVT_PCL_ROW, 64-aligned, so that a slot's
 * address is a shift or two from the start pc and its first 64 bytes
 * (8 pcs of 64 bits) one cache line. */
#define RVT_PCL_SLOTS 256u
#define RVT_PCL_BYTES (17u * RVT_SHAPE_MAX)     /* the longest: 16 digits and '\n' each */
#define RVT_PCL_ROW (RVT_PCL_BYTES + 32u)       /* 9 cache lines */
typedef struct rvt_pcl_blk {
    uint64_t pc, end;           /* first and last instruction */
    uint32_t n;                 /* instructions; 0: empty */
    uint32_t len;               /* bytes */
    uint64_t unused;            /* to 32 bytes */
} rvt_pcl_blk;

/* x86-64: the batch loop also built for AVX2, the copies in 32-byte
 * stores, half as many (pc_list.c), run where the CPU has it. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RVT_PCL_WIDE 1
#else
#define RVT_PCL_WIDE 0
#endif

typedef struct rvt_pc_list {
    rvt_pc_put put;
    bool wide;                  /* the AVX2 loop (RVT_PCL_WIDE); false: the baseline one */
    /* The text writer's (pcs.c) digits of the last pc >> 8: consecutive
     * pcs share them, only the last two digits are new. */
    uint64_t hi;                /* that pc >> 8; 0: none (pcs below 256 take the long way) */
    char hi_digits[16];
    unsigned hi_len;
    rvt_shapes shapes;
    rvt_pcl_blk blk[RVT_PCL_SLOTS];
    char bytes[RVT_PCL_SLOTS][RVT_PCL_ROW] __attribute__((aligned(64)));    /* each slot's */
    rvt_obuf b;
} rvt_pc_list;

/* The state for output to f (img: the lengths of blocks' instructions;
 * may be NULL), or NULL (out of memory). */
rvt_pc_list *rvt_pc_list_new(FILE *f, rvt_image *img, rvt_pc_put put);
/* The same for a part of a list (rvt_out_writer.open_part): img is read
 * through the part's own cache, so parts on several threads may share it;
 * to NULL: to f, else into to's buffers (rvt_out_open_part_bufs). */
rvt_pc_list *rvt_pc_list_new_part(FILE *f, const rvt_out_bufs *to, rvt_image *img, rvt_pc_put put);
/* rvt_out_writer event, block, blocks and finish. */
void rvt_pc_list_event(void *state, const rvt_flow_event *ev);
void rvt_pc_list_block(void *state, const struct rvt_block *b);
uint64_t rvt_pc_list_blocks(void *state, const struct rvt_block *b, size_t n);
void rvt_pc_list_finish(void *state);

#endif
