/* Where an image's generation (rvt_image_generation, image.h) lives, for
 * the output writers that compare it once per instruction on their event
 * path (docs/api.md "Code that changes"): two loads and a compare there,
 * where the call measured 10-17 instructions an event (callgrind, 6 M
 * events to folded, report, timeline, lcov).  And what its steps
 * changed, for a writer that drops only the facts of the code that
 * changed.  Include as "image/image_gen.h". */
#ifndef RVT_IMAGE_GEN_H
#define RVT_IMAGE_GEN_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/image.h"

/* The generation's address in img: it moves as rvt_image_generation's
 * value does, as long as img lives.  For NULL, that of a constant 0. */
const uint64_t *img_generation_at(const rvt_image *img);

/* Bytes [lo, hi) whose code may have changed. */
typedef struct img_span {
    uint64_t lo, hi;
} img_span;

/* How many steps of the generation the image remembers. */
#define IMG_CHANGE_LOG 16u

/* The addresses the steps of img's generation after `since` changed:
 * one span per step into out[0..*n), oldest first (a region added: its
 * addresses; one dropped: the hull of what was dropped; an
 * rvt_image_invalidate: its range).  An instruction that starts before a
 * span but reaches into it changed too: widen by the longest
 * instruction.  False when the image no longer knows (more than
 * IMG_CHANGE_LOG steps since, or since is not one of its generations):
 * then treat all code as changed. */
bool img_changes_since(const rvt_image *img, uint64_t since, img_span out[IMG_CHANGE_LOG], size_t *n);

#endif
