/* The PC lists written by the pieces (jobs_pcl.h).  Each list's part
 * fills chunks of the gate's (rvt_out_open_part_bufs) and hands each one
 * over full to sink_swap, which writes it to the output file when the
 * piece is at the head, else keeps the chunk itself (no copy), waiting to
 * be the head first when it would make more than `hold`.  One party
 * writes a piece's bytes at a time: its worker while it is the head and
 * decoding, then the thread that hands the pieces on (the bytes kept), so
 * the files get every piece's bytes in plan order. */
#include <stddef.h>
#include <stdlib.h>
#include "jobs_pcl.h"
#include "rvtrace/status.h"

void pcl_gate_init(pcl_gate *g)
{
    const char *e = getenv("RVTRACE_PCL_HOLD");
    *g = (pcl_gate){ .hold = e && *e ? (size_t)strtoull(e, NULL, 0) : JOBS_PCL_HOLD };
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
}

void pcl_gate_destroy(pcl_gate *g)
{
    while (g->free) {
        pcl_chunk *c = g->free;
        g->free = c->next;
        free(c);
    }
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
}

void pcl_gate_head(pcl_gate *g, size_t at)
{
    pthread_mutex_lock(&g->mu);
    g->head = at;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

void pcl_gate_abort(pcl_gate *g)
{
    pthread_mutex_lock(&g->mu);
    __atomic_store_n(&g->abort, true, __ATOMIC_RELAXED);    /* pcl_piece_blocks reads it unlocked */
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

/* A chunk from the gate's free ones, else a new one; NULL: no memory. */
static pcl_chunk *chunk_take(pcl_gate *g)
{
    pthread_mutex_lock(&g->mu);
    pcl_chunk *c = g->free;
    if (c)
        g->free = c->next;
    pthread_mutex_unlock(&g->mu);
    if (!c && !(c = malloc(sizeof *c)))
        return NULL;
    c->next = NULL;
    c->n = 0;
    return c;
}

/* Chunks first..last (linked) back to the gate. */
static void chunks_free(pcl_gate *g, pcl_chunk *first, pcl_chunk *last)
{
    pthread_mutex_lock(&g->mu);
    last->next = g->free;
    g->free = first;
    pthread_mutex_unlock(&g->mu);
}

/* s's chunks back to the gate (written or dropped). */
static void chunks_give(pcl_sink *s)
{
    if (s->first)
        chunks_free(s->pp->gate, s->first, s->last);
    s->first = s->last = NULL;
    s->held = 0;
}

/* The kept bytes to the output file, in order. */
static void sink_drain(pcl_sink *s)
{
    for (const pcl_chunk *c = s->first; c; c = c->next)
        fwrite(c->b, 1, c->n, s->to);
    chunks_give(s);
}

static void sink_keep(pcl_sink *s, pcl_chunk *c)
{
    s->held += c->n;
    if (s->held > s->peak)
        s->peak = s->held;
    c->next = NULL;
    if (s->last)
        s->last->next = c;
    else
        s->first = c;
    s->last = c;
}

/* What becomes of a full chunk of n bytes. */
typedef enum { SINK_KEEP, SINK_WRITE, SINK_DROP } sink_fate;

/* Written at the head; kept when within the hold and there is a chunk to
 * fill next (room), else once the piece is the head (waiting until
 * then); dropped once the run stops. */
static sink_fate sink_turn(pcl_sink *s, size_t n, bool room)
{
    pcl_piece *pp = s->pp;
    pcl_gate *g = pp->gate;
    pthread_mutex_lock(&g->mu);
    bool waited = false;
    while (!g->abort && g->head != pp->at && (s->held + n > g->hold || !room)) {
        waited = true;
        g->waiting++;
        pthread_cond_wait(&g->cv, &g->mu);
        g->waiting--;
    }
    sink_fate fate = g->abort ? SINK_DROP : g->head == pp->at ? SINK_WRITE : SINK_KEEP;
    pthread_mutex_unlock(&g->mu);
    pp->waits += waited;
    return fate;
}

/* The part's chunk, full (rvt_out_bufs.swap), as sink_turn decides.  The
 * next chunk to fill: a fresh one when this one is kept, else this one
 * again (out of memory for a fresh one: this one, after waiting to be
 * the head, so no byte is lost). */
static char *sink_swap(void *ctx, char *b, size_t n, bool end)
{
    pcl_sink *s = ctx;
    pcl_gate *g = s->pp->gate;
    if (!b) {
        pcl_chunk *first = chunk_take(g);
        return first ? first->b : NULL;
    }
    pcl_chunk *c = (pcl_chunk *)(b - offsetof(pcl_chunk, b));
    c->n = n;
    pcl_chunk *next = end ? NULL : chunk_take(g);
    sink_fate fate = sink_turn(s, n, end || next);
    if (fate == SINK_KEEP) {
        sink_keep(s, c);
        return next ? next->b : NULL;
    }
    if (fate == SINK_WRITE) {
        sink_drain(s);
        fwrite(b, 1, n, s->to);
    }
    if (next)
        chunks_free(g, next, next);
    if (end)
        chunks_free(g, c, c);
    return end ? NULL : b;
}

int pcl_piece_open(pcl_piece *pp, const jobs_pcl *l, size_t at)
{
    *pp = (pcl_piece){ .gate = l->gate, .at = at };
    for (size_t k = 0; k < l->n; k++) {
        pcl_sink *s = &pp->s[k];
        pp->n = k + 1;
        *s = (pcl_sink){ .pp = pp, .to = l->f[k] };
        rvt_out_bufs to = { .swap = sink_swap, .ctx = s, .size = PCL_CHUNK };
        if (!(s->part = rvt_out_open_part_bufs(l->w[k], &to, l->img)))
            return RVT_ERR_NOMEM;
    }
    return 0;
}

int pcl_piece_blocks(pcl_piece *pp, const rvt_block *b, size_t n)
{
    for (size_t k = 0; k < pp->n; k++)
        rvt_out_blocks(pp->s[k].part, b, n, NULL);
    return __atomic_load_n(&pp->gate->abort, __ATOMIC_RELAXED);
}

void pcl_piece_close(pcl_piece *pp)
{
    for (size_t k = 0; k < pp->n; k++) {
        rvt_out_free(pp->s[k].part);    /* its last chunk to sink_swap */
        pp->s[k].part = NULL;
    }
}

void pcl_piece_drain(pcl_piece *pp)
{
    for (size_t k = 0; k < pp->n; k++)
        sink_drain(&pp->s[k]);
}

void pcl_piece_free(pcl_piece *pp)
{
    pcl_piece_close(pp);
    for (size_t k = 0; k < pp->n; k++)
        chunks_give(&pp->s[k]);
    pp->n = 0;
}
