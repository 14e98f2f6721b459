/* Symbols: a sorted array searched by address (rvt_image_symbol) or by
 * name (rvt_image_lookup).  A load appends its symbols unsorted and sorts
 * once at its end (image_elf.c), so n symbols cost one sort, not n
 * insertions. */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "util/grow.h"

int img_code_add(rvt_image *img, const char *name, uint64_t start, uint64_t end)
{
    img_code *n = rvt_grow(img->code, &img->capcode, img->ncode + 1, sizeof *n, 8);
    if (!n)
        return RVT_ERR_NOMEM;
    img->code = n;
    const char *nm = img_names_add(&img->names, name);
    if (!nm)
        return RVT_ERR_NOMEM;
    img->code[img->ncode++] = (img_code){ start, end, nm };
    return RVT_OK;
}

size_t rvt_image_code_count(const rvt_image *img)
{
    return img->ncode;
}

bool rvt_image_code_range(const rvt_image *img, size_t i, uint64_t *start, uint64_t *end,
                          const char **name)
{
    if (i >= img->ncode)
        return false;
    *start = img->code[i].start;
    *end = img->code[i].end;
    if (name)
        *name = img->code[i].name;
    return true;
}

int img_sym_add(rvt_image *img, const char *name, uint64_t addr, uint64_t size,
                uint64_t lim, unsigned rank)
{
    img_sym *n = rvt_grow(img->syms, &img->capsyms, img->nsyms + 1, sizeof *n, 64);
    if (!n)
        return RVT_ERR_NOMEM;
    img->syms = n;
    const char *nm = img_names_add(&img->names, name);
    if (!nm)
        return RVT_ERR_NOMEM;
    img_sym *s = &img->syms[img->nsyms++];
    s->name = nm;
    s->addr = addr;
    s->size = size;
    s->lim = lim > addr ? lim : addr + (size ? size : 1);
    s->rank = (uint8_t)rank;
    return RVT_OK;
}

void img_syms_free(rvt_image *img)
{
    free(img->syms);
    img_names_free(&img->names);
    free(img->code);
    img->code = NULL;
    img->ncode = img->capcode = 0;
    img->syms = NULL;
    img->nsyms = img->capsyms = 0;
}

static int sym_cmp(const void *a, const void *b)
{
    const img_sym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Sort by address, best name first at each address, then keep only that
 * one: FUNC beats NOTYPE, then the alphabetically first for determinism.
 * Called after each file is loaded, so lookups never modify the image. */
void img_syms_sort(rvt_image *img)
{
    if (img->nsyms < 2)
        return;
    qsort(img->syms, img->nsyms, sizeof *img->syms, sym_cmp);
    size_t o = 1;
    for (size_t i = 1; i < img->nsyms; i++)
        if (img->syms[i].addr != img->syms[o - 1].addr)
            img->syms[o++] = img->syms[i];
    img->nsyms = o;
}

/* How many symbols start at or below addr (the one covering addr, if
 * any, is the last of them). */
static size_t syms_upto(const rvt_image *img, uint64_t addr)
{
    size_t lo = 0, hi = img->nsyms;
    while (lo < hi) {              /* first symbol above addr */
        size_t mid = lo + (hi - lo) / 2;
        if (img->syms[mid].addr <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const char *rvt_image_symbol(void *ctx, uint64_t addr, uint64_t *off)
{
    const rvt_image *img = ctx;
    size_t lo = syms_upto(img, addr);
    if (lo == 0)
        return NULL;
    const img_sym *s = &img->syms[lo - 1];
    /* Past the end of the symbol's section the name would mislead. */
    if (addr >= s->lim)
        return NULL;
    if (off)
        *off = addr - s->addr;
    return s->name;
}

const char *rvt_image_symbol_span(const rvt_image *img, uint64_t addr, uint64_t *sym_addr,
                                  uint64_t *lo_out, uint64_t *hi_out)
{
    size_t lo = syms_upto(img, addr);
    /* the span ends where the next symbol starts ... */
    uint64_t hi = lo < img->nsyms ? img->syms[lo].addr : UINT64_MAX;
    const img_sym *s = lo ? &img->syms[lo - 1] : NULL;
    const char *name = NULL;
    if (s && addr < s->lim) {       /* ... or the symbol's section does */
        name = s->name;
        *sym_addr = s->addr;
        *lo_out = s->addr;
        *hi_out = s->lim < hi ? s->lim : hi;
    } else {                        /* no symbol: up to the next one */
        *sym_addr = 0;
        *lo_out = s ? s->lim : 0;
        *hi_out = hi;
    }
    return name;
}

bool rvt_image_lookup(const rvt_image *img, const char *name, uint64_t *addr)
{
    for (size_t i = 0; i < img->nsyms; i++) {
        if (!strcmp(img->syms[i].name, name)) {
            if (addr)
                *addr = img->syms[i].addr;
            return true;
        }
    }
    return false;
}
