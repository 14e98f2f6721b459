/* Output writers: the PC list format (docs/formats.md: lowercase hex, no 0x,
 * one per line) and the counters. */
#include "tharness.h"
#include "rvtrace/out.h"
#include "rvtrace/image.h"

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
    rvt_flow_event stop0 = { .kind = RVT_EV_STOP, .pc = 0x80000000, .aux = 1 };
    rvt_out_event(o, &stop0);       /* --pcs stays a pure PC list */
    rvt_flow_event ntf0 = { .kind = RVT_EV_NOTIFY, .pc = 0x80000000 };
    rvt_out_event(o, &ntf0);
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
    /* A listing and JSON over a two-instruction image:
     * 80000000: 00000297 auipc t0,0x0 ; 80000004: 8082 ret (c.jr ra). */
    rvt_image *img = rvt_image_new();
    static const unsigned char code[] = { 0x97, 0x02, 0x00, 0x00, 0x82, 0x80 };
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000000, code, sizeof code, "code"), 0);
    /* A trace-notify hit (RVT_EV_NOTIFY) follows its instruction. */
    rvt_flow_event ntf = { .kind = RVT_EV_NOTIFY, .pc = 0x80000004 };
    f = open_memstream(&text, &len);
    o = rvt_out_new(RVT_OUT_LISTING, f, img);
    rvt_flow_event sync = { .kind = RVT_EV_SYNC, .pc = 0x80000000, .priv = 3 };
    rvt_out_event(o, &sync);
    ev.pc = 0x80000000;
    rvt_out_event(o, &ev);
    ev.pc = 0x80000004;
    rvt_out_event(o, &ev);
    rvt_out_event(o, &ntf);
    rvt_flow_event trap = { .kind = RVT_EV_TRAP, .aux = 2, .aux2 = 0x1234 };
    rvt_out_event(o, &trap);
    /* E-Trace 1.1.1 tvalepc of an illegal instruction: its address. */
    rvt_flow_event ill = { .kind = RVT_EV_TRAP, .flags = RVT_EVF_TVAL_EPC, .aux = 2, .aux2 = 0x80000004 };
    rvt_out_event(o, &ill);
    /* A stop as the E-Trace decoder sends it for 6.5 qual_status 3. */
    rvt_flow_event stop = { .kind = RVT_EV_STOP, .pc = 0x80000004, .aux = 3,
                            .msg = "qualification ended (qual_status ended_upd)" };
    rvt_out_event(o, &stop);
    rvt_out_free(o);
    fclose(f);
    CHECK_STR(text, "-- sync at 80000000 (M-mode)\n"
                    "    80000000:\t00000297 \tauipc\tt0,0x0\n"
                    "    80000004:\t8082     \tret\n"
                    "-- notify at 80000004\n"
                    "-- exception cause=2 tval=0x1234\n"
                    "-- exception cause=2 epc=0x80000004\n"
                    "-- trace stopped after 80000004: qualification ended (qual_status ended_upd)\n");
    free(text);

    f = open_memstream(&text, &len);
    o = rvt_out_new(RVT_OUT_JSON, f, img);
    rvt_out_event(o, &ev);
    rvt_out_event(o, &ntf);
    rvt_out_event(o, &err);
    rvt_out_event(o, &stop);
    rvt_out_event(o, &trap);
    rvt_out_event(o, &ill);
    rvt_out_free(o);
    fclose(f);
    CHECK_STR(text, "{\"kind\":\"insn\",\"pc\":\"0x80000004\",\"insn\":\"0x8082\",\"asm\":\"ret\"}\n"
                    "{\"kind\":\"notify\",\"pc\":\"0x80000004\"}\n"
                    "{\"kind\":\"error\",\"offset\":41,\"msg\":\"bad\"}\n"
                    "{\"kind\":\"stop\",\"pc\":\"0x80000004\",\"code\":3,"
                    "\"reason\":\"qualification ended (qual_status ended_upd)\"}\n"
                    "{\"kind\":\"trap\",\"cause\":2,\"tval\":\"0x1234\"}\n"
                    "{\"kind\":\"trap\",\"cause\":2,\"epc\":\"0x80000004\"}\n");
    free(text);
    rvt_image_free(img);
    return TH_DONE();
}
