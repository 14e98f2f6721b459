/* What a piece's profile knows of its start (profile_piece.c) and how it
 * is written down for rvt_profile_compose (profile_compose.c). */
#ifndef RVT_OUT_PROFILE_PIECE_H
#define RVT_OUT_PROFILE_PIECE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "out/keymap.h"

#define RVT_PIECE_MAGIC "rvtrace-profile-piece 1"
#define RVT_PIECE_HARTS 8u                 /* harts a piece keeps apart */
#define RVT_PIECE_INHERIT (SIZE_MAX - 1)   /* the stack entry the piece began in */

/* One hart's start: until its first instruction or reset ("started") its
 * stack is the one the piece before left, and the traps taken then push
 * onto that; its first timestamp's cycles since the piece before's last
 * go to head_entry (a piece entry, RVT_PIECE_INHERIT or SIZE_MAX). */
typedef struct rvt_piece_hart {
    uint16_t src;
    bool started, by_insn, head_time;
    uint64_t traps, head_t;
    const char *first;                     /* the leaf of its first instruction */
    size_t head_entry;
} rvt_piece_hart;

struct rvt_prof_piece {
    rvt_piece_hart harts[RVT_PIECE_HARTS];
    size_t nharts;
    /* calls made while the stack is relative: the caller is named only
     * when the resolved stack is 1,024 frames deep or less.  Key: caller,
     * callee's function index | (uint32_t)rel_depth << 32. */
    rvt_keymap rel_edges;
    uint64_t *rel_calls;
    size_t rel_cap;
    bool ended, refused;            /* refused: blocks fed, or too many harts */
};

#endif
