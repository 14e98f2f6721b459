/* The "timeline" writer: Chrome's trace-event JSON (the JSON object form,
 * {"traceEvents": [...]}), which chrome://tracing and Perfetto's UI load.
 * Per hart (tid = N-Trace SRC, pid 1): a "B"/"E" slice per function
 * activation from the call stack (callstack.h: a call opens the callee, a
 * return closes it, a tail jump closes one function and opens another),
 * "i" instants (thread scope) for traps and interrupts, privilege and
 * context switches, losses and decode errors.
 *
 * Time base: the trace's timestamps (RVT_EV_TIME: E-Trace time, N-Trace
 * TSTAMP, the hart's cycle count) when it has any, else the number of
 * instructions retired before the event; "ts" counts that unit (shown as
 * microseconds: the trace carries no clock frequency) and otherData says
 * which.  The events are kept until the end, when the base is known. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "out/callstack.h"
#include "out/event_text.h"
#include "out/block_visit.h"
#include "out/keymap.h"
#include "out/writers.h"

enum { TL_BEGIN = 'B', TL_END = 'E', TL_INSTANT = 'i' };

typedef struct tl_ev {
    uint64_t insns;               /* instructions retired before it */
    uint64_t time;                /* the last timestamp before it */
    const char *name;             /* function, or what the instant is */
    uint64_t arg;                 /* instants: cause, privilege, context */
    uint16_t tid;
    uint8_t ph;
    uint8_t kind;                 /* instants: rvt_ev_kind */
    uint8_t flags;                /* instants: rvt_flow_event.flags */
} tl_ev;

typedef struct tl_hart {
    rvt_callstack cs;
    const char *open[RVT_CS_MAX_DEPTH + 1];   /* slices open, outermost first */
    unsigned nopen;
    const char *leaf;
    uint16_t tid;
} tl_hart;

typedef struct tl_out {
    FILE *f;
    rvt_image *img;
    rvt_keymap hart_ix;           /* src -> harts */
    tl_hart **harts;
    size_t hart_cap;
    tl_hart *last;                /* the hart of the previous event */
    tl_ev *evs;
    size_t nevs, ev_cap;
    uint64_t insns, time, first_time;
    bool have_time, oom;
} tl_out;

static void *tl_open(FILE *f, rvt_image *img)
{
    tl_out *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->f = f;
    o->img = img;
    return o;
}

static tl_hart *hart(tl_out *o, uint16_t src)
{
    int added;
    size_t i = rvt_keymap_get(&o->hart_ix, src, 0, &added);
    if (i == SIZE_MAX)
        return NULL;
    if (added) {
        tl_hart **h = rvt_grow(o->harts, &o->hart_cap, i + 1, sizeof *h, 4);
        if (!h)
            return NULL;
        o->harts = h;
        if (!(h[i] = calloc(1, sizeof **h)))
            return NULL;
        rvt_cs_init(&h[i]->cs, o->img);
        h[i]->tid = src;
    }
    /* its stack's lookups of code patched since it last ran (the
     * previous hart's: the entry syncs it, once per call) */
    rvt_cs_sync(&o->harts[i]->cs);
    return o->harts[i];
}

/* The hart of an event or block (the previous one's, mostly); NULL and
 * o->oom when out of memory. */
static tl_hart *hart_of(tl_out *o, uint16_t src)
{
    tl_hart *h = o->last && o->last->tid == src ? o->last : (o->last = hart(o, src));
    if (!h)
        o->oom = true;
    return h;
}

/* An entry's first step: the stack it continues with, synced with the
 * code (the others are as hart_of switches to them). */
static void sync_last(tl_out *o)
{
    if (o->last)
        rvt_cs_sync(&o->last->cs);
}

static void put(tl_out *o, uint8_t ph, uint16_t tid, const char *name, uint8_t kind, uint8_t flags,
                uint64_t arg)
{
    tl_ev *e = rvt_grow(o->evs, &o->ev_cap, o->nevs + 1, sizeof *e, 1024);
    if (!e) {
        o->oom = true;
        return;
    }
    o->evs = e;
    e[o->nevs++] = (tl_ev){ o->insns, o->time, name, arg, tid, ph, kind, flags };
}

/* Close the open slices down to depth keep. */
static void close_to(tl_out *o, tl_hart *h, unsigned keep)
{
    while (h->nopen > keep) {
        h->nopen--;
        put(o, TL_END, h->tid, h->open[h->nopen], 0, 0, 0);
    }
}

/* The stack changed: the slices are the callers then the leaf; close
 * what is gone, open what is new. */
static void restack(tl_out *o, tl_hart *h)
{
    const rvt_callstack *cs = &h->cs;
    unsigned n = rvt_cs_named(cs), same = 0;
    while (same < h->nopen && same <= n && h->open[same] == (same < n ? cs->stk[same] : cs->leaf))
        same++;
    close_to(o, h, same);
    for (unsigned i = same; i <= n; i++) {
        h->open[i] = i < n ? cs->stk[i] : cs->leaf;
        put(o, TL_BEGIN, h->tid, h->open[i], 0, 0, 0);
    }
    h->nopen = n + 1;
}

/* The stack has moved to leaf (rvt_cs_insn, rvt_cs_block): the slices
 * follow when it changed. */
static void enter(tl_out *o, tl_hart *h, const char *leaf)
{
    if (h->cs.dirty || leaf != h->leaf) {
        restack(o, h);
        h->cs.dirty = false;
        h->leaf = leaf;
    }
}

static void insn(tl_out *o, tl_hart *h, uint64_t pc)
{
    enter(o, h, rvt_cs_insn(&h->cs, pc));
    o->insns++;
}

static const char *instant_name(const rvt_flow_event *ev)
{
    switch (ev->kind) {
    case RVT_EV_TRAP: return "exception";
    case RVT_EV_INTERRUPT: return "interrupt";
    case RVT_EV_PRIV: return "privilege";
    case RVT_EV_CONTEXT: return "context";
    case RVT_EV_LOST: return "trace lost";
    case RVT_EV_ERROR: return "decode error";
    case RVT_EV_STOP: return "trace stopped";
    default: return NULL;
    }
}

static void time_event(tl_out *o, uint64_t t)
{
    if (!o->have_time)
        o->first_time = t;
    o->have_time = true;
    if (t > o->time || o->time < o->first_time)
        o->time = t;              /* never backwards */
}

static void tl_event(void *state, const rvt_flow_event *ev)
{
    tl_out *o = state;
    tl_hart *h = hart_of(o, ev->src);
    if (!h)
        return;
    if (ev->kind == RVT_EV_INSN) {
        rvt_cs_sync(&h->cs);        /* (another hart's as hart_of switched to it) */
        insn(o, h, ev->pc);
        return;
    }
    if (ev->kind == RVT_EV_TIME) {
        time_event(o, ev->aux);
        return;
    }
    const char *what = instant_name(ev);
    if (!what)
        return;
    rvt_cs_event(&h->cs, ev);
    if (ev->kind == RVT_EV_LOST || ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_STOP) {
        close_to(o, h, 0);        /* continuity ends here */
        h->leaf = NULL;
    }
    uint64_t arg = ev->kind == RVT_EV_TRAP || ev->kind == RVT_EV_INTERRUPT || ev->kind == RVT_EV_PRIV ||
                   ev->kind == RVT_EV_CONTEXT ? ev->aux : 0;
    put(o, TL_INSTANT, h->tid, what, ev->kind, ev->flags, arg);
}

/* A block (out.h rvt_out_writer.block): in one function, entered once
 * and counted at once; else insn() for each (block_visit.h). */
typedef struct tl_visit {
    tl_out *o;
    tl_hart *h;
} tl_visit;

static void visit_block(void *ctx, const char *leaf, const rvt_block *b)
{
    tl_visit *w = ctx;
    enter(w->o, w->h, leaf);
    w->o->insns += b->ninsn;
}

static void visit_insn(void *ctx, uint64_t pc)
{
    tl_visit *w = ctx;
    insn(w->o, w->h, pc);
}

static inline __attribute__((always_inline)) void block(tl_out *o, const rvt_block *b)
{
    tl_hart *h = hart_of(o, b->src);
    if (!h)
        return;
    if (h->leaf == h->cs.leaf && rvt_cs_block_stays(&h->cs, b)) {
        o->insns += b->ninsn;           /* no slice opens or closes */
        return;
    }
    tl_visit w = { o, h };
    rvt_block_visit(b, &h->cs, (rvt_block_visitor){ visit_block, visit_insn, &w });
}

static void tl_block(void *state, const rvt_block *b)
{
    sync_last(state);
    block(state, b);
}

/* The loop here, so that block() is inline in it (issue #17); the blocks
 * that open or close no slice are taken a run at a time. */
static uint64_t tl_blocks(void *state, const rvt_block *b, size_t n)
{
    tl_out *o = state;
    uint64_t had = o->insns, lost = 0;     /* lost: of a hart out of memory */
    sync_last(o);
    for (size_t i = 0; i < n;) {
        tl_hart *h = hart_of(o, b[i].src);
        size_t k = h && h->leaf == h->cs.leaf ? rvt_cs_blocks_stay(&h->cs, &b[i], n - i, h->tid, -1, &o->insns)
                                              : 0;
        if (!h)
            lost += b[i].ninsn;
        if (!k)
            block(o, &b[i++]);
        i += k;
    }
    return o->insns - had + lost;
}

/* ---- writing ---- */

static uint64_t ts_of(const tl_out *o, const tl_ev *e)
{
    if (!o->have_time)
        return e->insns;
    return e->time < o->first_time ? 0 : e->time - o->first_time;
}

static void put_args(FILE *f, const tl_ev *e)
{
    switch (e->kind) {
    case RVT_EV_TRAP:
    case RVT_EV_INTERRUPT:
        if (e->flags & RVT_EVF_CAUSE_UNKNOWN)
            fputs(",\"args\":{\"cause\":\"not traced\"}", f);     /* N-Trace */
        else
            fprintf(f, ",\"args\":{\"cause\":%" PRIu64 "}", e->arg);
        break;
    case RVT_EV_PRIV: fprintf(f, ",\"args\":{\"privilege\":\"%s\"}", rvt_out_priv_name((unsigned)e->arg)); break;
    case RVT_EV_CONTEXT: fprintf(f, ",\"args\":{\"context\":\"0x%" PRIx64 "\"}", e->arg); break;
    default: break;
    }
}

static void put_event(const tl_out *o, const tl_ev *e)
{
    FILE *f = o->f;
    fprintf(f, ",\n{\"ph\":\"%c\",\"pid\":1,\"tid\":%u,\"ts\":%" PRIu64 ",\"name\":", e->ph, e->tid, ts_of(o, e));
    rvt_out_json_string(f, e->name);
    if (e->ph == TL_INSTANT) {
        fputs(",\"s\":\"t\",\"cat\":\"trace\"", f);
        put_args(f, e);
    } else {
        fputs(",\"cat\":\"function\"", f);
    }
    fputc('}', f);
}

static void put_metadata(const tl_out *o)
{
    fprintf(o->f, "{\"ph\":\"M\",\"pid\":1,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":\"rvtrace\"}}");
    for (size_t i = 0; i < o->hart_ix.n; i++)
        fprintf(o->f, ",\n{\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"name\":\"thread_name\",\"args\":{\"name\":\"hart %u\"}}",
                o->harts[i]->tid, o->harts[i]->tid);
}

static void tl_finish(void *state)
{
    tl_out *o = state;
    for (size_t i = 0; i < o->hart_ix.n; i++)
        close_to(o, o->harts[i], 0);
    fputs("{\"traceEvents\":[\n", o->f);
    put_metadata(o);
    for (size_t i = 0; i < o->nevs; i++)
        put_event(o, &o->evs[i]);
    fprintf(o->f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"rvtrace\",\"time_base\":\"%s\","
            "\"ts_unit\":\"%s\",\"instructions\":%" PRIu64 "%s}}\n",
            o->have_time ? "timestamps" : "instructions",
            o->have_time ? "one trace timestamp unit (cycles), shown as 1 us"
                         : "one retired instruction, shown as 1 us",
            o->insns, o->oom ? ",\"truncated\":\"out of memory\"" : "");
    for (size_t i = 0; i < o->hart_ix.n; i++)
        free(o->harts[i]);
    free(o->harts);
    rvt_keymap_free(&o->hart_ix);
    free(o->evs);
    free(o);
}

const rvt_out_writer rvt_out_timeline_writer = {
    .name = "timeline", .needs_image = true,
    .open = tl_open, .event = tl_event, .finish = tl_finish, .block = tl_block,
    .blocks = tl_blocks,
};
