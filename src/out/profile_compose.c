/* rvt_profile_compose (rvtrace/profile_piece.h): the next piece's
 * profile (profile_piece.c's lines) added to a profile of the pieces
 * before it.  Counts and tables add up; the piece's stacks relative to its
 * unknown start are resolved with the stack the profile ends with (the
 * pieces before's last), as one profile fed every event would have had it:
 * a relative stack of base b is the start stack less b - 1 of its frames,
 * then the piece's own frames; the piece's first instruction applies the
 * stack effect of the instruction before (a call is counted then), unless
 * a trap came first (the trap applies it and pushes the interrupted
 * function, callstack.c); its first timestamp charges the cycles since the
 * last one before it to the stack current then.  docs/parallel.md
 * "Profiles of pieces". */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/profile_piece.h"
#include "rvtrace/status.h"
#include "util/grow.h"
#include "out/profile.h"
#include "out/profile_piece.h"

/* ---- reading: one row of numbers per line, by tag ---- */

typedef struct prow {
    char tag[12];
    size_t at, n;                  /* values v[at..at+n) */
} prow;

typedef struct parsed {
    prow *rows;
    size_t nrows, rcap;
    uint64_t *v;
    size_t nv, vcap;
    size_t nfns, nstacks;
} parsed;

static void parsed_free(parsed *ps)
{
    free(ps->rows);
    free(ps->v);
}

static int add_value(parsed *ps, uint64_t x)
{
    uint64_t *g = rvt_grow(ps->v, &ps->vcap, ps->nv + 1, sizeof *g, 256);
    if (!g)
        return RVT_ERR_NOMEM;
    ps->v = g;
    ps->v[ps->nv++] = x;
    return 0;
}

/* One line "tag n n ...": its row. */
static int parse_line(parsed *ps, const char *s, const char *end)
{
    prow *g = rvt_grow(ps->rows, &ps->rcap, ps->nrows + 1, sizeof *g, 64);
    if (!g)
        return RVT_ERR_NOMEM;
    ps->rows = g;
    prow *r = &ps->rows[ps->nrows++];
    size_t k = 0;
    while (s < end && *s != ' ' && k < sizeof r->tag - 1)
        r->tag[k++] = *s++;
    r->tag[k] = 0;
    r->at = ps->nv;
    while (s < end) {
        if (*s++ != ' ' || s == end || !(*s == '-' || (*s >= '0' && *s <= '9')))
            return RVT_ERR_FORMAT;
        char *stop;
        uint64_t x = strtoull(s, &stop, 10);    /* -1 reads as UINT64_MAX */
        if (stop > end || stop == s)
            return RVT_ERR_FORMAT;
        s = stop;
        int rc = add_value(ps, x);
        if (rc)
            return rc;
    }
    r->n = ps->nv - r->at;
    return 0;
}

static int parse(parsed *ps, const char *buf, size_t len)
{
    size_t magic = strlen(RVT_PIECE_MAGIC);
    if (len <= magic || memcmp(buf, RVT_PIECE_MAGIC "\n", magic + 1))
        return RVT_ERR_FORMAT;
    const char *s = buf + magic + 1, *end = buf + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        if (!nl || memchr(s, 0, (size_t)(nl - s)))
            return RVT_ERR_FORMAT;
        if (nl - s == 9 && !memcmp(s, "end-piece", 9))
            return nl + 1 == end ? 0 : RVT_ERR_FORMAT;
        int rc = parse_line(ps, s, nl);
        if (rc)
            return rc;
        s = nl + 1;
    }
    return RVT_ERR_FORMAT;                      /* no end line: cut short */
}

/* The values of the one row tagged tag, which must have n of them. */
static const uint64_t *single(const parsed *ps, const char *tag, size_t n)
{
    const prow *found = NULL;
    for (size_t i = 0; i < ps->nrows; i++) {
        if (strcmp(ps->rows[i].tag, tag))
            continue;
        if (found)
            return NULL;
        found = &ps->rows[i];
    }
    return found && found->n == n ? &ps->v[found->at] : NULL;
}

/* A name list (count, then function indices) at v[i]: sound? */
static bool names_ok(const parsed *ps, const prow *r, size_t i, bool leaf)
{
    if (r->n <= i || r->n - i - 1 != ps->v[r->at + i] || (leaf && !ps->v[r->at + i]))
        return false;
    for (size_t k = i + 1; k < r->n; k++)
        if (ps->v[r->at + k] >= ps->nfns)
            return false;
    return true;
}

static bool fn_or_none(const parsed *ps, uint64_t x) { return x == UINT64_MAX || x < ps->nfns; }
static bool entry_ok(const parsed *ps, uint64_t x)
{
    return x == UINT64_MAX || x == (uint64_t)RVT_PIECE_INHERIT || x < ps->nstacks;
}

static bool row_ok(const parsed *ps, const prow *r)
{
    const uint64_t *v = &ps->v[r->at];
    if (!strcmp(r->tag, "fn") || !strcmp(r->tag, "ctx") || !strcmp(r->tag, "hart"))
        return r->n == 2;
    if (!strcmp(r->tag, "trap"))
        return r->n == 3;
    if (!strcmp(r->tag, "edge"))
        return r->n == 3 && fn_or_none(ps, v[0]) && v[1] < ps->nfns;
    if (!strcmp(r->tag, "rel-edge"))
        return r->n == 4 && fn_or_none(ps, v[0]) && v[1] < ps->nfns;
    if (!strcmp(r->tag, "stack"))
        return names_ok(ps, r, 4, true) && v[4] <= RVT_CS_MAX_DEPTH + 1 && v[3] <= v[1];
    if (!strcmp(r->tag, "cs"))
        return names_ok(ps, r, 18, false) && v[18] == (v[17] < RVT_CS_MAX_DEPTH ? v[17] : RVT_CS_MAX_DEPTH) &&
               fn_or_none(ps, v[4]) &&
               fn_or_none(ps, v[12]) && entry_ok(ps, v[7]) && entry_ok(ps, v[14]) && v[0] <= UINT16_MAX &&
               v[13] <= RVT_CS_SWAP && (!v[1] || v[2] || !v[8]);
    return !strcmp(r->tag, "insns") || !strcmp(r->tag, "errors") || !strcmp(r->tag, "lost") ||
           !strcmp(r->tag, "end") || !strcmp(r->tag, "time") || !strcmp(r->tag, "context") ||
           !strcmp(r->tag, "run") || !strcmp(r->tag, "priv");
}

static const prow *hart_row(const parsed *ps)
{
    for (size_t i = 0; i < ps->nrows; i++)
        if (!strcmp(ps->rows[i].tag, "cs"))
            return &ps->rows[i];
    return NULL;
}

static int check(parsed *ps)
{
    size_t harts = 0;
    for (size_t i = 0; i < ps->nrows; i++) {
        ps->nfns += !strcmp(ps->rows[i].tag, "fn");
        ps->nstacks += !strcmp(ps->rows[i].tag, "stack");
        harts += !strcmp(ps->rows[i].tag, "cs");
    }
    if (!single(ps, "insns", 1) || !single(ps, "errors", 1) || !single(ps, "lost", 1) ||
        !single(ps, "end", 2) || !single(ps, "time", 3) || !single(ps, "context", 3) ||
        !single(ps, "run", 2) || !single(ps, "priv", 8) || harts > 1 || (ps->nstacks && !harts))
        return RVT_ERR_FORMAT;
    for (size_t i = 0; i < ps->nrows; i++)
        if (!row_ok(ps, &ps->rows[i]))
            return RVT_ERR_FORMAT;
    return 0;
}

/* ---- composing ---- */

typedef struct compose {
    rvt_profile *q;                /* the profile of the pieces before */
    const parsed *ps;
    const char **names;            /* the piece's functions, in q's image */
    size_t *entry;                 /* the piece's stack entries in q's */
    const char *base[RVT_CS_MAX_DEPTH];   /* q's stack at the piece's first instruction */
    uint64_t depth;
    rvt_callstack *scratch;        /* a resolved stack, for rvt_folded_lookup */
} compose;

static const char *name_of(const compose *c, uint64_t ix) { return ix == UINT64_MAX ? NULL : c->names[ix]; }

/* Into stk, as far as it names frames: the start stack less `under`
 * frames (when relative), then the n names at v.  Returns how many frames
 * of the start stack are kept (named or not). */
static uint64_t resolve(const compose *c, const char **stk, bool rel, uint64_t under, const uint64_t *v,
                        uint64_t n)
{
    uint64_t keep = rel && c->depth > under ? c->depth - under : 0;
    uint64_t k = keep < RVT_CS_MAX_DEPTH ? keep : RVT_CS_MAX_DEPTH;
    memcpy(stk, c->base, k * sizeof *stk);
    for (uint64_t i = 0; i < n && k + i < RVT_CS_MAX_DEPTH; i++)
        stk[k + i] = c->names[v[i]];
    return keep;
}

static void count_row(compose *c, rvt_keymap *m, uint64_t **arr, size_t *cap, uint64_t a, uint64_t b,
                      uint64_t n)
{
    uint64_t *x = rvt_prof_counter(c->q, m, arr, cap, a, b);
    if (x)
        *x += n;
}

static void add_edge(compose *c, const char *caller, const char *callee, uint64_t n)
{
    count_row(c, &c->q->edge_ix, &c->q->edge_calls, &c->q->edge_cap, (uint64_t)(uintptr_t)caller,
              (uint64_t)(uintptr_t)callee, n);
}

/* The piece's functions, calls, contexts, modes, harts, traps and call
 * pairs into q (in the piece's order after q's: the tables keep the order
 * their keys were first counted in). */
static void add_tables(compose *c)
{
    rvt_profile *q = c->q;
    const parsed *ps = c->ps;
    const uint64_t *ctx = single(ps, "context", 3), *priv = single(ps, "priv", 8);
    const prow *h = hart_row(ps);
    uint16_t src = (uint16_t)(h ? ps->v[h->at] : single(ps, "run", 2)[1]);   /* the piece's one hart */
    if (ctx[2])                                 /* run in the context its hart ended with in q */
        count_row(c, &q->ctx_ix, &q->ctx_insns, &q->ctx_cap, rvt_prof_context(q, src), 0, ctx[2]);
    if (!ctx[0])
        rvt_prof_set_context(q, src, ctx[1]);
    for (unsigned m = 0; m < 8; m++)
        q->priv_insns[m] += priv[m];
    size_t f = 0;
    for (size_t i = 0; i < ps->nrows; i++) {
        const prow *r = &ps->rows[i];
        const uint64_t *v = &ps->v[r->at];
        if (!strcmp(r->tag, "fn")) {
            rvt_prof_fn *fn = rvt_prof_function(q, c->names[f++]);
            if (fn && !fn->image) {             /* as leaf_image looked it up */
                fn->image = rvt_image_file_at(q->img, v[0]);
                fn->pc = v[0];
            }
            if (fn)
                fn->calls += v[1];
        } else if (!strcmp(r->tag, "ctx")) {
            count_row(c, &q->ctx_ix, &q->ctx_insns, &q->ctx_cap, v[0], 0, v[1]);
        } else if (!strcmp(r->tag, "hart")) {
            count_row(c, &q->hart_ix, &q->hart_insns, &q->hart_cap, v[0], 0, v[1]);
        } else if (!strcmp(r->tag, "trap")) {
            count_row(c, &q->trap_ix, &q->trap_counts, &q->trap_cap, v[0], v[1], v[2]);
        } else if (!strcmp(r->tag, "edge")) {
            add_edge(c, name_of(c, v[0]), c->names[v[1]], v[2]);
        }
    }
}

/* The piece's stacks resolved, their counts added to q's entries. */
static int add_stacks(compose *c)
{
    rvt_folded *fo = c->q->fo;
    size_t k = 0;
    for (size_t i = 0; i < c->ps->nrows; i++) {
        const prow *r = &c->ps->rows[i];
        if (strcmp(r->tag, "stack"))
            continue;
        const uint64_t *v = &c->ps->v[r->at];
        uint64_t len = v[4];
        uint64_t d = resolve(c, c->scratch->stk, v[0] != 0, v[0] - 1, v + 5, len - 1) + len - 1;
        c->scratch->depth = d;
        rvt_callstack *cs = fo->cs;
        fo->cs = c->scratch;
        size_t e = rvt_folded_lookup(fo, c->names[v[5 + len - 1]]);
        fo->cs = cs;
        if (e == SIZE_MAX)
            return RVT_ERR_NOMEM;
        fo->ents[e].count += v[1];
        fo->ents[e].cycles += v[2];
        /* deeper than named: what the piece ran deeper, and all of it
         * when the start's frames put it there */
        fo->deep_insns += d > RVT_CS_MAX_DEPTH ? v[1] : v[3];
        c->entry[k++] = e;
    }
    return 0;
}

static size_t entry_of(const compose *c, uint64_t x)
{
    if (x == UINT64_MAX)
        return SIZE_MAX;
    return x == (uint64_t)RVT_PIECE_INHERIT ? c->q->fo->cur : c->entry[x];
}

/* n traps before the piece's first instruction: each pushes the
 * interrupted function (the first applies the pending effect too); past
 * the named frames only the depth grows (n comes from the text: no loop
 * over it). */
static void head_traps(rvt_callstack *cs, uint64_t n)
{
    if (!cs->leaf)
        return;
    for (; n && cs->depth <= RVT_CS_MAX_DEPTH; n--)
        rvt_cs_trap(cs);
    cs->depth += n;
    if (cs->depth > cs->max_depth)
        cs->max_depth = cs->depth;
}

/* q's stack at the piece's first instruction (its traps, then the effect
 * of the instruction before), kept as the base; the call it makes counted. */
static void start_hart(compose *c, const uint64_t *v)
{
    rvt_callstack *cs = c->q->fo->cs;
    bool started = v[1], by_insn = v[2];
    if (!started || by_insn)
        head_traps(cs, v[3]);
    uint8_t effect = RVT_CS_NONE;
    if (by_insn && !v[3]) {
        rvt_cs_apply(cs);
        effect = cs->effect;
    }
    c->depth = cs->depth;
    memcpy(c->base, cs->stk, rvt_cs_named(cs) * sizeof *c->base);
    if (effect == RVT_CS_CALL || effect == RVT_CS_SWAP) {
        const char *first = name_of(c, v[4]);
        rvt_prof_fn *fn = first ? rvt_prof_function(c->q, first) : NULL;
        if (fn)
            fn->calls++;
        add_edge(c, c->depth && c->depth <= RVT_CS_MAX_DEPTH ? c->base[c->depth - 1] : NULL, first, 1);
    }
}

/* q's hart where the piece's ended. */
static void end_hart(compose *c, const prow *r)
{
    const uint64_t *v = &c->ps->v[r->at];
    rvt_folded *fo = c->q->fo;
    rvt_callstack *cs = fo->cs;
    if (v[5] && fo->have_time && v[6] > fo->time) {
        size_t e = entry_of(c, v[7]);
        if (e != SIZE_MAX)
            fo->ents[e].cycles += v[6] - fo->time;
    }
    if (v[15]) {
        fo->have_time = true;
        fo->time = v[16];
    }
    if (!v[1])
        return;                                 /* no instruction, no reset: q's stack goes on */
    cs->depth = resolve(c, cs->stk, v[8] != 0, v[9], v + 19, v[18]) + v[17];
    uint64_t deepest = v[2] && c->depth + v[10] > v[11] ? c->depth + v[10] : v[11];
    cs->max_depth = deepest > cs->max_depth ? deepest : cs->max_depth;
    cs->leaf = name_of(c, v[12]);
    cs->pending = (uint8_t)v[13];
    rvt_cs_changed(cs);
    fo->cur = entry_of(c, v[14]);
    fo->prev_leaf = cs->leaf;
    fo->deep = cs->depth > RVT_CS_MAX_DEPTH;
}

/* Calls the piece made on its relative stack: the caller is named when
 * the callee's resolved depth (the start's plus rel_depth) is. */
static void add_rel_edges(compose *c)
{
    for (size_t i = 0; i < c->ps->nrows; i++) {
        const prow *r = &c->ps->rows[i];
        const uint64_t *v = &c->ps->v[r->at];
        if (strcmp(r->tag, "rel-edge"))
            continue;
        bool named = (int64_t)c->depth + (int64_t)v[2] <= (int64_t)RVT_CS_MAX_DEPTH;
        add_edge(c, named ? name_of(c, v[0]) : NULL, c->names[v[1]], v[3]);
    }
}

static int add_hart(compose *c)
{
    const prow *r = hart_row(c->ps);
    if (!r)
        return 0;
    const uint64_t *v = &c->ps->v[r->at];
    rvt_folded_src(c->q->fo, (uint16_t)v[0]);
    start_hart(c, v);
    add_rel_edges(c);
    int rc = add_stacks(c);
    if (!rc)
        end_hart(c, r);
    return rc;
}

static void add_counts(compose *c)
{
    rvt_profile *q = c->q;
    const parsed *ps = c->ps;
    const uint64_t *end = single(ps, "end", 2), *t = single(ps, "time", 3), *run = single(ps, "run", 2);
    q->fo->n += single(ps, "insns", 1)[0];
    q->fo->run_start = q->fo->n;                /* counted in the entries */
    q->run_start = q->fo->n;
    q->run_priv = (uint8_t)run[0];
    q->run_src = (uint16_t)run[1];
    q->errors += single(ps, "errors", 1)[0];
    q->lost += single(ps, "lost", 1)[0];
    if (end[0])
        q->incomplete = end[1] != 0;
    if (t[0]) {
        if (!q->have_time)
            q->t_first = t[1];
        q->have_time = true;
        q->t_last = t[2];
    }
    q->last_leaf = NULL;
}

static int compose_parsed(rvt_profile *q, const parsed *ps)
{
    compose c = { .q = q, .ps = ps };
    c.names = malloc((ps->nfns + 1) * sizeof *c.names);
    c.entry = malloc((ps->nstacks + 1) * sizeof *c.entry);
    c.scratch = calloc(1, sizeof *c.scratch);
    int rc = RVT_ERR_NOMEM;
    if (c.names && c.entry && c.scratch) {
        size_t f = 0;
        for (size_t i = 0; i < ps->nrows; i++)
            if (!strcmp(ps->rows[i].tag, "fn"))
                c.names[f++] = rvt_cs_name_at(q->img, ps->v[ps->rows[i].at]);
        rvt_folded_end_run(q->fo);              /* q's runs counted before the piece's */
        rvt_prof_end_run(q, q->fo->n);
        add_tables(&c);
        rc = add_hart(&c);
        add_counts(&c);
        if (!rc && q->oom)
            rc = RVT_ERR_NOMEM;
    }
    free(c.names);
    free(c.entry);
    free(c.scratch);
    return rc;
}

int rvt_profile_compose(rvt_profile *into, const char *piece, size_t len)
{
    if (!into || into->piece || (!piece && len))
        return RVT_ERR_INVAL;
    parsed ps = { 0 };
    int rc = parse(&ps, piece, len);
    if (!rc)
        rc = check(&ps);
    if (!rc)
        rc = compose_parsed(into, &ps);
    parsed_free(&ps);
    return rc;
}
