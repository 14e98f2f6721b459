/* What each step of an image's generation changed (image_gen.h,
 * img_changes_since): the image records the addresses of every change of
 * the code it serves as it bumps the generation, so that a writer that
 * keeps facts of the code (the coverage map's decoded lengths) drops
 * only those, not the whole image's (docs/api.md "Code that changes").
 * The log is the image's `changes` (image_internal.h). */
#ifndef RVT_IMAGE_CHANGE_H
#define RVT_IMAGE_CHANGE_H

#include "image/image_internal.h"
#include "image/image_gen.h"

/* addr + len, or UINT64_MAX where that would wrap. */
static inline uint64_t img_end(uint64_t addr, uint64_t len)
{
    return addr + len < addr ? UINT64_MAX : addr + len;
}

/* The code img serves changed in [lo, hi) (lo == hi: nowhere, e.g. a
 * failed load that added nothing): bumps the generation and records the
 * step. */
void img_changed(rvt_image *img, uint64_t lo, uint64_t hi);

#endif
