/* Implicit-return call stack (N-Trace 9.2, table 4): a circular stack that
 * drops its oldest entry when full.  Shared by encoder and decoder.
 * Internal header. */
#ifndef RVT_NT_STACK_H
#define RVT_NT_STACK_H

#include <stdbool.h>
#include <stdint.h>

#define NT_STACK_MAX 32

typedef struct nt_stack {
    uint64_t a[NT_STACK_MAX];
    unsigned top;      /* index of the next free slot (mod NT_STACK_MAX) */
    unsigned n;        /* valid entries */
    unsigned depth;    /* capacity 1..32 */
} nt_stack;

static inline void nt_stack_init(nt_stack *s, unsigned depth)
{
    s->top = s->n = 0;
    s->depth = depth ? (depth > NT_STACK_MAX ? NT_STACK_MAX : depth) : NT_STACK_MAX;
}
static inline void nt_stack_clear(nt_stack *s) { s->top = s->n = 0; }
static inline void nt_stack_push(nt_stack *s, uint64_t v)
{
    s->a[s->top] = v;
    s->top = (s->top + 1) % NT_STACK_MAX;
    if (s->n < s->depth)
        s->n++;
}
static inline bool nt_stack_pop(nt_stack *s, uint64_t *v)
{
    if (!s->n)
        return false;
    s->top = (s->top + NT_STACK_MAX - 1) % NT_STACK_MAX;
    s->n--;
    *v = s->a[s->top];
    return true;
}

#endif
