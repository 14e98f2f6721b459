/* `decode --write-thread` (decode_pipe.h): the decoder pulls its blocks
 * straight into a ring of slots (rvt_proto_decoder_pump_into: no copy),
 * and a second thread hands each full slot to the outputs while the
 * decoder fills the next.  On long.elf the E-Trace block decoder takes
 * about 5.7 ns a block and the PC-list writers about 4.8 more
 * (docs/formats.md "Binary PC lists"): on two cores the two overlap. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include "decode_pipe.h"

/* Slots of PIPE_BLOCKS blocks (57 KiB each).  A thread that waits for the
 * other is woken only once PIPE_WAKE slots are there for it (the writer:
 * handed over; the decoder, when the ring was full: free again), or when
 * the decoder needs the ring empty (an event comes, or the input ends):
 * a wake costs a system call on each side, several times a slot's worth
 * of the writer's time were it woken for every slot. */
#define PIPE_SLOTS 16
#define PIPE_BLOCKS 1024
#define PIPE_WAKE 8

typedef struct pipe_slot {
    size_t n;
    rvt_block b[PIPE_BLOCKS];
} pipe_slot;

typedef struct decode_pipe {
    rvt_flow_fn on_event;
    rvt_blocks_fn on_blocks;
    void *ctx;
    pipe_slot *slot;            /* [PIPE_SLOTS] */
    size_t tail;                /* the slot the decoder fills (the decoder's alone) */
    int seen;                   /* the decoder's copy of st, taken under mu */
    pthread_mutex_t mu;         /* guards the rest */
    pthread_cond_t work;        /* the writer waits for slots */
    pthread_cond_t room;        /* the decoder waits for a free slot, or an empty ring */
    size_t head, queued;        /* the slots handed over, from head */
    bool urgent;                /* the decoder waits for the ring to empty */
    bool end;                   /* nothing more will be handed over */
    bool writer_waits, decoder_waits;
    size_t wake_at;             /* the decoder waits for queued <= this */
    int st;                     /* on_blocks's first nonzero value */
} decode_pipe;

/* Whether the writer has something to do now (under mu). */
static bool writer_ready(const decode_pipe *p)
{
    return p->queued >= PIPE_WAKE || (p->queued && (p->urgent || p->end));
}

/* The writer thread: the handed-over slots in order to on_blocks (none
 * after one returned nonzero), until the end. */
static void *writer(void *arg)
{
    decode_pipe *p = arg;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        /* awake, it goes on while anything is queued; with nothing, it
         * sleeps until writer_ready */
        while (!p->queued && !p->end) {
            p->writer_waits = true;
            pthread_cond_wait(&p->work, &p->mu);
            p->writer_waits = false;
        }
        if (!p->queued)
            break;
        const pipe_slot *s = &p->slot[p->head];
        bool write = p->st == 0;
        pthread_mutex_unlock(&p->mu);
        int st = write ? p->on_blocks(p->ctx, s->b, s->n) : 0;
        pthread_mutex_lock(&p->mu);
        if (st && !p->st)
            p->st = st;
        p->head = (p->head + 1) % PIPE_SLOTS;
        p->queued--;
        if (p->decoder_waits && p->queued <= p->wake_at)
            pthread_cond_signal(&p->room);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The decoder (under mu), if need be, waits until at most `at` slots
 * are queued. */
static void decoder_wait(decode_pipe *p, bool need, size_t at)
{
    p->wake_at = at;
    while (need && p->queued > at) {
        p->decoder_waits = true;
        pthread_cond_wait(&p->room, &p->mu);
        p->decoder_waits = false;
    }
    p->seen = p->st;
}

static void wake_writer(decode_pipe *p)
{
    if (p->writer_waits && writer_ready(p))
        pthread_cond_signal(&p->work);
}

/* The decoder's slot to the writer; the next one, once free, becomes
 * the decoder's. */
static void hand_over(decode_pipe *p)
{
    pthread_mutex_lock(&p->mu);
    p->queued++;
    wake_writer(p);
    p->tail = (p->tail + 1) % PIPE_SLOTS;
    decoder_wait(p, p->queued == PIPE_SLOTS, PIPE_SLOTS - PIPE_WAKE);
    pthread_mutex_unlock(&p->mu);
    p->slot[p->tail].n = 0;
}

/* Every block so far written: the decoder's slot handed over, and the
 * ring emptied. */
static void drain(decode_pipe *p)
{
    if (p->slot[p->tail].n)
        hand_over(p);
    pthread_mutex_lock(&p->mu);
    p->urgent = true;
    wake_writer(p);
    decoder_wait(p, true, 0);
    p->urgent = false;
    pthread_mutex_unlock(&p->mu);
}

static rvt_block *pipe_room(void *ctx, size_t *max)
{
    decode_pipe *p = ctx;
    pipe_slot *s = &p->slot[p->tail];
    *max = PIPE_BLOCKS - s->n;      /* never 0: a full slot is handed over at once */
    return s->b + s->n;
}

static int pipe_blocks(void *ctx, const rvt_block *b, size_t n)
{
    decode_pipe *p = ctx;
    (void)b;                        /* pulled in place: pipe_room's array */
    pipe_slot *s = &p->slot[p->tail];
    s->n += n;
    if (s->n == PIPE_BLOCKS)
        hand_over(p);
    return p->seen;
}

/* An event waits for the blocks before it, and goes out on this thread
 * (the writer idle meanwhile): the writers see the same order. */
static int pipe_event(void *ctx, const rvt_flow_event *ev)
{
    decode_pipe *p = ctx;
    drain(p);
    return p->seen ? p->seen : p->on_event(p->ctx, ev);
}

int decode_pipe_pump(rvt_proto_decoder *d, rvt_flow_fn on_event, rvt_blocks_fn on_blocks, void *ctx)
{
    if (!d || !on_event || !on_blocks)
        return RVT_ERR_INVAL;
    decode_pipe p = { .on_event = on_event, .on_blocks = on_blocks, .ctx = ctx };
    pthread_t t;
    if (!(p.slot = malloc(PIPE_SLOTS * sizeof *p.slot)))
        return rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, ctx);
    p.slot[0].n = 0;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.work, NULL);
    pthread_cond_init(&p.room, NULL);
    int st;
    if (pthread_create(&t, NULL, writer, &p) != 0) {
        st = rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, ctx);
    } else {
        st = rvt_proto_decoder_pump_into(d, pipe_event, pipe_room, pipe_blocks, &p);
        drain(&p);
        pthread_mutex_lock(&p.mu);
        p.end = true;
        pthread_cond_signal(&p.work);
        pthread_mutex_unlock(&p.mu);
        pthread_join(t, NULL);
        if (p.st)       /* the writer's stop: at a block before wherever the decoder stopped */
            st = p.st;
    }
    pthread_cond_destroy(&p.room);
    pthread_cond_destroy(&p.work);
    pthread_mutex_destroy(&p.mu);
    free(p.slot);
    return st;
}
