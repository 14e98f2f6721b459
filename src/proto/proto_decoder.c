/* Decoders created through the protocol registry (issue 14 "Protocols",
 * OpenCSD's decoders created by registered name): one handle over the
 * protocol's own push decoder and its pull API (rvtrace/flow.h). */
#include <stdlib.h>
#include "proto/proto_int.h"

struct rvt_proto_decoder {
    const proto_dec_ops *ops;
    void *d;                  /* the protocol's decoder */
    bool finished;            /* RVT_EV_END sent (rvt_proto_decoder_finish) */
};

/* set_input was given: the pull API drives the protocol's decoder (its
 * pull core, flow_pull.h, was started). */
static bool pulled(const rvt_proto_decoder *d)
{
    return rvt_flow_pull_started(d->ops->pull(d->d));
}

rvt_proto_decoder *rvt_proto_decoder_new(const rvt_proto_cfg *c, const rvt_mem *mem,
                                         rvt_flow_fn fn, void *ctx, int *status)
{
    int st = proto_cfg_ok(c) && mem ? RVT_ERR_NOMEM : RVT_ERR_INVAL;
    rvt_proto_decoder *pd = NULL;
    if (st == RVT_ERR_NOMEM && !c->proto->dec)
        st = RVT_ERR_STATE;           /* the protocol has no decoder (tv) */
    else if (st == RVT_ERR_NOMEM && (pd = calloc(1, sizeof *pd)) != NULL) {
        pd->ops = c->proto->dec;
        pd->d = pd->ops->create(&c->n, mem, fn, ctx, &st);
        if (!pd->d) {
            free(pd);
            pd = NULL;
        }
    }
    if (status)
        *status = pd ? 0 : st;
    return pd;
}

void rvt_proto_decoder_free(rvt_proto_decoder *d)
{
    if (!d)
        return;
    d->ops->destroy(d->d);
    free(d);
}

int rvt_proto_decoder_run(rvt_proto_decoder *d, const uint8_t *buf, size_t len)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    if (pulled(d) || d->finished)
        return RVT_ERR_STATE;
    return d->ops->run(d->d, buf, len);
}

int rvt_proto_decoder_finish(rvt_proto_decoder *d)
{
    if (!d)
        return RVT_ERR_INVAL;
    if (pulled(d))
        return RVT_ERR_STATE;
    if (d->finished)
        return 0;
    d->finished = true;
    return d->ops->finish(d->d);
}

int rvt_proto_decoder_set_input(rvt_proto_decoder *d, const uint8_t *buf, size_t len)
{
    return rvt_proto_decoder_set_input_piece(d, buf, len, UINT64_MAX, false);   /* the whole stream */
}

int rvt_proto_decoder_set_input_piece(rvt_proto_decoder *d, const uint8_t *buf, size_t len,
                                      uint64_t stop, bool seam)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    return d->ops->set_input_piece(d->d, buf, len, stop, seam);
}

int rvt_proto_decoder_prime(rvt_proto_decoder *d, const uint8_t *unit, size_t len)
{
    if (!d || !unit)
        return RVT_ERR_INVAL;
    if (pulled(d) || d->finished)
        return RVT_ERR_STATE;
    return d->ops->prime(d->d, unit, len);
}

/* The pull calls: the protocol decoder's pull core's (its statuses,
 * flow_pull.h: RVT_ERR_INVAL for d NULL, RVT_ERR_STATE before set_input). */
static rvt_flow_pull *pull_of(rvt_proto_decoder *d)
{
    return d ? d->ops->pull(d->d) : NULL;
}

int rvt_proto_decoder_next_block(rvt_proto_decoder *d, rvt_block *out)
{
    return rvt_flow_pull_next_block(pull_of(d), out);
}

int rvt_proto_decoder_next_blocks(rvt_proto_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_blocks(pull_of(d), out, max);
}

int rvt_proto_decoder_next_run(rvt_proto_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_run(pull_of(d), out, max);
}

int rvt_proto_decoder_next_insn(rvt_proto_decoder *d, rvt_flow_insn *out)
{
    return rvt_flow_pull_next_insn(pull_of(d), out);
}

int rvt_proto_decoder_next_event(rvt_proto_decoder *d, rvt_flow_event *out)
{
    return rvt_flow_pull_next_event(pull_of(d), out);
}

int rvt_proto_decoder_set_events(rvt_proto_decoder *d, unsigned mode)
{
    if (!d || mode > RVT_PROTO_EVENTS_RUNS)
        return RVT_ERR_INVAL;
    return d->ops->set_events(d->d, mode);
}

int rvt_proto_decoder_set_source(rvt_proto_decoder *d, int src)
{
    if (!d)
        return RVT_ERR_INVAL;
    if (pulled(d) || d->finished)
        return RVT_ERR_STATE;
    return d->ops->set_source(d->d, src);
}

int rvt_proto_decoder_flush(rvt_proto_decoder *d)
{
    if (!d)
        return RVT_ERR_INVAL;
    d->ops->flush(d->d);
    return 0;
}

int rvt_proto_decoder_stats(const rvt_proto_decoder *d, rvt_proto_dec_stats *out)
{
    if (!d || !out)
        return RVT_ERR_INVAL;
    *out = (rvt_proto_dec_stats){ 0 };
    d->ops->stats(d->d, out);
    return 0;
}
