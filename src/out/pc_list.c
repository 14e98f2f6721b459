/* What the PC-list writers share (pc_list.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/flow.h"
#include "out/pc_list.h"

/* A list, its buffer not yet set: the own buffer's 256 KiB left
 * untouched (a part fills the caller's buffers instead). */
static rvt_pc_list *pc_list_alloc(rvt_image *img, rvt_pc_put put)
{
    rvt_pc_list *l = aligned_alloc(_Alignof(rvt_pc_list), sizeof *l);    /* the slots' rows 64-aligned */
    if (!l)
        return NULL;
    memset(l, 0, offsetof(rvt_pc_list, b) + offsetof(rvt_obuf, own));
    l->put = put;
#if RVT_PCL_WIDE
    l->wide = __builtin_cpu_supports("avx2");
#endif
    rvt_shapes_init(&l->shapes, img);
    return l;
}

rvt_pc_list *rvt_pc_list_new(FILE *f, rvt_image *img, rvt_pc_put put)
{
    rvt_pc_list *l = pc_list_alloc(img, put);
    if (l)
        rvt_obuf_init(&l->b, f);
    return l;
}

/* A PC list's bytes for a run of instructions are those instructions'
 * alone (the digit and block caches only save work), so a part is a
 * list without its start; its image read through a view of its own. */
rvt_pc_list *rvt_pc_list_new_part(FILE *f, const rvt_out_bufs *to, rvt_image *img, rvt_pc_put put)
{
    rvt_pc_list *l = pc_list_alloc(img, put);
    if (!l)
        return NULL;
    if (!to)
        rvt_obuf_init(&l->b, f);
    if ((img && rvt_shapes_private(&l->shapes) < 0) || (to && !rvt_obuf_init_bufs(&l->b, to))) {
        rvt_shapes_close(&l->shapes);
        free(l);
        return NULL;
    }
    return l;
}

void rvt_pc_list_event(void *state, const rvt_flow_event *ev)
{
    rvt_pc_list *l = state;
    if (ev->kind == RVT_EV_INSN)
        l->put(l, &ev->pc, 1);
}

/* The pcs of shape sh from pc, with one put; a copy of what it wrote
 * kept in slot. */
static void put_shape(rvt_pc_list *l, const rvt_shape *sh, uint64_t pc, size_t slot)
{
    uint64_t pcs[RVT_SHAPE_MAX];
    for (unsigned k = 0; k < sh->n; k++) {
        pcs[k] = pc;
        pc = rvt_shape_next(sh, k, pc);
    }
    rvt_obuf_reserve(&l->b, RVT_PCL_BYTES);     /* put writes after `at`, no flush between */
    size_t at = l->b.n;
    l->put(l, pcs, sh->n);
    rvt_pcl_blk *e = &l->blk[slot];
    *e = (rvt_pcl_blk){ .pc = sh->pc, .end = sh->end, .n = sh->n, .len = (uint32_t)(l->b.n - at) };
    memcpy(l->bytes[slot], l->b.buf + at, e->len);
}

/* The bytes of a block not in its slot: walked through its shape (kept
 * in the slot for the next time), else through the image. */
static __attribute__((noinline)) void put_new(rvt_pc_list *l, const rvt_block *b, size_t slot)
{
    const rvt_shape *sh = rvt_shape_get(&l->shapes, b->start_pc, b->ninsn);
    if (sh && sh->end == b->end_pc) {
        put_shape(l, sh, b->start_pc, slot);
        return;
    }
    /* a shape not kept: walked here; the last pc is the block's */
    uint64_t pc = b->start_pc;
    for (uint64_t k = 0; k + 1 < b->ninsn; k++) {
        l->put(l, &pc, 1);
        const rvt_insn *i = rvt_shape_insn(&l->shapes, pc);
        pc += i ? i->len : 4;
    }
    l->put(l, &b->end_pc, 1);
}

/* The slot of a block by its start pc (instructions start on even pcs). */
static inline size_t slot_of(uint64_t pc)
{
    return (pc >> 1) & (RVT_PCL_SLOTS - 1);
}

/* 32 bytes from `from` to `to`: wide, in one 32-byte vector (one load
 * and one store in an AVX2 function: half the stores of a block's copy),
 * else by memcpy (two 16-byte moves; a vector there would go through the
 * stack). */
typedef char rvt_pcl_v32 __attribute__((vector_size(32)));

static inline __attribute__((always_inline)) void copy32(char *to, const char *from, bool wide)
{
    if (wide) {
        rvt_pcl_v32 v;
        memcpy(&v, from, sizeof v);
        memcpy(to, &v, sizeof v);
    } else {
        memcpy(to, from, 32);
    }
}

/* The bytes of block b at p (room for RVT_PCL_BYTES there) if its slot
 * holds them: the end of what was written, else NULL.  Copied in whole
 * 32-byte chunks (RVT_PCL_BYTES is a multiple of 32, and the buffer has
 * that much room), the first 64 bytes always (8 pcs of 64 bits: 80 % of
 * long.elf's blocks), so that the copy of most blocks has no loop
 * whose exit the branch predictor must guess (issue #18: the PC lists
 * at the decoder's speed). */
static inline __attribute__((always_inline)) char *hit(const rvt_pc_list *l, const rvt_block *b, char *p,
                                                       bool wide)
{
    size_t slot = slot_of(b->start_pc);
    const rvt_pcl_blk *e = &l->blk[slot];
    /* n is never 0 in a block: an empty slot does not match */
    if (__builtin_expect(e->pc != b->start_pc || e->n != b->ninsn || e->end != b->end_pc, 0))
        return NULL;
    uint32_t len = e->len;
    const char *from = l->bytes[slot];
    copy32(p, from, wide);
    copy32(p + 32, from + 32, wide);
    for (uint32_t k = 64; k < len; k += 32)
        copy32(p + k, from + k, wide);
    return p + len;
}

_Static_assert(RVT_PCL_BYTES % 32 == 0 && RVT_PCL_BYTES >= 64, "slots copied in 32-byte chunks");
_Static_assert(sizeof(rvt_pcl_blk) == 32 && RVT_PCL_ROW % 64 == 0, "slots a shift apart, rows on cache lines");

/* The write position is kept in a register over the batch and stored
 * back only around a flush or a miss: through l->b.n, every block's
 * position was a load of the store the block before made (the copies'
 * char stores may alias it), a store-forwarding round trip a block. */
static inline __attribute__((always_inline)) uint64_t put_blocks(rvt_pc_list *l, const rvt_block *b, size_t n,
                                                                  bool wide)
{
    /* code patched since the slots were written (docs/api.md "Code that
     * changes"): their bytes may be other lengths' pcs */
    if (__builtin_expect(rvt_shapes_sync(&l->shapes), 0))
        memset(l->blk, 0, sizeof l->blk);
    uint64_t insns = 0;
    char *p = l->b.buf + l->b.n;
    const char *last = l->b.buf + l->b.size - RVT_PCL_BYTES;   /* the last position with room */
    for (size_t i = 0; i < n; i++) {
        if (__builtin_expect(p > last, 0)) {
            rvt_obuf_commit(&l->b, p);
            rvt_obuf_flush(&l->b);      /* a part into buffers: another buffer */
            p = l->b.buf;
            last = l->b.buf + l->b.size - RVT_PCL_BYTES;
        }
        char *end = hit(l, &b[i], p, wide);
        if (__builtin_expect(!end, 0)) {
            rvt_obuf_commit(&l->b, p);
            put_new(l, &b[i], slot_of(b[i].start_pc));
            end = l->b.buf + l->b.n;
        }
        p = end;
        insns += b[i].ninsn;
    }
    rvt_obuf_commit(&l->b, p);
    return insns;
}

/* The loop built twice (x86-64, RVT_PCL_WIDE): for any CPU, and for one
 * with AVX2, whose copies are one 32-byte store each; rvt_pc_list_new
 * picks one per list (l->wide). */
static uint64_t put_blocks_narrow(rvt_pc_list *l, const rvt_block *b, size_t n)
{
    return put_blocks(l, b, n, false);
}

#if RVT_PCL_WIDE
__attribute__((target("avx2"))) static uint64_t put_blocks_wide(rvt_pc_list *l, const rvt_block *b, size_t n)
{
    return put_blocks(l, b, n, true);
}
#endif

uint64_t rvt_pc_list_blocks(void *state, const rvt_block *b, size_t n)
{
    rvt_pc_list *l = state;
#if RVT_PCL_WIDE
    if (l->wide)
        return put_blocks_wide(l, b, n);
#endif
    return put_blocks_narrow(l, b, n);
}

void rvt_pc_list_block(void *state, const rvt_block *b)
{
    rvt_pc_list_blocks(state, b, 1);
}

void rvt_pc_list_finish(void *state)
{
    rvt_pc_list *l = state;
    rvt_obuf_close(&l->b);
    rvt_shapes_close(&l->shapes);
    free(l);            /* the FILE belongs to the caller */
}
