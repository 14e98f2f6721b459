/* The coverage map (cov_map.h).  A conditional branch's outcome is read
 * from the instruction that retires next: the fall-through address means
 * not taken, the branch target taken (E-Trace 4.1.1 / N-Trace 2: the flow
 * a decoder rebuilds is exactly that sequence).  Anything else in between
 * (a trap, a loss, a decode error, a stop) leaves that outcome unknown. */
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "util/grow.h"
#include "out/cov_map.h"

static bool add_range(rvt_cov *c, size_t *cap, uint64_t start, uint64_t end, const char *name)
{
    if (end <= start || (end - start) / 2 > SIZE_MAX / sizeof(rvt_cov_cell))
        return true;           /* nothing to map */
    rvt_cov_range *r = rvt_grow(c->range, cap, c->nrange + 1, sizeof *r, 8);
    if (!r)
        return false;
    c->range = r;
    rvt_cov_cell *cell = calloc((size_t)((end - start + 1) / 2), sizeof *cell);
    if (!cell)
        return false;
    c->range[c->nrange++] = (rvt_cov_range){ start, end, name, cell };
    return true;
}

static bool map_code(rvt_cov *c)
{
    size_t cap = 0;
    uint64_t s, e;
    const char *name;
    for (size_t i = 0; rvt_image_code_range(c->img, i, &s, &e, &name); i++)
        if (!add_range(c, &cap, s, e, name))
            return false;
    if (c->nrange)
        return true;
    for (size_t i = 0; i < rvt_image_segment_count(c->img); i++) {
        const rvt_segment *g = rvt_image_segment(c->img, i);
        if ((g->flags & PF_X) || !g->flags)     /* raw binaries carry no flags */
            if (!add_range(c, &cap, g->vaddr, g->vaddr + g->memsz, g->name))
                return false;
    }
    return true;
}

rvt_cov *rvt_cov_new(rvt_image *img)
{
    rvt_cov *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->img = img;
    if (img && !map_code(c)) {
        rvt_cov_free(c);
        return NULL;
    }
    return c;
}

void rvt_cov_free(rvt_cov *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nrange; i++)
        free(c->range[i].cell);
    free(c->range);
    free(c);
}

static rvt_cov_cell *cell_at(rvt_cov *c, uint64_t pc)
{
    const rvt_cov_range *r = c->nrange ? &c->range[c->last] : NULL;
    if (r && pc - r->start < r->end - r->start)
        return &r->cell[(pc - r->start) >> 1];
    for (size_t i = 0; i < c->nrange; i++) {
        r = &c->range[i];
        if (pc - r->start < r->end - r->start) {
            c->last = i;
            return &r->cell[(pc - r->start) >> 1];
        }
    }
    return NULL;
}

const rvt_cov_cell *rvt_cov_at(const rvt_cov *c, uint64_t pc)
{
    return cell_at((rvt_cov *)c, pc);
}

/* The previous instruction was a conditional branch: pc says which way. */
static void branch_outcome(rvt_cov *c, uint64_t pc)
{
    rvt_cov_cell *b = cell_at(c, c->prev_pc);
    if (!b)
        return;
    if (pc == c->prev_pc + c->prev_len)
        b->fall++;
    else if (pc == c->prev_pc + (uint64_t)c->prev_imm)
        b->taken++;
}

static void insn(rvt_cov *c, uint64_t pc)
{
    if (c->prev_branch)
        branch_outcome(c, pc);
    c->prev_branch = false;
    c->insns++;
    rvt_cov_cell *k = cell_at(c, pc);
    if (!k) {
        c->outside++;
        return;
    }
    k->exec++;
    const rvt_insn *i = rvt_image_insn(c->img, pc);
    if (i && i->jclass == RVT_JC_BRANCH) {
        c->prev_branch = true;
        c->prev_pc = pc;
        c->prev_len = i->len;
        c->prev_imm = i->imm;
    }
}

void rvt_cov_event(rvt_cov *c, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_INSN:
        insn(c, ev->pc);
        break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:
        c->prev_branch = false;     /* the next instruction says nothing of a branch */
        break;
    default:
        break;
    }
}

void *rvt_cov_out_open(FILE *f, rvt_image *img)
{
    rvt_cov_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->f = f;
    if (!(o->cov = rvt_cov_new(img))) {
        free(o);
        return NULL;
    }
    return o;
}

void rvt_cov_out_event(void *state, const rvt_flow_event *ev)
{
    rvt_cov_event(((rvt_cov_out *)state)->cov, ev);
}

void rvt_cov_out_free(rvt_cov_out *o)
{
    if (!o)
        return;
    rvt_cov_free(o->cov);
    free(o);
}
