/* A decoder's view of an rvt_mem (include/rvtrace/mem.h): the address
 * space it decodes in and its own decoded-instruction caches, so that
 * decoders sharing an rvt_mem never write to it or its images.  Both flow
 * decoders put an rvt_iblocks (isa/insn_blocks.h) over a view:
 * rvt_memv_insn is an rvt_iblk_insn_fn.  Include as "image/mem_view.h". */
#ifndef RVT_IMAGE_MEM_VIEW_H
#define RVT_IMAGE_MEM_VIEW_H

#include <stdbool.h>
#include "rvtrace/mem.h"

typedef struct rvt_memv rvt_memv;

/* A view over m (borrowed), in space RVT_MEMV_START until
 * rvt_memv_set_space.  NULL when out of memory or m is NULL. */
#define RVT_MEMV_START ((rvt_space){ .context = 0, .priv = 3, .source = 0 })
rvt_memv *rvt_memv_new(const rvt_mem *m);
void rvt_memv_free(rvt_memv *v);
/* Decode in space from now on.  True when lookups may now answer
 * differently: the caller flushes its block cache then. */
bool rvt_memv_set_space(rvt_memv *v, const rvt_space *space);
/* Forget every decode (the memory changed: self-modifying code).
 * Instructions handed out before stay readable (a walk may hold them):
 * slots are re-decoded in place, never cleared. */
void rvt_memv_flush(rvt_memv *v);
/* The instruction at pc in the view's space, or NULL (no code there). */
const rvt_insn *rvt_memv_insn(void *v, uint64_t pc);

/* ---- what a flow decoder keeps: its view, its block cache's source ---- */
#include "isa/insn_blocks.h"

/* Address spaces a decoder has met, each with the number its block cache
 * tags entries with (insn_blocks.h); spaces whose lookups agree share one. */
#define RVT_DEC_SPACES (RVT_IBLK_SPACES < 256u ? RVT_IBLK_SPACES : 256u)
typedef struct rvt_dec_space {
    rvt_space space;
    unsigned number;
} rvt_dec_space;

typedef struct rvt_dec_mem {
    rvt_mem *own;            /* made for an rvt_image entry point, else NULL */
    rvt_memv *view;          /* NULL: a custom rvt_*_insn_fn */
    rvt_space space;         /* the view's, checked inline: set per message */
    unsigned number;         /* its number in the block cache */
    unsigned nknown, nnumbers;
    rvt_dec_space known[RVT_DEC_SPACES];
} rvt_dec_mem;

/* A view over m, or over a single-space rvt_mem holding img (the rvt_image
 * entry points: img in every space).  RVT_ERR_INVAL (both or neither
 * given), RVT_ERR_NOMEM. */
int rvt_dec_mem_open(rvt_dec_mem *dm, const rvt_mem *m, const rvt_image *img);
void rvt_dec_mem_close(rvt_dec_mem *dm);
/* The slow path of rvt_dec_mem_space: a new space for the view and its
 * number for the block cache (a whole flush only when more spaces than
 * the cache tells apart were met). */
void rvt_dec_mem_switch(rvt_dec_mem *dm, rvt_iblocks *bc, const rvt_space *space);

/* The view decodes in (context, priv, source) now (or has no view: one
 * space). */
static inline bool rvt_dec_mem_in(const rvt_dec_mem *dm, uint64_t context, unsigned priv,
                                  unsigned source)
{
    return !dm->view || (dm->space.context == context && dm->space.priv == priv &&
                         dm->space.source == source);
}

/* The decoder now decodes in (context, priv, source).  The block cache
 * keeps every space's entries (tagged by the space's number), so a kernel
 * switching contexts often keeps its blocks. */
static inline void rvt_dec_mem_space(rvt_dec_mem *dm, rvt_iblocks *bc, uint64_t context,
                                     unsigned priv, unsigned source)
{
    if (rvt_dec_mem_in(dm, context, priv, source))
        return;
    rvt_space sp = { .context = context, .priv = priv, .source = source };
    rvt_dec_mem_switch(dm, bc, &sp);
}

/* The instruction at pc in space (context, priv, source), the decoder
 * staying in its own: the pull API steps through blocks queued before the
 * walk went on into another space (flow/flow_pull.h). */
static inline const rvt_insn *rvt_dec_mem_insn_in(rvt_dec_mem *dm, rvt_iblocks *bc, uint64_t pc,
                                                  uint64_t context, unsigned priv, unsigned source)
{
    if (rvt_dec_mem_in(dm, context, priv, source))
        return rvt_iblk_insn(bc, pc);
    rvt_space now = dm->space, there = { .context = context, .priv = priv, .source = source };
    rvt_dec_mem_switch(dm, bc, &there);
    const rvt_insn *i = rvt_iblk_insn(bc, pc);
    rvt_dec_mem_switch(dm, bc, &now);
    return i;
}

/* Forget every decode (11.4: the code changed). */
static inline void rvt_dec_mem_flush(rvt_dec_mem *dm, rvt_iblocks *bc)
{
    rvt_iblk_flush(bc);
    rvt_memv_flush(dm->view);
}

#endif
