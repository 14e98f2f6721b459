/* Profile, timeline and the ingress bridge (issue #17) on a hand-made flow
 * through programs/tailcall.elf (addresses from its disassembly):
 *
 *   80000030 jal main            _start   (call)
 *   8000014c jal parity_entry    main     (call)
 *   80000054, 56                 parity_entry
 *   8000005a j is_even           parity_entry (tail jump: no push)
 *   80000044, 46, 48, 4a         is_even
 *   8000004e ret                 is_even  (pops main's frame)
 *   80000150, 52                 main
 *
 * Self: _start 1, main 3, parity_entry 3, is_even 5 = 12 instructions.
 * Stacks: _start 1; _start;main 3; _start;main;parity_entry 3;
 * _start;main;is_even 5.  With callees: _start 12, main 11, parity_entry
 * 3, is_even 5.  Calls: main 1 (from _start), parity_entry 1 (from main);
 * the tail jump is no call.  Timestamps 100 before the first instruction,
 * 110 after the ret (charged to is_even's stack), 120 at the end (main's). */
#include "tharness.h"
#include "th_program.h"
#include "rvtrace/image.h"
#include "rvtrace/irec_flow.h"
#include "rvtrace/profile.h"

static const uint64_t flow_pcs[] = {
    0x80000030, 0x8000014c, 0x80000054, 0x80000056, 0x8000005a, 0x80000044,
    0x80000046, 0x80000048, 0x8000004a, 0x8000004e, 0x80000150, 0x80000152,
};

static void time_at(rvt_flow_fn fn, void *ctx, uint64_t t)
{
    rvt_flow_event ev = { .kind = RVT_EV_TIME, .priv = 3, .aux = t };
    fn(ctx, &ev);
}

static void feed(rvt_flow_fn fn, void *ctx)
{
    time_at(fn, ctx, 100);
    for (size_t i = 0; i < sizeof flow_pcs / sizeof flow_pcs[0]; i++) {
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .priv = i < 2 ? 3 : 0, .pc = flow_pcs[i] };
        fn(ctx, &ev);
        if (flow_pcs[i] == 0x8000004e)
            time_at(fn, ctx, 110);
    }
    time_at(fn, ctx, 120);
    rvt_flow_event end = { .kind = RVT_EV_END };
    fn(ctx, &end);
}

static char *report(rvt_image *img, const rvt_profile_opts *o)
{
    rvt_profile *p = rvt_profile_new(img);
    CHECK(p != NULL);
    feed(rvt_profile_event, p);
    CHECK_EQ(rvt_profile_insns(p), 12);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK_EQ(rvt_profile_write(p, f, o), 0);
    fclose(f);
    rvt_profile_free(p);
    return text;
}

static void has(const char *text, const char *want)
{
    if (strstr(text, want))
        th_passed++;
    else
        TH_FAIL("missing %s in:\n%s", want, text);
}

static void table(rvt_image *img)
{
    rvt_profile_opts o = { .sort = RVT_PROF_SORT_SELF, .title = "t" };
    char *t = report(img, &o);
    has(t, "# rvtrace report: t\n# 12 instructions in 4 functions; 20 cycles");
    /* sorted by self: is_even 5, then main and parity_entry (3, by name), _start */
    const char *a = strstr(t, "is_even"), *b = strstr(t, "  main"), *c = strstr(t, "parity_entry"),
               *d = strstr(t, "_start\n");
    CHECK(a && b && c && d && a < b && b < c && c < d);
    has(t, "    41.67%   41.67%               5               5           0              10              10  is_even\n");
    has(t, "    91.67%   25.00%              11               3           1              20              10  main\n");
    has(t, "     83.33%              10  U\n     16.67%               2  M\n");
    free(t);
}

static void json(rvt_image *img)
{
    rvt_profile_opts o = { .json = true, .percent_limit = 30 };
    char *t = report(img, &o);
    has(t, "{\"name\":\"_start\",\"children\":12,\"self\":1,\"calls\":0,");
    has(t, "{\"name\":\"main\",\"children\":11,\"self\":3,\"calls\":1,\"children_percent\":91.67,"
           "\"self_percent\":25.00,\"cycles\":20,\"self_cycles\":10}");
    has(t, "\"modes\":[{\"mode\":\"U\",\"instructions\":10},{\"mode\":\"M\",\"instructions\":2}]");
    has(t, "programs/tailcall.elf\",\"instructions\":12}]");     /* one image: the ELF */
    CHECK(strstr(t, "parity_entry") == NULL);      /* 3 / 12 = 25 % < 30 % */
    free(t);
}

static void neighbours(rvt_image *img)
{
    rvt_profile_opts o = { .callees = "main" };
    char *t = report(img, &o);
    has(t, "# callees of main: 11 instructions in it and its callees");
    has(t, "     45.45%               5           0  is_even\n");
    has(t, "     27.27%               3           1  parity_entry\n");
    has(t, "     27.27%               3           0  [self]\n");
    free(t);
    rvt_profile_opts c = { .callers = "main", .json = true };
    t = report(img, &c);
    has(t, "{\"function\":\"main\",\"instructions\":11,\"callers\":[{\"name\":\"_start\",\"instructions\":11,"
           "\"calls\":1,\"percent\":100.00}]}");
    free(t);
    rvt_profile *p = rvt_profile_new(img);
    feed(rvt_profile_event, p);
    rvt_profile_opts none = { .callers = "rt_exit" };
    FILE *f = fopen("/dev/null", "w");
    CHECK_EQ(rvt_profile_write(p, f, &none), (uint64_t)-1);   /* never ran */
    fclose(f);
    rvt_profile_free(p);
}

/* Contexts belong to their hart: hart 0 switches to context 0xa, hart 1
 * to 0xb, then their instructions interleave (0, 0, 1, 0, 1, 1, 0).  By
 * hand: 0xa runs hart 0's four instructions, 0xb hart 1's three; hart 1's
 * instructions after hart 0's context event are not 0xa's, nor hart 0's
 * after hart 1's event 0xb's (one context for all harts counted 1 under
 * 0xa and 6 under 0xb). */
static void contexts_per_hart(rvt_image *img)
{
    static const uint16_t src[] = { 0, 0, 1, 0, 1, 1, 0 };
    rvt_profile *p = rvt_profile_new(img);
    rvt_flow_event ctx_a = { .kind = RVT_EV_CONTEXT, .src = 0, .aux = 0xa };
    rvt_flow_event ctx_b = { .kind = RVT_EV_CONTEXT, .src = 1, .aux = 0xb };
    rvt_profile_event(p, &ctx_a);
    rvt_profile_event(p, &(rvt_flow_event){ .kind = RVT_EV_INSN, .src = 0, .pc = 0x80000054 });
    rvt_profile_event(p, &ctx_b);
    for (size_t i = 1; i < sizeof src / sizeof src[0]; i++)
        rvt_profile_event(p, &(rvt_flow_event){ .kind = RVT_EV_INSN, .src = src[i], .pc = 0x80000056 });
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK_EQ(rvt_profile_write(p, f, &(rvt_profile_opts){ .json = true }), 0);
    fclose(f);
    has(text, "\"contexts\":[{\"context\":\"0xa\",\"instructions\":4},"
              "{\"context\":\"0xb\",\"instructions\":3}]");
    free(text);
    rvt_profile_free(p);
}

/* Folded stacks across a trap and a loss: parity_entry's 80000056 (no
 * jump), an interrupt whose handler is is_even (80000044): the trap
 * pushes parity_entry; a loss forgets the stack, so is_even's 80000046
 * starts a new root. */
static void folded_trap_loss(rvt_image *img)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_out *o = rvt_out_open(rvt_out_find("folded"), f, img);
    rvt_flow_event evs[] = {
        { .kind = RVT_EV_INSN, .pc = 0x80000056 }, { .kind = RVT_EV_INTERRUPT, .aux = 7 },
        { .kind = RVT_EV_INSN, .pc = 0x80000044 }, { .kind = RVT_EV_LOST, .aux = UINT64_MAX },
        { .kind = RVT_EV_INSN, .pc = 0x80000046 },
    };
    for (size_t i = 0; i < sizeof evs / sizeof evs[0]; i++)
        rvt_out_event(o, &evs[i]);
    rvt_out_free(o);
    fclose(f);
    CHECK_STR(text, "parity_entry 1\nparity_entry;is_even 1\nis_even 1\n");
    free(text);
}

int main(void)
{
    rvt_image *img = th_program_src("tailcall");
    if (!img)
        return TH_DONE();
    rvt_prof_sort k;
    CHECK(rvt_profile_sort_key("calls", &k) && k == RVT_PROF_SORT_CALLS);
    CHECK(!rvt_profile_sort_key("Calls", &k));
    table(img);
    json(img);
    neighbours(img);
    folded_trap_loss(img);
    contexts_per_hart(img);
    rvt_image_free(img);
    return TH_DONE();
}
