/* The sources of an N-Trace stream (SRC, N-Trace 1.0.0-rc7 table 8),
 * decoded apart and merged into one decoder's events (jobs_run.h).
 *
 * A source's state -- its PC, I-CNT and HIST, return stack, sync state,
 * last branch, context (11.2, 7.1) -- is its own: the messages of one
 * source never change another's.  So one decoder's events are each
 * source's events, interleaved message by message: merged by message
 * offset, they come out in its order (one message, one source: no two
 * sources' events share an offset).  What one decoder decides across
 * the sources (nt_dec.c) is decided here from what each source's decoder
 * reported:
 *   - a transport error (3.4) reaches every source's decoder at the same
 *     offset, each reporting one RVT_EV_ERROR: the synchronised sources'
 *     losses go on in the order the sources were first met; when no source
 *     was synchronised, one decoder reports one error of its own, for
 *     src 0 (which it then counts among the sources);
 *   - at the end, each source's pending loss in that order, then one
 *     RVT_EV_END (src 0's), complete only when every source ended with a
 *     ProgTraceCorrelation (7.12), at the stream's end if so, else where
 *     the last whole message ends. */
#include <stdlib.h>
#include "jobs_run.h"

/* One source's pieces, in stream order, read an event at a time. */
typedef struct lane {
    size_t *ix;                 /* its pieces' places in the plan */
    size_t n, cur;
    piece *p;                   /* pieces[cur], once fetched */
    size_t at;                  /* next event's tape position */
    rvt_flow_event ev;          /* the next event (has) */
    bool has, done;
    uint64_t first;             /* first use: its first message (src 0: or
                                   a transport error it was reported for) */
    uint16_t src;
    rvt_flow_event end[2];      /* the end's events: a pending loss, END */
    unsigned nend;
} lane;

typedef struct merge {
    jobs_run *r;
    jobs_result *res;
    lane *l;
    size_t nl;
    size_t *ix;                 /* the lanes' ix arrays, in one block */
    lane *zero;                 /* src 0's lane, or NULL */
    bool zero_used;             /* no lane: one decoder met src 0 anyway */
} merge;

static int emit(merge *m, rvt_flow_event *ev)
{
    ev->flags &= (uint8_t)~PIECE_EVF_UNSYNCED;
    if (!m->res->stopped)
        m->res->stopped = m->r->c->fn(m->r->c->ctx, ev);
    return m->res->stopped;
}

/* The events of the last piece from end_at on are the end's. */
static void take_end(lane *l)
{
    rvt_flow_event ev = l->ev;
    for (size_t at = l->p->end_at; l->nend < 2 && ev_tape_next(&l->p->tape, &at, &ev);)
        l->end[l->nend++] = ev;
    l->done = true;
}

/* The lane's next event into l->ev (l->has), or l->done; a piece whose
 * events are all read is released.  The next piece is waited for only
 * when `fetch`: until the merge reaches its first byte it is left to the
 * workers (waiting for it sooner could wait on a piece no worker may take
 * before the merge releases others).  0 or a negative status. */
static int peek(merge *m, lane *l, bool fetch)
{
    while (!l->has && !l->done) {
        if (!l->p) {
            if (!fetch)
                return 0;
            l->p = jobs_run_wait(m->r, l->ix[l->cur]);
            l->at = 0;
            if (l->p->status < 0)
                return l->p->status;
        }
        size_t lim = l->p->last ? l->p->end_at : l->p->tape.n;
        if (l->at < lim && ev_tape_next(&l->p->tape, &l->at, &l->ev)) {
            l->has = true;
        } else if (l->p->last) {
            take_end(l);            /* released after the end is sent */
        } else {
            int st = jobs_run_release(m->r, l->ix[l->cur++], m->res);
            l->p = NULL;
            fetch = false;          /* the next piece: when its turn comes */
            if (st < 0)
                return st;
        }
    }
    return 0;
}

/* The lowest offset the lane's next event can have: its own, or the
 * first byte kept of its piece not yet fetched; UINT64_MAX when done. */
static uint64_t key(const merge *m, const lane *l)
{
    if (l->has)
        return l->ev.offset;
    return l->done ? UINT64_MAX : m->r->p[l->ix[l->cur]].rec;
}

static int by_first(const void *a, const void *b)
{
    const lane *x = *(lane *const *)a, *y = *(lane *const *)b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The lanes whose next event is at offset x, in first-use order. */
static size_t at_offset(merge *m, uint64_t x, lane **g)
{
    size_t n = 0;
    for (size_t k = 0; k < m->nl; k++)
        if (m->l[k].has && m->l[k].ev.offset == x)
            g[n++] = &m->l[k];
    qsort(g, n, sizeof *g, by_first);
    return n;
}

/* A transport error every lane reported at offset x: the synchronised
 * sources' losses, or one error of src 0's. */
static int transport_error(merge *m, lane **g, size_t n, uint64_t x)
{
    bool told = false;
    for (size_t k = 0; k < n; k++)
        if (!(g[k]->ev.flags & PIECE_EVF_UNSYNCED)) {
            told = true;
            if (emit(m, &g[k]->ev))
                return 0;
        }
    if (!told) {
        /* nt_dec.c transport_error: a fresh src 0 (priv 3, pc 0) unless met */
        rvt_flow_event ev = m->zero ? m->zero->ev : g[0]->ev;
        if (!m->zero) {
            ev.src = 0;
            ev.priv = 3;
            m->zero_used = true;
        } else if (m->zero->first > x) {
            m->zero->first = x;
        }
        emit(m, &ev);
    }
    for (size_t k = 0; k < n; k++)
        g[k]->has = false;
    return 0;
}

/* The lane with the lowest next offset: its events up to the next
 * lane's offset; several at one offset (only a transport error's) as one.
 * 1 when every lane is done. */
static int step(merge *m, lane **g)
{
    lane *a = NULL;
    uint64_t ka = UINT64_MAX, other = UINT64_MAX;
    for (size_t k = 0; k < m->nl; k++) {
        uint64_t v = key(m, &m->l[k]);
        if (v < ka) {
            other = ka;
            a = &m->l[k];
            ka = v;
        } else if (v < other) {
            other = v;
        }
    }
    if (!a)
        return 1;
    for (size_t k = 0; k < m->nl; k++)
        if (!m->l[k].has && key(m, &m->l[k]) == ka)
            return peek(m, &m->l[k], true);      /* its piece is next */
    if (ka == other || (a->ev.flags & PIECE_EVF_UNSYNCED))
        return transport_error(m, g, at_offset(m, ka, g), ka);
    while (a->has && a->ev.offset < other && !(a->ev.flags & PIECE_EVF_UNSYNCED)) {
        a->has = false;
        if (emit(m, &a->ev))
            return 0;
        int st = peek(m, a, false);
        if (st < 0)
            return st;
    }
    return 0;
}

/* One decoder's end, from the lanes' (take_end). */
static void finish(merge *m, lane **g)
{
    bool complete = !m->zero_used;
    uint64_t last_end = 0;
    for (size_t k = 0; k < m->nl; k++) {
        lane *l = &m->l[k];
        g[k] = l;
        last_end = l->p ? l->p->msg_end : last_end;
        if (!l->nend || (l->end[l->nend - 1].aux & RVT_END_INCOMPLETE))
            complete = false;
    }
    uint64_t off = complete ? m->r->c->len : last_end;
    qsort(g, m->nl, sizeof *g, by_first);
    for (size_t k = 0; k < m->nl; k++)
        for (unsigned e = 0; e + 1 < g[k]->nend; e++) {
            g[k]->end[e].offset = off;
            if (emit(m, &g[k]->end[e]))
                return;
        }
    rvt_flow_event end = { .kind = RVT_EV_END, .priv = 3 };
    if (m->zero && m->zero->nend)
        end = m->zero->end[m->zero->nend - 1];
    end.offset = off;
    end.aux = complete ? 0 : RVT_END_INCOMPLETE;
    emit(m, &end);
}

/* Each source's lane: its pieces in plan order (the plan is by first
 * byte, so each source's pieces come in stream order). */
static int make_lanes(merge *m)
{
    const rvt_index *x = m->r->c->idx;
    m->nl = rvt_index_sources(x);
    m->l = calloc(m->nl, sizeof *m->l);
    size_t *ix = m->ix = calloc(m->r->n, sizeof *ix);
    if (!m->l || !ix)
        return RVT_ERR_NOMEM;
    size_t used = 0;
    for (size_t k = 0; k < m->nl; k++) {
        lane *l = &m->l[k];
        rvt_index_source(x, k, &l->src, &l->first);
        l->ix = ix + used;
        for (size_t i = 0; i < m->r->n; i++)
            if (m->r->p[i].rank == k)
                l->ix[l->n++] = i;
        used += l->n;
        if (l->src == 0)
            m->zero = l;
    }
    return 0;
}

int jobs_merge(jobs_run *r, jobs_result *res)
{
    merge m = { .r = r, .res = res };
    int st = make_lanes(&m);
    lane **g = st == 0 ? calloc(m.nl, sizeof *g) : NULL;
    if (st == 0 && !g)
        st = RVT_ERR_NOMEM;
    while (st == 0 && !res->stopped) {
        for (size_t k = 0; st == 0 && k < m.nl; k++)
            st = peek(&m, &m.l[k], false);
        if (st == 0 && (st = step(&m, g)) == 1) {
            st = 0;
            finish(&m, g);
            break;
        }
    }
    for (size_t k = 0; k < m.nl; k++)
        if (m.l[k].p && st == 0)
            st = jobs_run_release(r, m.l[k].ix[m.l[k].cur], res);
    free(m.ix);
    free(m.l);
    free(g);
    return st;
}
