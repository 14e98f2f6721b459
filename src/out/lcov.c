/* The "lcov" writer: an lcov tracefile (geninfo(1) "TRACEFILE FORMAT")
 * from the trace and the DWARF of the image's ELF files (docs/coverage.md).
 *   DA    a source line with code (a DWARF 5 6.2 line-table row with a
 *         non-empty address range): the most times any of its
 *         instructions retired;
 *   BRDA  per conditional branch instruction of a line (block = its index
 *         on the line, in address order): branch 0 taken, branch 1 not
 *         taken, as often as the trace shows; "-" when it never retired;
 *   FN/FNDA  per DW_TAG_subprogram with code: times its entry retired. */
#include <inttypes.h>
#include <string.h>
#include "out/writers.h"
#include "out/cov_map.h"
#include "out/dwarf_lines.h"
#include "out/image_files.h"

typedef struct lc_totals {
    uint64_t found, hit;
} lc_totals;

static uint64_t exec_at(const rvt_cov *c, uint64_t pc)
{
    rvt_cov_cell k;
    rvt_cov_get(c, pc, &k);
    return k.exec;
}

static uint64_t insn_len(rvt_image *img, uint64_t pc)
{
    const rvt_insn *i = rvt_image_insn(img, pc);
    return i && i->len ? i->len : 2;
}

static void write_funcs(FILE *f, const rvt_cov *c, const rvt_dw_func *fn, size_t n)
{
    lc_totals t = { 0 };
    for (size_t i = 0; i < n; i++)
        fprintf(f, "FN:%" PRIu32 ",%s\n", fn[i].line, fn[i].name);
    for (size_t i = 0; i < n; i++) {
        uint64_t e = exec_at(c, fn[i].entry);
        fprintf(f, "FNDA:%" PRIu64 ",%s\n", e, fn[i].name);
        t.found++;
        t.hit += e != 0;
    }
    fprintf(f, "FNF:%" PRIu64 "\nFNH:%" PRIu64 "\n", t.found, t.hit);
}

/* The BRDA records of the conditional branches in one line's rows. */
static void line_branches(FILE *f, const rvt_cov *c, const rvt_dw_row *r, size_t n, lc_totals *t)
{
    unsigned block = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t pc = r[i].start; pc < r[i].end; pc += insn_len(c->img, pc)) {
            const rvt_insn *in = rvt_image_insn(c->img, pc);
            rvt_cov_cell k;
            if (!in || in->jclass != RVT_JC_BRANCH)
                continue;
            rvt_cov_get(c, pc, &k);
            uint64_t way[2] = { k.taken, k.fall };
            for (unsigned w = 0; w < 2; w++) {
                if (k.exec)
                    fprintf(f, "BRDA:%" PRIu32 ",%u,%u,%" PRIu64 "\n", r[i].line, block, w, way[w]);
                else
                    fprintf(f, "BRDA:%" PRIu32 ",%u,%u,-\n", r[i].line, block, w);
                t->found++;
                t->hit += way[w] != 0;
            }
            block++;
        }
}

static uint64_t line_count(const rvt_cov *c, const rvt_dw_row *r, size_t n)
{
    uint64_t most = 0;
    for (size_t i = 0; i < n; i++)
        for (uint64_t pc = r[i].start; pc < r[i].end; pc += insn_len(c->img, pc)) {
            uint64_t e = exec_at(c, pc);
            most = e > most ? e : most;
        }
    return most;
}

/* Rows r[0..n) are one file's, sorted by line: calls fn per line. */
static size_t same_line(const rvt_dw_row *r, size_t n)
{
    size_t k = 1;
    while (k < n && r[k].line == r[0].line)
        k++;
    return k;
}

static void write_lines(FILE *f, const rvt_cov *c, const rvt_dw_row *r, size_t n)
{
    lc_totals b = { 0 }, l = { 0 };
    for (size_t i = 0; i < n; i += same_line(r + i, n - i))
        line_branches(f, c, r + i, same_line(r + i, n - i), &b);
    if (b.found)
        fprintf(f, "BRF:%" PRIu64 "\nBRH:%" PRIu64 "\n", b.found, b.hit);
    for (size_t i = 0; i < n; i += same_line(r + i, n - i)) {
        uint64_t e = line_count(c, r + i, same_line(r + i, n - i));
        fprintf(f, "DA:%" PRIu32 ",%" PRIu64 "\n", r[i].line, e);
        l.found++;
        l.hit += e != 0;
    }
    fprintf(f, "LF:%" PRIu64 "\nLH:%" PRIu64 "\n", l.found, l.hit);
}

/* How many of items (stride bytes apart, each starting with its file
 * pointer) belong to file. */
static size_t run_of(const void *items, size_t n, size_t stride, const char *file)
{
    size_t k = 0;
    while (k < n && *(const char *const *)((const char *)items + k * stride) == file)
        k++;
    return k;
}

static void write_files(FILE *f, const rvt_cov *c, const rvt_dw_info *dw)
{
    size_t ri = 0, fi = 0;
    for (size_t i = 0; i < dw->nfiles; i++) {
        const char *file = dw->files[i];
        size_t nr = run_of(dw->rows + ri, dw->nrows - ri, sizeof *dw->rows, file);
        size_t nf = run_of(dw->funcs + fi, dw->nfuncs - fi, sizeof *dw->funcs, file);
        if (nr || nf) {
            fprintf(f, "TN:\nSF:%s\n", file);
            write_funcs(f, c, dw->funcs + fi, nf);
            write_lines(f, c, dw->rows + ri, nr);
            fputs("end_of_record\n", f);
        }
        ri += nr;
        fi += nf;
    }
}

static void load_dwarf(rvt_dw_info *dw, rvt_image *img)
{
    size_t n = rvt_image_segment_count(img);
    for (size_t i = 0; i < n; i++) {
        const char *file = rvt_out_image_file(img, i);
        if (file)
            rvt_dw_load(dw, file);
    }
    rvt_dw_sort(dw);
}

static void lcov_finish(void *state)
{
    rvt_cov_out *o = state;
    rvt_cov_settle(o->cov);         /* the block counts held back */
    rvt_dw_info dw = { 0 };
    load_dwarf(&dw, o->cov->img);
    write_files(o->f, o->cov, &dw);
    rvt_dw_free(&dw);
    rvt_cov_out_free(o);
}

const rvt_out_writer rvt_out_lcov_writer = {
    .name = "lcov", .needs_image = true, .file_option = true,
    .open = rvt_cov_out_open, .event = rvt_cov_out_event, .finish = lcov_finish,
    .block = rvt_cov_out_block, .blocks = rvt_cov_out_blocks,
};
