/* The branch predictor's 2-bit state machine (E-Trace 3.2.6): te_bp_learn
 * (one packed constant, not a table) and te_bp_confirm (a correct
 * prediction, the counted branches of 6.8), checked transition by
 * transition against the spec's text: "00: predict not taken, transition
 * to 01 if prediction fails; 01: predict not taken, transition to 00 if
 * prediction succeeds, else 11; 10: predict taken, transition to 11 if
 * prediction succeeds, else 00; 11: predict taken, transition to 10 if
 * prediction fails".  A state whose prediction succeeds and that the
 * text gives no transition for (00 not taken, 11 taken) stays. */
#include "etrace/bpjtc.h"
#include "tharness.h"

int main(void)
{
    /* [state][taken] from the text above */
    static const uint8_t want[4][2] = {
        { 0x0, 0x1 },     /* 00: not taken succeeds (stays), taken fails -> 01 */
        { 0x0, 0x3 },     /* 01: not taken succeeds -> 00, taken fails -> 11 */
        { 0x0, 0x3 },     /* 10: not taken fails -> 00, taken succeeds -> 11 */
        { 0x2, 0x3 },     /* 11: not taken fails -> 10, taken succeeds (stays) */
    };
    for (uint8_t s = 0; s < 4; s++) {
        for (int taken = 0; taken < 2; taken++) {
            uint8_t e = s;
            te_bp_learn(&e, taken);
            CHECK_EQ(e, want[s][taken]);
        }
        /* a correct prediction: the outcome is the MSB */
        uint8_t e = s;
        te_bp_confirm(&e);
        CHECK_EQ(e, want[s][s >> 1]);
    }
    return TH_DONE();
}
