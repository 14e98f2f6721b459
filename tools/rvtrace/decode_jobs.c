/* decode --jobs N (decode_jobs.h): plan the pieces at index points, decode
 * them on N threads, a window of pieces ahead of the writer at most (the
 * memory stays bounded whatever the stream's size), and replay each
 * piece's events in order on the calling thread. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "decode_jobs.h"
#include "jobs_blocks.h"
#include "jobs_run.h"
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

static piece *plan_add(plan *pl, uint64_t from, uint64_t rec, uint64_t state, int src)
{
    piece *a = rvt_grow(pl->p, &pl->cap, pl->n + 1, sizeof *a, 64);
    if (!a)
        return NULL;
    pl->p = a;
    piece *p = &pl->p[pl->n++];
    *p = (piece){ .from = from, .rec = rec, .state = state, .tail = UINT64_MAX, .src = src };
    return p;
}

uint64_t decode_jobs_piece_bytes(uint64_t len, unsigned jobs, bool keep_insns, bool pcl)
{
    const char *e = getenv("RVTRACE_PIECE_BYTES");
    uint64_t b = len / ((uint64_t)(jobs ? jobs : 1) * 4);
    uint64_t most = pcl ? JOBS_PIECE_PCL : keep_insns ? PIECE_EVENTS : PIECE_MAX;
    if (e && *e)
        b = strtoull(e, NULL, 0);
    else if (b > most)
        b = most;
    return b ? b : 1;
}

/* Pieces at points first..last (index positions) of source `only` (-1:
 * every point), the first starting at `start` (0 or the first point's
 * offset), each at least piece_bytes long but the last; the last ends at
 * `end_pt` (an index position, its sync unit included) or at the end of
 * the stream (end_pt == count).  The pieces' decoders keep source `src`. */
static int plan_pieces(const jobs_cfg *c, plan *pl, size_t first, size_t last, bool from_zero,
                       int only, int src)
{
    size_t n = rvt_index_count(c->idx);
    const rvt_index_point *f = rvt_index_at(c->idx, first);
    piece *cur = from_zero || !f ? plan_add(pl, 0, 0, RVT_INDEX_NONE, src)
                                 : plan_add(pl, f->offset, f->offset, f->state, src);
    uint64_t want = decode_jobs_piece_bytes(c->len, c->jobs, c->keep_insns, c->pcl != NULL);
    for (size_t i = first; cur && f && i <= last && i < n; i++) {
        const rvt_index_point *pt = rvt_index_at(c->idx, i);
        if ((only >= 0 && pt->src != only) || pt->offset <= cur->from ||
            pt->offset - cur->from < want)
            continue;
        cur->to = pt->offset + pt->size;
        cur = plan_add(pl, pt->offset, pt->offset + pt->size, pt->state, src);
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

/* A stream of several N-Trace sources, no --src: each source's stream
 * cut at its own points, decoded by decoders that keep that source only,
 * the pieces in the order of their first byte (the merge needs every
 * source's piece at an offset before any piece after it). */
static int plan_sources(const jobs_cfg *c, plan *pl)
{
    uint16_t src;
    uint64_t first;
    size_t n = rvt_index_count(c->idx);
    for (size_t k = 0; rvt_index_source(c->idx, k, &src, &first) == 0; k++) {
        size_t from = pl->n;
        int st = plan_pieces(c, pl, 0, n ? n - 1 : 0, true, src, src);
        if (st < 0)
            return st;
        for (size_t i = from; i < pl->n; i++) {
            pl->p[i].merged = true;
            pl->p[i].rank = (unsigned)k;
        }
    }
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const piece *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/* Several sources and no --src: merged when the index knows the sources
 * (in-memory index; otherwise one piece, one decoder). */
bool decode_jobs_merges(const jobs_cfg *c)
{
    uint16_t src;
    uint64_t first;
    return c->kind == KIND_NT && c->src < 0 && !c->range && rvt_index_sources(c->idx) > 1 &&
           rvt_index_source(c->idx, 0, &src, &first) == 0;
}

static int plan_stream(const jobs_cfg *c, plan *pl)
{
    size_t n = rvt_index_count(c->idx);
    if (decode_jobs_merges(c)) {
        int st = plan_sources(c, pl);
        if (st == 0)
            qsort(pl->p, pl->n, sizeof *pl->p, by_start);
        return st;
    }
    bool several = rvt_index_sources(c->idx) > 1;
    /* --src N of several: that source's points; several without the
     * sources known: one piece (a source's state crosses the others'
     * syncs) */
    int only = several && c->kind == KIND_NT && c->src >= 0 ? c->src : -1;
    if (several && only < 0)
        return plan_pieces(c, pl, n, n ? n - 1 : 0, true, -1, c->src);   /* no point */
    return c->range ? plan_pieces(c, pl, c->a, c->b, false, only, c->src)
                    : plan_pieces(c, pl, 0, n ? n - 1 : 0, true, only, c->src);
}

/* ---- threads ---- */

/* The whole pages of a decoded piece go back to the file (a private,
 * read-only mapping: a later read, by the piece after, faults them in
 * again), so the resident set does not grow with the stream. */
static void release_pages(const jobs_cfg *c, const piece *p)
{
    if (c->mapped)
        trace_in_drop_pages(c->buf, p->from, p->to);
}

static void *worker(void *arg)
{
    jobs_run *r = arg;
    for (;;) {
        pthread_mutex_lock(&r->mu);
        while (!r->abort && r->next < r->n && r->next >= r->released + r->window)
            pthread_cond_wait(&r->cv, &r->mu);
        if (r->abort || r->next >= r->n) {
            pthread_mutex_unlock(&r->mu);
            return NULL;
        }
        size_t i = r->next++;
        pthread_mutex_unlock(&r->mu);
        piece_decode(r->c, &r->p[i]);
        release_pages(r->c, &r->p[i]);
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
    if (p->wide_icnt && (!res->wide_icnt || p->wide_icnt_offset < res->wide_icnt_offset))
        res->wide_icnt_offset = p->wide_icnt_offset;
    res->wide_icnt += p->wide_icnt;
}

piece *jobs_run_wait(jobs_run *r, size_t i)
{
    pthread_mutex_lock(&r->mu);
    while (!r->done[i])
        pthread_cond_wait(&r->cv, &r->mu);
    pthread_mutex_unlock(&r->mu);
    return &r->p[i];
}

static void piece_free_pcl(piece *p)
{
    if (p->pcl)
        pcl_piece_free(p->pcl);
    free(p->pcl);
    p->pcl = NULL;
}

int jobs_run_release(jobs_run *r, size_t i, jobs_result *res)
{
    piece *p = &r->p[i];
    int st = p->status;
    add_result(res, p);
    ev_tape_free(&p->tape);
    piece_free_pcl(p);
    pthread_mutex_lock(&r->mu);
    r->released++;
    r->abort = r->abort || st < 0 || res->stopped;
    pthread_cond_broadcast(&r->cv);
    pthread_mutex_unlock(&r->mu);
    return st < 0 ? st : 0;
}

/* Piece i's events, once decoded, to the caller's function; its PC
 * lists' bytes to the files: piece i at the head writes on, then what it
 * kept goes out (its events print nothing in a PC list, so the order of
 * the two does not matter). */
static int hand_on(jobs_run *r, size_t i, jobs_result *res)
{
    if (r->c->pcl)
        pcl_gate_head(r->c->pcl->gate, i);
    piece *p = jobs_run_wait(r, i);
    const jobs_pcl *l = r->c->pcl;
    if (p->status >= 0 && !res->stopped && p->pcl) {
        pcl_piece_drain(p->pcl);
        if (l->written)
            l->written(r->c->ctx, p->insns, p->to);
    }
    if (p->status >= 0 && !res->stopped)
        res->stopped = r->blocks ? blk_replay_piece(r->blocks, p)
                                 : ev_tape_replay(&p->tape, r->c->fn, r->c->ctx);
    return jobs_run_release(r, i, res);
}

/* Pieces taken and not yet handed on, at most: two per thread ahead of
 * the writer, and two per source more when the sources are merged (the
 * merge holds each source's piece at the offset it stands at, and may
 * need each source's next one before it releases any: jobs_merge.c). */
static size_t window(const jobs_cfg *c, const plan *pl)
{
    size_t w = 2 * (size_t)c->jobs;
    return pl->n && pl->p[0].merged ? w + 2 * (size_t)rvt_index_sources(c->idx) : w;
}

static int run_plan(const jobs_cfg *c, plan *pl, jobs_result *res)
{
    unsigned nt = c->jobs < pl->n ? c->jobs : (unsigned)pl->n;
    bool replay = c->blocks && !c->pcl;     /* blocks on the tapes */
    jobs_run r = { .c = c, .p = pl->p, .n = pl->n, .window = window(c, pl),
                   .done = calloc(pl->n, 1), .blocks = replay ? malloc(sizeof *r.blocks) : NULL };
    pthread_t *th = calloc(nt, sizeof *th);
    if (!r.done || !th || (replay && !r.blocks)) {
        free(r.done);
        free(th);
        free(r.blocks);
        return RVT_ERR_NOMEM;
    }
    if (r.blocks)
        blk_replay_init(r.blocks, c->fn, c->fn_blocks, c->ctx);
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    unsigned started = 0;
    while (started < nt && pthread_create(&th[started], NULL, worker, &r) == 0)
        started++;
    int st = started ? 0 : RVT_ERR_NOMEM;
    if (st == 0 && pl->p[0].merged)
        st = jobs_merge(&r, res);
    for (size_t i = 0; st == 0 && !pl->p[0].merged && !res->stopped && i < pl->n; i++)
        st = hand_on(&r, i, res);
    if (st == 0 && r.blocks && !res->stopped)
        res->stopped = blk_replay_finish(r.blocks);
    pthread_mutex_lock(&r.mu);
    r.abort = true;
    pthread_cond_broadcast(&r.cv);
    pthread_mutex_unlock(&r.mu);
    if (c->pcl)
        pcl_gate_abort(c->pcl->gate);       /* a piece waiting for its turn */
    for (unsigned k = 0; k < started; k++)
        pthread_join(th[k], NULL);
    for (size_t i = 0; i < pl->n; i++) {
        ev_tape_free(&pl->p[i].tape);
        piece_free_pcl(&pl->p[i]);
    }
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    free(r.done);
    free(th);
    free(r.blocks);
    return st;
}

/* The plan with the PC lists written by the pieces, through a gate of
 * the run's. */
static int run_pcl(const jobs_cfg *c, plan *pl, jobs_result *res)
{
    pcl_gate g;
    pcl_gate_init(&g);
    jobs_pcl lists = *c->pcl;
    lists.gate = &g;
    jobs_cfg with = *c;
    with.pcl = &lists;
    for (size_t i = 0; i < pl->n; i++)
        pl->p[i].at = i;
    int st = run_plan(&with, pl, res);
    pcl_gate_destroy(&g);
    return st;
}

int decode_jobs(const jobs_cfg *c, jobs_result *res)
{
    *res = (jobs_result){ .wide_icnt_offset = UINT64_MAX };
    size_t n = rvt_index_count(c->idx);
    if (!c->jobs || (c->range && (c->a > c->b || c->b >= n)))
        return RVT_ERR_INVAL;
    plan pl = { 0 };
    int st = plan_stream(c, &pl);
    if (st == 0 && pl.n == 1 && pl.p[0].tail == UINT64_MAX && !pl.p[0].merged) {
        /* one piece (too short to cut): no thread, no tape */
        pl.p[0].direct = true;
        piece_decode(c, &pl.p[0]);
        add_result(res, &pl.p[0]);
        res->stopped = pl.p[0].stopped;
        st = pl.p[0].status < 0 ? pl.p[0].status : 0;
    } else if (st == 0 && c->pcl) {
        st = run_pcl(c, &pl, res);
    } else if (st == 0) {
        st = run_plan(c, &pl, res);
    }
    free(pl.p);
    return st;
}
