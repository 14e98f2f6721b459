/* The protocol registry and the configuration calls every protocol shares
 * (rvtrace/proto.h); the protocols' own parts are in proto_*.c. */
#include <stdlib.h>
#include <string.h>
#include "proto/proto_int.h"

static const rvt_proto *const registry[] = { &proto_etrace, &proto_etrace_data, &proto_ntrace,
                                             &proto_tv };
#define NPROTO (sizeof registry / sizeof registry[0])

const rvt_proto *rvt_proto_at(size_t i)
{
    return i < NPROTO ? registry[i] : NULL;
}

const rvt_proto *rvt_proto_find(const char *name)
{
    for (size_t i = 0; name && i < NPROTO; i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

const char *rvt_proto_name(const rvt_proto *p) { return p ? p->name : NULL; }
const char *rvt_proto_title(const rvt_proto *p) { return p ? p->title : NULL; }
unsigned rvt_proto_caps(const rvt_proto *p) { return p ? p->caps : 0; }
const char *rvt_proto_unit(const rvt_proto *p) { return p ? p->unit : NULL; }
const char *rvt_proto_end_marker(const rvt_proto *p) { return p ? p->end_marker : NULL; }

const char *rvt_proto_setting(const rvt_proto *p, size_t i, const char **help)
{
    return p ? p->setting(i, help) : NULL;
}

int proto_setting_index(const rvt_proto *p, const char *name)
{
    const char *s;
    for (int i = 0; i < PROTO_MAX_SETTINGS && (s = p->setting((size_t)i, NULL)); i++)
        if (!strcmp(s, name))
            return i;
    return -1;
}

/* A configuration made by this library, of the layout it was built with. */
bool proto_cfg_ok(const rvt_proto_cfg *c)
{
    return c && c->size == sizeof *c && c->version == RVT_PROTO_CFG_VERSION && c->proto;
}

rvt_proto_cfg *rvt_proto_cfg_new(const rvt_proto *p)
{
    if (!p)
        return NULL;
    rvt_proto_cfg *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->size = sizeof *c;
    c->version = RVT_PROTO_CFG_VERSION;
    c->proto = p;
    rvt_proto_cfg_defaults(c);
    return c;
}

void rvt_proto_cfg_free(rvt_proto_cfg *c)
{
    free(c);
}

const rvt_proto *rvt_proto_cfg_proto(const rvt_proto_cfg *c)
{
    return proto_cfg_ok(c) ? c->proto : NULL;
}

int rvt_proto_cfg_defaults(rvt_proto_cfg *c)
{
    if (!proto_cfg_ok(c))
        return RVT_ERR_INVAL;
    memset(c->stated, 0, sizeof c->stated);
    memset(&c->n, 0, sizeof c->n);
    c->proto->defaults(&c->n);
    return 0;
}

int rvt_proto_cfg_set(rvt_proto_cfg *c, const char *name, const char *value)
{
    if (!proto_cfg_ok(c) || !name || !value)
        return RVT_ERR_INVAL;
    int st = c->proto->set(&c->n, name, value);
    int i = proto_setting_index(c->proto, name);
    if (st == 0 && i >= 0)
        c->stated[i] = true;
    return st;
}

int rvt_proto_cfg_get(const rvt_proto_cfg *c, const char *name, char *buf, size_t n)
{
    if (!proto_cfg_ok(c) || !name || !buf || !n)
        return RVT_ERR_INVAL;
    return c->proto->get(&c->n, name, buf, n);
}

bool rvt_proto_cfg_stated(const rvt_proto_cfg *c, const char *name)
{
    int i = proto_cfg_ok(c) && name ? proto_setting_index(c->proto, name) : -1;
    return i >= 0 && c->stated[i];
}

int rvt_proto_cfg_fill(rvt_proto_cfg *c)
{
    if (!proto_cfg_ok(c))
        return RVT_ERR_INVAL;
    if (c->proto->fill)
        c->proto->fill(c);
    return 0;
}

int rvt_proto_cfg_input_xlen(rvt_proto_cfg *c, unsigned xlen)
{
    if (!proto_cfg_ok(c))
        return RVT_ERR_INVAL;
    if (xlen && c->proto->input_xlen)
        c->proto->input_xlen(c, xlen);
    return 0;
}

int rvt_proto_cfg_check(const rvt_proto_cfg *c, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    *why = "";
    if (!c) {
        *why = "no configuration";
        return RVT_ERR_INVAL;
    }
    if (c->size != sizeof *c || c->version != RVT_PROTO_CFG_VERSION || !c->proto) {
        *why = "configuration of another library version";
        return RVT_ERR_VERSION;
    }
    return c->proto->check(&c->n, why);
}

const char *rvt_proto_cfg_caveat(const rvt_proto_cfg *c)
{
    return proto_cfg_ok(c) && c->proto->caveat ? c->proto->caveat(&c->n) : NULL;
}

void *rvt_proto_cfg_native(rvt_proto_cfg *c)
{
    return proto_cfg_ok(c) ? (void *)&c->n : NULL;
}

const void *rvt_proto_cfg_native_const(const rvt_proto_cfg *c)
{
    return proto_cfg_ok(c) ? (const void *)&c->n : NULL;
}

int rvt_proto_dump(const rvt_proto_cfg *c, const uint8_t *buf, size_t len, unsigned flags,
                   rvt_proto_item_fn fn, void *ctx, rvt_proto_dump_end *end)
{
    rvt_proto_dump_end dummy;
    if (!proto_cfg_ok(c) || (!buf && len) || !fn)
        return RVT_ERR_INVAL;
    if (!c->proto->dump)
        return RVT_ERR_STATE;
    memset(end ? end : &dummy, 0, sizeof dummy);
    return c->proto->dump(&c->n, buf ? buf : (const uint8_t *)"", len, flags, fn, ctx,
                          end ? end : &dummy);
}
