/* A program of programs/ loaded for a unit test (tests run through ctest
 * get RVT_SRC, the source tree). */
#ifndef RVT_TH_PROGRAM_H
#define RVT_TH_PROGRAM_H

#include <stdio.h>
#include <stdlib.h>
#include "tharness.h"
#include "rvtrace/image.h"

/* path: the source tree's file rel (under RVT_SRC, else the working
 * directory). */
static inline void th_src_path(char *path, size_t n, const char *rel)
{
    const char *src = getenv("RVT_SRC");
    snprintf(path, n, "%s/%s", src ? src : ".", rel);
}

/* programs/prog.elf (th_src_path): NULL when it does not load. */
static inline rvt_image *th_program(const char *prog)
{
    char rel[512], path[1024];
    snprintf(rel, sizeof rel, "programs/%s.elf", prog);
    th_src_path(path, sizeof path, rel);
    rvt_image *img = rvt_image_new();
    if (img && rvt_image_load_elf(img, path) < 0) {
        rvt_image_free(img);
        img = NULL;
    }
    return img;
}

/* th_program for a test that runs only from ctest: NULL after a SKIP line
 * without RVT_SRC; a program that does not load fails a check. */
static inline rvt_image *th_program_src(const char *prog)
{
    if (!getenv("RVT_SRC")) {
        printf("SKIP: RVT_SRC not set (run through ctest)\n");
        return NULL;
    }
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    return img;
}

#endif
