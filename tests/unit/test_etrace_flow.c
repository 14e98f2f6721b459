/* Encoder -> decoder over hand-built instruction blocks (E-Trace 4.2) on
 * te_prog (test_etrace_util.h): every decode must give back exactly the
 * PCs of the blocks, and the packets the chapter 8 algorithm sends are
 * checked where they were derived by hand. */
#include "test_etrace_util.h"

/* One block: n 4-byte instructions from TE_BASE + off, the last of type
 * itype (table 4.1); n = 0 is an exception taken before the instruction
 * at off retires (4.2: iretire 0). */
typedef struct blk {
    uint32_t off;
    unsigned n;
    uint8_t itype;
    uint8_t priv;
    uint16_t cause;
} blk;

#define NB(a) (sizeof(a) / sizeof((a)[0]))
#define MAXI 256

/* Blocks to ingress records and the PCs they retire. */
static size_t build(const blk *b, size_t nb, rvt_irec *r, uint64_t *pcs)
{
    size_t np = 0;
    for (size_t i = 0; i < nb; i++) {
        r[i] = (rvt_irec){ .iaddr = TE_BASE + b[i].off, .iretire = 2 * b[i].n, .ninstr = b[i].n,
                           .itype = b[i].itype, .ilastsize = 1, .priv = b[i].priv,
                           .cause = b[i].cause, .flags = RVT_IREC_F_CYCLE_END };
        for (unsigned k = 0; k < b[i].n && np < MAXI; k++)
            pcs[np++] = TE_BASE + b[i].off + 4 * k;
    }
    return np;
}

/* Every instruction its own block (4.2.2 with one retirement per cycle):
 * itype 0 but for the block's last. */
static size_t split(const blk *b, size_t nb, blk *out)
{
    size_t n = 0;
    for (size_t i = 0; i < nb; i++) {
        for (unsigned k = 0; k + 1 < b[i].n; k++)
            out[n++] = (blk){ b[i].off + 4 * k, 1, 0, b[i].priv, 0 };
        out[n] = b[i];
        out[n].off += b[i].n ? 4 * (b[i].n - 1) : 0;
        out[n++].n = b[i].n ? 1 : 0;
    }
    return n;
}

static void attrs(rvt_te_attrs *a, const char *opts, const char *extra)
{
    rvt_te_attrs_default(a);
    CHECK_EQ(rvt_te_opts_parse(opts, &a->options), 0);
    if (extra)
        CHECK_EQ(rvt_te_attrs_set(a, extra), 0);
    rvt_te_attrs_fill(a);
}

/* Run a decoder over s with events into *out (reset first); its count of
 * retired instructions. */
static uint64_t decode_count(const rvt_te_attrs *a, rvt_image *img, const te_buf *s, bool insn_events,
                             te_evs *out)
{
    out->n = 0;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, te_evs_put, out, &st);
    CHECK(d != NULL);
    if (!d)
        return 0;
    rvt_te_decoder_set_events(d, insn_events);
    rvt_te_decoder_run(d, s->b, s->n);
    rvt_te_dec_stats ds;
    CHECK_EQ(rvt_te_decoder_stats(d, &ds), 0);
    uint64_t n = ds.instructions;
    rvt_te_decoder_free(d);
    return n;
}

/* The decoder retires straight-line runs in one step.  A callback that
 * stops it after any event (inside a run too) has seen the full decode's
 * first events; stopped between two instructions of a walk, the count
 * stops there too: the instructions whose events it took plus the one
 * whose event it refused.  (A sync still counts its own instruction.)
 * With instruction events off every instruction is still counted. */
static void stop_and_count(const rvt_te_attrs *a, rvt_image *img, const te_buf *s, const te_evs *all,
                           size_t np, const char *what)
{
    te_evs part = { 0 };
    for (size_t lim = 1; lim < all->n; lim++) {
        part.limit = lim;
        uint64_t n = decode_count(a, img, s, true, &part);
        uint64_t seen = all->ev[lim].kind == RVT_EV_INSN;
        for (size_t i = 0; i < part.n; i++) {
            seen += part.ev[i].kind == RVT_EV_INSN;
            if (part.ev[i].kind != all->ev[i].kind || part.ev[i].pc != all->ev[i].pc)
                TH_FAIL("%s: event %zu differs when stopped after %zu", what, i, lim);
        }
        bool in_walk = all->ev[lim - 1].kind == RVT_EV_INSN && all->ev[lim].kind == RVT_EV_INSN;
        if (in_walk && n != seen)
            TH_FAIL("%s: stopped after %zu events: %" PRIu64 " instructions counted, %" PRIu64
                    " expected", what, lim, n, seen);
    }
    free(part.ev);
    te_evs none = { 0 };
    uint64_t n = decode_count(a, img, s, false, &none);
    if (n != np)
        TH_FAIL("%s: %" PRIu64 " instructions counted without events, %zu expected", what, n, np);
    for (size_t i = 0; i < none.n; i++)
        CHECK(none.ev[i].kind != RVT_EV_INSN);
    free(none.ev);
}

/* Encode the blocks, decode the stream, compare the PCs; the stream is
 * left in *out (free it) for packet checks. */
static void round_trip(const rvt_te_attrs *a, const blk *b, size_t nb, te_buf *out, const char *what)
{
    rvt_irec r[64];
    uint64_t pcs[MAXI];
    size_t np = build(b, nb, r, pcs);
    te_encode_recs(a, r, nb, out);
    rvt_image *img = te_image(te_prog, NB(te_prog));
    te_evs ev = { 0 };
    te_decode(a, img, out->b, out->n, &ev);
    size_t k = 0;
    for (size_t i = 0; i < ev.n; i++) {
        if (ev.ev[i].kind == RVT_EV_ERROR)
            TH_FAIL("%s: decode error at offset %" PRIu64, what, ev.ev[i].offset);
        if (ev.ev[i].kind != RVT_EV_INSN)
            continue;
        if (k >= np || ev.ev[i].pc != pcs[k])
            TH_FAIL("%s: PC %zu is %" PRIx64 ", expected %" PRIx64, what, k, ev.ev[i].pc,
                    k < np ? pcs[k] : 0);
        k++;
    }
    if (k != np)
        TH_FAIL("%s: %zu PCs decoded, %zu expected", what, k, np);
    stop_and_count(a, img, out, &ev, np, what);
    free(ev.ev);
    rvt_image_free(img);
}

/* The packets of a stream, unpacked. */
static size_t packets(const rvt_te_attrs *a, const te_buf *s, rvt_te_pkt *p, size_t max)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, s->b, s->n);
    uint64_t off;
    size_t n = 0;
    int st;
    while (n < max && (st = rvt_te_reader_next(&r, &p[n], &off)) != 0) {
        CHECK(st > 0);
        n++;
    }
    return n;
}

static size_t count_fmt(const rvt_te_pkt *p, size_t n, unsigned format, unsigned subformat)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += p[i].format == format && (format == 1 || format == 2 || p[i].subformat == subformat);
    return c;
}

/* The loop of te_prog twice round, once through the leaf call:
 * 00-14 (beqz taken), 1c jalr (call) -> 50, 50-54 ret -> 20, 20-24 (bnez
 * taken) -> 10, 10-14 (beqz taken) -> 1c, 1c jalr -> 50, 50-54 ret -> 20,
 * 20-24 (bnez not taken), 28-38 (j: an inferable jump, the last traced). */
static const blk loop2[] = {
    { 0x00, 6, 5, 3, 0 }, { 0x1c, 1, 8, 3, 0 }, { 0x50, 2, 13, 3, 0 }, { 0x20, 2, 5, 3, 0 },
    { 0x10, 2, 5, 3, 0 }, { 0x1c, 1, 8, 3, 0 }, { 0x50, 2, 13, 3, 0 }, { 0x20, 2, 4, 3, 0 },
    { 0x28, 5, 15, 3, 0 },
};

/* With a direct call: 00-14 (beqz not taken), 18 jal (call) -> 3c, 3c-44
 * (bnez taken) -> 4c ret -> 1c, 1c jalr -> 50, 50-54 ret -> 20, 20-24
 * (bnez taken) -> 10, 10-14 (not taken), 18 jal -> 3c, 3c-44 (not
 * taken), 48-4c ret -> 1c, 1c jalr -> 50, 50-54 ret -> 20, 20-24 (not
 * taken), 28-38. */
static const blk calls[] = {
    { 0x00, 6, 4, 3, 0 }, { 0x18, 1, 9, 3, 0 }, { 0x3c, 3, 5, 3, 0 }, { 0x4c, 1, 13, 3, 0 },
    { 0x1c, 1, 8, 3, 0 }, { 0x50, 2, 13, 3, 0 }, { 0x20, 2, 5, 3, 0 }, { 0x10, 2, 4, 3, 0 },
    { 0x18, 1, 9, 3, 0 }, { 0x3c, 3, 4, 3, 0 }, { 0x48, 2, 13, 3, 0 }, { 0x1c, 1, 8, 3, 0 },
    { 0x50, 2, 13, 3, 0 }, { 0x20, 2, 4, 3, 0 }, { 0x28, 5, 15, 3, 0 },
};

static void loop_branches(void)
{
    rvt_te_attrs a;
    attrs(&a, "delta", NULL);
    te_buf s;
    round_trip(&a, loop2, NB(loop2), &s, "loop, delta");
    /* 8.1: a packet per uninferable jump (2 jalr, 2 ret) and the last
     * instruction, framed by the support packets and the first sync. */
    rvt_te_pkt p[32];
    size_t n = packets(&a, &s, p, 32);
    CHECK_EQ(n, 8);
    CHECK_EQ(count_fmt(p, n, 1, 0) + count_fmt(p, n, 2, 0), 5);
    free(s.b);
    attrs(&a, "full-address", NULL);
    round_trip(&a, loop2, NB(loop2), &s, "loop, full address");
    free(s.b);
}

static void implicit_return(void)
{
    static const char *const sizes[] = { "return_stack_size=2", "call_counter_size=2" };
    te_buf s;
    rvt_te_attrs a;
    attrs(&a, "delta", NULL);
    round_trip(&a, calls, NB(calls), &s, "calls, delta");
    rvt_te_pkt p[32];
    size_t delta_addr = 0, n = packets(&a, &s, p, 32);
    delta_addr = count_fmt(p, n, 1, 0) + count_fmt(p, n, 2, 0);
    free(s.b);
    for (size_t i = 0; i < 2; i++) {
        attrs(&a, "implicit-return", sizes[i]);
        round_trip(&a, calls, NB(calls), &s, sizes[i]);
        /* 3.2.5: the 4 returns go to the instruction after their call,
         * which was traced, so none is reported: 4 address packets fewer
         * (the jalr targets and the last instruction remain). */
        n = packets(&a, &s, p, 32);
        CHECK_EQ(count_fmt(p, n, 1, 0) + count_fmt(p, n, 2, 0), delta_addr - 4);
        free(s.b);
    }
    attrs(&a, "all,full-address", "return_stack_size=2");
    round_trip(&a, calls, NB(calls), &s, "calls, all modes");
    free(s.b);
}

/* 00-14 (beqz taken), 1c jalr -> 50, 50 then an interrupt (cause 7) to
 * the handler at 58: mret -> 54, ret -> 20, 20-24 (not taken), 28-34,
 * then an exception at 38 (fetch fault, cause 1, 38 does not retire) to
 * 58: mret to U mode at 5c: ecall (cause 8) to 58 in M: mret -> 60. */
static const blk traps[] = {
    { 0x00, 6, 5, 3, 0 }, { 0x1c, 1, 8, 3, 0 }, { 0x50, 1, 2, 3, 7 }, { 0x58, 1, 3, 3, 0 },
    { 0x54, 1, 13, 3, 0 }, { 0x20, 2, 4, 3, 0 }, { 0x28, 4, 0, 3, 0 }, { 0x38, 0, 1, 3, 1 },
    { 0x58, 1, 3, 3, 0 }, { 0x5c, 1, 1, 0, 8 }, { 0x58, 1, 3, 3, 0 }, { 0x60, 1, 0, 3, 0 },
};

static void exceptions(void)
{
    rvt_te_attrs a;
    attrs(&a, "delta", NULL);
    te_buf s;
    round_trip(&a, traps, NB(traps), &s, "traps");
    rvt_te_pkt p[32];
    size_t n = packets(&a, &s, p, 32);
    /* Table 6.2 (format 3 subformat 1), in order: the interrupt after 50,
     * the fetch fault at 38 (its address in tvalepc: 6.3.1 names only
     * illegal instructions, else tval, here 0), the ecall from U; each
     * with the handler 58 as address (8.1: the first traced instruction
     * of the handler). */
    static const struct { uint8_t interrupt; uint8_t cause; } want[] = { { 1, 7 }, { 0, 1 }, { 0, 8 } };
    size_t k = 0;
    bool priv0 = false;
    for (size_t i = 0; i < n; i++) {
        if (p[i].format == 3 && p[i].subformat == 0 && p[i].privilege == 0 &&
            p[i].address << 1 == TE_BASE + 0x5c)
            priv0 = true;   /* 8.1 ppch: the mret to U resynchronises at 5c */
        if (p[i].format != 3 || p[i].subformat != 1)
            continue;
        if (k < NB(want)) {
            CHECK_EQ(p[i].interrupt, want[k].interrupt);
            CHECK_EQ(p[i].ecause, want[k].cause);
            CHECK_EQ(p[i].address << 1, TE_BASE + 0x58);
            CHECK_EQ(p[i].privilege, 3);
        }
        k++;
    }
    CHECK_EQ(k, NB(want));
    CHECK(priv0);
    free(s.b);
    attrs(&a, "implicit-except", NULL);
    round_trip(&a, traps, NB(traps), &s, "traps, implicit exception");
    free(s.b);
}

/* 8.2 with the reference flow's packet counter and an interval of 2:
 * loop2 is 00-14 (beqz taken), 1c jalr -> 50, 50-54 ret -> 20, 20-24
 * (bnez taken) -> 10, ... (above).  By hand, after the sync at 00:
 *   at 50 (after the jalr): format 1, 1 branch (14)        count 1
 *   at 20 (after the ret):  format 2                       count 2
 * The count is exactly reached: the next instruction with a branch in the
 * map, 24 (bnez taken), is reported by a format 1 with 1 branch (count 3,
 * exceeded), and the instruction after it, 10, by a format 3 sync.  The
 * second round the same, ending with the sync at 28 (24 not taken), then
 * the last instruction 38 by a format 2. */
static void resync_flush(void)
{
    rvt_te_attrs a;
    attrs(&a, "delta", "resync_mode=packets");
    CHECK_EQ(rvt_te_attrs_set(&a, "resync_interval=2"), 0);
    te_buf s;
    round_trip(&a, loop2, NB(loop2), &s, "loop, packet resync");
    static const struct { uint8_t format, branches; uint16_t f3_at; } want[] = {
        { 3, 0, 0x00 }, { 1, 1, 0 }, { 2, 0, 0 }, { 1, 1, 0 }, { 3, 0, 0x10 },
        { 1, 1, 0 }, { 2, 0, 0 }, { 1, 1, 0 }, { 3, 0, 0x28 }, { 2, 0, 0 },
    };
    rvt_te_pkt p[32];
    size_t n = packets(&a, &s, p, 32), k = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i].format == 3 && p[i].subformat == 3)
            continue;           /* support packets frame the trace */
        if (k < NB(want)) {
            CHECK_EQ(p[i].format, want[k].format);
            if (p[i].format == 1)
                CHECK_EQ(p[i].branches, want[k].branches);
            if (p[i].format == 3)
                CHECK_EQ(p[i].address << 1, TE_BASE + want[k].f3_at);
        }
        k++;
    }
    CHECK_EQ(k, NB(want));
    free(s.b);
}

/* 2.0 layout, table 6.3: the jalr at 1c calls 50, which faults (cause 5,
 * nothing retires there).  The EPC 50 is the target of an uninferable
 * jump, so the trap is reported with thaddr 0 and address 50, and the
 * handler 58 by the format 3 sync right after it.  The 1.1 layout has no
 * thaddr: the trap packet carries the handler. */
static const blk epc_fault[] = {
    { 0x00, 6, 5, 3, 0 }, { 0x1c, 1, 8, 3, 0 }, { 0x50, 0, 1, 3, 5 }, { 0x58, 1, 3, 3, 0 },
    { 0x54, 1, 13, 3, 0 }, { 0x20, 2, 4, 3, 0 }, { 0x28, 5, 15, 3, 0 },
};

static void thaddr_epc(void)
{
    for (unsigned v = 0; v < 2; v++) {
        rvt_te_attrs a;
        attrs(&a, "delta", v ? "version=2.0" : "version=1.1");
        te_buf s;
        round_trip(&a, epc_fault, NB(epc_fault), &s, v ? "EPC fault, 2.0" : "EPC fault, 1.1");
        rvt_te_pkt p[32];
        size_t n = packets(&a, &s, p, 32), traps = 0;
        for (size_t i = 0; i < n; i++) {
            if (p[i].format != 3 || p[i].subformat != 1)
                continue;
            traps++;
            CHECK_EQ(p[i].ecause, 5);
            if (v) {
                CHECK_EQ(p[i].thaddr, 0);
                CHECK_EQ(p[i].address << 1, TE_BASE + 0x50);
                CHECK(i + 1 < n && p[i + 1].format == 3 && p[i + 1].subformat == 0 &&
                      p[i + 1].address << 1 == TE_BASE + 0x58);
            } else {
                CHECK_EQ(p[i].address << 1, TE_BASE + 0x58);
            }
        }
        CHECK_EQ(traps, 1);
        free(s.b);
    }
}

/* 8.3: only the first and last instructions of a block matter, so the
 * same execution in blocks of several instructions (multiple retirement)
 * and one instruction per block gives the same stream. */
static void multiple_retirement(void)
{
    static const char *const modes[] = { "delta", "all,full-address" };
    for (size_t m = 0; m < NB(modes); m++) {
        rvt_te_attrs a;
        attrs(&a, modes[m], "return_stack_size=2");
        blk one[64];
        size_t n1 = split(calls, NB(calls), one);
        te_buf wide, narrow;
        round_trip(&a, calls, NB(calls), &wide, "multiple retirement");
        round_trip(&a, one, n1, &narrow, "one per block");
        CHECK_EQ(wide.n, narrow.n);
        if (wide.n == narrow.n)
            CHECK_MEM(wide.b, narrow.b, wide.n);
        free(wide.b);
        free(narrow.b);
    }
}

static void jump_target_cache(void)
{
    /* loop2 with the jump target cache only (cache_size 4: 16 entries,
     * 3.2.7 index = address bits 4:1), derived by hand from 8.1 and 6.4-6.8:
     *  1 f3 sf3 support, options = jump-target-cache (0x08)
     *  2 f3 sf0 sync at 0x80000000: address 0x40000000, privilege 3,
     *    branch 1 (not a branch)
     *  3 after jalr 1c -> 50: 1 branch (beqz 14 taken: bit 0 = 0); 50 is
     *    not cached (index 0x40000028 & 15 = 8, now filled): format 1,
     *    branches 1, map 0, address (0x50 - 0x00) >> 1 = 0x28
     *  4 after ret 54 -> 20: no branch; index 0x40000010 & 15 = 0, a miss:
     *    format 2, address (0x20 - 0x50) >> 1 = -0x18
     *  5 after jalr 1c -> 50 again: 2 branches (bnez 24, beqz 14 taken);
     *    a hit at 8: format 0 subformat 1 (table 6.10), index 8, branches
     *    2, map 0 (3 bits of map against the format 1's 3 bits of map and
     *    6 of address: not longer, so the encoder's choice)
     *  6 after ret 54 -> 20 again: a hit at 0, no branch: format 0
     *    subformat 1 (table 6.11), index 0, branches 0
     *  7 the last instruction, j at 38: 1 branch (bnez 24 not taken: bit
     *    0 = 1): format 1, branches 1, map 1, address (0x38 - 0x20) >> 1 = 0xc
     *  8 f3 sf3 support: enable 0, qual_status ended_rep (6.5.1: the last
     *    packet was not for an uninferable discontinuity). */
    rvt_te_attrs a;
    attrs(&a, "jump-target-cache", NULL);
    te_buf s;
    round_trip(&a, loop2, NB(loop2), &s, "jump target cache");
    rvt_te_pkt p[32];
    size_t n = packets(&a, &s, p, 32);
    CHECK_EQ(n, 8);
    if (n == 8) {
        CHECK(p[0].format == 3 && p[0].subformat == 3 && p[0].enable == 1 && p[0].options == 0x08);
        CHECK(p[1].format == 3 && p[1].subformat == 0 && p[1].address == 0x40000000 &&
              p[1].privilege == 3 && p[1].branch == 1);
        CHECK(p[2].format == 1 && p[2].branches == 1 && p[2].branch_map == 0 && p[2].address == 0x28);
        CHECK(p[3].format == 2 && p[3].address == ((0 - 0x18ull) & (UINT64_MAX >> 1)));
        CHECK(p[4].format == 0 && p[4].subformat == 1 && p[4].index == 8 && p[4].branches == 2 &&
              (p[4].branch_map & 3) == 0);
        CHECK(p[5].format == 0 && p[5].subformat == 1 && p[5].index == 0 && p[5].branches == 0);
        CHECK(p[6].format == 1 && p[6].branches == 1 && (p[6].branch_map & 1) == 1 &&
              p[6].address == 0xc);
        CHECK(p[7].format == 3 && p[7].subformat == 3 && p[7].enable == 0 &&
              p[7].qual_status == RVT_TE_QUAL_ENDED_REP);
    }
    free(s.b);
}

/* The smallest cache and predictor table 9.1 allows: cache_size_p and
 * bpred_size_p 1, two entries each (they were refused as too small).
 * loop2's jump targets 50 and 20 both index entry 0 of a two-entry cache
 * (3.2.7: address bits 1:1, 0x50 >> 1 = 0x28 and 0x20 >> 1 = 0x10, both
 * even), so each evicts the other and no jump hits: by hand from 8.1 and
 * 6.4-6.7, the packets of loop2 with the jump target cache only are
 *  1 f3 sf3 support (options 0x08), 2 f3 sf0 sync at 0x80000000,
 *  3 jalr 1c -> 50, a miss: format 1, branches 1, map 0, address 0x28,
 *  4 ret 54 -> 20, a miss (entry 0 holds 50): format 2, address -0x18,
 *  5 jalr 1c -> 50, a miss (entry 0 holds 20): format 1, branches 2,
 *    map 0, address (0x50 - 0x20) >> 1 = 0x18,
 *  6 ret 54 -> 20, a miss again: format 2, address -0x18,
 *  7 the j at 38: format 1, branches 1, map 1, address 0xc,
 *  8 f3 sf3 support, enable 0. */
static void smallest_tables(void)
{
    rvt_te_attrs a;
    attrs(&a, "jump-target-cache", "cache_size=1");
    CHECK_EQ(rvt_te_attrs_check(&a), 0);
    CHECK_EQ(a.cache_size, 1);
    te_buf s;
    round_trip(&a, loop2, NB(loop2), &s, "two-entry jump target cache");
    rvt_te_pkt p[32];
    size_t n = packets(&a, &s, p, 32);
    CHECK_EQ(n, 8);
    if (n == 8) {
        CHECK(p[2].format == 1 && p[2].branches == 1 && p[2].address == 0x28);
        CHECK(p[3].format == 2 && p[3].address == ((0 - 0x18ull) & (UINT64_MAX >> 1)));
        CHECK(p[4].format == 1 && p[4].branches == 2 && (p[4].branch_map & 3) == 0 &&
              p[4].address == 0x18);
        CHECK(p[5].format == 2 && p[5].address == ((0 - 0x18ull) & (UINT64_MAX >> 1)));
        CHECK(p[6].format == 1 && p[6].branches == 1 && (p[6].branch_map & 1) == 1 &&
              p[6].address == 0xc);
    }
    free(s.b);
    /* A two-entry predictor (3.2.6, index address bits 1:1) decodes what
     * it encoded over the calls program's branches. */
    attrs(&a, "branch-prediction", "bpred_size=1");
    CHECK_EQ(rvt_te_attrs_check(&a), 0);
    CHECK_EQ(a.bpred_size, 1);
    round_trip(&a, calls, NB(calls), &s, "two-entry branch predictor");
    free(s.b);
    /* 0 means no table: the mode cannot be in force without one. */
    rvt_te_attrs_default(&a);
    a.options = RVT_TE_OPT_JTC;
    CHECK(rvt_te_attrs_check(&a) < 0);
}

/* 6.6.2 updiscon, for the packet reporting the target of an uninferable
 * jump when a format 3 follows (here a trap right after it to the handler
 * 58: mret -> 60).  It tells the decoder to go on past an earlier
 * occurrence of that address met with every branch processed (11.1
 * follow_execution_path stops there, inferred_address):
 * - target_once: 00-14 (beqz taken), 1c jalr -> 50, 50, then a fetch
 *   fault at 54 (cause 1, 54 does not retire).  After the branch at 14
 *   the walk meets only 1c before the
 *   jalr: 50 first occurs as its target (11.1 stop_here), nothing to tell
 *   apart, so updiscon == notify and compresses away;
 * - target_twice: 00-14 (beqz not taken), 18 jal -> 3c, 3c-44 (bnez
 *   taken) -> 4c ret -> 4c, 4c then an interrupt (cause 7).  After the
 *   branch at 44
 *   the walk meets 4c before the ret: 6.6.2's case 2, updiscon != notify,
 *   without which the decoder would stop at the first 4c. */
static const blk target_once[] = {
    { 0x00, 6, 5, 3, 0 }, { 0x1c, 1, 8, 3, 0 }, { 0x50, 1, 0, 3, 0 }, { 0x54, 0, 1, 3, 1 },
    { 0x58, 1, 3, 3, 0 }, { 0x60, 1, 0, 3, 0 },
};
static const blk target_twice[] = {
    { 0x00, 6, 4, 3, 0 }, { 0x18, 1, 9, 3, 0 }, { 0x3c, 3, 5, 3, 0 }, { 0x4c, 1, 13, 3, 0 },
    { 0x4c, 1, 2, 3, 7 }, { 0x58, 1, 3, 3, 0 }, { 0x60, 1, 0, 3, 0 },
};

/* The updiscon of the address packet before the trap packet: 1 when it
 * differs from notify (6.6.2), 0 when equal, -1 when there is none. */
static int updiscon_before_trap(const rvt_te_attrs *a, const blk *b, size_t nb, const char *what)
{
    te_buf s;
    round_trip(a, b, nb, &s, what);
    rvt_te_pkt p[32];
    size_t n = packets(a, &s, p, 32);
    int upd = -1;
    for (size_t i = 0, last = SIZE_MAX; i < n; i++) {
        if (p[i].format == 3 && p[i].subformat == 1 && last != SIZE_MAX)
            upd = p[last].updiscon != p[last].notify;
        if (p[i].format == 1 || p[i].format == 2)
            last = i;       /* (implicit-except adds support packets around a first trap) */
        else if (p[i].format != 3 || p[i].subformat != 3)
            last = SIZE_MAX;
    }
    free(s.b);
    return upd;
}

static void updiscon_when_needed(void)
{
    static const char *const modes[] = { "delta", "all" };
    for (size_t m = 0; m < NB(modes); m++) {
        rvt_te_attrs a;
        attrs(&a, modes[m], "return_stack_size=2");
        CHECK_EQ(updiscon_before_trap(&a, target_once, NB(target_once), "jump target once"), 0);
        CHECK_EQ(updiscon_before_trap(&a, target_twice, NB(target_twice), "jump target twice"), 1);
    }
    /* The reference flow's rule (trap_noupd) sets it whenever a format 3
     * follows (encoder_model.py; its bytes, tests/e2e/etrace_interop.sh). */
    rvt_te_attrs a;
    attrs(&a, "delta", "trap_noupd=1");
    CHECK_EQ(updiscon_before_trap(&a, target_once, NB(target_once), "reference rule"), 1);
}

int main(void)
{
    loop_branches();
    implicit_return();
    exceptions();
    resync_flush();
    thaddr_epc();
    multiple_retirement();
    jump_target_cache();
    smallest_tables();
    updiscon_when_needed();
    return TH_DONE();
}
