/* The implicit-return stack and call counter of src/flow/flow_stack.h
 * against the specifications' text: E-Trace 3.2.5 ("The counter will not
 * over or underflow"), 11.1 push_return_stack (capacity 2^return_stack_size
 * else 2^call_counter_size; "Delete oldest entry from stack to make room
 * for new entry"), N-Trace 9.2 (rvtReturnStackDepth entries, pop of an
 * empty stack is a miss). */
#include "flow/flow_stack.h"
#include "tharness.h"

static void test_entries(void)
{
    /* 11.1 irstack_depth_max: the return stack's size first */
    CHECK_EQ(rvt_flow_stack_entries(3, 5, 64), 8);
    CHECK_EQ(rvt_flow_stack_entries(0, 2, 64), 4);
    CHECK_EQ(rvt_flow_stack_entries(12, 0, 64), 4096);
    /* neither: the caller's choice */
    CHECK_EQ(rvt_flow_stack_entries(0, 0, 64), 64);
    CHECK_EQ(rvt_flow_stack_entries(0, 0, 0), 0);
}

static void test_lifo(void)
{
    uint64_t slot[8], v = 0;
    rvt_flow_stack s;
    rvt_flow_stack_init(&s, slot, 8, 8);
    CHECK_EQ(rvt_flow_stack_depth(&s), 0);
    CHECK(!rvt_flow_stack_pop(&s, &v));          /* empty: no underflow */
    rvt_flow_stack_push(&s, 0x100);
    rvt_flow_stack_push(&s, 0x204);
    CHECK_EQ(rvt_flow_stack_depth(&s), 2);
    CHECK_EQ(rvt_flow_stack_peek(&s), 0x204);
    CHECK(rvt_flow_stack_pop(&s, &v));
    CHECK_EQ(v, 0x204);
    CHECK(rvt_flow_stack_pop(&s, &v));
    CHECK_EQ(v, 0x100);
    CHECK(!rvt_flow_stack_pop(&s, &v));
    CHECK_EQ(v, 0x100);                           /* untouched on a miss */
    CHECK_EQ(rvt_flow_stack_depth(&s), 0);
}

/* Full: the oldest entry goes, the newest max stay, in order. */
static void test_overflow_drops_oldest(void)
{
    uint64_t slot[4], v = 0;
    rvt_flow_stack s;
    rvt_flow_stack_init(&s, slot, 4, 4);
    for (uint64_t a = 1; a <= 5; a++)
        rvt_flow_stack_push(&s, a * 0x10);
    CHECK_EQ(rvt_flow_stack_depth(&s), 4);
    CHECK_EQ(rvt_flow_stack_peek(&s), 0x50);
    CHECK(rvt_flow_stack_pop(&s, &v));
    CHECK_EQ(v, 0x50);
    rvt_flow_stack_push(&s, 0x60);                /* room again: no drop */
    CHECK_EQ(rvt_flow_stack_depth(&s), 4);
    static const uint64_t want[] = { 0x60, 0x40, 0x30, 0x20 };
    for (unsigned k = 0; k < 4; k++) {
        CHECK(rvt_flow_stack_pop(&s, &v));
        CHECK_EQ(v, want[k]);
    }
    CHECK(!rvt_flow_stack_pop(&s, &v));           /* 0x10 was dropped */
}

/* N-Trace 9.2: a depth below the slots (rvtReturnStackDepth 3 of 32). */
static void test_depth_below_slots(void)
{
    uint64_t slot[32], v = 0;
    rvt_flow_stack s;
    rvt_flow_stack_init(&s, slot, 32, 3);
    for (uint64_t a = 1; a <= 40; a++)            /* wraps the slots too */
        rvt_flow_stack_push(&s, a);
    CHECK_EQ(rvt_flow_stack_depth(&s), 3);
    for (uint64_t a = 40; a >= 38; a--) {
        CHECK(rvt_flow_stack_pop(&s, &v));
        CHECK_EQ(v, a);
    }
    CHECK(!rvt_flow_stack_pop(&s, &v));
}

/* E-Trace 3.2.5: a counter increments on calls, decrements on returns,
 * "will not over or underflow" and is reset at a sync. */
static void test_counter(void)
{
    uint64_t v = 7;
    rvt_flow_stack c;
    rvt_flow_stack_init(&c, NULL, 4, 4);
    for (unsigned k = 0; k < 6; k++)
        rvt_flow_stack_push(&c, 0x1000 + k);
    CHECK_EQ(rvt_flow_stack_depth(&c), 4);        /* saturated, not 6 or 0 */
    for (unsigned k = 0; k < 4; k++) {
        CHECK(rvt_flow_stack_pop(&c, &v));
        CHECK_EQ(v, 0);                           /* no addresses kept */
    }
    CHECK(!rvt_flow_stack_pop(&c, &v));
    CHECK_EQ(rvt_flow_stack_depth(&c), 0);
    rvt_flow_stack_push(&c, 1);
    rvt_flow_stack_clear(&c);
    CHECK_EQ(rvt_flow_stack_depth(&c), 0);
}

/* Capacity 0 (E-Trace encoder without counter or stack, N-Trace mode 0):
 * nothing is tracked. */
static void test_none(void)
{
    uint64_t v = 0;
    rvt_flow_stack s;
    rvt_flow_stack_init(&s, NULL, 0, 0);
    rvt_flow_stack_push(&s, 0x10);
    CHECK_EQ(rvt_flow_stack_depth(&s), 0);
    CHECK(!rvt_flow_stack_pop(&s, &v));
}

/* The E-Trace walk's loop check compares stacks by content, whatever slot
 * their entries sit in. */
static void test_same_and_copy(void)
{
    uint64_t sa[4], sb[4];
    rvt_flow_stack a, b;
    rvt_flow_stack_init(&a, sa, 4, 4);
    rvt_flow_stack_init(&b, sb, 4, 4);
    CHECK(rvt_flow_stack_same(&a, &b));
    for (uint64_t k = 1; k <= 6; k++)             /* a has wrapped: 3,4,5,6 */
        rvt_flow_stack_push(&a, k);
    CHECK(!rvt_flow_stack_same(&a, &b));
    rvt_flow_stack_copy(&b, &a);
    CHECK(rvt_flow_stack_same(&a, &b));
    CHECK_EQ(rvt_flow_stack_depth(&b), 4);
    CHECK_EQ(rvt_flow_stack_peek(&b), 6);
    uint64_t v = 0;
    rvt_flow_stack_pop(&b, &v);
    CHECK(!rvt_flow_stack_same(&a, &b));          /* depth differs */
    rvt_flow_stack_push(&b, 7);
    CHECK(!rvt_flow_stack_same(&a, &b));          /* same depth, other top */
    rvt_flow_stack_pop(&b, &v);
    rvt_flow_stack_push(&b, 6);
    CHECK(rvt_flow_stack_same(&a, &b));
    for (unsigned k = 0; k < 3; k++)
        CHECK(rvt_flow_stack_pop(&b, &v));
    CHECK_EQ(v, 4);
}

int main(void)
{
    test_entries();
    test_lifo();
    test_overflow_drops_oldest();
    test_depth_below_slots();
    test_counter();
    test_none();
    test_same_and_copy();
    return TH_DONE();
}
