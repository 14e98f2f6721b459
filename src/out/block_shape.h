/* The shapes of instruction blocks, cached by start pc (block_shape.c):
 * where a block of n instructions from pc ends and which of them are
 * compressed, walked through the image once per distinct block rather
 * than on every retirement of it (rvt_out_run, rvt_out_block). */
#ifndef RVT_OUT_BLOCK_SHAPE_H
#define RVT_OUT_BLOCK_SHAPE_H

#include "rvtrace/image.h"
#include "image/mem_view.h"

#define RVT_SHAPE_SLOTS 1024u      /* direct mapped by start pc */
#define RVT_SHAPE_MAX 32u          /* instructions (bits of lens) */

typedef struct rvt_shape {
    uint64_t pc, end;           /* first and last instruction */
    uint32_t n;                 /* instructions; 0: empty slot */
    uint32_t hw;                /* half-words */
    uint32_t lens;              /* bit k: instruction k is 4 bytes, else 2 */
} rvt_shape;

typedef struct rvt_shapes {
    rvt_image *img;
    uint64_t gen;               /* img's generation the slots were walked in */
    /* After rvt_shapes_private (dm.view set), img is read through a view
     * of its own, with its own cache (image/mem_view.h, as a decoder's),
     * never rvt_image_insn's, which writes the image: shapes on several
     * threads may then share img. */
    rvt_dec_mem dm;
    rvt_shape slot[RVT_SHAPE_SLOTS];
} rvt_shapes;

/* Empty shapes of img's code (may be NULL). */
void rvt_shapes_init(rvt_shapes *s, rvt_image *img);
/* Drops every shape (and the private view's decodes) when img's code
 * changed since they were walked (rvt_image_generation: code patched
 * between two blocks, self-modifying code; the same start and count may
 * then be other lengths): true when it did, so that what the caller
 * derived from them goes too.  Called once per call of a writer's entry
 * (a batch), not per block: the code cannot change inside one. */
bool rvt_shapes_sync(rvt_shapes *s);
/* Read s->img (not NULL) through a view of s's own from now on: 0, or
 * RVT_ERR_NOMEM. */
int rvt_shapes_private(rvt_shapes *s);
/* Frees what rvt_shapes_private made. */
void rvt_shapes_close(rvt_shapes *s);
/* The instruction at pc in s's image (through its view when private), or
 * NULL: no image, or no code there. */
const rvt_insn *rvt_shape_insn(rvt_shapes *s, uint64_t pc);

/* The shape of n instructions from pc, or NULL: no image, code missing,
 * more than RVT_SHAPE_MAX instructions, or one neither 2 nor 4 bytes long
 * (the caller walks those itself).  Valid until the next call. */
const rvt_shape *rvt_shape_get(rvt_shapes *s, uint64_t pc, uint64_t n);

/* The pc after instruction k of a shape at pc. */
static inline uint64_t rvt_shape_next(const rvt_shape *sh, unsigned k, uint64_t pc)
{
    return pc + 2 + 2 * ((sh->lens >> k) & 1u);
}

#endif
