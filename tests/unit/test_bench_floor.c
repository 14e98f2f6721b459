/* bench/te_floor.c: the lower bound on E-Trace size counts exactly the
 * packets its header lists (E-Trace ch. 8, 3.2.4, 3.2.5) at 16 bits each,
 * plus 48 for the first sync.  Each case feeds hand-made ingress records
 * and states the count the rules give. */
#include "tharness.h"
#include "../../bench/te_floor.h"

typedef struct { uint8_t itype, sijump; uint32_t ninstr; } rec;

static uint64_t floor_of(const rec *r, size_t n)
{
    te_floor f;
    te_floor_init(&f);
    rvt_irec_sink s = te_floor_sink(&f);
    for (size_t i = 0; i < n; i++) {
        rvt_irec x = { .iaddr = 0x1000 + 4 * i, .iretire = 2 * r[i].ninstr,
                       .ninstr = r[i].ninstr, .itype = r[i].itype, .sijump = r[i].sijump };
        CHECK_EQ(s.put(s.ctx, &x, 1), 0);
    }
    return te_floor_bits(&f);
}

#define FLOOR(...) floor_of((const rec[]){ __VA_ARGS__ }, \
                            sizeof((const rec[]){ __VA_ARGS__ }) / sizeof(rec))

int main(void)
{
    /* Only the first sync: branches, direct jumps and returns to a call
     * seen since the last sync are free (3.2.5). */
    CHECK_EQ(FLOOR({ RVT_ITYPE_T_BRANCH, 0, 3 }, { RVT_ITYPE_INF_JUMP, 0, 2 },
                   { RVT_ITYPE_INF_CALL, 0, 4 }, { RVT_ITYPE_RETURN, 0, 1 }), 48);
    /* A return with no call before it: one packet. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_RETURN, 0, 1 }), 48 + 16);
    /* An uninferable call is a packet but still counts as a call for the
     * return after it. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_UNINF_CALL, 0, 2 }, { RVT_ITYPE_RETURN, 0, 1 }), 48 + 16);
    /* Sequentially inferable jumps are free (3.2.4); others are packets. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_UNINF_JUMP, 1, 2 }, { RVT_ITYPE_UNINF_TAIL, 1, 2 }), 48);
    CHECK_EQ(FLOOR({ RVT_ITYPE_UNINF_JUMP, 0, 2 }, { RVT_ITYPE_UNINF_TAIL, 0, 2 },
                   { RVT_ITYPE_UNINF_JUMP3, 0, 2 }), 48 + 3 * 16);
    /* Co-routine swaps and xRET are packets whatever the options. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_SWAP, 0, 2 }, { RVT_ITYPE_XRET, 0, 1 }), 48 + 2 * 16);
    /* A trap is a packet and resets the call count: the return after it
     * is a packet too. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_INF_CALL, 0, 2 }, { RVT_ITYPE_EXCEPTION, 0, 3 },
                   { RVT_ITYPE_RETURN, 0, 1 }), 48 + 2 * 16);
    /* A jump whose target traps before retiring anything shares the trap's
     * packet; once the target retires something, both count. */
    CHECK_EQ(FLOOR({ RVT_ITYPE_UNINF_JUMP, 0, 2 }, { RVT_ITYPE_INTERRUPT, 0, 0 }), 48 + 16);
    CHECK_EQ(FLOOR({ RVT_ITYPE_UNINF_JUMP, 0, 2 }, { RVT_ITYPE_INTERRUPT, 0, 2 }), 48 + 2 * 16);
    return TH_DONE();
}
