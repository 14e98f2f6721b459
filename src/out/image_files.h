/* The files an image was loaded from, each once (their segments name
 * them): the ELFs whose DWARF (lcov.c) or program headers (lbr.c) a
 * writer reads. */
#ifndef RVT_OUT_IMAGE_FILES_H
#define RVT_OUT_IMAGE_FILES_H

#include <string.h>
#include "rvtrace/image.h"

/* The name of segment i if no earlier segment has it, else NULL. */
static inline const char *rvt_out_image_file(const rvt_image *img, size_t i)
{
    const char *name = rvt_image_segment(img, i)->name;
    for (size_t k = 0; k < i && name; k++) {
        const char *o = rvt_image_segment(img, k)->name;
        if (o && !strcmp(o, name))
            return NULL;
    }
    return name;
}

#endif
