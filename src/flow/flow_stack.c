/* The parts of the return stack off the hot path (flow_stack.h). */
#include "flow/flow_stack.h"

uint64_t rvt_flow_stack_entries(unsigned return_stack_size, unsigned call_counter_size,
                                uint64_t none)
{
    /* E-Trace 11.1 push_return_stack: irstack_depth_max. */
    if (return_stack_size)
        return 1ull << return_stack_size;
    return call_counter_size ? 1ull << call_counter_size : none;
}

void rvt_flow_stack_init(rvt_flow_stack *s, uint64_t *slot, uint64_t slots, uint64_t max)
{
    s->slot = slot;
    s->mask = slots ? slots - 1 : 0;
    s->max = max;
    s->top = s->n = 0;
}

/* The k-th newest entry (k < n). */
static uint64_t nth(const rvt_flow_stack *s, uint64_t k)
{
    return s->slot ? s->slot[(s->top - 1 - k) & s->mask] : 0;
}

bool rvt_flow_stack_same(const rvt_flow_stack *a, const rvt_flow_stack *b)
{
    if (a->n != b->n)
        return false;
    for (uint64_t k = 0; k < a->n; k++)
        if (nth(a, k) != nth(b, k))
            return false;
    return true;
}

void rvt_flow_stack_copy(rvt_flow_stack *dst, const rvt_flow_stack *src)
{
    /* Oldest first, so the newest ends on top. */
    rvt_flow_stack_clear(dst);
    for (uint64_t k = src->n; k-- > 0;) {
        if (dst->slot)
            dst->slot[dst->top] = nth(src, k);
        dst->top = (dst->top + 1) & dst->mask;
        dst->n++;
    }
}
