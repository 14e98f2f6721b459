/* The protocol ops table behind rvtrace/proto.h: one per protocol file
 * (proto_etrace.c, proto_ntrace.c, proto_tv.c), listed in registry.c.  A new
 * protocol is one more file and one more line there. */
#ifndef RVT_PROTO_INT_H
#define RVT_PROTO_INT_H

#include "rvtrace/etrace.h"
#include "rvtrace/flow.h"
#include "rvtrace/mem.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"
#include "rvtrace/tv.h"
#include "flow/flow_pull.h"

/* Room for any protocol's own configuration. */
typedef union proto_native {
    rvt_te_attrs te;
    rvt_nt_cfg nt;
    rvt_tv_cfg tv;
} proto_native;

#define PROTO_MAX_SETTINGS 64

struct rvt_proto_cfg {
    uint32_t size;                /* sizeof(struct rvt_proto_cfg) */
    uint32_t version;             /* RVT_PROTO_CFG_VERSION */
    const rvt_proto *proto;
    bool stated[PROTO_MAX_SETTINGS];   /* by setting index */
    proto_native n;
};

struct rvt_proto {
    const char *name, *title, *unit, *end_marker, *sidecar_header;
    unsigned caps;
    /* the i-th setting in sidecar order with its help; NULL past the end */
    const char *(*setting)(size_t i, const char **help);
    void (*defaults)(proto_native *n);
    int (*set)(proto_native *n, const char *name, const char *value);
    int (*get)(const proto_native *n, const char *name, char *buf, size_t len);
    /* fill: the dependent defaults (rvt_proto_cfg_fill); c->n filled */
    void (*fill)(rvt_proto_cfg *c);
    void (*input_xlen)(rvt_proto_cfg *c, unsigned xlen);
    int (*check)(const proto_native *n, const char **why);
    const char *(*caveat)(const proto_native *n);
    int (*dump)(const proto_native *n, const uint8_t *buf, size_t len, unsigned flags,
                rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end);
    /* the instruction-flow decoder (RVT_PROTO_DECODE), or NULL */
    const struct proto_dec_ops *dec;
};

/* A protocol's decoder behind rvt_proto_decoder_* (proto_decoder.c): each
 * op forwards to the protocol's own decoder (etrace.h, ntrace.h); the pull
 * calls go to its pull core, the one front of every protocol's
 * (flow/flow_pull.h). */
typedef struct proto_dec_ops {
    void *(*create)(const proto_native *n, const rvt_mem *mem, rvt_flow_fn fn, void *ctx,
                    int *status);
    int (*run)(void *d, const uint8_t *buf, size_t len);
    int (*finish)(void *d);
    void (*destroy)(void *d);
    int (*set_input_piece)(void *d, const uint8_t *buf, size_t len, uint64_t stop, bool seam);
    int (*prime)(void *d, const uint8_t *unit, size_t len);
    rvt_flow_pull *(*pull)(void *d);
    /* the controls of rvt_proto_decoder_set_events and the rest (proto.h) */
    int (*set_events)(void *d, unsigned mode);     /* 0 or RVT_ERR_STATE */
    int (*set_source)(void *d, int src);
    void (*flush)(void *d);
    void (*stats)(const void *d, rvt_proto_dec_stats *out);
} proto_dec_ops;

/* c is a configuration made by rvt_proto_cfg_new (size, version, protocol). */
bool proto_cfg_ok(const rvt_proto_cfg *c);

/* The setting's index in p->settings, or -1. */
int proto_setting_index(const rvt_proto *p, const char *name);

extern const rvt_proto proto_etrace, proto_etrace_data, proto_ntrace, proto_tv;

#endif
