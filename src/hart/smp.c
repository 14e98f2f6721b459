/* Several harts on one board (rvtrace/smp.h, docs/hart.md "Several
 * harts"): hart 0 owns RAM, the predecode cache, the --mem regions and
 * the devices; the others share them.  One hart runs at a time, a
 * quantum of instructions per turn, in the order of their hartids, so a
 * run is the same on every host.  mtime is one clock: it advances by one
 * per instruction retired by whichever hart runs (each hart's mtime_off
 * is re-based on it when its turn starts). */
#include <stdlib.h>
#include "hart_int.h"

struct rvt_smp {
    hart_smp s;
    rvt_hart *last;
};

rvt_hart *hart_peer(const rvt_hart *h, unsigned idx)
{
    if (!h->smp)
        return idx == 0 ? (rvt_hart *)h : NULL;
    return idx < h->smp->n ? h->smp->hart[idx] : NULL;
}

unsigned hart_count(const rvt_hart *h)
{
    return h->smp ? h->smp->n : 1;
}

/* unpriv 8.2 (LR/SC): a store by another hart to the reservation set
 * breaks it.  peer_resv is set only while some other hart holds one. */
static void note_peer_resv(rvt_hart *h)
{
    h->peer_resv = false;
    for (unsigned i = 0; i < h->smp->n; i++)
        if (h->smp->hart[i] != h && h->smp->hart[i]->resv != HART_NO_RESV)
            h->peer_resv = true;
}

void hart_smp_store(rvt_hart *h, uint64_t pa, unsigned size)
{
    for (unsigned i = 0; i < h->smp->n; i++) {
        rvt_hart *t = h->smp->hart[i];
        if (t != h && (t->resv == pa >> 3 || t->resv == (pa + size - 1) >> 3))
            t->resv = HART_NO_RESV;
    }
    note_peer_resv(h);
}

bool hart_smp_park(rvt_hart *h)
{
    if (!h->smp || h->smp->n < 2)
        return false;
    h->parked = true;
    h->stop_at = h->instret;            /* end the turn: hart_event returns */
    h->stop_kind = RVT_HART_STEP_LIMIT;
    h->event_at = 0;
    return true;
}

/* The board's one clock, seen by h from now on. */
static void sync_time(hart_smp *s, rvt_hart *h)
{
    h->mtime_off = s->time - h->instret;
}

/* priv 3.3.3: wfi ends when an interrupt is pending and enabled in mie
 * (whatever mstatus.xIE says). */
static bool wakes(hart_smp *s, rvt_hart *h)
{
    sync_time(s, h);
    if (hart_mip(h) & h->mie)
        h->parked = false;
    return !h->parked;
}

/* Every hart sleeps: time jumps to the first timer that can wake one
 * (QEMU: the clock runs on, nothing else happens).  False when none can. */
static bool skip_to_timer(hart_smp *s)
{
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < s->n; i++) {
        const rvt_hart *h = s->hart[i];
        if (((h->mie >> IRQ_MTI) & 1) && h->mtimecmp > s->time && h->mtimecmp < next)
            next = h->mtimecmp;
    }
    if (next == UINT64_MAX)
        return false;
    s->time = next;
    return true;
}

/* The next hart whose turn it is and that can run; NULL when every hart
 * sleeps with nothing to wake it (hart 0 then holds the fatal message). */
static rvt_hart *next_runnable(hart_smp *s)
{
    for (;;) {
        for (unsigned k = 0; k < s->n; k++) {
            rvt_hart *h = s->hart[s->cur];
            if (!h->parked || wakes(s, h))
                return h;
            s->cur = (s->cur + 1) % s->n;
            s->left = 0;
        }
        if (!skip_to_timer(s)) {
            hart_fatal(s->hart[0], "wfi: every hart sleeps and no enabled interrupt can wake one");
            return NULL;
        }
    }
}

/* One turn (or what is left of it within `budget`) of the current hart. */
static int run_turn(hart_smp *s, rvt_hart *h, uint64_t budget, uint64_t *done)
{
    if (!s->left)
        s->left = s->quantum;
    uint64_t q = budget && budget < s->left ? budget : s->left;
    uint64_t before = h->instret;
    sync_time(s, h);
    note_peer_resv(h);
    int r = rvt_hart_run(h, q);
    /* the turn's records reach the hart's sink now, so that sinks shared
     * by the harts (a stream, the TCI funnel) see them in the order the
     * harts ran, and a trace control register another hart writes next
     * applies after them */
    int fl = hart_flush(h);
    if (fl < 0 && r == RVT_HART_STEP_LIMIT)
        r = fl;
    s->time = hart_mtime(h);
    uint64_t ran = h->instret - before;
    *done += ran;
    s->left = ran < s->left ? s->left - ran : 0;
    if (h->parked)
        s->left = 0;
    if (!s->left)
        s->cur = (s->cur + 1) % s->n;
    return r;
}

int rvt_smp_run(rvt_smp *m, uint64_t steps)
{
    hart_smp *s = &m->s;
    if (s->n == 1)
        return rvt_hart_run(m->last, steps);
    uint64_t done = 0;
    for (;;) {
        rvt_hart *h = next_runnable(s);
        if (!h) {
            m->last = s->hart[0];
            return RVT_HART_FATAL;
        }
        m->last = h;
        int r = run_turn(s, h, steps ? steps - done : 0, &done);
        if (r != RVT_HART_STEP_LIMIT)
            return r;
        if (steps && done >= steps)
            return RVT_HART_STEP_LIMIT;
    }
}

rvt_smp *rvt_smp_new(const rvt_hart_cfg *cfg, unsigned n, uint64_t quantum, rvt_image *img,
                     int *status)
{
    int st = RVT_ERR_INVAL;
    rvt_smp *m = NULL;
    if (!cfg || n < 1 || n > RVT_SMP_MAX_HARTS)
        goto fail;
    st = RVT_ERR_NOMEM;
    if (!(m = calloc(1, sizeof *m)))
        goto fail;
    hart_smp *s = &m->s;
    s->quantum = quantum ? quantum : RVT_SMP_DEFAULT_QUANTUM;
    for (unsigned i = 0; i < n; i++) {
        rvt_hart_cfg c = cfg[i];
        c.nharts = n;
        if (n > 1)
            c.hartid = i;
        s->hart[i] = i == 0 ? rvt_hart_new(&c, img, &st) : hart_new_peer(&c, img, s->hart[0], &st);
        if (!s->hart[i])
            goto fail;
        s->n = i + 1;
    }
    if (n > 1)
        for (unsigned i = 0; i < n; i++) {
            s->hart[i]->smp = s;
            s->hart[i]->idx = i;
        }
    m->last = s->hart[0];
    if (status)
        *status = RVT_OK;
    return m;
fail:
    rvt_smp_free(m);
    if (status)
        *status = st;
    return NULL;
}

void rvt_smp_free(rvt_smp *m)
{
    if (!m)
        return;
    for (unsigned i = m->s.n; i-- > 0;)   /* hart 0, which owns the memory, last */
        rvt_hart_free(m->s.hart[i]);
    free(m);
}

unsigned rvt_smp_count(const rvt_smp *m) { return m->s.n; }
rvt_hart *rvt_smp_hart(const rvt_smp *m, unsigned i) { return i < m->s.n ? m->s.hart[i] : NULL; }
rvt_hart *rvt_smp_last(const rvt_smp *m) { return m->last; }

int rvt_smp_finish(rvt_smp *m)
{
    int rc = RVT_OK;
    for (unsigned i = 0; i < m->s.n; i++) {
        int r = rvt_hart_finish(m->s.hart[i]);
        if (r < 0 && rc == RVT_OK)
            rc = r;
    }
    return rc;
}
