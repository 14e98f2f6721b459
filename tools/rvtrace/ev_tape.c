/* The event tape (ev_tape.h).  A record is a tag byte, then: FULL kind,
 * priv, flags, src, pc, aux, aux2, offset, message (0 none, else its
 * index + 1), all varints; STEP the PC step from the last event as a
 * zigzag varint, every other field as the last event's; RUN (a run of
 * instructions, RVT_NT_EVENTS_BLOCK) the PC step, aux and aux2, the
 * others as the last event's. */
#include <stdlib.h>
#include <string.h>
#include "ev_tape.h"
#include "util/grow.h"

enum { FULL = 0, STEP = 1, RUN = 2 };
enum { RECORD_MAX = 1 + 9 * 10 };     /* a tag and nine 10-byte varints */

/* Room for one record; false (t->failed) when there is none. */
static bool reserve(ev_tape *t)
{
    uint8_t *b = rvt_grow(t->b, &t->cap, t->n + RECORD_MAX, 1, 4096);
    if (!b) {
        t->failed = true;
        return false;
    }
    t->b = b;
    return true;
}

static void put_var(ev_tape *t, uint64_t v)
{
    while (v >= 0x80) {
        t->b[t->n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    t->b[t->n++] = (uint8_t)v;
}

static uint64_t get_var(const uint8_t *b, size_t *at)
{
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        uint8_t c = b[(*at)++];
        v |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80))
            return v;
    }
}

static uint64_t zigzag(uint64_t d) { return (d << 1) ^ (uint64_t)((int64_t)d >> 63); }
static uint64_t unzigzag(uint64_t z) { return (z >> 1) ^ (0 - (z & 1)); }

static uint64_t msg_ref(ev_tape *t, const char *msg)
{
    if (!msg)
        return 0;
    char **m = rvt_grow(t->msgs, &t->msg_cap, t->nmsg + 1, sizeof *m, 16);
    char *copy = strdup(msg);
    if (!m || !copy) {
        free(copy);
        t->failed = true;
        return 0;
    }
    t->msgs = m;
    t->msgs[t->nmsg++] = copy;
    return t->nmsg;
}

/* An instruction (or run) after one, all but pc, aux and aux2 as the
 * last event: a STEP (aux and aux2 the same too) or a RUN will do. */
static bool follows(const ev_tape *t, const rvt_flow_event *ev)
{
    const rvt_flow_event *l = &t->last;
    return t->n && ev->kind == RVT_EV_INSN && l->kind == RVT_EV_INSN && !ev->msg && !l->msg &&
           ev->priv == l->priv && ev->flags == l->flags && ev->src == l->src &&
           ev->offset == l->offset;
}

void ev_tape_put(ev_tape *t, const rvt_flow_event *ev)
{
    if (!reserve(t))
        return;
    if (follows(t, ev)) {
        bool step = ev->aux == t->last.aux && ev->aux2 == t->last.aux2;
        t->b[t->n++] = step ? STEP : RUN;
        put_var(t, zigzag(ev->pc - t->last.pc));
        if (!step) {
            put_var(t, ev->aux);
            put_var(t, ev->aux2);
        }
    } else {
        uint64_t msg = msg_ref(t, ev->msg);
        const uint64_t f[] = { ev->kind, ev->priv, ev->flags, ev->src, ev->pc,
                               ev->aux, ev->aux2, ev->offset, msg };
        t->b[t->n++] = FULL;
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
            put_var(t, f[i]);
    }
    t->last = *ev;     /* msg only says whether there was one */
}

void ev_tape_cut(ev_tape *t, size_t at)
{
    if (at < t->n)
        t->n = at;
    t->last.kind = RVT_EV_END;     /* no STEP from an event cut away */
}

bool ev_tape_next(const ev_tape *t, size_t *at, rvt_flow_event *ev)
{
    if (*at >= t->n)
        return false;
    uint8_t tag = t->b[(*at)++];
    if (tag != FULL) {
        ev->pc += unzigzag(get_var(t->b, at));
        if (tag == RUN) {
            ev->aux = get_var(t->b, at);
            ev->aux2 = get_var(t->b, at);
        }
        return true;
    }
    uint64_t f[9];
    for (size_t i = 0; i < 9; i++)
        f[i] = get_var(t->b, at);
    *ev = (rvt_flow_event){ .kind = (uint8_t)f[0], .priv = (uint8_t)f[1], .flags = (uint8_t)f[2],
                            .src = (uint16_t)f[3], .pc = f[4], .aux = f[5], .aux2 = f[6],
                            .offset = f[7], .msg = f[8] ? t->msgs[f[8] - 1] : NULL };
    return true;
}

int ev_tape_replay(const ev_tape *t, rvt_flow_fn fn, void *ctx)
{
    rvt_flow_event ev = { 0 };
    for (size_t at = 0; ev_tape_next(t, &at, &ev);) {
        int st = fn(ctx, &ev);
        if (st)
            return st;
    }
    return 0;
}

void ev_tape_free(ev_tape *t)
{
    for (size_t i = 0; i < t->nmsg; i++)
        free(t->msgs[i]);
    free(t->msgs);
    free(t->b);
    *t = (ev_tape){ 0 };
}
