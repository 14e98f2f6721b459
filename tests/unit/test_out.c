/* Output writers: the PC list format (docs/formats.md: lowercase hex, no 0x,
 * one per line) and the counters. */
#include "tharness.h"
#include "rvtrace/out.h"

int main(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_out *o = rvt_out_new(RVT_OUT_PCS, f, NULL);
    CHECK(o != NULL);
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = 0x80000000 };
    CHECK_EQ(rvt_out_event(o, &ev), 0);
    ev.pc = 0x0;
    rvt_out_event(o, &ev);
    ev.pc = 0xffffffffffffffeull;
    rvt_out_event(o, &ev);
    rvt_flow_event lost = { .kind = RVT_EV_LOST, .aux = 12, .offset = 40 };
    rvt_out_event(o, &lost);
    rvt_flow_event err = { .kind = RVT_EV_ERROR, .offset = 41, .msg = "bad" };
    rvt_out_event(o, &err);
    CHECK_EQ(rvt_out_insns(o), 3);
    CHECK_EQ(rvt_out_lost(o), 1);
    CHECK_EQ(rvt_out_errors(o), 1);
    rvt_out_free(o);
    fclose(f);
    CHECK_STR(text, "80000000\n0\nffffffffffffffe\n");
    free(text);

    /* Listings and JSON need an image. */
    f = open_memstream(&text, &len);
    CHECK(rvt_out_new(RVT_OUT_LISTING, f, NULL) == NULL);
    fclose(f);
    free(text);
    return TH_DONE();
}
