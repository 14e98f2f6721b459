/* The PC lists written by the pieces (jobs_pcl.h).  Each list's part
 * writes through a stream of its own (fopencookie, unbuffered: the part
 * buffers 256 KiB itself, fmt.h) into sink_write, which passes the bytes to the
 * output file when the piece is at the head, else keeps them, waiting to
 * be the head first when they would make more than `hold`.  One party
 * writes a piece's bytes at a time: its worker while it is the head and
 * decoding, then the thread that hands the pieces on (the bytes kept), so
 * the files get every piece's bytes in plan order. */
#include <stdlib.h>
#include <string.h>
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

/* s's chunks back to the gate (written or dropped). */
static void chunks_give(pcl_sink *s)
{
    pcl_gate *g = s->pp->gate;
    if (s->first) {
        pthread_mutex_lock(&g->mu);
        s->last->next = g->free;
        g->free = s->first;
        pthread_mutex_unlock(&g->mu);
    }
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

static void sink_keep(pcl_sink *s, const char *buf, size_t n)
{
    s->held += n;
    if (s->held > s->peak)
        s->peak = s->held;
    while (n) {
        if (!s->last || s->last->n == PCL_CHUNK) {
            pcl_chunk *c = chunk_take(s->pp->gate);
            if (!c) {
                s->failed = true;
                return;
            }
            if (s->last)
                s->last->next = c;
            else
                s->first = c;
            s->last = c;
        }
        size_t room = PCL_CHUNK - s->last->n, m = n < room ? n : room;
        memcpy(s->last->b + s->last->n, buf, m);
        s->last->n += m;
        buf += m;
        n -= m;
    }
}

/* The part's bytes (cookie write): straight on at the head, else kept
 * within the hold, else after waiting to be the head. */
static ssize_t sink_write(void *cookie, const char *buf, size_t n)
{
    pcl_sink *s = cookie;
    pcl_piece *pp = s->pp;
    pcl_gate *g = pp->gate;
    pthread_mutex_lock(&g->mu);
    bool waited = false;
    while (!g->abort && g->head != pp->at && s->held + n > g->hold) {
        waited = true;
        g->waiting++;
        pthread_cond_wait(&g->cv, &g->mu);
        g->waiting--;
    }
    bool head = g->head == pp->at, drop = g->abort;
    pthread_mutex_unlock(&g->mu);
    pp->waits += waited;
    if (drop)
        return (ssize_t)n;
    if (head) {
        sink_drain(s);
        fwrite(buf, 1, n, s->to);
    } else {
        sink_keep(s, buf, n);
    }
    return (ssize_t)n;
}

int pcl_piece_open(pcl_piece *pp, const jobs_pcl *l, size_t at)
{
    *pp = (pcl_piece){ .gate = l->gate, .at = at };
    for (size_t k = 0; k < l->n; k++) {
        pcl_sink *s = &pp->s[k];
        pp->n = k + 1;
        *s = (pcl_sink){ .pp = pp, .to = l->f[k] };
        s->in = fopencookie(s, "w", (cookie_io_functions_t){ .write = sink_write });
        if (!s->in)
            return RVT_ERR_NOMEM;
        setvbuf(s->in, NULL, _IONBF, 0);
        if (!(s->part = rvt_out_open_part(l->w[k], s->in, l->img)))
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

int pcl_piece_close(pcl_piece *pp)
{
    bool failed = false;
    for (size_t k = 0; k < pp->n; k++) {
        pcl_sink *s = &pp->s[k];
        rvt_out_free(s->part);      /* its last bytes to sink_write */
        s->part = NULL;
        if (s->in)
            fclose(s->in);
        s->in = NULL;
        failed = failed || s->failed;
    }
    return failed ? RVT_ERR_NOMEM : 0;
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
