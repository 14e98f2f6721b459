/* The "coverage-listing" writer: instruction-level coverage of the image's
 * code without debug info (docs/coverage.md, docs/formats.md).  Every
 * instruction of every executable section, executed or not, with its
 * count; every conditional branch both-ways, one-way or never. */
#include <inttypes.h>
#include "out/writers.h"
#include "out/cov_map.h"
#include "out/event_text.h"

typedef struct cl_totals {
    uint64_t insns, hit, branches, both, one;
} cl_totals;

static const char *branch_ways(const rvt_cov_cell *k)
{
    if (k->taken && k->fall)
        return "both-ways";
    return k->taken || k->fall ? "one-way" : "never";
}

static void count_branch(cl_totals *t, const rvt_cov_cell *k)
{
    t->branches++;
    t->both += k->taken && k->fall;
    t->one += !k->taken != !k->fall;
}

/* One instruction line: address, +/- (executed or not), count, text. */
static void write_insn(rvt_cov_out *o, const rvt_cov_range *r, uint64_t pc, const rvt_insn *insn,
                       cl_totals *t)
{
    size_t i = (size_t)((pc - r->start) >> 1);
    const rvt_cov_cell cell = { r->exec[i], r->ways[i].taken, r->ways[i].fall }, *k = &cell;
    char text[128];
    const rvt_insn *dis;
    rvt_out_disasm(o->cov->img, pc, &dis, text, sizeof text);
    fprintf(o->f, "    %8" PRIx64 ": %c %10" PRIu64 "  %s", pc, k->exec ? '+' : '-', k->exec, text);
    if (insn && insn->jclass == RVT_JC_BRANCH) {
        fprintf(o->f, "  ; branch %s, taken %" PRIu32 ", not taken %" PRIu32, branch_ways(k),
                k->taken, k->fall);
        count_branch(t, k);
    }
    fputc('\n', o->f);
    t->insns++;
    t->hit += k->exec != 0;
}

/* Length of the instruction listed at pc: its encoding's, unless the
 * sweep would step over a halfword that retired on its own (data in the
 * section shifted the sweep): then stop at that halfword. */
static uint64_t step(const rvt_cov_range *r, uint64_t pc, const rvt_insn *insn)
{
    uint64_t len = insn && insn->len ? insn->len : 2;
    for (uint64_t h = 2; h < len && pc + h < r->end; h += 2)
        if (r->exec[(pc + h - r->start) >> 1])
            return h;
    return len;
}

static void write_range(rvt_cov_out *o, const rvt_cov_range *r, cl_totals *t)
{
    fprintf(o->f, "# section %s %" PRIx64 "-%" PRIx64 "\n", r->name ? r->name : "?", r->start, r->end);
    const char *last = NULL;
    for (uint64_t pc = r->start; pc < r->end;) {
        uint64_t off = 0;
        const char *sym = rvt_image_symbol(o->cov->img, pc, &off);
        if (sym && (sym != last || off == 0))
            fprintf(o->f, "%016" PRIx64 " <%s>:\n", pc - off, sym);
        last = sym;
        const rvt_insn *insn = rvt_image_insn(o->cov->img, pc);
        write_insn(o, r, pc, insn, t);
        pc += step(r, pc, insn);
    }
}

static void coverage_listing_finish(void *state)
{
    rvt_cov_out *o = state;
    rvt_cov_settle(o->cov);         /* the block counts held back */
    cl_totals t = { 0 };
    fputs("# rvtrace coverage-listing 1\n", o->f);
    for (size_t i = 0; i < o->cov->nrange; i++)
        write_range(o, &o->cov->range[i], &t);
    fprintf(o->f, "# instructions: %" PRIu64 " of %" PRIu64 " executed\n", t.hit, t.insns);
    fprintf(o->f, "# branches: %" PRIu64 " both-ways, %" PRIu64 " one-way, %" PRIu64 " never, of %" PRIu64 "\n",
            t.both, t.one, t.branches - t.both - t.one, t.branches);
    if (o->cov->outside)
        fprintf(o->f, "# %" PRIu64 " retired instructions lie outside the image's code\n", o->cov->outside);
    rvt_cov_out_free(o);
}

const rvt_out_writer rvt_out_coverage_listing_writer = {
    .name = "coverage-listing", .needs_image = true, .file_option = true,
    .open = rvt_cov_out_open, .event = rvt_cov_out_event, .finish = coverage_listing_finish,
    .block = rvt_cov_out_block, .blocks = rvt_cov_out_blocks,
};
