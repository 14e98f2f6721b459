/* Which file an address or a symbol comes from: listings, JSON and folded
 * stacks of a decode over several images name the image of each
 * instruction (issue 15, "Decoding across images"). */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "util/grow.h"

int img_file_add(rvt_image *img, const char *path, size_t names_lo, size_t names_hi)
{
    img_file *f = rvt_grow(img->files, &img->capfiles, img->nfiles + 1, sizeof *f, 4);
    if (!f)
        return RVT_ERR_NOMEM;
    img->files = f;
    char *p = strdup(path);
    if (!p)
        return RVT_ERR_NOMEM;
    img->files[img->nfiles++] = (img_file){ p, names_lo, names_hi };
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

/* Each file's names take a range of positions of their own (added in
 * load order), so a name's position tells its file. */
const char *rvt_image_symbol_file(const rvt_image *img, const char *sym)
{
    size_t pos;
    if (!img || !sym || !img_names_pos(&img->names, sym, &pos))
        return NULL;
    for (size_t i = 0; i < img->nfiles; i++)
        if (pos >= img->files[i].names_lo && pos < img->files[i].names_hi)
            return img->files[i].path;
    return NULL;
}

size_t rvt_image_file_count(const rvt_image *img)
{
    return img ? img->nfiles : 0;
}
