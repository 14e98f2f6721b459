/* A profile of one piece of a trace (rvtrace/profile_piece.h): the
 * profile of profile.c, its stacks relative to the unknown stack the piece
 * began with (callstack.h rel), and the few facts about its start that
 * rvt_profile_compose needs to resolve them; written as lines of numbers,
 * the functions named by an address in them. */
#include <inttypes.h>
#include <stdlib.h>
#include "rvtrace/profile_piece.h"
#include "rvtrace/status.h"
#include "out/profile.h"
#include "out/profile_piece.h"

rvt_profile *rvt_profile_piece_new(rvt_image *img)
{
    rvt_profile *p = rvt_profile_new(img);
    if (!p)
        return NULL;
    if (!(p->piece = calloc(1, sizeof *p->piece))) {
        rvt_profile_free(p);
        return NULL;
    }
    p->fo->rel_harts = true;
    p->fo->cs->rel = true;          /* hart 0, made before the flag */
    p->ctx_inherited = true;
    return p;
}

void rvt_prof_piece_free(struct rvt_prof_piece *pc)
{
    if (!pc)
        return;
    rvt_keymap_free(&pc->rel_edges);
    free(pc->rel_calls);
    free(pc);
}

void rvt_prof_piece_call(rvt_profile *p, const char *caller, const char *callee, int64_t rel_depth)
{
    struct rvt_prof_piece *pc = p->piece;
    size_t ix = rvt_keymap_find(&p->fn_ix, (uint64_t)(uintptr_t)callee, 0);   /* its leaf: known */
    int32_t d = rel_depth > INT32_MAX ? INT32_MAX : rel_depth < INT32_MIN ? INT32_MIN : (int32_t)rel_depth;
    uint64_t *n = rvt_prof_counter(p, &pc->rel_edges, &pc->rel_calls, &pc->rel_cap, (uint64_t)(uintptr_t)caller,
                                   (uint64_t)ix | (uint64_t)(uint32_t)d << 32);
    if (n)
        ++*n;
}

static rvt_piece_hart *hart_of(struct rvt_prof_piece *pc, uint16_t src)
{
    for (size_t i = 0; i < pc->nharts; i++)
        if (pc->harts[i].src == src)
            return &pc->harts[i];
    if (pc->nharts == RVT_PIECE_HARTS) {
        pc->refused = true;
        return NULL;
    }
    rvt_piece_hart *h = &pc->harts[pc->nharts++];
    *h = (rvt_piece_hart){ .src = src, .head_entry = SIZE_MAX };
    return h;
}

/* Before the event reaches the profile: what it tells of the start. */
static void note_start(rvt_profile *p, rvt_piece_hart *h, const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        if (!h->started)            /* pushes the piece before's leaf */
            h->traps++;
        break;
    case RVT_EV_LOST:
    case RVT_EV_ERROR:
    case RVT_EV_STOP:               /* the stack is forgotten: known again */
        h->started = true;
        break;
    case RVT_EV_TIME:
        if (!p->fo->have_time) {    /* its cycles since the piece before's last */
            h->head_time = true;
            h->head_t = ev->aux;
            h->head_entry = h->started ? p->fo->cur : RVT_PIECE_INHERIT;
        }
        break;
    case RVT_EV_END: p->piece->ended = true; break;
    default: break;
    }
}

void rvt_prof_piece_event(rvt_profile *p, const rvt_flow_event *ev)
{
    rvt_piece_hart *h = hart_of(p->piece, ev->src);
    if (!h)
        return;
    rvt_folded_src(p->fo, ev->src);             /* its stack, time and entry are current */
    bool first = ev->kind == RVT_EV_INSN && !h->started;
    note_start(p, h, ev);
    rvt_prof_feed(p, ev);
    if (first) {
        h->started = h->by_insn = true;
        h->first = p->fo->cs->leaf;
    }
}

/* ---- writing ---- */

/* A function's index in the piece's table, UINT64_MAX for none. */
static uint64_t fn_ix(const rvt_profile *p, const char *name)
{
    size_t i = name ? rvt_keymap_find(&p->fn_ix, (uint64_t)(uintptr_t)name, 0) : SIZE_MAX;
    return i == SIZE_MAX ? UINT64_MAX : (uint64_t)i;
}

static void put_names(FILE *f, const rvt_profile *p, const char *const *names, size_t n)
{
    fprintf(f, " %zu", n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, " %" PRIu64, fn_ix(p, names[i]));
}

static void put_table(FILE *f, const char *tag, const rvt_keymap *m, const uint64_t *counts, bool two)
{
    for (size_t i = 0; i < m->n; i++) {
        fprintf(f, "%s %" PRIu64, tag, m->keys[i].a);
        if (two)
            fprintf(f, " %" PRIu64, m->keys[i].b);
        fprintf(f, " %" PRIu64 "\n", counts[i]);
    }
}

static void put_profile(FILE *f, const rvt_profile *p)
{
    const struct rvt_prof_piece *pc = p->piece;
    uint64_t context = rvt_prof_context(p, pc->nharts ? pc->harts[0].src : 0);   /* its one hart's */
    fprintf(f, "%s\ninsns %" PRIu64 "\nerrors %" PRIu64 "\nlost %" PRIu64 "\nend %d %d\n", RVT_PIECE_MAGIC,
            p->fo->n, p->errors, p->lost, p->piece->ended, p->incomplete);
    fprintf(f, "time %d %" PRIu64 " %" PRIu64 "\ncontext %d %" PRIu64 " %" PRIu64 "\nrun %u %u\npriv",
            p->have_time, p->t_first, p->t_last, p->ctx_inherited, context, p->head_ctx_insns,
            p->run_priv, p->run_src);
    for (unsigned m = 0; m < 8; m++)
        fprintf(f, " %" PRIu64, p->priv_insns[m]);
    fputc('\n', f);
    for (size_t i = 0; i < p->fn_ix.n; i++)
        fprintf(f, "fn %" PRIu64 " %" PRIu64 "\n", p->fns[i].pc, p->fns[i].calls);
    put_table(f, "ctx", &p->ctx_ix, p->ctx_insns, false);
    put_table(f, "hart", &p->hart_ix, p->hart_insns, false);
    put_table(f, "trap", &p->trap_ix, p->trap_counts, true);
    for (size_t i = 0; i < p->edge_ix.n; i++) {
        const char *a = (const char *)(uintptr_t)p->edge_ix.keys[i].a;
        const char *b = (const char *)(uintptr_t)p->edge_ix.keys[i].b;
        fprintf(f, "edge %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", fn_ix(p, a), fn_ix(p, b), p->edge_calls[i]);
    }
    for (size_t i = 0; i < pc->rel_edges.n; i++) {
        const char *a = (const char *)(uintptr_t)pc->rel_edges.keys[i].a;
        uint64_t b = pc->rel_edges.keys[i].b;
        fprintf(f, "rel-edge %" PRIu64 " %" PRIu64 " %" PRId64 " %" PRIu64 "\n", fn_ix(p, a), b & 0xffffffffu,
                (int64_t)(int32_t)(uint32_t)(b >> 32), pc->rel_calls[i]);
    }
    const rvt_folded *fo = p->fo;
    for (size_t i = 0; i < fo->nents; i++) {
        const fo_entry *e = &fo->ents[i];
        fprintf(f, "stack %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, fo->pents[i].base, e->count, e->cycles,
                fo->pents[i].deep);
        put_names(f, p, &fo->pool[e->off], e->len);
        fputc('\n', f);
    }
}

/* The active hart (current in p->fo): its start and where it ended. */
static void put_hart(FILE *f, const rvt_profile *p, const rvt_piece_hart *h)
{
    const rvt_folded *fo = p->fo;
    const rvt_callstack *cs = fo->cs;
    fprintf(f, "cs %u %d %d %" PRIu64 " %" PRIu64 " %d %" PRIu64 " %" PRIu64, h->src, h->started, h->by_insn,
            h->traps, fn_ix(p, h->first), h->head_time, h->head_t, (uint64_t)h->head_entry);
    fprintf(f, " %d %" PRIu64 " %" PRId64 " %" PRIu64 " %" PRIu64 " %u %" PRIu64 " %d %" PRIu64 " %" PRIu64,
            cs->rel, cs->under, cs->max_rel, cs->max_depth, fn_ix(p, cs->leaf), cs->pending, (uint64_t)fo->cur,
            fo->have_time, fo->time, cs->depth);
    put_names(f, p, cs->stk, rvt_cs_named(cs));
    fputc('\n', f);
}

int rvt_profile_piece_write(rvt_profile *p, FILE *f)
{
    if (!p || !p->piece)
        return RVT_ERR_INVAL;
    struct rvt_prof_piece *pc = p->piece;
    if (pc->refused || pc->nharts > 1 || p->oom)
        return p->oom && !pc->refused && pc->nharts <= 1 ? RVT_ERR_NOMEM : RVT_ERR_LIMIT;
    if (pc->nharts)
        rvt_folded_src(p->fo, pc->harts[0].src);
    rvt_folded_end_run(p->fo);                  /* every count in its entry */
    rvt_prof_end_run(p, p->fo->n);
    put_profile(f, p);
    if (pc->nharts)
        put_hart(f, p, &pc->harts[0]);
    fputs("end-piece\n", f);
    return ferror(f) ? RVT_ERR_IO : 0;
}
