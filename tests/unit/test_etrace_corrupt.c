/* Damaged E-Trace streams (DESIGN.md "bad input"): a stream from the
 * hart running te_prog, then bit flips (every bit; quick, th_quick: one
 * a byte), truncation, garbage, deleted and duplicated chunks, all-zero
 * and all-ones buffers.  Every decode must end (bounded walks), report
 * every error at an offset inside the stream, then (the loss policy of
 * src/flow/flow_state.h) no instruction until one LOST event where
 * decoding resumes (right before the next SYNC, or before END when no
 * sync follows), and, once the damage is behind it, rebuild exactly the
 * PCs the clean stream gives after the next format 3 sync packet (11.1: a
 * sync restarts the decoder; 3.2.5-3.2.7 reset the return stack,
 * predictor and cache there). */
#include "test_etrace_util.h"
#include "rvtrace/hart.h"

typedef struct pcs {
    uint64_t *pc;
    size_t n, cap;
} pcs;

static void on_pc(void *ctx, uint64_t pc, bool retired)
{
    pcs *p = ctx;
    if (!retired)
        return;
    if (p->n == p->cap) {
        p->cap = p->cap * 2 + 1024;
        p->pc = realloc(p->pc, p->cap * sizeof *p->pc);
    }
    if (p->pc)
        p->pc[p->n++] = pc;
}

/* Reference run: the stream and the retired PCs. */
static void encode(const rvt_te_attrs *a, rvt_image *img, te_buf *out, pcs *ref)
{
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(a, te_buf_put, out, &st);
    CHECK(e != NULL);
    if (!e)
        return;
    rvt_irec_sink sink = rvt_te_encoder_sink(e);
    rvt_hart_cfg cfg = { .xlen = 64, .sink = &sink, .on_pc = on_pc, .pc_ctx = ref };
    rvt_hart *h = rvt_hart_new(&cfg, img, &st);
    CHECK(h != NULL);
    if (h) {
        CHECK_EQ(rvt_hart_run(h, 100000), RVT_HART_EXITED);
        CHECK_EQ(rvt_hart_finish(h), 0);
    }
    rvt_hart_free(h);
    rvt_te_encoder_free(e);
}

/* The clean stream's packets: header offsets, and which are syncs. */
typedef struct layout {
    size_t off[4096];
    bool sync[4096];
    size_t n;
} layout;

static void scan(const rvt_te_attrs *a, const uint8_t *b, size_t len, layout *l)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, b, len);
    rvt_te_pkt p;
    uint64_t off;
    int st;
    l->n = 0;
    while ((st = rvt_te_reader_next(&r, &p, &off)) != 0 && l->n < 4096) {
        CHECK(st > 0);
        l->off[l->n] = (size_t)off;
        l->sync[l->n++] = p.format == 3 && p.subformat <= 1;
    }
}

/* Does the damaged stream carry a support packet with other options?  The
 * support packet alone selects the modes (6.5) for every packet after it,
 * syncs included, so no sync repairs that: such cases are only checked
 * for bounds and offsets. */
static bool options_changed(const rvt_te_attrs *a, const uint8_t *b, size_t len)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, b, len);
    rvt_te_pkt p;
    uint64_t off;
    int st;
    while ((st = rvt_te_reader_next(&r, &p, &off)) != 0)
        if (st > 0 && p.format == 3 && p.subformat == 3 && p.options != (a->options & 0x3fu))
            return true;
    return false;
}

/* Is there a packet header at `at` when the reader walks the damaged stream?
 * (A damaged length field can make it skip the sync after the damage.) */
static bool aligned(const rvt_te_attrs *a, const uint8_t *b, size_t len, size_t at)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, b, len);
    rvt_te_pkt p;
    uint64_t off;
    int st;
    while ((st = rvt_te_reader_next(&r, &p, &off)) != 0) {
        if (st > 0 && off == at)
            return true;
        if (off > at)
            return false;
    }
    return false;
}

typedef struct ctx {
    rvt_te_attrs a;
    rvt_image *img;
    te_buf clean;
    layout lay;
    te_evs ref;             /* events of the clean stream */
    te_evs ev;
    size_t ref_insns;
    unsigned resynced, no_sync, cases, options_hit;
} ctx;

static size_t count_insns(const te_evs *e)
{
    size_t n = 0;
    for (size_t i = 0; i < e->n; i++)
        n += e->ev[i].kind == RVT_EV_INSN;
    return n;
}

/* Instruction PCs decoded from packets after header offset `after`. */
static size_t insns_after(const te_evs *e, uint64_t after, size_t *first)
{
    size_t n = 0;
    *first = e->n;
    for (size_t i = 0; i < e->n; i++) {
        if (e->ev[i].kind != RVT_EV_INSN || e->ev[i].offset == UINT64_MAX || e->ev[i].offset <= after)
            continue;
        if (!n)
            *first = i;
        n++;
    }
    return n;
}

static bool same_suffix(const te_evs *x, uint64_t xafter, const te_evs *c, uint64_t cafter)
{
    size_t xi, ci;
    size_t xn = insns_after(x, xafter, &xi), cn = insns_after(c, cafter, &ci);
    if (xn != cn)
        return false;
    for (; xi < x->n && ci < c->n; xi++, ci++) {
        while (xi < x->n && x->ev[xi].kind != RVT_EV_INSN)
            xi++;
        while (ci < c->n && c->ev[ci].kind != RVT_EV_INSN)
            ci++;
        if (xi < x->n && ci < c->n && x->ev[xi].pc != c->ev[ci].pc)
            return false;
    }
    return true;
}

/* After the error at ev[i]: no instruction until a LOST that comes right
 * before the SYNC where decoding resumes (a format 3 subformat 1 reports
 * its trap first) or before the END. */
static bool lost_at_resume(const te_evs *ev, size_t i)
{
    size_t j = i + 1;
    while (j < ev->n && ev->ev[j].kind != RVT_EV_LOST) {
        if (ev->ev[j].kind == RVT_EV_INSN || ev->ev[j].kind == RVT_EV_SYNC)
            return false;
        j++;
    }
    if (j + 1 >= ev->n)
        return false;
    const rvt_flow_event *next = &ev->ev[j + 1];
    if (next->kind == RVT_EV_TRAP || next->kind == RVT_EV_INTERRUPT)
        next++;
    return next->kind == RVT_EV_END || (next->kind == RVT_EV_SYNC && next->pc == ev->ev[j].pc);
}

/* Decode a damaged copy.  The damage covers clean bytes [lo, hi); bytes of
 * the clean stream from `hi` on sit `shift` bytes later in the copy
 * (negative for deletions).  `mid`: the damage leaves a sync after it. */
static void check(ctx *t, const uint8_t *b, size_t len, size_t lo, size_t hi, long shift, const char *what)
{
    t->cases++;
    te_decode(&t->a, t->img, b, len, &t->ev);
    size_t errors = 0, lost_after = 0, insns = 0;
    bool bad_off = false;
    for (size_t i = 0; i < t->ev.n; i++) {
        const rvt_flow_event *e = &t->ev.ev[i];
        insns += e->kind == RVT_EV_INSN;
        if (e->kind == RVT_EV_ERROR) {
            errors++;
            bad_off |= e->offset >= len;
            lost_after += lost_at_resume(&t->ev, i);
        }
    }
    if (bad_off || lost_after != errors)
        TH_FAIL("%s [%zu,%zu): error offset outside the stream or no LOST where decoding resumes "
                "after an error", what, lo, hi);
    /* Bounded: no damage makes up more than a few times the real run. */
    if (t->ev.n >= t->ev.limit)
        TH_FAIL("%s [%zu,%zu): %zu instructions from a %zu-instruction run", what, lo, hi, insns,
                t->ref_insns);
    if (options_changed(&t->a, b, len)) {
        t->options_hit++;
        return;
    }
    /* The first clean sync wholly after the damage, where the damaged
     * stream's reader stands on a header. */
    for (size_t k = 0; k < t->lay.n; k++) {
        size_t off = t->lay.off[k];
        if (!t->lay.sync[k] || off < hi)
            continue;
        size_t at = (size_t)((long)off + shift);
        if (at >= len)
            break;      /* past the damaged stream's end, as the rest are */
        if (!aligned(&t->a, b, len, at))
            continue;
        t->resynced++;
        if (!same_suffix(&t->ev, at, &t->ref, off))
            TH_FAIL("%s [%zu,%zu): PCs after the sync at %zu differ from the clean stream's", what, lo,
                    hi, off);
        return;
    }
    t->no_sync++;
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

static void flips(ctx *t, uint8_t *b)
{
    size_t len = t->clean.n;
    bool quick = th_quick();
    for (size_t bit = 0; bit < len * 8; bit++) {
        /* quick (th_quick): one bit a byte, bit (byte mod 8): every byte
         * and every bit position flipped, not every pair of them */
        if (quick && bit % 8 != bit / 8 % 8)
            continue;
        memcpy(b, t->clean.b, len);
        b[bit / 8] ^= (uint8_t)(1u << (bit % 8));
        check(t, b, len, bit / 8, bit / 8 + 1, 0, "bit flip");
    }
    uint32_t s = 1;
    for (int i = 0; i < 400; i++) {
        memcpy(b, t->clean.b, len);
        size_t lo = rnd(&s) % len, hi = lo;
        for (int j = 0; j < 2 + i % 6; j++) {
            size_t at = lo + rnd(&s) % 24;
            if (at < len) {
                b[at] ^= (uint8_t)(1u << (rnd(&s) % 8));
                hi = at + 1 > hi ? at + 1 : hi;
            }
        }
        check(t, b, len, lo, hi, 0, "multiple bit flips");
    }
}

static void truncations(ctx *t)
{
    /* Every length: at every packet boundary and inside every packet. */
    for (size_t n = 0; n <= t->clean.n; n++)
        check(t, t->clean.b, n, n, n, 0, "truncation");
}

static void garbage(ctx *t, uint8_t *b)
{
    size_t len = t->clean.n;
    uint32_t s = 7;
    for (size_t g = 1; g <= 64; g += 3) {
        for (size_t i = 0; i < g; i++)
            b[i] = (uint8_t)rnd(&s);
        memcpy(b + g, t->clean.b, len);
        check(t, b, len + g, 0, 0, (long)g, "garbage prefix");
        memcpy(b, t->clean.b, len);
        for (size_t i = 0; i < g; i++)
            b[len + i] = (uint8_t)rnd(&s);
        check(t, b, len + g, len, len, 0, "garbage suffix");
    }
}

static void chunks(ctx *t, uint8_t *b)
{
    size_t len = t->clean.n;
    uint32_t s = 11;
    for (size_t k = 0; k + 1 < t->lay.n; k++) {
        /* Whole packets: delete or duplicate packet k; then a chunk of
         * random length at a random offset inside it. */
        size_t lo = t->lay.off[k], hi = t->lay.off[k + 1];
        memcpy(b, t->clean.b, lo);
        memcpy(b + lo, t->clean.b + hi, len - hi);
        check(t, b, len - (hi - lo), lo, hi, -(long)(hi - lo), "deleted packet");
        memcpy(b, t->clean.b, hi);
        memcpy(b + hi, t->clean.b + lo, len - lo);
        check(t, b, len + (hi - lo), lo, hi, (long)(hi - lo), "duplicated packet");
        size_t a = lo + rnd(&s) % (hi - lo), n = 1 + rnd(&s) % 16;
        if (a + n > len)
            n = len - a;
        memcpy(b, t->clean.b, a);
        memcpy(b + a, t->clean.b + a + n, len - a - n);
        check(t, b, len - n, a, a + n, -(long)n, "deleted chunk");
        memcpy(b, t->clean.b, a + n);
        memcpy(b + a + n, t->clean.b + a, len - a);
        check(t, b, len + n, a, a + n, (long)n, "duplicated chunk");
    }
}

static void constant(ctx *t, uint8_t *b)
{
    static const size_t sizes[] = { 1, 2, 7, 64, 1000 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        memset(b, 0, sizes[i]);
        check(t, b, sizes[i], 0, sizes[i], 0, "all zero");
        memset(b, 0xff, sizes[i]);
        check(t, b, sizes[i], 0, sizes[i], 0, "all ones");
    }
}

static void run_mode(const char *opts, const char *resync)
{
    ctx *t = calloc(1, sizeof *t);
    CHECK(t != NULL);
    if (!t)
        return;
    rvt_te_attrs_default(&t->a);
    CHECK_EQ(rvt_te_opts_parse(opts, &t->a.options), 0);
    CHECK_EQ(rvt_te_attrs_set(&t->a, resync), 0);
    if (t->a.options & RVT_TE_OPT_IMPLICIT_RETURN)
        CHECK_EQ(rvt_te_attrs_set(&t->a, "return_stack_size=2"), 0);
    rvt_te_attrs_fill(&t->a);       /* the packet layout the decoder reads */
    t->img = te_image(te_prog, sizeof te_prog / sizeof te_prog[0]);
    CHECK(t->img != NULL);
    pcs ref = { 0 };
    encode(&t->a, t->img, &t->clean, &ref);
    /* The clean stream decodes to the hart's PCs, without errors. */
    te_decode(&t->a, t->img, t->clean.b, t->clean.n, &t->ref);
    t->ref_insns = count_insns(&t->ref);
    t->ev.limit = 4 * t->ref.n + 1000;      /* a runaway decode stops here */
    CHECK_EQ(t->ref_insns, ref.n);
    size_t k = 0;
    for (size_t i = 0; i < t->ref.n; i++) {
        if (t->ref.ev[i].kind == RVT_EV_ERROR)
            TH_FAIL("%s: clean stream: decode error", opts);
        if (t->ref.ev[i].kind == RVT_EV_INSN && k < ref.n && t->ref.ev[i].pc != ref.pc[k++])
            TH_FAIL("%s: clean stream: PC %zu differs", opts, k - 1);
    }
    scan(&t->a, t->clean.b, t->clean.n, &t->lay);
    CHECK(t->lay.n > 20);
    uint8_t *b = malloc(2 * t->clean.n + 1200);
    CHECK(b != NULL);
    if (b) {
        flips(t, b);
        truncations(t);
        garbage(t, b);
        chunks(t, b);
        constant(t, b);
    }
    /* Most damage leaves a sync the reader finds after it. */
    CHECK(t->resynced > t->cases / 2);
    printf("%s %s: %zu bytes, %zu packets, %u cases, %u checked after a sync, %u with other "
           "options\n", opts, resync, t->clean.n, t->lay.n, t->cases, t->resynced, t->options_hit);
    free(b);
    free(ref.pc);
    free(t->clean.b);
    free(t->ref.ev);
    free(t->ev.ev);
    rvt_image_free(t->img);
    free(t);
}

int main(void)
{
    run_mode("delta", "resync_interval=64");
    run_mode("all,full-address", "resync_interval=64");
    return TH_DONE();
}
