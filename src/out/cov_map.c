/* The coverage map (cov_map.h).  A conditional branch's outcome is read
 * from the instruction that retires next: the fall-through address means
 * not taken, the branch target taken (E-Trace 4.1.1 / N-Trace 2: the flow
 * a decoder rebuilds is exactly that sequence).  Anything else in between
 * (a trap, a loss, a decode error, a stop) leaves that outcome unknown. */
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include "util/grow.h"
#include "rvtrace/flow.h"
#include "out/cov_map.h"
#include "image/image_gen.h"

/* rvt_cov_range.kind: what the instruction there is, decoded once, so the
 * per-instruction path needs no image lookup: its length in the low bits,
 * COV_BRANCH for a conditional branch, COV_DECODED always.  The path has
 * no data-dependent branch either: every instruction "records an outcome",
 * into no_branch unless the previous one was a conditional branch. */
enum { COV_LEN = 0x0f, COV_BRANCH = 0x40, COV_DECODED = 0x80 };

static void free_range(rvt_cov_range *r)
{
    free(r->exec);
    free(r->kind);
    free(r->imm);
    free(r->ways);
}

/* The half-words of [start, end): a range's array entries. */
static size_t halfwords(uint64_t start, uint64_t end)
{
    return (size_t)((end - start + 1) / 2);
}

static bool add_range(rvt_cov *c, uint64_t start, uint64_t end, const char *name)
{
    if (end <= start || (end - start) / 2 > SIZE_MAX / sizeof(uint64_t))
        return true;           /* nothing to map */
    rvt_cov_range *rs = rvt_grow(c->range, &c->cap, c->nrange + 1, sizeof *rs, 8);
    if (!rs)
        return false;
    c->range = rs;
    size_t n = halfwords(start, end);
    rvt_cov_range r = { start, end, name, calloc(n, sizeof *r.exec), calloc(n, 1),
                        calloc(n, sizeof *r.imm), calloc(n, sizeof *r.ways) };
    if (!r.exec || !r.kind || !r.imm || !r.ways) {
        free_range(&r);
        return false;
    }
    c->range[c->nrange++] = r;
    return true;
}

/* Maps the parts of [start, end) that ranges [from, upto) do not hold
 * (those before from do not overlap it): every address in one range,
 * the first mapped, so a count has one place and a listing one line. */
static bool add_uncovered(rvt_cov *c, size_t from, size_t upto, uint64_t start, uint64_t end,
                          const char *name)
{
    for (size_t i = from; i < upto && start < end; i++) {
        uint64_t rs = c->range[i].start, re = c->range[i].end;
        if (re <= start || end <= rs)
            continue;
        if (start < rs && !add_uncovered(c, i + 1, upto, start, rs, name))
            return false;
        start = re;
    }
    return start >= end || add_range(c, start, end, name);
}

static bool map(rvt_cov *c, uint64_t start, uint64_t end, const char *name)
{
    return add_uncovered(c, 0, c->nrange, start, end, name);
}

/* Maps what the image gained since the map last looked (at open: all of
 * it): its executable sections (SHF_EXECINSTR), or while it has none its
 * executable segments.  A load adds its segments, so the generation
 * moves whenever there is something new here. */
static bool map_new_code(rvt_cov *c)
{
    uint64_t s, e;
    const char *name;
    size_t ncode = rvt_image_code_count(c->img), nseg = rvt_image_segment_count(c->img);
    for (size_t i = c->code_seen; i < ncode && rvt_image_code_range(c->img, i, &s, &e, &name); i++)
        if (!map(c, s, e, name))
            return false;
    c->code_seen = ncode;
    for (size_t i = c->seg_seen; !ncode && i < nseg; i++) {
        const rvt_segment *g = rvt_image_segment(c->img, i);
        if ((g->flags & PF_X) || !g->flags)     /* raw binaries carry no flags */
            if (!map(c, g->vaddr, g->vaddr + g->memsz, g->name))
                return false;
    }
    c->seg_seen = nseg;
    return true;
}

rvt_cov *rvt_cov_new(rvt_image *img)
{
    rvt_cov *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->img = img;
    c->img_gen = img_generation_at(img);
    c->gen = *c->img_gen;
    c->prev.ways = &c->no_branch;
    if (!(c->blk = calloc(RVT_COV_BLOCKS, sizeof *c->blk)) || (img && !map_new_code(c))) {
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
        free_range(&c->range[i]);
    free(c->range);
    free(c->blk);
    free(c);
}

/* The range holding pc (the last one used first), or NULL. */
static inline rvt_cov_range *range_of(rvt_cov *c, uint64_t pc)
{
    rvt_cov_range *r = c->nrange ? &c->range[c->last] : NULL;
    if (r && pc - r->start < r->end - r->start)
        return r;
    for (size_t i = 0; i < c->nrange; i++) {
        r = &c->range[i];
        if (pc - r->start < r->end - r->start) {
            c->last = i;
            return r;
        }
    }
    return NULL;
}

bool rvt_cov_get(const rvt_cov *c, uint64_t pc, rvt_cov_cell *out)
{
    *out = (rvt_cov_cell){ 0 };
    for (size_t i = 0; i < c->nrange; i++) {
        const rvt_cov_range *r = &c->range[i];
        if (pc - r->start < r->end - r->start) {
            size_t k = (size_t)((pc - r->start) >> 1);
            *out = (rvt_cov_cell){ r->exec[k], r->ways[k].taken, r->ways[k].fall };
            return true;
        }
    }
    return false;
}

static uint8_t decode_kind(rvt_cov *c, rvt_cov_range *r, size_t k, uint64_t pc)
{
    const rvt_insn *i = rvt_image_insn(c->img, pc);
    uint8_t len = i && i->len ? i->len : 2;
    bool branch = i && i->jclass == RVT_JC_BRANCH;
    r->imm[k] = branch ? (int32_t)i->imm : 0;
    return r->kind[k] = (uint8_t)(COV_DECODED | (branch ? COV_BRANCH : 0) | len);
}

/* The previous instruction's outcome, if it was a conditional branch,
 * now that pc retires after it, `times` times over. */
static inline void outcomes(const rvt_cov_prev *prev, uint64_t pc, uint32_t times)
{
    prev->ways->fall += (pc == prev->fall) * times;
    prev->ways->taken += (pc == prev->target && pc != prev->fall) * times;
}

static inline void outcome(const rvt_cov_prev *prev, uint64_t pc)
{
    outcomes(prev, pc, 1);
}

/* The instruction at pc retired; returns its length (to walk a block). */
static unsigned insn(rvt_cov *c, uint64_t pc)
{
    outcome(&c->prev, pc);
    c->prev.ways = &c->no_branch;
    c->insns++;
    rvt_cov_range *r = range_of(c, pc);
    if (!r) {
        c->outside++;
        const rvt_insn *i = rvt_image_insn(c->img, pc);
        return i && i->len ? i->len : 2;
    }
    size_t k = (size_t)((pc - r->start) >> 1);
    r->exec[k]++;
    uint8_t kd = r->kind[k];
    if (__builtin_expect(!kd, 0))
        kd = decode_kind(c, r, k, pc);
    c->prev = (rvt_cov_prev){ kd & COV_BRANCH ? &r->ways[k] : &c->no_branch, pc + (kd & COV_LEN),
                              pc + (uint64_t)(int64_t)r->imm[k] };
    return kd & COV_LEN;
}

/* One instruction after another, each counted on its own. */
static void insn_by_insn(rvt_cov *c, const rvt_block *b)
{
    uint64_t pc = b->start_pc;
    for (uint64_t n = 1; n < b->ninsn; n++)     /* all but the last move on by their length */
        pc += insn(c, pc);
    insn(c, b->end_pc);
}

/* The entry's held-back retirements to its instructions. */
static void settle_blk(rvt_cov *c, rvt_cov_blk *e)
{
    if (!e->count)
        return;
    rvt_cov_range *r = &c->range[e->range];
    for (uint32_t i = 0, k = e->k; i < e->n; i++) {
        r->exec[k] += e->count;
        k += (r->kind[k] & COV_LEN) / 2;
    }
    e->count = 0;
}

void rvt_cov_settle(rvt_cov *c)
{
    for (size_t i = 0; i < RVT_COV_BLOCKS; i++)
        settle_blk(c, &c->blk[i]);
}

/* The code changed in spans we[0..n) (widened to the instructions that
 * reach into them): a held count goes to the instructions it was counted
 * on, walked with the lengths they had then (still in kind), before the
 * blocks and kinds there go.  Blocks and kinds elsewhere stay, so a JIT
 * patching a little of a big image pays for that little.  The previous
 * instruction's outcome stays: it retired as it was. */
static void forget_spans(rvt_cov *c, const img_span *we, size_t n)
{
    for (size_t i = 0; i < RVT_COV_BLOCKS; i++) {
        rvt_cov_blk *e = &c->blk[i];
        for (size_t j = 0; e->n && j < n; j++)
            if (e->start < we[j].hi && e->end >= we[j].lo) {
                settle_blk(c, e);
                *e = (rvt_cov_blk){ 0 };
            }
    }
    for (size_t j = 0; j < n; j++)
        for (size_t i = 0; i < c->nrange; i++) {
            rvt_cov_range *r = &c->range[i];
            uint64_t lo = we[j].lo > r->start ? we[j].lo : r->start;
            uint64_t hi = we[j].hi < r->end ? we[j].hi : r->end;
            size_t k0 = (size_t)((lo - r->start) >> 1);
            if (lo < hi)
                memset(&r->kind[k0], 0, halfwords(r->start, hi) - k0);
        }
}

/* The image no longer says what changed: all of it may have. */
static void forget_all(rvt_cov *c)
{
    img_span all = { 0, UINT64_MAX };
    forget_spans(c, &all, 1);
}

/* The longest instruction (isa.h: 8 bytes) that starts before a changed
 * byte and reaches it starts this much before it. */
#define COV_REACH 7u

/* The code changed since c->gen: forget what it made stale, then map the
 * code the image gained (out of memory: that counts as outside). */
static __attribute__((noinline)) void follow_code(rvt_cov *c)
{
    img_span ch[IMG_CHANGE_LOG];
    size_t n;
    if (img_changes_since(c->img, c->gen, ch, &n)) {
        for (size_t j = 0; j < n; j++)
            ch[j].lo = ch[j].lo > COV_REACH ? ch[j].lo - COV_REACH : 0;
        forget_spans(c, ch, n);
    } else {
        forget_all(c);
    }
    c->gen = *c->img_gen;
    map_new_code(c);
}

/* Once per call of an entry (a batch: the code cannot change inside one). */
static inline void sync_code(rvt_cov *c)
{
    if (__builtin_expect(*c->img_gen != c->gen, 0))
        follow_code(c);
}

/* e made b's entry: its instructions decoded, one range holding them all
 * and their lengths leading to b's last one; false (e left empty) when
 * not so. */
static bool fill_blk(rvt_cov *c, rvt_cov_blk *e, const rvt_block *b)
{
    settle_blk(c, e);
    e->n = 0;
    rvt_cov_range *r = range_of(c, b->start_pc);
    if (!r || b->ninsn > RVT_COV_BLOCK_MAX || b->end_pc - r->start >= r->end - r->start)
        return false;
    size_t k = (size_t)((b->start_pc - r->start) >> 1), last = k;
    uint64_t pc = b->start_pc;
    for (uint64_t i = 0; i < b->ninsn; i++) {
        if (pc - r->start >= r->end - r->start)
            return false;
        last = (size_t)((pc - r->start) >> 1);
        uint8_t kd = r->kind[last] ? r->kind[last] : decode_kind(c, r, last, pc);
        if (i + 1 < b->ninsn)
            pc += kd & COV_LEN;
    }
    if (pc != b->end_pc)
        return false;
    uint8_t kd = r->kind[last];
    *e = (rvt_cov_blk){ b->start_pc, b->end_pc, 0, (uint32_t)b->ninsn, (uint32_t)k, (size_t)(r - c->range),
                        { kd & COV_BRANCH ? &r->ways[last] : &c->no_branch, pc + (kd & COV_LEN),
                          pc + (uint64_t)(int64_t)r->imm[last] } };
    return true;
}

/* A block counted once in its entry: the previous block's outcome from
 * its first pc, as insn() does; only its last instruction can be a
 * branch (rvt_block), so the others record none.  *prev and *insns: c's,
 * or the batch loop's copies of them in locals (a store through the
 * outcome counts may alias c's fields: they were reloaded every block).
 * Returns the entry, or NULL when b was counted instruction by
 * instruction. */
static inline __attribute__((always_inline)) rvt_cov_blk *block(rvt_cov *c, const rvt_block *b,
                                                                 rvt_cov_prev *prev, uint64_t *insns)
{
    rvt_cov_blk *e = &c->blk[(b->start_pc >> 1) & (RVT_COV_BLOCKS - 1)];
    if ((e->start != b->start_pc || e->n != b->ninsn || e->end != b->end_pc || !e->n) && !fill_blk(c, e, b)) {
        c->prev = *prev;
        c->insns = *insns;
        insn_by_insn(c, b);
        *prev = c->prev;
        *insns = c->insns;
        return NULL;
    }
    outcome(prev, b->start_pc);
    *insns += e->n;
    e->count++;
    *prev = e->last;
    return e;
}

void rvt_cov_block(rvt_cov *c, const rvt_block *b)
{
    sync_code(c);
    block(c, b, &c->prev, &c->insns);
}

/* How many of b[0..n) are the block *like (the same instructions). */
static inline size_t repeats(const rvt_block *b, size_t n, const rvt_block *like)
{
    size_t k = 0;
    while (k < n && b[k].start_pc == like->start_pc && b[k].end_pc == like->end_pc &&
           b[k].ninsn == like->ninsn)
        k++;
    return k;
}

/* The loop here, so that block() is inline in it (issue #17).  A block
 * that repeats at once (a loop of one block: 40 % of long.elf's) is
 * counted for all its repeats in one step: each retires after the same
 * branch, to the same pc (one outcome, times over), where a count per
 * block waited on the store of the one before. */
uint64_t rvt_cov_blocks(rvt_cov *c, const rvt_block *b, size_t n)
{
    sync_code(c);
    rvt_cov_prev prev = c->prev;
    uint64_t insns = c->insns, had = insns;
    for (size_t i = 0; i < n;) {
        rvt_cov_blk *e = block(c, &b[i], &prev, &insns);
        size_t k = e ? repeats(&b[i + 1], n - i - 1, &b[i]) : 0;
        if (k) {
            outcomes(&prev, b[i].start_pc, (uint32_t)k);
            insns += k * e->n;
            e->count += k;
        }
        i += 1 + k;
    }
    c->prev = prev;
    c->insns = insns;
    return insns - had;
}

void rvt_cov_event(rvt_cov *c, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_INSN:
        sync_code(c);
        insn(c, ev->pc);
        break;
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:
        c->prev.ways = &c->no_branch;   /* the next one says nothing of a branch */
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

void rvt_cov_out_block(void *state, const rvt_block *b)
{
    rvt_cov_block(((rvt_cov_out *)state)->cov, b);
}

uint64_t rvt_cov_out_blocks(void *state, const rvt_block *b, size_t n)
{
    return rvt_cov_blocks(((rvt_cov_out *)state)->cov, b, n);
}

void rvt_cov_out_free(rvt_cov_out *o)
{
    if (!o)
        return;
    rvt_cov_free(o->cov);
    free(o);
}
