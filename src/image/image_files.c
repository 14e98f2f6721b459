/* Which file an address or a symbol comes from: listings, JSON and folded
 * stacks of a decode over several images name the image of each
 * instruction (issue 15, "Decoding across images"). */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "util/grow.h"

int img_file_add(rvt_image *img, const char *path, size_t pool_lo, size_t pool_hi)
{
    img_file *f = rvt_grow(img->files, &img->capfiles, img->nfiles + 1, sizeof *f, 4);
    if (!f)
        return RVT_ERR_NOMEM;
    img->files = f;
    char *p = strdup(path);
    if (!p)
        return RVT_ERR_NOMEM;
    img->files[img->nfiles++] = (img_file){ p, pool_lo, pool_hi };
    return RVT_OK;
}

void img_files_free(rvt_image *img)
{
    for (size_t i = 0; i < img->nfiles; i++)
        free(img->files[i].path);
    free(img->files);
    img->files = NULL;
    img->nfiles = img->capfiles = 0;
}

const char *rvt_image_file_at(const rvt_image *img, uint64_t addr)
{
    const img_seg *s = img ? img_find(img, addr) : NULL;
    return s ? s->pub.name : NULL;
}

/* Names live in one pool, each file's in a range of its own (appended in
 * load order), so a name's address tells its file. */
const char *rvt_image_symbol_file(const rvt_image *img, const char *sym)
{
    if (!img || !sym || !img->pool || sym < img->pool || sym >= img->pool + img->npool)
        return NULL;
    size_t off = (size_t)(sym - img->pool);
    for (size_t i = 0; i < img->nfiles; i++)
        if (off >= img->files[i].pool_lo && off < img->files[i].pool_hi)
            return img->files[i].path;
    return NULL;
}

size_t rvt_image_file_count(const rvt_image *img)
{
    return img ? img->nfiles : 0;
}
