/* The names of an image's symbols and code sections: chunks that never
 * move, so a name handed out (rvt_image_symbol, rvt_image_code_range)
 * stays valid, at the same address, until rvt_image_free, whatever is
 * loaded after (docs/api.md "Code that changes"). */
#ifndef RVT_IMAGE_NAMES_H
#define RVT_IMAGE_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* One chunk: cap bytes at base, used of them taken.  Positions count the
 * chunks laid end to end (pos: this chunk's first byte), so names added
 * later have higher positions and a file's names one range of them. */
typedef struct img_name_chunk {
    char *base;
    size_t used, cap;
    size_t pos;
} img_name_chunk;

typedef struct img_names {
    img_name_chunk *chunks;     /* this array may move; the chunks do not */
    size_t nchunks, capchunks;
} img_names;

/* A copy of name that stays put until img_names_free; NULL when out of
 * memory. */
const char *img_names_add(img_names *n, const char *name);
/* The position the next name added will be at or after. */
size_t img_names_end(const img_names *n);
/* The position of a name img_names_add returned; false for any other
 * pointer. */
bool img_names_pos(const img_names *n, const char *name, size_t *pos);
void img_names_free(img_names *n);

#endif
