/* The timeline writer (Chrome trace-event JSON) and the ingress bridge
 * (rvtrace/irec_flow.h), on programs/tailcall.elf (addresses from its
 * disassembly; the flow is test_profile.c's). */
#include "tharness.h"
#include "th_program.h"
#include "rvtrace/image.h"
#include "rvtrace/irec_flow.h"
#include "rvtrace/out.h"

static const uint64_t flow_pcs[] = {
    0x80000030, 0x8000014c, 0x80000054, 0x80000056, 0x8000005a, 0x80000044,
    0x80000046, 0x80000048, 0x8000004a, 0x8000004e, 0x80000150, 0x80000152,
};

static void put_time(rvt_out *o, uint64_t t)
{
    rvt_flow_event ev = { .kind = RVT_EV_TIME, .aux = t };
    rvt_out_event(o, &ev);
}

/* _start calls main calls parity_entry, which jumps to is_even, whose ret
 * goes back to main: slices B _start, B main, B parity_entry,
 * E parity_entry, B is_even, E is_even, then E main, E _start at the end.
 * Timestamps 100, 110 (after the ret), 120: ts from the first, 0/10/20. */
static void timeline(rvt_image *img)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_out *o = rvt_out_open(rvt_out_find("timeline"), f, img);
    CHECK(o != NULL);
    put_time(o, 100);
    for (size_t i = 0; i < sizeof flow_pcs / sizeof flow_pcs[0]; i++) {
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = flow_pcs[i] };
        rvt_out_event(o, &ev);
        if (flow_pcs[i] == 0x8000004e)
            put_time(o, 110);
    }
    put_time(o, 120);
    rvt_flow_event trap = { .kind = RVT_EV_INTERRUPT, .aux = 7 };
    rvt_out_event(o, &trap);
    rvt_flow_event nt_trap = { .kind = RVT_EV_TRAP, .flags = RVT_EVF_CAUSE_UNKNOWN };
    rvt_out_event(o, &nt_trap);     /* N-Trace: no cause on the wire */
    rvt_out_free(o);
    fclose(f);
    static const char *const want[] = {
        "\"ph\":\"B\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"_start\"",
        "\"ph\":\"B\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"main\"",
        "\"ph\":\"B\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"parity_entry\"",
        "\"ph\":\"E\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"parity_entry\"",
        "\"ph\":\"B\",\"pid\":1,\"tid\":0,\"ts\":0,\"name\":\"is_even\"",
        "\"ph\":\"E\",\"pid\":1,\"tid\":0,\"ts\":10,\"name\":\"is_even\"",
        "\"ph\":\"i\",\"pid\":1,\"tid\":0,\"ts\":20,\"name\":\"interrupt\",\"s\":\"t\",\"cat\":\"trace\","
        "\"args\":{\"cause\":7}",
        "\"ph\":\"i\",\"pid\":1,\"tid\":0,\"ts\":20,\"name\":\"exception\",\"s\":\"t\",\"cat\":\"trace\","
        "\"args\":{\"cause\":\"not traced\"}",
        "\"ph\":\"E\",\"pid\":1,\"tid\":0,\"ts\":20,\"name\":\"main\"",
        "\"ph\":\"E\",\"pid\":1,\"tid\":0,\"ts\":20,\"name\":\"_start\"",
        "\"time_base\":\"timestamps\"",
    };
    const char *at = text;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *p = at ? strstr(at, want[i]) : NULL;
        if (p)
            th_passed++;
        else
            TH_FAIL("not found in order: %s\n%s", want[i], text);
        at = p;
    }
    free(text);
}

typedef struct seen {
    rvt_flow_event ev[32];
    size_t n;
} seen;

static int record(void *ctx, const rvt_flow_event *ev)
{
    seen *s = ctx;
    if (s->n < 32)
        s->ev[s->n++] = *ev;
    return 0;
}

/* Three blocks: parity_entry's 3 instructions (2 + 4 + 2 bytes: 4
 * half-words) in U-mode at cycle 5; is_even's first 2 ending in an
 * exception (cause 8) at cycle 9; the handler's first instruction (main's
 * address here) in M-mode at cycle 12. */
static void bridge(rvt_image *img)
{
    seen s = { .n = 0 };
    rvt_irec_flow *fl = rvt_irec_flow_new(img, record, &s);
    CHECK(fl != NULL);
    rvt_irec_sink k = rvt_irec_flow_sink(fl);
    rvt_irec recs[3] = {
        { .iaddr = 0x80000054, .ninstr = 3, .iretire = 4, .time = 5, .priv = 0 },
        { .iaddr = 0x80000044, .ninstr = 2, .iretire = 2, .time = 9, .priv = 0, .itype = 1, .cause = 8,
          .tval = 0 },
        { .iaddr = 0x8000013a, .ninstr = 1, .iretire = 1, .time = 12, .priv = 3 },
    };
    CHECK_EQ(k.put(k.ctx, recs, 3), 0);
    CHECK_EQ(k.end(k.ctx), 0);
    static const struct { uint8_t kind; uint64_t pc, aux; } want[] = {
        { RVT_EV_SYNC, 0x80000054, 0 }, { RVT_EV_PRIV, 0x80000054, 0 },
        { RVT_EV_INSN, 0x80000054, 0 }, { RVT_EV_INSN, 0x80000056, 0 }, { RVT_EV_INSN, 0x8000005a, 0 },
        { RVT_EV_TIME, 0x80000054, 5 },
        { RVT_EV_INSN, 0x80000044, 0 }, { RVT_EV_INSN, 0x80000046, 0 },
        { RVT_EV_TIME, 0x80000044, 9 },
        { RVT_EV_TRAP, 0x8000013a, 8 }, { RVT_EV_PRIV, 0x8000013a, 3 },
        { RVT_EV_INSN, 0x8000013a, 0 }, { RVT_EV_TIME, 0x8000013a, 12 },
        { RVT_EV_END, 0, 0 },
    };
    CHECK_EQ(s.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < s.n && i < sizeof want / sizeof want[0]; i++) {
        CHECK_EQ(s.ev[i].kind, want[i].kind);
        CHECK_EQ(s.ev[i].pc, want[i].pc);
        CHECK_EQ(s.ev[i].aux, want[i].aux);
    }
    CHECK_EQ(rvt_irec_flow_insns(fl), 6);
    rvt_irec_flow_free(fl);
}

int main(void)
{
    rvt_image *img = th_program_src("tailcall");
    if (!img)
        return TH_DONE();
    timeline(img);
    bridge(img);
    rvt_image_free(img);
    return TH_DONE();
}
