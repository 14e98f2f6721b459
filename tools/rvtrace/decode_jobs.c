/* decode --jobs N (decode_jobs.h): plan the pieces at index points, decode
 * them on N threads, a window of pieces ahead of the writer at most (the
 * memory stays bounded whatever the stream's size), and replay each
 * piece's events in order on the calling thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "decode_jobs.h"
#include "jobs_piece.h"
#include "util/grow.h"

/* Pieces: about four per thread for balance; with instructions kept, at
 * most this much of the stream each, so the events a piece holds (a byte
 * or two per instruction) stay a few megabytes.  RVTRACE_PIECE_BYTES
 * sets the size (tests cut at every point with 1). */
#define PIECE_EVENTS (256u << 10)
/* Without them, at most this much: the pages of the pieces in flight are
 * what the process holds of a mapped stream. */
#define PIECE_MAX (32u << 20)

typedef struct plan {
    piece *p;
    size_t n, cap;
} plan;

static piece *plan_add(plan *pl, uint64_t from, uint64_t rec, uint64_t state)
{
    piece *a = rvt_grow(pl->p, &pl->cap, pl->n + 1, sizeof *a, 64);
    if (!a)
        return NULL;
    pl->p = a;
    piece *p = &pl->p[pl->n++];
    *p = (piece){ .from = from, .rec = rec, .state = state, .tail = UINT64_MAX };
    return p;
}

uint64_t decode_jobs_piece_bytes(uint64_t len, unsigned jobs, bool keep_insns)
{
    const char *e = getenv("RVTRACE_PIECE_BYTES");
    uint64_t b = len / ((uint64_t)(jobs ? jobs : 1) * 4);
    if (e && *e)
        b = strtoull(e, NULL, 0);
    else if (b > (keep_insns ? PIECE_EVENTS : PIECE_MAX))
        b = keep_insns ? PIECE_EVENTS : PIECE_MAX;
    return b ? b : 1;
}

/* Pieces at points first..last (index positions), the first starting at
 * `start` (0 or the first point's offset), each at least piece_bytes long
 * but the last; the last ends at `end_pt` (an index position, its sync
 * unit included) or at the end of the stream (end_pt == count). */
static int plan_pieces(const jobs_cfg *c, plan *pl, size_t first, size_t last, bool from_zero)
{
    size_t n = rvt_index_count(c->idx);
    const rvt_index_point *f = rvt_index_at(c->idx, first);
    piece *cur = from_zero || !f ? plan_add(pl, 0, 0, RVT_INDEX_NONE)
                                 : plan_add(pl, f->offset, f->offset, f->state);
    uint64_t want = decode_jobs_piece_bytes(c->len, c->jobs, c->keep_insns);
    /* one decoder per source's state: split only single-source streams */
    bool split = rvt_index_sources(c->idx) <= 1;
    for (size_t i = first; cur && split && f && i <= last && i < n; i++) {
        const rvt_index_point *pt = rvt_index_at(c->idx, i);
        if (pt->offset <= cur->from || pt->offset - cur->from < want)
            continue;
        cur->to = pt->offset + pt->size;
        cur = plan_add(pl, pt->offset, pt->offset + pt->size, pt->state);
    }
    if (!cur)
        return RVT_ERR_NOMEM;
    const rvt_index_point *after = last + 1 < n ? rvt_index_at(c->idx, last + 1) : NULL;
    cur->last = !after;
    cur->to = after ? after->offset + after->size : c->len;
    if (after) {
        cur->tail = after->offset;
        cur->tail_pc = after->pc;
    }
    return 0;
}

/* ---- threads ---- */

typedef struct run {
    const jobs_cfg *c;
    plan *pl;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next, consumed, window;
    bool *done;
    bool abort;
} run;

/* The whole pages of a decoded piece go back to the file (a private,
 * read-only mapping: a later read, by the piece after, faults them in
 * again), so the resident set does not grow with the stream. */
static void release(const jobs_cfg *c, const piece *p)
{
    if (c->mapped)
        trace_in_drop_pages(c->buf, p->from, p->to);
}

static void *worker(void *arg)
{
    run *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        while (!r->abort && r->next < r->pl->n && r->next >= r->consumed + r->window)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->abort || r->next >= r->pl->n) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        size_t i = r->next++;
        pthread_mutex_unlock(&r->mu);
        piece_decode(r->c, &r->pl->p[i]);
        release(r->c, &r->pl->p[i]);
        pthread_mutex_lock(&r->mu);
        r->done[i] = true;
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
}

static void add_result(jobs_result *res, const piece *p)
{
    res->insns += p->insns;
    res->skipped += p->skipped;
    res->messages += p->messages;
    if (p->wide_icnt && !res->wide_icnt)
        res->wide_icnt_offset = p->wide_icnt_offset;
    res->wide_icnt += p->wide_icnt;
}

/* Piece i's events, once decoded, to the caller's function. */
static int hand_on(run *r, size_t i, jobs_result *res)
{
    pthread_mutex_lock(&r->mu);
    while (!r->done[i])
        pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    piece *p = &r->pl->p[i];
    int st = p->status;
    if (st >= 0 && !res->stopped)
        res->stopped = ev_tape_replay(&p->tape, r->c->fn, r->c->ctx);
    add_result(res, p);
    ev_tape_free(&p->tape);
    pthread_mutex_lock(&r->mu);
    r->consumed++;
    r->abort = r->abort || st < 0 || res->stopped;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return st < 0 ? st : 0;
}

static int run_plan(const jobs_cfg *c, plan *pl, jobs_result *res)
{
    unsigned nt = c->jobs < pl->n ? c->jobs : (unsigned)pl->n;
    run r = { .c = c, .pl = pl, .window = 2 * (size_t)c->jobs, .done = calloc(pl->n, 1) };
    pthread_t *th = calloc(nt, sizeof *th);
    if (!r.done || !th) {
        free(r.done);
        free(th);
        return RVT_ERR_NOMEM;
    }
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    unsigned started = 0;
    while (started < nt && pthread_create(&th[started], NULL, worker, &r) == 0)
        started++;
    int st = started ? 0 : RVT_ERR_NOMEM;
    for (size_t i = 0; st == 0 && !res->stopped && i < pl->n; i++)
        st = hand_on(&r, i, res);
    pthread_mutex_lock(&r.mu);
    r.abort = true;
    pthread_cond_broadcast(&r.cv);
    pthread_mutex_unlock(&r.mu);
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (size_t i = 0; i < pl->n; i++)
        ev_tape_free(&pl->p[i].tape);
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    free(r.done);
    free(th);
    return st;
}

int decode_jobs(const jobs_cfg *c, jobs_result *res)
{
    *res = (jobs_result){ .wide_icnt_offset = UINT64_MAX };
    size_t n = rvt_index_count(c->idx);
    if (!c->jobs || (c->range && (c->a > c->b || c->b >= n)))
        return RVT_ERR_INVAL;
    plan pl = { 0 };
    int st = c->range ? plan_pieces(c, &pl, c->a, c->b, false)
                      : plan_pieces(c, &pl, 0, n ? n - 1 : 0, true);
    if (st == 0 && pl.n == 1 && pl.p[0].tail == UINT64_MAX) {
        /* one piece (a stream of several sources, or too short to cut):
         * no thread, no tape */
        pl.p[0].direct = true;
        piece_decode(c, &pl.p[0]);
        add_result(res, &pl.p[0]);
        res->stopped = pl.p[0].stopped;
        st = pl.p[0].status < 0 ? pl.p[0].status : 0;
    } else if (st == 0) {
        st = run_plan(c, &pl, res);
    }
    free(pl.p);
    return st;
}
