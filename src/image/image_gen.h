/* Where an image's generation (rvt_image_generation, image.h) lives, for
 * the output writers that compare it once per instruction on their event
 * path (docs/api.md "Code that changes"): two loads and a compare there,
 * where the call measured 10-17 instructions an event (callgrind, 6 M
 * events to folded, report, timeline, lcov).  Include as
 * "image/image_gen.h". */
#ifndef RVT_IMAGE_GEN_H
#define RVT_IMAGE_GEN_H

#include <stdint.h>
#include "rvtrace/image.h"

/* The generation's address in img: it moves as rvt_image_generation's
 * value does, as long as img lives.  For NULL, that of a constant 0. */
const uint64_t *img_generation_at(const rvt_image *img);

#endif
