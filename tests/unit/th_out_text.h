/* A writer's whole output as text, for tests that check what a writer
 * wrote: open w over img into memory (open_memstream), let fn feed it,
 * free it (which writes what it holds), and hand back the bytes. */
#ifndef TH_OUT_TEXT_H
#define TH_OUT_TEXT_H

#include <stdio.h>
#include "rvtrace/out.h"
#include "tharness.h"

typedef void th_feed_fn(rvt_out *o, void *ctx);

/* The text (malloc'd, NUL-terminated; NULL when memory ran out), its
 * length in *len when len is not NULL.  A writer that does not open is
 * a failed check and gives the empty text. */
static inline char *th_out_text(const rvt_out_writer *w, rvt_image *img, th_feed_fn *fn,
                                void *ctx, size_t *len)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);
    if (!f)
        return NULL;
    rvt_out *o = rvt_out_open(w, f, img);
    CHECK(o != NULL);
    if (o) {
        fn(o, ctx);
        rvt_out_free(o);
    }
    fclose(f);
    if (len)
        *len = n;
    return text;
}

#endif
