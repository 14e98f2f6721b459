/* The event tape (ev_tape.h).  A record is a tag byte, then: FULL kind,
 * priv, flags, src, pc, aux, aux2, offset, message (0 none, else its
 * index + 1), all varints; STEP the PC step from the last event as a
 * zigzag varint, every other field as the last event's; RUN (a run of
 * instructions, RVT_NT_EVENTS_BLOCK) the PC step, aux and aux2, the
 * others as the last event's.  A block's tag is BLOCK | its end (4 bits)
 * | which fields differ from what the last block implies (B_START: start_pc
 * is not its next_pc; B_OFFSET: another offset; B_SPACE: another priv, src
 * or context), then ninsn, end_pc - start_pc and next_pc - end_pc
 * (zigzag), then the differing fields (start and offset as zigzag steps;
 * priv, src, context whole). */
#include <stdlib.h>
#include <string.h>
#include "ev_tape.h"
#include "util/grow.h"

enum { FULL = 0, STEP = 1, RUN = 2 };
enum { BLOCK = 0x80, B_START = 0x10, B_OFFSET = 0x20, B_SPACE = 0x40, B_END = 0x0f };
enum { RECORD_MAX = 1 + 9 * 10 };     /* a tag and nine 10-byte varints */
enum { BLOCK_MAX = 1 + 8 * 10 };      /* a tag and eight */

/* Room for `bytes` more; false (t->failed) when there is none. */
static bool reserve_n(ev_tape *t, size_t bytes)
{
    uint8_t *b = rvt_grow(t->b, &t->cap, t->n + bytes, 1, 4096);
    if (!b) {
        t->failed = true;
        return false;
    }
    t->b = b;
    return true;
}

/* Room for one event record. */
static bool reserve(ev_tape *t)
{
    return reserve_n(t, RECORD_MAX);
}

static uint8_t *put_var_at(uint8_t *o, uint64_t v)
{
    while (v >= 0x80) {
        *o++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *o++ = (uint8_t)v;
    return o;
}

static uint64_t get_var_at(const uint8_t **o)
{
    uint64_t v = 0;
    for (unsigned sh = 0;; sh += 7) {
        uint8_t c = *(*o)++;
        v |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80))
            return v;
    }
}

static void put_var(ev_tape *t, uint64_t v)
{
    t->n = (size_t)(put_var_at(t->b + t->n, v) - t->b);
}

static uint64_t get_var(const uint8_t *b, size_t *at)
{
    const uint8_t *o = b + *at;
    uint64_t v = get_var_at(&o);
    *at = (size_t)(o - b);
    return v;
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

/* What a block record is relative to: the last block's next_pc, offset
 * and space.  Kept as scalars: a whole rvt_block copied and its
 * end/priv/src read back as one word stalled on store forwarding (70 %
 * of the writing in perf). */
typedef struct blk_ref {
    uint64_t next_pc, offset, context;
    uint8_t priv;
    uint16_t src;
} blk_ref;

static blk_ref ref_of(const rvt_block *b)
{
    return (blk_ref){ .next_pc = b->next_pc, .offset = b->offset, .context = b->context,
                      .priv = b->priv, .src = b->src };
}

/* The fields of a block that a record after it is relative to. */
static rvt_block block_of(const blk_ref *r)
{
    return (rvt_block){ .next_pc = r->next_pc, .offset = r->offset, .context = r->context,
                        .priv = r->priv, .src = r->src };
}

/* A block record at o, b's offset moved by adj, after *ref (updated): the
 * end of what was written.  The usual block (it starts where the last
 * went, in its packet and space, under 128 instructions and bytes, its
 * next_pc near) is four bytes, written and read without a varint loop. */
static uint8_t *put_block(uint8_t *o, const rvt_block *b, uint64_t adj, blk_ref *ref)
{
    uint64_t len = b->end_pc - b->start_pc, next = zigzag(b->next_pc - b->end_pc);
    uint64_t offset = b->offset + adj;
    uint8_t tag = BLOCK | (b->end & B_END);
    if (b->start_pc != ref->next_pc)
        tag |= B_START;
    if (offset != ref->offset)
        tag |= B_OFFSET;
    if (b->priv != ref->priv || b->src != ref->src || b->context != ref->context)
        tag |= B_SPACE;
    *o++ = tag;
    if (!(tag & (B_START | B_OFFSET | B_SPACE)) && (b->ninsn | len | next) < 0x80) {
        o[0] = (uint8_t)b->ninsn;
        o[1] = (uint8_t)len;
        o[2] = (uint8_t)next;
        ref->next_pc = b->next_pc;
        return o + 3;
    }
    o = put_var_at(o, b->ninsn);
    o = put_var_at(o, len);
    o = put_var_at(o, next);
    if (tag & B_START)
        o = put_var_at(o, zigzag(b->start_pc - ref->next_pc));
    if (tag & B_OFFSET)
        o = put_var_at(o, zigzag(offset - ref->offset));
    if (tag & B_SPACE) {
        o = put_var_at(o, b->priv);
        o = put_var_at(o, b->src);
        o = put_var_at(o, b->context);
    }
    *ref = (blk_ref){ .next_pc = b->next_pc, .offset = offset, .context = b->context,
                      .priv = b->priv, .src = b->src };
    return o;
}

void ev_tape_put_blocks(ev_tape *t, const rvt_block *b, size_t n, uint64_t adj)
{
    if (!n || !reserve_n(t, n * BLOCK_MAX))
        return;
    uint8_t *o = t->b + t->n;
    blk_ref ref = ref_of(&t->lastb);
    for (size_t k = 0; k < n; k++)
        o = put_block(o, &b[k], adj, &ref);
    t->n = (size_t)(o - t->b);
    t->lastb = block_of(&ref);
}

/* The block record at o (its tag first) after *ref (updated) into *b,
 * written field by field: the end of the record. */
static const uint8_t *get_block(const uint8_t *o, rvt_block *b, blk_ref *ref)
{
    /* every block record has four bytes at least (a tag, three varints):
     * read as one word, which is the whole of a four-byte record */
    uint32_t w = (uint32_t)o[0] | (uint32_t)o[1] << 8 | (uint32_t)o[2] << 16 |
                 (uint32_t)o[3] << 24;
    uint8_t tag = *o++;
    uint64_t ninsn, len, next;
    if ((w & 0x808080f0u) == BLOCK) {
        ninsn = (w >> 8) & 0x7f;
        len = (w >> 16) & 0x7f;
        next = w >> 24;
        o += 3;
    } else {
        ninsn = get_var_at(&o);
        len = get_var_at(&o);
        next = get_var_at(&o);
        if (tag & B_START)
            ref->next_pc += unzigzag(get_var_at(&o));
        if (tag & B_OFFSET)
            ref->offset += unzigzag(get_var_at(&o));
        if (tag & B_SPACE) {
            ref->priv = (uint8_t)get_var_at(&o);
            ref->src = (uint16_t)get_var_at(&o);
            ref->context = get_var_at(&o);
        }
    }
    b->start_pc = ref->next_pc;
    b->ninsn = ninsn;
    b->end_pc = ref->next_pc + len;
    b->next_pc = b->end_pc + unzigzag(next);
    b->context = ref->context;
    b->offset = ref->offset;
    b->end = tag & B_END;
    b->priv = ref->priv;
    b->src = ref->src;
    ref->next_pc = b->next_pc;
    return o;
}

bool ev_tape_at_block(const ev_tape *t, size_t at)
{
    return at < t->n && (t->b[at] & BLOCK);
}

size_t ev_tape_next_blocks(const ev_tape *t, size_t *at, rvt_block *out, size_t max,
                           rvt_block *prev)
{
    const uint8_t *o = t->b + *at, *end = t->b + t->n;
    blk_ref ref = ref_of(prev);
    size_t k = 0;
    for (; k < max && o < end && (*o & BLOCK); k++)
        o = get_block(o, &out[k], &ref);
    *at = (size_t)(o - t->b);
    *prev = block_of(&ref);
    return k;
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
