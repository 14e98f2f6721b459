/* The log of what each generation step changed (image_change.h). */
#include "image/image_change.h"

void img_changed(rvt_image *img, uint64_t lo, uint64_t hi)
{
    img->gen++;
    img->changes[img->gen % IMG_CHANGE_LOG] = (img_change){ img->gen, { lo, hi } };
}

bool img_changes_since(const rvt_image *img, uint64_t since, img_span out[IMG_CHANGE_LOG], size_t *n)
{
    *n = 0;
    if (!img || since > img->gen || img->gen - since > IMG_CHANGE_LOG)
        return false;
    const img_change *log = img->changes;
    for (uint64_t g = since + 1; g <= img->gen; g++) {
        const img_change *c = &log[g % IMG_CHANGE_LOG];
        if (c->gen != g)        /* a step made without img_changed */
            return false;
        out[(*n)++] = c->span;
    }
    return true;
}
