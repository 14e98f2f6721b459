/* bench/te_floor.c: the lower bound on E-Trace size counts exactly the
 * packets its header lists (E-Trace ch. 8, 3.2.4, 3.2.5) at 16 bits each,
 * plus 48 for the first sync.  bench/nt_floor.c: the N-Trace HTM bound
 * charges 24 bits per forced message (+8 after a conditional branch), 16
 * per run of 9.3 repeats and 64 for the first sync.  Each case feeds
 * hand-made ingress records and states the count the rules give. */
#include "tharness.h"
#include "../../bench/floors.h"

/* A hand-made ingress record; iaddr 0 places it at 0x1000 + 4 * index
 * (the E-Trace bound never looks at addresses, the N-Trace bound's
 * U-ADDR and return stack do). */
typedef struct { uint64_t iaddr; uint8_t itype, sijump; uint32_t ninstr; } rec;

/* The E-Trace (nt false) or N-Trace bound of records r. */
static uint64_t bound_of(const rec *r, size_t n, bool nt)
{
    floors *f = floors_new();
    CHECK(f != NULL);
    if (!f)
        return 0;
    rvt_irec_sink s = floors_sink(f);
    for (size_t i = 0; i < n; i++) {
        rvt_irec x = { .iaddr = r[i].iaddr ? r[i].iaddr : 0x1000 + 4 * i, .iretire = 2 * r[i].ninstr,
                       .ninstr = r[i].ninstr, .itype = r[i].itype, .sijump = r[i].sijump };
        CHECK_EQ(s.put(s.ctx, &x, 1), 0);
    }
    uint64_t bits = nt ? nt_floor_bits(&f->nt) : te_floor_bits(&f->te);
    floors_free(f);
    return bits;
}

#define RECS(...) (const rec[]){ __VA_ARGS__ }, sizeof((const rec[]){ __VA_ARGS__ }) / sizeof(rec)
#define FLOOR(...) bound_of(RECS(__VA_ARGS__), false)
#define NT_FLOOR(...) bound_of(RECS(__VA_ARGS__), true)

static void nt_cases(void)
{
    /* A call (2 instructions from 0x1000: returns to 0x1008) and a return
     * there: only the first ProgTraceSync.  Returning elsewhere, or with
     * nothing on the stack, is a message: 24 bits, no branch before it. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_INF_CALL, 0, 2 }, { 0x2000, RVT_ITYPE_RETURN, 0, 1 },
                      { 0x1008, 0, 0, 1 }), 64);
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_INF_CALL, 0, 2 }, { 0x2000, RVT_ITYPE_RETURN, 0, 1 },
                      { 0x100c, 0, 0, 1 }), 64 + 24);
    CHECK_EQ(NT_FLOOR({ 0x2000, RVT_ITYPE_RETURN, 0, 1 }, { 0x1008, 0, 0, 1 }), 64 + 24);
    /* A conditional branch before the xRET: its HIST bit adds a byte. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_T_BRANCH, 0, 1 }, { 0x1100, RVT_ITYPE_XRET, 0, 1 },
                      { 0x1200, 0, 0, 1 }), 64 + 32);
    /* 9.3: jumps between 0x1000 and 0x2000, 2 instructions each: U-ADDR
     * 0x1800 and I-CNT 4 every time, so after the first message one
     * RepeatBranch covers the rest. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0x2000, RVT_ITYPE_UNINF_JUMP, 0, 2 },
                      { 0x1000, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0x2000, RVT_ITYPE_UNINF_JUMP, 0, 2 },
                      { 0x1000, 0, 0, 1 }), 64 + 24 + 16);
    /* A different I-CNT breaks the run. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0x2000, RVT_ITYPE_UNINF_JUMP, 0, 3 },
                      { 0x1000, 0, 0, 1 }), 64 + 2 * 24);
    /* A jump whose target traps at once shares the trap's message; once
     * the target retires something, both are messages (B-TYPE differs). */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_UNINF_JUMP, 0, 1 }, { 0x3000, RVT_ITYPE_EXCEPTION, 0, 0 },
                      { 0x4000, 0, 0, 1 }), 64 + 24);
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_UNINF_JUMP, 0, 1 }, { 0x3000, RVT_ITYPE_EXCEPTION, 0, 1 },
                      { 0x4000, 0, 0, 1 }), 64 + 2 * 24);
    /* Co-routine swaps pop then push (table 3 itype 12): each goes back to
     * where the other came from, so none is a message; with nothing on
     * the stack the first one is. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_INF_CALL, 0, 2 }, { 0x2000, RVT_ITYPE_SWAP, 0, 2 },
                      { 0x1008, RVT_ITYPE_SWAP, 0, 2 }, { 0x2008, 0, 0, 1 }), 64);
    CHECK_EQ(NT_FLOOR({ 0x2000, RVT_ITYPE_SWAP, 0, 2 }, { 0x1008, RVT_ITYPE_SWAP, 0, 2 },
                      { 0x2008, 0, 0, 1 }), 64 + 24);
    /* 9.1: a sequentially inferable call is free and still pushes. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_UNINF_CALL, 1, 2 }, { 0x2000, RVT_ITYPE_RETURN, 0, 1 },
                      { 0x1008, 0, 0, 1 }), 64);
    /* A branch before an interrupt: 24 + 8. */
    CHECK_EQ(NT_FLOOR({ 0x1000, RVT_ITYPE_T_BRANCH, 0, 1 }, { 0x1010, RVT_ITYPE_INTERRUPT, 0, 1 },
                      { 0x4000, 0, 0, 1 }), 64 + 32);
}

int main(void)
{
    nt_cases();
    /* Only the first sync: branches, direct jumps and returns to a call
     * seen since the last sync are free (3.2.5). */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_T_BRANCH, 0, 3 }, { 0, RVT_ITYPE_INF_JUMP, 0, 2 },
                   { 0, RVT_ITYPE_INF_CALL, 0, 4 }, { 0, RVT_ITYPE_RETURN, 0, 1 }), 48);
    /* A return with no call before it: one packet. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_RETURN, 0, 1 }), 48 + 16);
    /* An uninferable call is a packet but still counts as a call for the
     * return after it. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_UNINF_CALL, 0, 2 }, { 0, RVT_ITYPE_RETURN, 0, 1 }), 48 + 16);
    /* Sequentially inferable jumps are free (3.2.4); others are packets. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_UNINF_JUMP, 1, 2 }, { 0, RVT_ITYPE_UNINF_TAIL, 1, 2 }), 48);
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0, RVT_ITYPE_UNINF_TAIL, 0, 2 },
                   { 0, RVT_ITYPE_UNINF_JUMP3, 0, 2 }), 48 + 3 * 16);
    /* Co-routine swaps and xRET are packets whatever the options. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_SWAP, 0, 2 }, { 0, RVT_ITYPE_XRET, 0, 1 }), 48 + 2 * 16);
    /* A trap is a packet and resets the call count: the return after it
     * is a packet too. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_INF_CALL, 0, 2 }, { 0, RVT_ITYPE_EXCEPTION, 0, 3 },
                   { 0, RVT_ITYPE_RETURN, 0, 1 }), 48 + 2 * 16);
    /* A jump whose target traps before retiring anything shares the trap's
     * packet; once the target retires something, both count. */
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0, RVT_ITYPE_INTERRUPT, 0, 0 }), 48 + 16);
    CHECK_EQ(FLOOR({ 0, RVT_ITYPE_UNINF_JUMP, 0, 2 }, { 0, RVT_ITYPE_INTERRUPT, 0, 2 }), 48 + 2 * 16);
    return TH_DONE();
}
