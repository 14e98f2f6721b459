/* The implicit-return stack and call counter, one copy for the E-Trace and
 * N-Trace encoders and decoders.
 *
 * E-Trace 3.2.5 / 11.1 push_return_stack: a stack of at most
 * 2^return_stack_size_p (else 2^call_counter_size_p) return addresses;
 * "Delete oldest entry from stack to make room for new entry"; a pop of an
 * empty stack is never asked for (the caller checks the depth).  The
 * counter of 3.2.5 "will not over or underflow": it is this stack without
 * the addresses (slot = NULL), whose count stays at its maximum on a push
 * when full.  N-Trace 9.2 (table 4 Push/Pop; rvtReturnStackDepth entries,
 * at most 32) has the same rules, with pop of an empty stack a miss.
 *
 * A circular buffer of 2^k slots: a push when full overwrites the oldest
 * entry in O(1).  Entries live in memory the owner gives (inline or heap).
 * Internal header: include as "flow/flow_stack.h". */
#ifndef RVT_FLOW_STACK_H
#define RVT_FLOW_STACK_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rvt_flow_stack {
    uint64_t *slot;     /* mask + 1 slots; NULL: a call counter only */
    uint64_t mask;      /* slots - 1 (slots a power of two) */
    uint64_t top;       /* slot of the next push */
    uint64_t n;         /* entries (the depth, E-Trace irstack_depth) */
    uint64_t max;       /* capacity, <= slots; 0: nothing is tracked */
} rvt_flow_stack;

/* Capacity from E-Trace's log2 parameters (11.1 push_return_stack:
 * irstack_depth_max = 2^return_stack_size_p, else 2^call_counter_size_p;
 * 0 means not implemented): `none` when neither is given. */
uint64_t rvt_flow_stack_entries(unsigned return_stack_size, unsigned call_counter_size,
                                uint64_t none);
/* Start empty with capacity max in `slots` (a power of two >= max) entries
 * at slot (NULL: count only). */
void rvt_flow_stack_init(rvt_flow_stack *s, uint64_t *slot, uint64_t slots, uint64_t max);
/* Same depth and the same entries, newest first (capacity aside). */
bool rvt_flow_stack_same(const rvt_flow_stack *a, const rvt_flow_stack *b);
/* dst = src's entries (dst has room for src->n of them). */
void rvt_flow_stack_copy(rvt_flow_stack *dst, const rvt_flow_stack *src);

static inline void rvt_flow_stack_clear(rvt_flow_stack *s)
{
    s->top = s->n = 0;
}

static inline uint64_t rvt_flow_stack_depth(const rvt_flow_stack *s)
{
    return s->n;
}

/* Push a return address; when full the oldest entry goes. */
static inline void rvt_flow_stack_push(rvt_flow_stack *s, uint64_t link)
{
    if (!s->max)
        return;
    if (s->slot)
        s->slot[s->top] = link;
    s->top = (s->top + 1) & s->mask;
    if (s->n < s->max)
        s->n++;
}

/* Pop the newest entry into *link (0 for a counter); false when empty. */
static inline bool rvt_flow_stack_pop(rvt_flow_stack *s, uint64_t *link)
{
    if (!s->n)
        return false;
    s->top = (s->top - 1) & s->mask;
    s->n--;
    *link = s->slot ? s->slot[s->top] : 0;
    return true;
}

/* The newest entry (the predicted return address); s->n > 0, s->slot set. */
static inline uint64_t rvt_flow_stack_peek(const rvt_flow_stack *s)
{
    return s->slot[(s->top - 1) & s->mask];
}

#endif
