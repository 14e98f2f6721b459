/* Profiles of pieces composed (rvtrace/profile_piece.h, issue #18): a
 * hand-made flow through programs/tailcall.elf (test_profile.c has its
 * addresses: _start calls main, main calls parity_entry, which tail-jumps
 * to is_even, whose ret returns to main), with a context change, a trap,
 * a loss, timestamps and a second round, cut into pieces at every event,
 * at every pair of events and into one piece per event: the composed
 * profile's reports (table, JSON, callers, callees, by cycles) and its
 * folded stacks are the whole flow's, byte for byte.  Then one piece by hand, and what compose
 * refuses. */
#include "th_program.h"
#include "rvtrace/profile_piece.h"
#include "rvtrace/status.h"
#include "out/profile.h"

#define I(p, at) { .kind = RVT_EV_INSN, .priv = p, .pc = at }
static const rvt_flow_event flow[] = {
    { .kind = RVT_EV_TIME, .aux = 100 },
    I(3, 0x80000030), I(3, 0x8000014c),                    /* _start: call main; main: call parity_entry */
    { .kind = RVT_EV_CONTEXT, .aux = 0x42 },
    I(0, 0x80000054), I(0, 0x80000056), I(0, 0x8000005a),  /* parity_entry, tail jump */
    I(0, 0x80000044),                                      /* is_even */
    { .kind = RVT_EV_TRAP, .aux = 8 },                     /* pushes is_even */
    I(0, 0x80000046), I(0, 0x80000048),
    { .kind = RVT_EV_TIME, .aux = 105 },
    I(0, 0x8000004a), I(0, 0x8000004e),                    /* ret: pops the trap's frame */
    { .kind = RVT_EV_TIME, .aux = 110 },
    I(0, 0x80000150), I(0, 0x80000152),
    { .kind = RVT_EV_LOST },                               /* the stack is forgotten */
    I(0, 0x80000044), I(0, 0x8000004e),                    /* is_even's ret pops nothing known */
    I(0, 0x80000150),
    { .kind = RVT_EV_CONTEXT, .aux = 0x43 },
    I(3, 0x80000030), I(3, 0x8000014c), I(0, 0x80000054), I(0, 0x8000005a), I(0, 0x80000044),
    I(0, 0x8000004e), I(0, 0x80000150),
    { .kind = RVT_EV_TIME, .aux = 130 },
    { .kind = RVT_EV_END, .aux = RVT_END_INCOMPLETE },
};
#define NEV (sizeof flow / sizeof flow[0])

/* A flow's events. */
typedef struct evs {
    const rvt_flow_event *ev;
    size_t n;
} evs;

/* Every report of p, one after the other. */
static char *reports(rvt_profile *p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_profile_opts views[] = {
        { .title = "t" }, { .json = true, .title = "t" }, { .callers = "main" }, { .callees = "main" },
        { .json = true, .callees = "_start" }, { .sort = RVT_PROF_SORT_CYCLES, .json = true },
    };
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
        rvt_profile_write(p, f, &views[i]);
    rvt_folded_write(p->fo, f);                    /* the stacks, as --folded writes them */
    fclose(f);
    return text;
}

/* The piece of events [a, b) written down. */
static char *piece(rvt_image *img, evs e, size_t a, size_t b, size_t *len)
{
    rvt_profile *p = rvt_profile_piece_new(img);
    for (size_t i = a; i < b; i++)
        rvt_profile_event(p, &e.ev[i]);
    char *text = NULL;
    FILE *f = open_memstream(&text, len);
    CHECK_EQ(rvt_profile_piece_write(p, f), 0);
    fclose(f);
    rvt_profile_free(p);
    return text;
}

/* The flow cut before each event whose cut[] is set, composed. */
static char *composed(rvt_image *img, evs e, const bool *cut)
{
    rvt_profile *q = rvt_profile_new(img);
    size_t a = 0;
    for (size_t b = 1; b <= e.n; b++) {
        if (b < e.n && !cut[b])
            continue;
        size_t len;
        char *t = piece(img, e, a, b, &len);
        CHECK_EQ(rvt_profile_compose(q, t, len), 0);
        free(t);
        a = b;
    }
    char *r = reports(q);
    rvt_profile_free(q);
    return r;
}

static char *whole(rvt_image *img, evs e)
{
    rvt_profile *w = rvt_profile_new(img);
    for (size_t i = 0; i < e.n; i++)
        rvt_profile_event(w, &e.ev[i]);
    char *want = reports(w);
    rvt_profile_free(w);
    return want;
}

static void same_as_whole(rvt_image *img)
{
    evs e = { flow, NEV };
    char *want = whole(img, e);
    bool cut[NEV + 1] = { false };
    char *got = composed(img, e, cut);              /* one piece */
    CHECK_STR(got, want);
    free(got);
    for (size_t i = 1; i < NEV; i++) {
        for (size_t j = i; j < NEV; j++) {          /* j == i: one cut */
            cut[i] = cut[j] = true;
            got = composed(img, e, cut);
            if (strcmp(got, want))
                TH_FAIL("cuts at %zu, %zu:\n%s\nwant:\n%s", i, j, got, want);
            else
                th_passed++;
            free(got);
            cut[i] = cut[j] = false;
        }
    }
    for (size_t i = 0; i <= NEV; i++)
        cut[i] = true;
    got = composed(img, e, cut);                    /* a piece per event */
    CHECK_STR(got, want);
    free(got);
    free(want);
}

/* From is_even's ret (event 13) to the loss: is_even (its first leaf,
 * fn 0) on the start's stack (base 1), then main (fn 1) on that stack
 * less the frame the ret popped (base 2), two instructions; the piece's
 * first timestamp (110) comes while is_even's stack (entry 0) is current:
 * its cycles since the one before the piece go there when composed. */
static void by_hand(rvt_image *img)
{
    size_t len;
    char *t = piece(img, (evs){ flow, NEV }, 13, 17, &len);
    CHECK_HAS(t, "rvtrace-profile-piece 1\ninsns 3\n");
    /* base, instructions, cycles, of them deeper than named, names */
    CHECK_HAS(t, "\nstack 1 1 0 0 1 0\nstack 2 2 0 0 1 1\n");
    /* src 0 started by an instruction, no traps, first fn 0, first
     * timestamp 110 to entry 0 */
    CHECK_HAS(t, "\ncs 0 1 1 0 0 1 110 0 ");
    rvt_profile *q = rvt_profile_new(img);
    CHECK_EQ(rvt_profile_compose(q, t, len - 2), RVT_ERR_FORMAT);   /* cut short */
    const char *bad = "rvtrace-profile-piece 1\ninsns x\nend-piece\n";
    CHECK_EQ(rvt_profile_compose(q, bad, strlen(bad)), RVT_ERR_FORMAT);
    t[len - 12] = '9';                                  /* a stack entry that is not there */
    CHECK(rvt_profile_compose(q, t, len) < 0);
    rvt_profile_free(q);
    free(t);
    /* a trap before the first instruction (event 8), said to be 2^64 - 1
     * of them: composed at once, not one by one */
    q = rvt_profile_new(img);
    t = piece(img, (evs){ flow, NEV }, 0, 8, &len);
    CHECK_EQ(rvt_profile_compose(q, t, len), 0);
    free(t);
    t = piece(img, (evs){ flow, NEV }, 8, 10, &len);
    char *traps = strstr(t, "\ncs 0 1 1 1 ");
    CHECK(traps != NULL);
    char *forged = NULL;
    size_t flen = 0;
    FILE *ff = open_memstream(&forged, &flen);
    fprintf(ff, "%.*s\ncs 0 1 1 18446744073709551615 %s", (int)(traps - t), t, traps + strlen("\ncs 0 1 1 1 "));
    fclose(ff);
    CHECK_EQ(rvt_profile_compose(q, forged, flen), 0);
    free(forged);
    free(t);
    rvt_profile_free(q);
    /* two harts in one piece: refused */
    rvt_profile *p = rvt_profile_piece_new(img);
    rvt_flow_event a = I(0, 0x80000030), b = I(0, 0x80000030);
    b.src = 1;
    rvt_profile_event(p, &a);
    rvt_profile_event(p, &b);
    FILE *f = fopen("/dev/null", "w");
    CHECK_EQ(rvt_profile_piece_write(p, f), RVT_ERR_LIMIT);
    fclose(f);
    rvt_profile_free(p);
}

/* Two harts, each with its own context (0x42 for hart 0, 0x43 for hart
 * 1), their instructions interleaved; cut into one piece per event and
 * into pieces where the hart changes, so a piece may begin with no
 * context event of its own: its instructions are in its hart's context
 * (by hand: 0x42 four, 0x43 three), not in the one the piece before, of
 * the other hart, ended with. */
#define H(s, at) { .kind = RVT_EV_INSN, .src = s, .pc = at }
static void two_harts(rvt_image *img)
{
    static const rvt_flow_event ev[] = {
        { .kind = RVT_EV_CONTEXT, .src = 0, .aux = 0x42 }, H(0, 0x80000054), H(0, 0x80000056),
        { .kind = RVT_EV_CONTEXT, .src = 1, .aux = 0x43 }, H(1, 0x80000054),
        H(0, 0x80000056), H(0, 0x80000056), H(1, 0x80000056), H(1, 0x80000056),
        { .kind = RVT_EV_END, .src = 1 },     /* a piece is of one hart */
    };
    enum { N = sizeof ev / sizeof ev[0] };
    evs e = { ev, N };
    char *want = whole(img, e);
    CHECK_HAS(want, "\"contexts\":[{\"context\":\"0x42\",\"instructions\":4},"
                    "{\"context\":\"0x43\",\"instructions\":3}]");
    bool at_change[N + 1] = { false }, every[N + 1];
    for (size_t i = 0; i <= N; i++)
        every[i] = true;
    at_change[3] = at_change[5] = at_change[7] = true;
    char *got = composed(img, e, at_change);
    CHECK_STR(got, want);
    free(got);
    got = composed(img, e, every);
    CHECK_STR(got, want);
    free(got);
    free(want);
}

/* Damaged texts: a byte or two of a piece changed, cut short or grown:
 * compose says so or composes, never reads outside what it was given. */
static void damaged(rvt_image *img)
{
    size_t len, head_len;
    char *head = piece(img, (evs){ flow, NEV }, 0, 9, &head_len);
    char *t = piece(img, (evs){ flow, NEV }, 9, NEV, &len);
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int refused = 0;
    for (int i = 0; i < 3000; i++) {
        char *m = malloc(len);
        memcpy(m, t, len);
        for (int k = 0; k < 1 + i % 2; k++)
            m[th_xorshift64(&seed) % len] = "0123456789 -\nx\0"[th_xorshift64(&seed) % 15];
        size_t n = i % 7 ? len : (size_t)(th_xorshift64(&seed) % len);
        rvt_profile *q = rvt_profile_new(img);
        CHECK_EQ(rvt_profile_compose(q, head, head_len), 0);
        refused += rvt_profile_compose(q, m, n) < 0;
        char *r = reports(q);
        free(r);
        rvt_profile_free(q);
        free(m);
    }
    CHECK(refused > 1000);
    free(head);
    free(t);
}

/* Deeper than the 1,024 frames a stack names: _start's call (80000030)
 * retired DEEP times pushes _start each time, then is_even's ret
 * (8000004e) as often pops them; cut at every RUNG-th event and at
 * pairs: the deep instructions, the deepest stack, the callers (unnamed
 * past 1,024 frames) are the whole flow's. */
#define DEEP 1300u
#define RUNG 151u
static void deep_stacks(rvt_image *img)
{
    static rvt_flow_event ev[2 * DEEP + 2];
    size_t n = 0;
    for (size_t i = 0; i < DEEP; i++)
        ev[n++] = (rvt_flow_event)I(0, 0x80000030);
    for (size_t i = 0; i < DEEP; i++)
        ev[n++] = (rvt_flow_event)I(0, 0x8000004e);
    ev[n++] = (rvt_flow_event){ .kind = RVT_EV_END };
    evs e = { ev, n };
    char *want = whole(img, e);
    CHECK_HAS(want, "deepest");                           /* ... and the callers past 1,024 */
    static bool cut[2 * DEEP + 3];
    for (size_t i = RUNG; i < n; i += RUNG) {
        for (size_t j = i; j < n; j += 4 * RUNG) {
            cut[i] = cut[j] = true;
            char *got = composed(img, e, cut);
            if (strcmp(got, want))
                TH_FAIL("deep, cuts at %zu, %zu", i, j);
            else
                th_passed++;
            free(got);
            cut[i] = cut[j] = false;
        }
    }
    free(want);
}

int main(void)
{
    rvt_image *img = th_program_src("tailcall");
    if (!img)
        return 0;
    same_as_whole(img);
    by_hand(img);
    two_harts(img);
    damaged(img);
    deep_stacks(img);
    rvt_image_free(img);
    return TH_DONE();
}
