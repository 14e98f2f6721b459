/* The one TRACE.attrs reader and writer of every protocol (rvtrace/proto.h;
 * the text format is util/kv.h's). */
#include <ctype.h>
#include <string.h>
#include "proto/proto_int.h"
#include "rvtrace/transport.h"
#include "util/kv.h"

/* The file also holds the container's settings (transport.h: container=,
 * encap_*=), which belong to the transport, not to the protocol. */
static int kv_set(void *c, const char *name, const char *value)
{
    if (rvt_tp_config_name(name))
        return 0;
    return rvt_proto_cfg_set(c, name, value);
}

static int kv_get(const void *c, const char *name, char *buf, size_t n)
{
    return rvt_proto_cfg_get(c, name, buf, n);
}

static const char *name_at(const void *c, size_t i)
{
    return rvt_proto_setting(rvt_proto_cfg_proto(c), i, NULL);
}

int rvt_proto_sidecar_read(rvt_proto_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx)
{
    if (!rvt_proto_cfg_proto(c) || !f)
        return RVT_ERR_INVAL;
    if (!(c->proto->caps & RVT_PROTO_SIDECAR))
        return RVT_ERR_STATE;
    return rvt_kv_read(f, kv_set, c, diag, diag_ctx, NULL);
}

int rvt_proto_sidecar_write(const rvt_proto_cfg *c, FILE *f)
{
    if (!rvt_proto_cfg_proto(c) || !f)
        return RVT_ERR_INVAL;
    if (!(c->proto->caps & RVT_PROTO_SIDECAR))
        return RVT_ERR_STATE;
    return rvt_kv_write(f, c->proto->sidecar_header, name_at, kv_get, c);
}

/* docs/format-nt.md: the chapter 4 names (trTe..., trTs...) and rvt...;
 * docs/format-te.md: the lowercase 9.1 names. */
static const rvt_proto *proto_of_name(const char *s)
{
    if ((!strncmp(s, "tr", 2) && isupper((unsigned char)s[2])) ||
        (!strncmp(s, "rvt", 3) && isupper((unsigned char)s[3])))
        return &proto_ntrace;
    return islower((unsigned char)s[0]) ? &proto_etrace : NULL;
}

const rvt_proto *rvt_proto_of_sidecar(FILE *f)
{
    char line[256];
    if (!f)
        return NULL;
    while (fgets(line, sizeof line, f)) {
        const char *s = line + strspn(line, " \t");
        if (*s == '#' || *s == '\n' || *s == '\r' || !*s)
            continue;
        return proto_of_name(s);
    }
    return NULL;
}
