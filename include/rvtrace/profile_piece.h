/* Profiles of the pieces of one trace cut at its index (index.h), merged
 * exactly (issue #18, "Past one machine"; docs/parallel.md "Profiles of
 * pieces").  A piece's decoder does not know the call stack, the context
 * or the last timestamp the trace had where the piece begins: its profile
 * records its stacks relative to that unknown start (the frames it pushes
 * itself are named; returns that pop below its start are counted), and
 * rvt_profile_compose resolves them with the stack the pieces before it
 * ended with.  Composing every piece in stream order gives the profile,
 * byte for byte in rvt_profile_write, that one profile of the whole
 * trace's events gives. */
#ifndef RVTRACE_PROFILE_PIECE_H
#define RVTRACE_PROFILE_PIECE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A profile of a piece: fed with rvt_profile_event (not blocks) with the
 * piece's events, those after its own first sync packet/message (which
 * the piece before retires, docs/parallel.md).  NULL when out of memory. */
rvt_profile *rvt_profile_piece_new(rvt_image *img);
/* The piece's profile, relative to its start, as text (a few lines per
 * distinct stack, its functions named by an address in them, so the
 * composing process needs the same program, not the same addresses in
 * memory).  0, RVT_ERR_INVAL when p is no piece, RVT_ERR_NOMEM,
 * RVT_ERR_IO, or RVT_ERR_LIMIT when the piece cannot be composed exactly:
 * blocks were fed, or more than one hart (source) ran in it. */
int rvt_profile_piece_write(rvt_profile *p, FILE *f);
/* Appends the next piece (the text above) to into, a profile made by
 * rvt_profile_new of the same program: into is then the profile of
 * everything composed so far, as if it had been fed their events.
 * 0, RVT_ERR_INVAL (into is a piece), RVT_ERR_FORMAT (not such a text;
 * into unchanged) or RVT_ERR_NOMEM (into is then unusable). */
int rvt_profile_compose(rvt_profile *into, const char *piece, size_t len);

#ifdef __cplusplus
}
#endif
#endif
