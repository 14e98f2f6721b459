/* The profile's tables (profile.c), read by its report (profile_text.c)
 * and the HTML page (html.c). */
#ifndef RVT_OUT_PROFILE_H
#define RVT_OUT_PROFILE_H

#include "rvtrace/profile.h"
#include "out/folded.h"
#include "out/keymap.h"

typedef struct rvt_prof_fn {
    const char *name;
    uint64_t self, total;          /* instructions: in it, and with callees */
    uint64_t calls;
    uint64_t self_cycles, total_cycles;
    uint64_t stamp;                /* rvt_profile_totals: the last stack counted */
    const char *image;             /* file of the segment it first ran in, or NULL */
    uint64_t pc;                   /* where image was looked up (names it in a piece) */
} rvt_prof_fn;

typedef struct rvt_prof_count {    /* a context, hart or trap cause, and its count */
    uint64_t key, key2;
    uint64_t count;
} rvt_prof_count;

struct rvt_profile {
    rvt_image *img;
    const char *last_leaf;         /* the leaf whose image is known */
    rvt_folded *fo;                /* the stacks; the call-stack tracker inside */
    rvt_keymap fn_ix;              /* name pointer -> fns */
    rvt_prof_fn *fns;
    size_t fn_cap;
    rvt_keymap edge_ix;            /* (caller, callee) -> edge_calls */
    uint64_t *edge_calls;
    size_t edge_cap;
    uint64_t priv_insns[8];        /* by privilege (event priv & 7) */
    rvt_keymap ctx_ix;             /* context -> ctx_insns */
    uint64_t *ctx_insns;
    size_t ctx_cap;
    uint64_t *src_ctx;             /* each hart's current context (RVT_EV_CONTEXT), */
    size_t src_ctx_cap;            /* by src; 0 past the end (none seen yet) */
    uint64_t run_start;            /* instructions before the current run */
    uint16_t run_src;              /* its hart and privilege (profile.c end_run) */
    uint8_t run_priv;
    rvt_keymap hart_ix;            /* src -> hart_insns */
    uint64_t *hart_insns;
    size_t hart_cap;
    rvt_keymap trap_ix;            /* (kind | flags << 8, cause) -> trap_counts */
    uint64_t *trap_counts;
    size_t trap_cap;
    uint64_t insns, errors, lost;
    bool have_time, incomplete, totalled, oom;
    uint64_t t_first, t_last;
    /* A piece's (profile_piece.c): what it knows of its start; the
     * instructions run before its first context event (their context is
     * the piece before's). */
    struct rvt_prof_piece *piece;
    bool ctx_inherited;
    uint64_t head_ctx_insns;
};

/* profile.c's tables, for composing pieces (profile_compose.c): the
 * function called name (added when new), the counter of key (a, b) in a
 * table (NULL when out of memory), the privilege/context/hart run ended
 * at upto instructions, one event as rvt_profile_event counts it. */
rvt_prof_fn *rvt_prof_function(rvt_profile *p, const char *name);
uint64_t *rvt_prof_counter(rvt_profile *p, rvt_keymap *m, uint64_t **arr, size_t *cap, uint64_t a,
                          uint64_t b);
void rvt_prof_end_run(rvt_profile *p, uint64_t upto);
/* Hart src's current context (0 before its first context event), and
 * setting it (false when out of memory, p->oom set). */
uint64_t rvt_prof_context(const rvt_profile *p, uint16_t src);
bool rvt_prof_set_context(rvt_profile *p, uint16_t src, uint64_t context);
void rvt_prof_feed(rvt_profile *p, const rvt_flow_event *ev);
/* profile_piece.c: a piece's event (its start bookkeeping, then
 * rvt_prof_feed); its state freed. */
void rvt_prof_piece_event(rvt_profile *p, const rvt_flow_event *ev);
void rvt_prof_piece_free(struct rvt_prof_piece *pc);
/* A call in a piece while its stack is relative: caller, callee and the
 * callee's depth above the start's frames left (depth - under). */
void rvt_prof_piece_call(rvt_profile *p, const char *caller, const char *callee, int64_t rel_depth);

/* Self and total instructions and time of every function, from the stacks,
 * and the last run's counts (once; later calls do nothing). */
void rvt_profile_totals(rvt_profile *p);
/* Function indices sorted by key, best first (free() the result); *n
 * gets the count.  NULL when out of memory. */
size_t *rvt_profile_sorted(const rvt_profile *p, rvt_prof_sort key, size_t *n);
/* Instructions per image (the file a function's code came from), in the
 * order first seen: *n entries of { name, self instructions }; free() the
 * result.  NULL when none or out of memory. */
typedef struct rvt_prof_image {
    const char *name;
    uint64_t insns;
} rvt_prof_image;
rvt_prof_image *rvt_profile_images(const rvt_profile *p, size_t *n);
/* Cycles from the first to the last timestamp, 0 if none. */
uint64_t rvt_profile_cycles(const rvt_profile *p);
/* A count table's entry i as a string into buf: trap "exception 2",
 * "interrupt 7", "trap (cause unknown)". */
const char *rvt_profile_trap_name(const rvt_profile *p, size_t i, char *buf, size_t n);

#endif
