/* The shapes of instruction blocks, cached by start pc (block_shape.h). */
#include <string.h>
#include "out/block_shape.h"

void rvt_shapes_init(rvt_shapes *s, rvt_image *img)
{
    memset(s->slot, 0, sizeof s->slot);
    s->img = img;
    s->gen = rvt_image_generation(img);
}

bool rvt_shapes_sync(rvt_shapes *s)
{
    uint64_t gen = rvt_image_generation(s->img);
    if (__builtin_expect(gen == s->gen, 1))
        return false;
    rvt_shapes_init(s, s->img);
    if (s->dm.view)
        rvt_memv_flush(s->dm.view);
    return true;
}

int rvt_shapes_private(rvt_shapes *s)
{
    return rvt_dec_mem_open(&s->dm, NULL, s->img);
}

void rvt_shapes_close(rvt_shapes *s)
{
    rvt_dec_mem_close(&s->dm);
}

const rvt_insn *rvt_shape_insn(rvt_shapes *s, uint64_t pc)
{
    if (s->dm.view)
        return rvt_memv_insn(s->dm.view, pc);
    return s->img ? rvt_image_insn(s->img, pc) : NULL;
}

const rvt_shape *rvt_shape_get(rvt_shapes *s, uint64_t pc, uint64_t n)
{
    rvt_shape *e = &s->slot[(pc >> 1) & (RVT_SHAPE_SLOTS - 1)];
    if (e->n == n && e->pc == pc)
        return e;
    if (n == 0 || n > RVT_SHAPE_MAX || !s->img)
        return NULL;
    rvt_shape sh = { .pc = pc, .n = (uint32_t)n };
    uint64_t at = pc;
    for (uint32_t k = 0; k < n; k++) {
        const rvt_insn *i = rvt_shape_insn(s, at);
        if (!i || (i->len != 2 && i->len != 4))
            return NULL;
        sh.end = at;
        sh.hw += i->len / 2;
        sh.lens |= (uint32_t)(i->len == 4) << k;
        at += i->len;
    }
    *e = sh;
    return e;
}
