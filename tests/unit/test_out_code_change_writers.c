/* Code that changes under the stack and coverage writers (docs/api.md
 * "Code that changes"): a library caller patches its image between two
 * batches, and every writer must follow, whichever way it is fed
 * (rvt_out_blocks, rvt_out_block, rvt_out_run, one rvt_out_event per
 * instruction).  test_out_code_change.c does this for the PC lists; here
 * the writers that keep per-pc or per-block facts of their own: the call
 * stack's function and call/return class (folded, report, timeline,
 * flame graph, speedscope, HTML) and the coverage map's held block counts
 * and decoded lengths and branches (lcov, coverage-listing).
 *
 * tests/unit/code_change.elf (code_change.S, one line per instruction)
 * is version 0; the test then patches main (rvt_image_add_bytes shadows
 * it) into version 1, the same start, count and end for each block,
 * other lengths, a call that became a jump and a jump that became a
 * conditional branch:
 *
 *   version 0                          version 1
 *   10000 addi t0,t1,1  (4, line 12)   10000 c.nop
 *   10004 c.nop         (2, line 14)   10002 c.nop
 *   10006 c.nop         (2, line 15)   10004 addi t0,t1,1   0x00130293
 *   10008 jal ra,leaf   (call, 17)     10008 jal x0,leaf    0x0080006f (J-type +8)
 *   1000c j main        (jump, 18)     1000c beq x0,x0,main 0xfe000ae3 (B-type -12)
 *   10010 leaf: ret     (line 22)      (unchanged)
 *
 * Blocks: A = 10000..10008 (4 instructions), B = 10010, C = 1000c.
 * Version 0 runs A B C, version 1 A B C A.  Worked out by hand:
 *   retired: 10000 x3, 10002 x2, 10004 x3, 10006 x1, 10008 x3, 1000c x2,
 *            10010 x2: 16 instructions;
 *   the beq (version 1's C) taken once (A follows at its target), never
 *            not taken; version 0's C is no branch;
 *   stacks:  version 0: A in main (4), B called from main ("main;leaf"
 *            1), C back in main (1); version 1: A in main (4), B jumped
 *            to ("leaf" 1: the call is gone), C's return pops nothing
 *            (main 1), A (4): "main 14", "main;leaf 1", "leaf 1";
 *   report:  main 15 with callees, 14 self, no calls; leaf 2, 2, one call;
 *   timeline (ts = instructions before): B main 0, B leaf 4, E leaf 5,
 *            E main 10, B leaf 10, E leaf 11, B main 11, E main 16;
 *   lcov:    a line's count is its most retired instruction in the final
 *            code's lengths over the line's addresses: DA 12:3 (10000,
 *            10002), 14:3, 15:1, 17:3, 18:2, 22:2; line 18's beq BRDA
 *            taken 1, not taken 0.
 * A writer that kept version 0's facts would count "main;leaf 2", a
 * second call of leaf, no E main at 10, the held count of A on 10006
 * three times and none on 10002, and no taken beq.
 *
 * Then the same with two harts (src 0 and 1), each batch hart 0's blocks
 * then hart 1's: a writer switches stacks inside a batch, and hart 1's
 * must follow the code too.  The stacks and coverage are the same per
 * hart (twice the counts; the folded stacks and the coverage map are
 * shared by the harts, the beq is taken once by each); the slices move
 * with where each hart's part of a batch starts: the first batch's at 0
 * (hart 0) and 6 (hart 1), the second's at 12 and 22 where one hart's
 * second batch started at 6, so hart 0's slices there come 6 later, and
 * hart 1's 6 and 16; both harts' last slice ends at 32. */
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "th_out_text.h"
#include "rvtrace/flow.h"
#include "rvtrace/out.h"

#define MAIN 0x10000u
#define N(a) (sizeof (a) / sizeof (a)[0])

/* The blocks of one version; hw: their half-words (rvt_out_run). */
typedef struct blk_hw {
    rvt_block b;
    uint64_t hw;
} blk_hw;

#define BLK(s, e, n, k, nx, h) { { .start_pc = (s), .end_pc = (e), .next_pc = (nx), .ninsn = (n), .end = (k) }, (h) }
static const blk_hw v0_blocks[] = {
    BLK(0x10000, 0x10008, 4, RVT_BLK_CALL, 0x10010, 6),
    BLK(0x10010, 0x10010, 1, RVT_BLK_RETURN, 0x1000c, 2),
    BLK(0x1000c, 0x1000c, 1, RVT_BLK_JUMP, 0x10000, 2),
};
static const blk_hw v1_blocks[] = {
    BLK(0x10000, 0x10008, 4, RVT_BLK_JUMP, 0x10010, 6),
    BLK(0x10010, 0x10010, 1, RVT_BLK_RETURN, 0x1000c, 2),
    BLK(0x1000c, 0x1000c, 1, RVT_BLK_BRANCH_TAKEN, 0x10000, 2),
    BLK(0x10000, 0x10008, 4, RVT_BLK_JUMP, 0x10010, 6),
};
/* The same, one pc per instruction, from each version's lengths. */
static const uint64_t v0_pcs[] = { 0x10000, 0x10004, 0x10006, 0x10008, 0x10010, 0x1000c };
static const uint64_t v1_pcs[] = { 0x10000, 0x10002, 0x10004, 0x10008, 0x10010, 0x1000c,
                                   0x10000, 0x10002, 0x10004, 0x10008 };

/* Version 1 of main, little-endian. */
static const uint8_t v1_code[16] = {
    0x01, 0x00, 0x01, 0x00,             /* c.nop; c.nop */
    0x93, 0x02, 0x13, 0x00,             /* addi t0,t1,1 */
    0x6f, 0x00, 0x80, 0x00,             /* jal x0,+8 */
    0xe3, 0x0a, 0x00, 0xfe,             /* beq x0,x0,-12 */
};

typedef enum way { BY_EVENTS, BY_BLOCKS, BY_BLOCK, BY_RUN, NWAYS } way;
static const char *const way_name[NWAYS] = { "events", "blocks", "block", "run" };

/* One batch: the blocks of bs (or pcs, one event each) for every hart in
 * turn. */
static void feed(rvt_out *o, way how, unsigned harts, const blk_hw *bs, size_t nb, const uint64_t *pcs,
                 size_t np)
{
    rvt_block b[16];
    size_t n = 0;
    for (uint16_t src = 0; src < harts; src++) {
        for (size_t i = 0; how == BY_EVENTS && i < np; i++)
            CHECK_EQ(rvt_out_event(o, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = pcs[i], .src = src }), 0);
        for (size_t i = 0; how != BY_EVENTS && i < nb; i++) {
            b[n] = bs[i].b;
            b[n].src = src;
            rvt_flow_event run = { .kind = RVT_EV_INSN, .pc = b[n].start_pc, .aux = b[n].ninsn, .aux2 = bs[i].hw,
                                   .src = src };
            if (how == BY_BLOCK)
                CHECK_EQ(rvt_out_block(o, &b[n]), 0);
            else if (how == BY_RUN)
                CHECK_EQ(rvt_out_run(o, &run), 0);
            n++;
        }
    }
    if (how == BY_BLOCKS)
        CHECK_EQ(rvt_out_blocks(o, b, n, NULL), 0);
}

/* path: RVT_SRC's file rel. */
static void src_file(char *path, size_t n, const char *rel)
{
    const char *src = getenv("RVT_SRC");
    snprintf(path, n, "%s/%s", src ? src : ".", rel);
}

/* Version 0's blocks, main patched into version 1, a second file
 * (programs/cov.elf at 0x80000000, DWARF for cov.c) loaded after the
 * output was opened (docs/coverage.md "The coverage map"), and the run of
 * classify(5) there, worked out by hand from its disassembly and line
 * table:
 *   80000062..80000074  8 instructions, line 11 (62 64 66 68 6a), line 12
 *                       (6e 72 74: bgez a5 -> 8000007c, taken: 5 >= 0)
 *   8000007c..80000082  3, line 14 (7c 80 82: bnez a5 -> 80000088, taken)
 *   80000088..80000090  5, line 16 (88), line 17 (8a 8c 8e 90: ret)
 * so DA 11..17: 1 1 0 1 0 1 1, both branches taken once and never not
 * taken, FNDA:1,classify; lines 13 and 15 (80000078, 80000084) never.
 * A map made of the code present at open counts these 16 outside. */
#define COV_ELF "programs/cov.elf"
static const blk_hw classify_blocks[] = {
    BLK(0x80000062, 0x80000074, 8, RVT_BLK_BRANCH_TAKEN, 0x8000007c, 11),
    BLK(0x8000007c, 0x80000082, 3, RVT_BLK_BRANCH_TAKEN, 0x80000088, 4),
    BLK(0x80000088, 0x80000090, 5, RVT_BLK_RETURN, 0x80000100, 5),
};
static const uint64_t classify_pcs[] = { 0x80000062, 0x80000064, 0x80000066, 0x80000068, 0x8000006a,
                                         0x8000006e, 0x80000072, 0x80000074, 0x8000007c, 0x80000080,
                                         0x80000082, 0x80000088, 0x8000008a, 0x8000008c, 0x8000008e,
                                         0x80000090 };

typedef struct run_ctx {
    rvt_image *img;
    way how;
    unsigned harts;
    bool load;
    const char *cov;
} run_ctx;

/* Version 0's blocks, main patched (and cov.elf loaded), version 1's
 * (and classify's). */
static void feed_patched(rvt_out *o, void *ctx)
{
    const run_ctx *r = ctx;
    feed(o, r->how, r->harts, v0_blocks, N(v0_blocks), v0_pcs, N(v0_pcs));
    CHECK_EQ(rvt_image_add_bytes(r->img, MAIN, v1_code, sizeof v1_code, "patched"), 0);
    if (r->load)
        CHECK_EQ(rvt_image_load_elf(r->img, r->cov), 0);
    feed(o, r->how, r->harts, v1_blocks, N(v1_blocks), v1_pcs, N(v1_pcs));
    if (r->load)
        feed(o, r->how, r->harts, classify_blocks, N(classify_blocks), classify_pcs,
             N(classify_pcs));
    CHECK_EQ(rvt_out_insns(o), (16 + 16 * r->load) * r->harts);
}

/* Writer w's output (NULL when code_change.elf is missing; *n its
 * length) for version 0's blocks, main patched, version 1's; with load,
 * cov.elf loaded after the patch and classify's blocks after version
 * 1's. */
static char *run_n(const rvt_out_writer *w, way how, unsigned harts, bool load, size_t *n)
{
    char elf[1024], cov[1024];
    src_file(elf, sizeof elf, "tests/unit/code_change.elf");
    src_file(cov, sizeof cov, COV_ELF);
    rvt_image *img = rvt_image_new();
    if (rvt_image_load_elf(img, elf) != 0) {
        TH_FAIL("cannot load %s", elf);
        rvt_image_free(img);
        return NULL;
    }
    run_ctx r = { img, how, harts, load, cov };
    char *text = th_out_text(w, img, feed_patched, &r, n);
    rvt_image_free(img);
    return text;
}

static char *run(const rvt_out_writer *w, way how, unsigned harts)
{
    size_t n;
    return run_n(w, how, harts, false, &n);
}

/* The line of text that starts with (after blanks) or, end true, ends
 * with key: its start, else NULL. */
static const char *line_with(const char *text, const char *key, bool end)
{
    size_t k = strlen(key);
    for (const char *l = text; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        const char *s = l + strspn(l, " ");
        if (end ? n >= k && !memcmp(l + n - k, key, k) : !strncmp(s, key, k))
            return l;
        l = nl ? nl + 1 : NULL;
    }
    return NULL;
}

static void check_folded(const char *text, way how, unsigned harts)
{
    char want[64];
    snprintf(want, sizeof want, "main %u\nmain;leaf %u\nleaf %u\n", 14 * harts, harts, harts);
    if (strcmp(text, want))
        TH_FAIL("folded by %s:\n%s", way_name[how], text);
    else
        th_passed++;
}

/* The report's row of function fn: with callees, self, calls. */
static void check_report_row(const char *text, const char *fn, uint64_t total, uint64_t self, uint64_t calls,
                             way how)
{
    char key[64];
    snprintf(key, sizeof key, "  %s", fn);
    const char *l = line_with(text, key, true);
    unsigned long long t = 0, s = 0, c = 0;
    double pt, ps;
    if (!l || sscanf(l, " %lf%% %lf%% %llu %llu %llu", &pt, &ps, &t, &s, &c) != 5 || t != total ||
        s != self || c != calls)
        TH_FAIL("report by %s, %s: %llu %llu %llu, want %llu %llu %llu:\n%s", way_name[how], fn, t, s, c,
                (unsigned long long)total, (unsigned long long)self, (unsigned long long)calls, text);
    else
        th_passed++;
}

static void check_report(const char *text, way how, unsigned harts)
{
    CHECK_HAS(text, harts == 1 ? "# 16 instructions in 2 functions\n" : "# 32 instructions in 2 functions\n");
    check_report_row(text, "main", 15 * harts, 14 * harts, 0, how);
    check_report_row(text, "leaf", 2 * harts, 2 * harts, harts, how);
}

/* Hart tid's slices in this order, nothing else of its own between
 * them; with one hart nothing after them either.  shift: how much later
 * a hart's slices come with two harts than with one, in the first batch
 * and in the second. */
static void check_slices(const char *text, way how, unsigned harts, unsigned tid)
{
    static const struct { char ph; unsigned ts; const char *name; bool second; } want[] = {
        { 'B', 0, "main", 0 }, { 'B', 4, "leaf", 0 }, { 'E', 5, "leaf", 0 }, { 'E', 10, "main", 1 },
        { 'B', 10, "leaf", 1 }, { 'E', 11, "leaf", 1 }, { 'B', 11, "main", 1 }, { 'E', 16, "main", 1 },
    };
    const unsigned shift[2][2] = { { 0, 6 }, { 6, 16 } };  /* [tid][second batch] */
    char line[160], tag[32];
    snprintf(tag, sizeof tag, "\"tid\":%u,\"ts\":", tid);  /* a slice or instant, not metadata */
    const char *at = text;
    for (size_t i = 0; i < N(want) && at; i++) {
        /* the last E main: at the end, after both harts' instructions */
        unsigned ts = harts > 1 ? (i == 7 ? 32 : want[i].ts + shift[tid][want[i].second]) : want[i].ts;
        snprintf(line, sizeof line, ",\n{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,\"ts\":%u,\"name\":\"%s\","
                 "\"cat\":\"function\"}", want[i].ph, tid, ts, want[i].name);
        const char *next = strstr(at, line);
        const char *other = strstr(at, tag);       /* the next slice of this hart */
        if (!next || other < next)
            TH_FAIL("timeline by %s, %u harts: not next for hart %u: %s in:\n%s", way_name[how], harts, tid,
                    line, text);
        at = next ? next + strlen(line) : NULL;
    }
    if (at && harts == 1 && strncmp(at, "\n]", 2))
        TH_FAIL("timeline by %s: more after the last slice:\n%s", way_name[how], at);
}

static void check_timeline(const char *text, way how, unsigned harts)
{
    for (unsigned tid = 0; tid < harts; tid++)
        check_slices(text, how, harts, tid);
}

/* The count coverage-listing gives the instruction at pc. */
static unsigned long long listed(const char *text, uint64_t pc)
{
    char key[32];
    snprintf(key, sizeof key, "%llx:", (unsigned long long)pc);
    const char *l = line_with(text, key, false);
    unsigned long long at = 0, n = ~0ull;
    char mark;
    if (!l || sscanf(l, " %llx: %c %llu", &at, &mark, &n) != 3)
        return ~0ull;
    return n;
}

static void check_coverage_listing(const char *text, way how, unsigned harts)
{
    static const struct { uint64_t pc, n; } want[] = {
        { 0x10000, 3 }, { 0x10002, 2 }, { 0x10004, 3 }, { 0x10006, 1 },
        { 0x10008, 3 }, { 0x1000c, 2 }, { 0x10010, 2 },
    };
    for (size_t i = 0; i < N(want); i++)
        if (listed(text, want[i].pc) != want[i].n * harts)
            TH_FAIL("coverage-listing by %s: %llx retired %llu times, want %llu:\n%s", way_name[how],
                    (unsigned long long)want[i].pc, listed(text, want[i].pc),
                    (unsigned long long)(want[i].n * harts), text);
    CHECK_HAS(text, harts == 1 ? "; branch one-way, taken 1, not taken 0\n" : "; branch one-way, taken 2, not taken 0\n");
}

static void check_lcov(const char *text, way how, unsigned harts)
{
    (void)how;
    if (harts == 1) {
        CHECK_HAS(text, "\nDA:12,3\nDA:14,3\nDA:15,1\nDA:17,3\nDA:18,2\nDA:22,2\n");
        CHECK_HAS(text, "\nBRDA:18,0,0,1\nBRDA:18,0,1,0\n");
    } else {
        CHECK_HAS(text, "\nDA:12,6\nDA:14,6\nDA:15,2\nDA:17,6\nDA:18,4\nDA:22,4\n");
        CHECK_HAS(text, "\nBRDA:18,0,0,2\nBRDA:18,0,1,0\n");
    }
}

/* The coverage writers after cov.elf was loaded (run_n's load): the
 * patched main as before, and classify counted in the file loaded late. */
static void check_loaded(void)
{
    for (way how = 0; how < NWAYS; how++) {
        size_t n;
        char *lcov = run_n(rvt_out_find("lcov"), how, 1, true, &n);
        char *listing = run_n(rvt_out_find("coverage-listing"), how, 1, true, &n);
        if (lcov) {
            check_lcov(lcov, how, 1);
            CHECK_HAS(lcov, "\nFNDA:1,classify\n");
            CHECK_HAS(lcov, "\nBRDA:12,0,0,1\nBRDA:12,0,1,0\nBRDA:14,0,0,1\nBRDA:14,0,1,0\n");
            CHECK_HAS(lcov, "\nDA:11,1\nDA:12,1\nDA:13,0\nDA:14,1\nDA:15,0\nDA:16,1\nDA:17,1\n");
        }
        if (listing) {
            check_coverage_listing(listing, how, 1);
            CHECK_HAS(listing, "# section .text 80000000-8000073a\n");
            CHECK_EQ(listed(listing, 0x80000074), 1);
            CHECK_EQ(listed(listing, 0x80000078), 0);
            CHECK_EQ(listed(listing, 0x80000090), 1);
            CHECK_HAS(listing, "# instructions: 23 of ");
            CHECK(!strstr(listing, "outside"));
        }
        free(lcov);
        free(listing);
    }
}

/* JSON over several files names each instruction's ("image"): the file
 * of the region its pc is in, which a patch names even when it leaves
 * the instruction's bits as they were.  The c.nop at 0x10004 retires,
 * main is written again with the same bytes as a region of its own
 * ("patched"), it retires again: the second line names that region. */
static void check_json_image(void)
{
    char elf[1024], other[1024];
    src_file(elf, sizeof elf, "tests/unit/code_change.elf");
    src_file(other, sizeof other, "programs/cov.elf");     /* at 0x80000000: a second file */
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_load_elf(img, elf), 0);
    CHECK_EQ(rvt_image_load_elf(img, other), 0);
    uint8_t same[16];
    CHECK_EQ(rvt_image_read(img, MAIN, same, sizeof same), sizeof same);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    rvt_out *o = rvt_out_open(rvt_out_find("json"), f, img);
    rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = 0x10004 };
    CHECK_EQ(rvt_out_event(o, &ev), 0);
    CHECK_EQ(rvt_image_add_bytes(img, MAIN, same, sizeof same, "patched"), 0);
    CHECK_EQ(rvt_out_event(o, &ev), 0);
    rvt_out_free(o);
    fclose(f);
    const char *second = strchr(text, '\n'), *first_image = strstr(text, "\"image\":\"code_change.elf\"");
    CHECK(second && first_image && first_image < second);
    CHECK(second && strstr(second, "\"image\":\"patched\""));
    free(text);
    rvt_image_free(img);
}

typedef struct by_hand {
    const char *writer;
    void (*check)(const char *text, way how, unsigned harts);
} by_hand;

static const by_hand checks[] = {
    { "folded", check_folded },
    { "report", check_report },
    { "timeline", check_timeline },
    { "coverage-listing", check_coverage_listing },
    { "lcov", check_lcov },
};

int main(void)
{
    check_json_image();
    check_loaded();
    for (unsigned harts = 1; harts <= 2; harts++)
        for (size_t i = 0; i < N(checks); i++)
            for (way how = 0; how < NWAYS; how++) {
                char *text = run(rvt_out_find(checks[i].writer), how, harts);
                if (text)
                    checks[i].check(text, how, harts);
                free(text);
            }
    /* every writer writes the same whichever way it is fed (out.h): the
     * events, which go through no block's cache, against the rest */
    for (size_t i = 0; rvt_out_writer_at(i); i++) {
        const rvt_out_writer *w = rvt_out_writer_at(i);
        size_t nwant, n;
        char *want = run_n(w, BY_EVENTS, 2, false, &nwant);
        for (way how = BY_BLOCKS; want && how < NWAYS; how++) {
            char *text = run_n(w, how, 2, false, &n);
            if (!text || n != nwant || memcmp(text, want, n))
                TH_FAIL("%s by %s differs from its events:\n%s\n-- events:\n%s", w->name, way_name[how],
                        text ? text : "(none)", want);
            else
                th_passed++;
            free(text);
        }
        free(want);
    }
    return TH_DONE();
}
