/* The E-Trace encoder behind hart h's Trace Encoder (docs/tci.md "The
 * encoder behind the registers"): the hart's ingress records reach the
 * encoder only while the registers say it traces (trTeActive, trTeEnable,
 * trTeInstTracing, trTeInstMode != 0); its packets are encapsulated
 * (Encapsulation 1.0 ch. 3: srcID trTeSrcBits/trTeSrcID unless
 * trTeInhibitSrc, a timestamp with trTsEnable, type width 0, a sync sequence every
 * rvt_tci_async_interval bytes) and go through the funnel to the sinks.
 * Each time tracing starts, an encoder starts with the settings the
 * registers hold (trTeInstSyncMode/Max -> resync_mode/resync_max,
 * trTeInstFeatures -> full-address, sijump, implicit-return), so its first
 * packet is a te_inst synchronisation (E-Trace 6.1); with the encoder's
 * trTsEnable every packet carries the Timestamp unit's counter at the
 * block that made it (T = trTsWidth / 8 bytes, header.extend 1,
 * Encapsulation 1.0 2.1.1; the clock is the hart's cycle count, advanced
 * to each block's rvt_irec.time); when it stops (a
 * write, a trigger, trTeEnable 0) the encoder ends with its final packets
 * (E-Trace 6.5.1), as "Setting trTeEnable to 0 flushes any queued trace
 * data" asks. */
#include <stdlib.h>
#include "tci/tci_int.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/filter.h"

struct rvt_tci_te {
    rvt_tci *t;
    unsigned h;
    rvt_te_attrs base, attrs;   /* the given settings; those of the last session */
    rvt_tp_config tp;
    rvt_te_encoder *enc;
    rvt_encap_writer *w;
    rvt_filter *flt;            /* the session's filters (trTeInstFilters != 0) */
    rvt_te_data_encoder *dt;    /* with trTeDataTracing or trTeDataTrigEnable: te_data packets (ch. 7) */
    bool data_block;            /* the last block's accesses are traced (trTeDataTracing) */
    rvt_nt_encoder *nt;         /* an N-Trace session (trTeFormat 1) instead of enc */
    rvt_nt_cfg ntcfg;           /* its settings; ntrace: the last session was N-Trace */
    bool ntrace;
    int err;
    unsigned sessions;
};

static int to_funnel(void *ctx, const uint8_t *b, size_t n)
{
    rvt_tci_te *e = ctx;
    rvt_tci_put(e->t, e->h, b, n);     /* lost bytes: the overflow bit, not an error */
    return 0;
}

static int frame_out(void *ctx, const uint8_t *frame, size_t n);

/* te_inst frames: a sync packet also restarts the data encoder's
 * compression state (rvt_te_data_encoder_observe) */
static int inst_out(void *ctx, const uint8_t *frame, size_t n)
{
    rvt_tci_te *e = ctx;
    if (e->dt)
        rvt_te_data_encoder_observe(e->dt, frame, n);
    return frame_out(ctx, frame, n);
}

static int frame_out(void *ctx, const uint8_t *frame, size_t n)
{
    rvt_tci_te *e = ctx;
    const tci_te *te = &e->t->te[e->h];
    uint64_t ts = tci_ts_value(&te->ts, &e->t->funnel.ts);
    return rvt_encap_write_frame(e->w, e->tp.ts_bytes ? &ts : NULL, frame, n);
}

/* trTeDataControl (data trace built, trTeDataTracing 1): te_data packets
 * beside te_inst, trTeDataNoValue/NoAddr -> noData/noAddress,
 * trTeDataAddrCompress 0 full, 1 XOR, 2 differential -> DataCompress
 * (E-Trace table 2.2, the same codes); the encapsulation's type field is
 * then 1 bit: 0 te_inst, 1 te_data (Encapsulation 1.0 3.3). */
static void data_settings(rvt_tci_te *e, const tci_te *te)
{
    rvt_te_attrs *a = &e->attrs;
    uint32_t dc = te->data_control;
    /* trTeDataTracing now, or trTeDataTrigEnable: a trace-on trigger may
     * turn data tracing on in this session */
    a->data_trace = e->t->cfg.data_trace && (dc & (TCI_TE_DATA_TRACING | TCI_TE_DATA_TRIG_ENABLE));
    if (!a->data_trace)
        return;
    a->no_data = tci_field(dc, 16, 1);
    a->no_address = tci_field(dc, 17, 1);
    a->data_compress = tci_field(dc, 18, 2);
    e->tp.type_bits = 1;
}

/* The settings of a session from the registers. */
static void settings(rvt_tci_te *e)
{
    const tci_te *te = &e->t->te[e->h];
    rvt_te_attrs *a = &e->attrs;
    *a = e->base;
    a->resync_mode = tci_field(te->control, TCI_TE_SYNC_MODE_LO, 2);   /* the same encoding */
    a->resync_max = tci_field(te->control, TCI_TE_SYNC_MAX_LO, 4);
    a->resync_interval = 0;
    unsigned opt = a->options & ~(RVT_TE_OPT_FULL_ADDRESS | RVT_TE_OPT_SIJUMP | RVT_TE_OPT_IMPLICIT_RETURN);
    if (te->features & TCI_TE_NO_ADDR_DIFF)
        opt |= RVT_TE_OPT_FULL_ADDRESS;
    if (te->features & TCI_TE_SEQ_JUMP)
        opt |= RVT_TE_OPT_SIJUMP, a->sijump = 1;
    if (te->features & TCI_TE_IMPLICIT_RETURN)
        opt |= RVT_TE_OPT_IMPLICIT_RETURN;
    a->options = opt;
    rvt_tp_config_init(&e->tp);
    if (!(te->control & TCI_TE_INHIBIT_SRC)) {
        e->tp.src_bits = tci_field(te->features, 28, 4);
        e->tp.src_id = tci_field(te->features, 16, 12) & ((1u << e->tp.src_bits) - 1u);
    }
    e->tp.sync_interval = rvt_tci_async_interval(e->t);
    if (tci_ts_stamps(&te->ts))
        e->tp.ts_bytes = TCI_TS_WIDTH / 8;      /* trTsWidth 48: 6 bytes */
    data_settings(e, te);
}

static int no_put(void *ctx, const rvt_irec *recs, size_t n)
{
    (void)ctx, (void)recs, (void)n;
    return 0;
}

/* The filter and comparator registers as src/filter's decisions
 * (rvt_filter_block; te_filter.c); a configuration src/filter refuses
 * traces everything (docs/tci.md). */
static void filter_start(rvt_tci_te *e)
{
    rvt_filter_cfg cfg;
    if (!tci_te_filter_cfg(&e->t->te[e->h], &cfg))
        return;
    rvt_irec_sink unused = { NULL, no_put, NULL, NULL };
    e->flt = rvt_filter_new(&cfg, &unused, NULL);    /* NULL when refused */
}

/* N-Trace (trTeFormat 1; N-Trace ch. 4 names the same controls): its
 * MSEO messages go to the funnel as they are, without encapsulation
 * (Encapsulation 1.0 is E-Trace's), and a sink pads with idle 0xFF
 * (N-Trace 3.3) instead of null.idle. */
static bool nt_format(const tci_te *te)
{
    return tci_field(te->control, TCI_TE_FORMAT_LO, 3) == 1;
}

static void nt_settings(rvt_tci_te *e)
{
    const tci_te *te = &e->t->te[e->h];
    rvt_nt_cfg *c = &e->ntcfg;
    rvt_nt_cfg_default(c);
    c->inst_mode = RVT_NT_MODE_HTM;                 /* trTeInstMode 6, the one legal mode */
    c->context = (te->control & (1u << 9)) != 0;    /* trTeContext */
    c->inhibit_src = (te->control & TCI_TE_INHIBIT_SRC) != 0;
    c->src_bits = c->inhibit_src ? 0 : tci_field(te->features, 28, 4);
    c->src_id = c->src_bits ? tci_field(te->features, 16, 12) & ((1u << c->src_bits) - 1u) : 0;
    c->sync_mode = tci_field(te->control, TCI_TE_SYNC_MODE_LO, 2);   /* the same encoding */
    c->sync_max = tci_field(te->control, TCI_TE_SYNC_MAX_LO, 4);
    c->no_addr_diff = (te->features & TCI_TE_NO_ADDR_DIFF) != 0;
    c->seq_jump = (te->features & TCI_TE_SEQ_JUMP) != 0;
    /* trTeInstEnImplicitReturn; trTeInstImplicitReturnMode (bits 7:6) is
     * not writable here (WARL 0, "not reporting how it is implemented"),
     * so the encoder's choice: 3, a stack of full return addresses
     * (N-Trace 9.2; docs/tci.md) */
    c->implicit_return = (te->features & TCI_TE_IMPLICIT_RETURN) ? 3 : 0;
    c->timestamps = tci_ts_stamps(&te->ts);         /* trTsEnable: TSTAMP fields (8.7) */
    c->xlen = e->base.iaddress_width == 32 ? 32 : 64;
}

static int nt_start(rvt_tci_te *e)
{
    nt_settings(e);
    e->t->ram.idle = 0xFF;
    int st = 0;
    e->nt = rvt_nt_encoder_new(&e->ntcfg, to_funnel, e, &st);
    if (!e->nt)
        return st < 0 ? st : RVT_ERR_INVAL;
    e->ntrace = true;
    e->sessions++;
    return 0;
}

static int start(rvt_tci_te *e)
{
    if (nt_format(&e->t->te[e->h]))
        return nt_start(e);
    e->ntrace = false;
    e->t->ram.idle = e->t->cfg.idle_byte;
    settings(e);
    filter_start(e);
    int st = 0;
    e->w = rvt_encap_writer_new(&e->tp, to_funnel, e, &st);
    if (e->w)
        e->enc = rvt_te_encoder_new(&e->attrs, inst_out, e, &st);
    if (e->enc && e->attrs.data_trace &&
        !(e->dt = rvt_te_data_encoder_new(&e->attrs, frame_out, e, &st))) {
        rvt_te_encoder_free(e->enc);
        e->enc = NULL;
    }
    if (!e->enc) {
        rvt_encap_writer_free(e->w);
        e->w = NULL;
        return st < 0 ? st : RVT_ERR_INVAL;
    }
    e->sessions++;
    return 0;
}

static int stop(rvt_tci_te *e)
{
    if (e->nt) {
        int st = rvt_nt_encoder_end(e->nt);
        rvt_nt_encoder_free(e->nt);
        e->nt = NULL;
        return st;
    }
    if (!e->enc)
        return 0;
    int st = rvt_te_encoder_end(e->enc);
    rvt_te_encoder_free(e->enc);
    rvt_te_data_encoder_free(e->dt);
    e->dt = NULL;
    rvt_encap_writer_free(e->w);
    rvt_filter_free(e->flt);
    e->enc = NULL;
    e->w = NULL;
    e->flt = NULL;
    return st;
}

void tci_te_feeder_stop(rvt_tci_te *e)
{
    int st = stop(e);
    if (st < 0 && !e->err)
        e->err = st;
}

/* The trigger actions a block raised (the hart's debug trigger module:
 * mcontrol action 2/3/4 as RVT_IREC_F_TRIG_*, E-Trace 4.2.4). */
static unsigned trigger_actions(const rvt_irec *r)
{
    return (r->flags & RVT_IREC_F_TRIG_START ? RVT_TCI_TRIG_ON : 0u) |
           (r->flags & RVT_IREC_F_TRIG_STOP ? RVT_TCI_TRIG_OFF : 0u) |
           (r->flags & RVT_IREC_F_TRIG_NOTIFY ? RVT_TCI_TRIG_NOTIFY : 0u);
}

/* One block: the registers (and triggers, "Triggers Precedence": the
 * trace-on block is traced from its first instruction, the trace-off one
 * to its last) decide whether it is traced; the encoder sees only a
 * notify the TCI lets through. */
static int put_one(rvt_tci_te *e, const rvt_irec *r)
{
    rvt_tci_clock(e->t, r->time);   /* the timestamp units see this block's time */
    unsigned act = trigger_actions(r);
    bool notify = false;
    const tci_te *te = &e->t->te[e->h];
    bool data_was = te->data_control & TCI_TE_DATA_TRACING;
    bool on = act ? rvt_tci_triggers(e->t, e->h, act, &notify) : rvt_tci_tracing(e->t, e->h);
    /* "Triggers Precedence" for data as for instructions: a trace-on
     * block's accesses are traced, so are a trace-off block's */
    e->data_block = data_was || (te->data_control & TCI_TE_DATA_TRACING) ||
                    ((act & RVT_TCI_TRIG_ON) && (te->data_control & TCI_TE_DATA_TRIG_ENABLE));
    if (!on)
        return stop(e);
    if (!e->enc && !e->nt) {
        int st = start(e);
        if (st < 0)
            return st;
    }
    rvt_irec b = *r;
    b.flags &= ~(RVT_IREC_F_TRIG_START | RVT_IREC_F_TRIG_STOP | RVT_IREC_F_TRIG_NOTIFY);
    if (notify)
        b.flags |= RVT_IREC_F_TRIG_NOTIFY;
    if (e->flt)         /* qualification, watchpoints (E-Trace ch. 5) */
        b.flags |= (uint8_t)rvt_filter_block(e->flt, &b);
    int st = e->nt ? rvt_nt_encoder_put(e->nt, &b, 1) : rvt_te_encoder_put(e->enc, &b, 1);
    if (st >= 0 && !rvt_tci_tracing(e->t, e->h))
        st = stop(e);       /* trace-off: this block was the last */
    return st;
}

static int put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_tci_te *e = ctx;
    for (size_t i = 0; i < n && !e->err; i++) {
        int st = put_one(e, &recs[i]);
        if (st < 0)
            e->err = st;
    }
    return e->err;
}

/* The data accesses of the last block put (the hart sends them right
 * after it, E-Trace 4.4): encoded while trTeDataTracing was on in that
 * block (data_block), those
 * trTeDataFilters pass (E-Trace ch. 5, table 2.3: none set passes every
 * access of a traced block; rvt_filter_data), a run of passed ones at a
 * time.  Each access is judged once: a split request's verdict is
 * remembered for its response. */
static int data(void *ctx, const rvt_drec *recs, size_t n)
{
    rvt_tci_te *e = ctx;
    if (e->err || !e->dt || !e->data_block)
        return e->err;
    for (size_t i = 0; i < n && !e->err;) {
        size_t k = i;
        while (k < n && (!e->flt || rvt_filter_data(e->flt, &recs[k])))
            k++;
        int st = k > i ? rvt_te_data_encoder_put(e->dt, recs + i, k - i) : 0;
        if (st < 0)
            e->err = st;
        i = k + 1;      /* past the access the filters left out */
    }
    return e->err;
}

static int end(void *ctx)
{
    return stop(ctx);
}

rvt_tci_te *rvt_tci_te_new(rvt_tci *t, unsigned h, const rvt_te_attrs *base, int *status)
{
    rvt_tci_te *e = NULL;
    int st = RVT_ERR_INVAL;
    if (t && h < t->cfg.nharts && base && rvt_te_attrs_check(base) == 0) {
        st = RVT_ERR_NOMEM;
        e = calloc(1, sizeof *e);
    }
    if (e) {
        *e = (rvt_tci_te){ .t = t, .h = h, .base = *base, .attrs = *base };
        t->feeder[h] = e;
        rvt_tp_config_init(&e->tp);
        st = 0;
    }
    if (status)
        *status = st;
    return e;
}

void rvt_tci_te_free(rvt_tci_te *e)
{
    if (!e)
        return;
    stop(e);
    if (e->t->feeder[e->h] == e)
        e->t->feeder[e->h] = NULL;
    free(e);
}

rvt_irec_sink rvt_tci_te_sink(rvt_tci_te *e)
{
    rvt_irec_sink s = { e, put, data, end };
    return s;
}

const rvt_te_attrs *rvt_tci_te_attrs(const rvt_tci_te *e)
{
    return e ? &e->attrs : NULL;
}

const rvt_tp_config *rvt_tci_te_container(const rvt_tci_te *e)
{
    return e ? &e->tp : NULL;
}

const struct rvt_nt_cfg *rvt_tci_te_nt_cfg(const rvt_tci_te *e)
{
    return e && e->ntrace ? &e->ntcfg : NULL;
}

unsigned rvt_tci_te_sessions(const rvt_tci_te *e)
{
    return e ? e->sessions : 0;
}
