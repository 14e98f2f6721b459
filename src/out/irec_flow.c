/* Ingress records as flow events (rvtrace/irec_flow.h). */
#include <stdlib.h>
#include "rvtrace/irec_flow.h"
#include "rvtrace/isa.h"

struct rvt_irec_flow {
    rvt_image *img;
    rvt_flow_fn fn;
    void *ctx;
    uint64_t insns, time, context;
    uint8_t priv;
    bool started, stopped, seen_time;
    bool trap_pending;           /* the last block ended in a trap */
    rvt_flow_event trap;
};

rvt_irec_flow *rvt_irec_flow_new(rvt_image *img, rvt_flow_fn fn, void *ctx)
{
    rvt_irec_flow *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->img = img;
    f->fn = fn;
    f->ctx = ctx;
    return f;
}

void rvt_irec_flow_free(rvt_irec_flow *f) { free(f); }

uint64_t rvt_irec_flow_insns(const rvt_irec_flow *f) { return f->insns; }

static int emit(rvt_irec_flow *f, uint8_t kind, uint64_t pc, uint64_t aux, const char *msg)
{
    rvt_flow_event ev = { .kind = kind, .priv = f->priv, .pc = pc, .aux = aux, .msg = msg };
    return f->fn(f->ctx, &ev);
}

/* Start (first block, or the first qualified one after a stop), then
 * privilege and context as they change. */
static int state(rvt_irec_flow *f, const rvt_irec *r)
{
    int rc = 0;
    bool start = !f->started || f->stopped;
    if (start)
        rc = emit(f, RVT_EV_SYNC, r->iaddr, 0, f->started ? "qualified again" : "first ingress record");
    if (!rc && (start || r->priv != f->priv)) {
        f->priv = r->priv;
        rc = emit(f, RVT_EV_PRIV, r->iaddr, r->priv, NULL);
    }
    if (!rc && (r->context != f->context || (start && r->context))) {
        f->context = r->context;
        rc = emit(f, RVT_EV_CONTEXT, r->iaddr, r->context, NULL);
    }
    f->started = true;
    f->stopped = false;
    return rc;
}

/* The block's instructions: ninstr of them from iaddr, each as long as
 * the image says. */
static int walk(rvt_irec_flow *f, const rvt_irec *r)
{
    uint64_t pc = r->iaddr;
    for (uint32_t k = 0; k < r->ninstr; k++) {
        int rc = emit(f, RVT_EV_INSN, pc, 0, NULL);
        if (rc)
            return rc;
        f->insns++;
        if (k + 1 == r->ninstr)
            break;
        const rvt_insn *i = rvt_image_insn(f->img, pc);
        if (!i)
            return emit(f, RVT_EV_ERROR, pc, 0, "ingress block runs through an address the image has no code for");
        pc += i->len;
    }
    return 0;
}

static int block(rvt_irec_flow *f, const rvt_irec *r)
{
    if (r->flags & RVT_IREC_F_UNQUAL) {
        int rc = f->started && !f->stopped ? emit(f, RVT_EV_STOP, r->iaddr, 0, "unqualified (filtered)") : 0;
        f->stopped = f->started;
        f->trap_pending = false;
        return rc;
    }
    int rc = 0;
    if (f->trap_pending) {           /* the handler is this block */
        f->trap_pending = false;
        f->trap.pc = r->iaddr;
        rc = f->fn(f->ctx, &f->trap);
    }
    if (!rc)
        rc = state(f, r);
    if (!rc)
        rc = walk(f, r);
    if (!rc && r->time != f->time && (r->time || f->seen_time)) {
        f->seen_time = true;
        f->time = r->time;
        rc = emit(f, RVT_EV_TIME, r->iaddr, r->time, NULL);
    }
    if (r->itype == RVT_ITYPE_EXCEPTION || r->itype == RVT_ITYPE_INTERRUPT) {
        f->trap = (rvt_flow_event){ .kind = r->itype == RVT_ITYPE_EXCEPTION ? RVT_EV_TRAP : RVT_EV_INTERRUPT,
                                    .priv = f->priv, .aux = r->cause, .aux2 = r->tval };
        f->trap_pending = true;
    }
    return rc;
}

static int put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_irec_flow *f = ctx;
    for (size_t i = 0; i < n; i++) {
        int rc = block(f, &recs[i]);
        if (rc)
            return rc < 0 ? rc : 0;
    }
    return 0;
}

static int end(void *ctx)
{
    rvt_irec_flow *f = ctx;
    emit(f, RVT_EV_END, 0, 0, NULL);
    return 0;
}

rvt_irec_sink rvt_irec_flow_sink(rvt_irec_flow *f)
{
    return (rvt_irec_sink){ .ctx = f, .put = put, .data = NULL, .end = end };
}
