/* Push chunks cut anywhere (nt_chunk.c): rvt_nt_decode takes a stream in
 * pieces as they come (a pipe, a socket, a file read in blocks), so a
 * chunk may end inside a message.  The chunker hands the decoder segments
 * it can frame exactly as it would frame the whole stream, and keeps the
 * rest for the next chunk.  Internal header. */
#ifndef RVT_NT_CHUNK_H
#define RVT_NT_CHUNK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/ntrace.h"

typedef struct nt_chunker {
    uint8_t carry[RVT_NT_MAX_MSG];  /* the bytes after the last MSEO 11 so far */
    size_t n;
    bool skip;          /* the framing is passing over bytes up to the next
                           MSEO 11 (after an error, N-Trace 3.4) */
} nt_chunker;

/* Decode len bytes of the stream, which the framing reads whole (buf
 * NULL: pass over len bytes, none decoded); 0 or a status to stop with. */
typedef int (*nt_segment_fn)(void *ctx, const uint8_t *buf, size_t len);

/* The next chunk of the stream: its segments to seg, in order.  Returns 0
 * or seg's nonzero status (then the rest of the chunk is not read). */
int nt_chunker_feed(nt_chunker *c, const uint8_t *buf, size_t len, nt_segment_fn seg, void *ctx);
/* The end of the stream: a message still open goes to seg as it is (the
 * framing reports it cut short). */
int nt_chunker_end(nt_chunker *c, nt_segment_fn seg, void *ctx);

#endif
