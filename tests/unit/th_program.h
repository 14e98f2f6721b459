/* A program of programs/ loaded for a unit test (tests run through ctest
 * get RVT_SRC, the source tree). */
#ifndef RVT_TH_PROGRAM_H
#define RVT_TH_PROGRAM_H

#include "tharness.h"
#include "rvtrace/image.h"

/* programs/name's image; NULL, after a SKIP line, without RVT_SRC. */
static inline rvt_image *th_program(const char *name)
{
    const char *src = getenv("RVT_SRC");
    if (!src) {
        printf("SKIP: RVT_SRC not set (run through ctest)\n");
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/programs/%s", src, name);
    rvt_image *img = rvt_image_new();
    CHECK(img && rvt_image_load_elf(img, path) >= 0);
    return img;
}

#endif
