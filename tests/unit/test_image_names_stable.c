/* Loading a file while outputs are open (docs/api.md "Code that
 * changes"): every name the image hands out (rvt_image_symbol,
 * rvt_image_symbol_span, rvt_image_code_range) stays valid, at the same
 * address, until rvt_image_free, so writers holding names from before a
 * load (a call stack's frames, the listing's current function, the
 * coverage map's sections) still print them after it.  Under
 * AddressSanitizer a writer reading a name the load moved is a
 * use-after-free.
 *
 * tests/unit/code_change.elf (main 0x10000, leaf 0x10010, code_change.S)
 * is loaded and the outputs opened; block A runs (main, ending in its
 * call of leaf); then tests/unit/names_stable.elf (far 0x20000, and 300
 * functions with 70-character names: 21 KB of names where
 * code_change.elf's took a few bytes) is loaded; then B C A B C D run:
 *
 *   A = 10000..10008  4 instructions, main, ends with jal ra,leaf (a call)
 *   B = 10010         1, leaf: ret
 *   C = 1000c         1, main: j main
 *   D = 20000..20006  4, far: c.nop x3, j far (far entered from C's
 *                     jump: no call, so at the stack's bottom)
 *
 * Worked out by hand (two files: folded names each frame's file
 * "FILE`name"):
 *   folded: main runs A C A C = 10 at depth 0, leaf B B = 2 under main
 *           (the first frame pushed with the name looked up before the
 *           load), far D = 4;
 *   report: main 12 with callees, 10 self, never called; leaf 2, 2,
 *           called twice; far 4, 4, never called; 16 instructions in 3
 *           functions;
 *   timeline, coverage-listing, JSON, listing: below, at their checks.
 * The listing and JSON name each instruction's file from the load on, as
 * over an image of several files from the start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "th_out_text.h"
#include "th_program.h"
#include "rvtrace/flow.h"
#include "rvtrace/out.h"

#define N(a) (sizeof (a) / sizeof (a)[0])
#define LONG_NAME "a_function_name_long_enough_that_300_of_them_take_twenty_kib_number_"

#define BLK(s, e, n, k, nx) { .start_pc = (s), .end_pc = (e), .next_pc = (nx), .ninsn = (n), .end = (k) }
static const rvt_block blk_a = BLK(0x10000, 0x10008, 4, RVT_BLK_CALL, 0x10010);
static const rvt_block after[] = {
    BLK(0x10010, 0x10010, 1, RVT_BLK_RETURN, 0x1000c),
    BLK(0x1000c, 0x1000c, 1, RVT_BLK_JUMP, 0x10000),
    BLK(0x10000, 0x10008, 4, RVT_BLK_CALL, 0x10010),
    BLK(0x10010, 0x10010, 1, RVT_BLK_RETURN, 0x1000c),
    BLK(0x1000c, 0x1000c, 1, RVT_BLK_JUMP, 0x20000),
    BLK(0x20000, 0x20006, 4, RVT_BLK_JUMP, 0x20000),
};
/* The same one pc per instruction (code_change.S, names_stable.S). */
static const uint64_t pcs_a[] = { 0x10000, 0x10004, 0x10006, 0x10008 };
static const uint64_t pcs_after[] = { 0x10010, 0x1000c, 0x10000, 0x10004, 0x10006, 0x10008,
                                      0x10010, 0x1000c, 0x20000, 0x20002, 0x20004, 0x20006 };
static const uint64_t pc_far[] = { 0x20000 };

/* What an output is fed before the load and after it: blocks, or when
 * there are none one event per pc. */
typedef struct feeding {
    const rvt_block *b;
    size_t nb;
    const uint64_t *pcs;
    size_t np;
} feeding;

static const feeding by_events[2] = { { NULL, 0, pcs_a, N(pcs_a) }, { NULL, 0, pcs_after, N(pcs_after) } };
static const feeding by_blocks[2] = { { &blk_a, 1, NULL, 0 }, { after, N(after), NULL, 0 } };
static const feeding far_twice[2] = { { NULL, 0, pc_far, 1 }, { NULL, 0, pc_far, 1 } };

static char code_change[1024], names_stable[1024];

static bool starts_with(const char *text, const char *want)
{
    return text && !strncmp(text, want, strlen(want));
}

/* How many instructions f retires. */
static uint64_t feed(rvt_out *o, const feeding *f)
{
    uint64_t n = f->np;
    for (size_t i = 0; i < f->nb; i++)
        n += f->b[i].ninsn;
    if (f->nb)
        CHECK_EQ(rvt_out_blocks(o, f->b, f->nb, NULL), 0);
    for (size_t i = 0; i < f->np; i++)
        CHECK_EQ(rvt_out_event(o, &(rvt_flow_event){ .kind = RVT_EV_INSN, .pc = f->pcs[i] }), 0);
    return n;
}

/* Writer w's output for fed[0], the load, fed[1] (A, the load, B C A B C
 * D by blocks or by events; the probe of check_listing_span). */
typedef struct run_ctx {
    rvt_image *img;
    const feeding *fed;
} run_ctx;

/* fed[0], the second file loaded, fed[1]. */
static void feed_around_load(rvt_out *o, void *ctx)
{
    run_ctx *r = ctx;
    uint64_t n = feed(o, &r->fed[0]);
    CHECK_EQ(rvt_image_load_elf(r->img, names_stable), 0);
    n += feed(o, &r->fed[1]);
    CHECK_EQ(rvt_out_insns(o), n);
}

static char *run(const rvt_out_writer *w, const feeding fed[2])
{
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_load_elf(img, code_change), 0);
    run_ctx r = { img, fed };
    char *text = th_out_text(w, img, feed_around_load, &r, NULL);
    rvt_image_free(img);
    return text;
}

/* The names themselves: the same pointers, spellings and files after the
 * second load as before it; the new file's names (the last of them in a
 * later chunk than the first file's) tell their own file. */
static void check_names(void)
{
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_load_elf(img, code_change), 0);
    uint64_t off = 1, s, e, sym_addr, lo, hi;
    const char *main_name = rvt_image_symbol(img, 0x10004, &off);
    const char *leaf_name = rvt_image_symbol_span(img, 0x10010, &sym_addr, &lo, &hi);
    const char *text_name = NULL;
    CHECK(rvt_image_code_range(img, 0, &s, &e, &text_name));
    CHECK_EQ(rvt_image_load_elf(img, names_stable), 0);
    CHECK(rvt_image_symbol(img, 0x10004, &off) == main_name);
    CHECK_EQ(off, 4);
    CHECK(rvt_image_symbol_span(img, 0x10010, &sym_addr, &lo, &hi) == leaf_name);
    const char *text_after = NULL;
    CHECK(rvt_image_code_range(img, 0, &s, &e, &text_after) && text_after == text_name);
    CHECK_STR(main_name, "main");
    CHECK_STR(leaf_name, "leaf");
    CHECK_STR(text_name, ".text");
    CHECK_STR(rvt_image_symbol_file(img, main_name), code_change);
    CHECK_STR(rvt_image_symbol_file(img, text_name), code_change);
    const char *far = rvt_image_symbol(img, 0x20006, &off);
    CHECK_STR(far, "far");
    CHECK_EQ(off, 6);
    CHECK_STR(rvt_image_symbol_file(img, far), names_stable);
    /* number_299 at 0x20100 + 2 * 299 */
    const char *last = rvt_image_symbol(img, 0x20356, &off);
    CHECK_STR(last, LONG_NAME "299");
    CHECK_STR(rvt_image_symbol_file(img, last), names_stable);
    char copy[] = "main";
    CHECK(rvt_image_symbol_file(img, copy) == NULL);    /* the spelling is not enough */
    rvt_image_free(img);
}

static void check_folded(const char *text)
{
    CHECK_STR(text, "code_change.elf`main 10\n"
                    "code_change.elf`main;code_change.elf`leaf 2\n"
                    "names_stable.elf`far 4\n");
}

/* The report's row of function fn: with callees, self, calls. */
static void check_report_row(const char *text, const char *fn, unsigned total, unsigned self, unsigned calls)
{
    char want[128];
    snprintf(want, sizeof want, "%12u %15u %11u  %s\n", total, self, calls, fn);
    CHECK_HAS(text, want);
}

static void check_report(const char *text)
{
    CHECK_HAS(text, "# 16 instructions in 3 functions\n");
    check_report_row(text, "main", 12, 10, 0);
    check_report_row(text, "leaf", 2, 2, 2);
    check_report_row(text, "far", 4, 4, 0);
}

/* Slices (ts: instructions before): main from 0, leaf at 4 (B) and 10
 * (the second B), main left for far at 12 (D), far to the end. */
static void check_timeline(const char *text)
{
    static const struct { char ph; unsigned ts; const char *name; } want[] = {
        { 'B', 0, "main" }, { 'B', 4, "leaf" }, { 'E', 5, "leaf" }, { 'B', 10, "leaf" },
        { 'E', 11, "leaf" }, { 'E', 12, "main" }, { 'B', 12, "far" }, { 'E', 16, "far" },
    };
    const char *at = text;
    for (size_t i = 0; i < N(want) && at; i++) {
        char line[128];
        snprintf(line, sizeof line, "\n{\"ph\":\"%c\",\"pid\":1,\"tid\":0,\"ts\":%u,\"name\":\"%s\",", want[i].ph,
                 want[i].ts, want[i].name);
        const char *next = strstr(at, line);
        if (!next)
            TH_FAIL("timeline: no %s after the slices before it:\n%s", line + 1, text);
        at = next ? next + strlen(line) : NULL;
    }
}

/* The section named when the output was opened, and main's and leaf's
 * counts: each of main's instructions ran in A or C twice, leaf twice. */
static void check_coverage_listing(const char *text)
{
    CHECK_HAS(text, "# section .text 10000-10014\n0000000000010000 <main>:\n       10000: +          2  ");
    CHECK_HAS(text, "       1000c: +          2  j\t10000 <main>\n0000000000010010 <leaf>:\n"
                    "       10010: +          2  ret\n");
}

/* One line per instruction with its function, and from the load on
 * (the image then holds two files) its file: the first (10000) names no
 * file, the 6th (1000c) names main and code_change.elf, the 13th far and
 * names_stable.elf. */
static void check_json(const char *text)
{
    CHECK(starts_with(text, "{\"kind\":\"insn\",\"pc\":\"0x10000\",\"insn\":\"0x00130293\",\"asm\":\"add t0,t1,1\","
                            "\"sym\":\"main\",\"off\":0}\n"));
    CHECK_HAS(text, "\"pc\":\"0x1000c\",\"insn\":\"0xff5ff06f\",\"asm\":\"j 10000 <main>\","
                    "\"image\":\"code_change.elf\",\"sym\":\"main\",\"off\":12}\n");
    CHECK_HAS(text, "\"pc\":\"0x20000\",\"insn\":\"0x0001\",\"asm\":\"nop\",\"image\":\"names_stable.elf\","
                    "\"sym\":\"far\",\"off\":0}\n");
}

/* A function's header line when the function changes, from the load on
 * with its file: main's at the start (one file), leaf's at B, main's
 * again at C, far's at D. */
static void check_listing(const char *text)
{
    CHECK(starts_with(text, "0000000000010000 <main>:\n       10000:\t"));
    CHECK_HAS(text, "0000000000010010 <leaf> [code_change.elf]:\n       10010:\t");
    CHECK_HAS(text, "0000000000010000 <main> [code_change.elf]:\n       1000c:\t");
    CHECK_HAS(text, "0000000000020000 <far> [names_stable.elf]:\n       20000:\t");
}

/* The listing names a pc's function from the span of addresses it last
 * looked up: 0x20000 before the load has no symbol up to the end of the
 * address space (code_change.elf's last symbol, leaf, ends with its
 * section at 0x10014); after the load far starts there, and the listing
 * must say so rather than keep the span it had. */
static void check_listing_span(void)
{
    char *text = run(rvt_out_find("listing"), far_twice);
    const char *second = text ? strchr(text, '\n') : NULL;
    if (!second || !starts_with(second + 1, "0000000000020000 <far> [names_stable.elf]:\n"))
        TH_FAIL("listing: no far after the load:\n%s", text);
    else
        th_passed++;
    free(text);
}

/* Writer `writer`'s output fed fed, checked by check. */
static void check_writer(const char *writer, void (*check)(const char *text), const feeding fed[2])
{
    char *text = run(rvt_out_find(writer), fed);
    if (text)
        check(text);
    free(text);
}

int main(void)
{
    th_src_path(code_change, sizeof code_change, "tests/unit/code_change.elf");
    th_src_path(names_stable, sizeof names_stable, "tests/unit/names_stable.elf");
    check_names();
    check_listing_span();
    for (int blocks = 0; blocks < 2; blocks++) {
        const feeding *fed = blocks ? by_blocks : by_events;
        check_writer("folded", check_folded, fed);
        check_writer("report", check_report, fed);
        check_writer("timeline", check_timeline, fed);
        check_writer("coverage-listing", check_coverage_listing, fed);
        check_writer("json", check_json, fed);
        check_writer("listing", check_listing, fed);
        /* the rest only under a sanitizer: no name read after its free */
        for (size_t i = 0; rvt_out_writer_at(i); i++)
            free(run(rvt_out_writer_at(i), fed));
    }
    return TH_DONE();
}
