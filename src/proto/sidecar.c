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

/* The reader, with the first bad line's number in *bad_line (may be NULL). */
static int sidecar_read(rvt_proto_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx,
                        unsigned *bad_line)
{
    if (!rvt_proto_cfg_proto(c) || !f)
        return RVT_ERR_INVAL;
    if (!(c->proto->caps & RVT_PROTO_SIDECAR))
        return RVT_ERR_STATE;
    return rvt_kv_read(f, kv_set, c, diag, diag_ctx, bad_line);
}

int rvt_proto_sidecar_read(rvt_proto_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx)
{
    return sidecar_read(c, f, diag, diag_ctx, NULL);
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

/* ---- the protocols' own sidecar calls (etrace.h, ntrace.h) ---- */
/* They are this reader and writer over a configuration of their protocol
 * holding their settings (no allocation: a configuration on the stack). */

/* Read into / write from *n, the settings of protocol p. */
static int read_native(const rvt_proto *p, proto_native *n, FILE *f, rvt_diag_fn diag,
                       void *diag_ctx, unsigned *line)
{
    rvt_proto_cfg c = { .size = sizeof c, .version = RVT_PROTO_CFG_VERSION, .proto = p, .n = *n };
    int st = sidecar_read(&c, f, diag, diag_ctx, line);
    *n = c.n;
    return st;
}

static int write_native(const rvt_proto *p, const proto_native *n, FILE *f)
{
    rvt_proto_cfg c = { .size = sizeof c, .version = RVT_PROTO_CFG_VERSION, .proto = p, .n = *n };
    return rvt_proto_sidecar_write(&c, f);
}

static int te_read(rvt_te_attrs *a, FILE *f, rvt_diag_fn diag, void *diag_ctx, unsigned *line)
{
    if (!a)
        return RVT_ERR_INVAL;
    proto_native n = { .te = *a };
    int st = read_native(&proto_etrace, &n, f, diag, diag_ctx, line);
    *a = n.te;
    return st;
}

int rvt_te_attrs_read(rvt_te_attrs *a, FILE *f, unsigned *line)
{
    return te_read(a, f, NULL, NULL, line);
}

int rvt_te_attrs_read_diag(rvt_te_attrs *a, FILE *f, rvt_diag_fn diag, void *diag_ctx)
{
    return te_read(a, f, diag, diag_ctx, NULL);
}

int rvt_te_attrs_write(const rvt_te_attrs *a, FILE *f)
{
    return a ? write_native(&proto_etrace, &(proto_native){ .te = *a }, f) : RVT_ERR_INVAL;
}

/* N-Trace: the settings read are checked (rvt_nt_cfg_check), as before. */
int rvt_nt_cfg_read(rvt_nt_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx)
{
    if (!c)
        return RVT_ERR_INVAL;
    proto_native n = { .nt = *c };
    int st = read_native(&proto_ntrace, &n, f, diag, diag_ctx, NULL);
    *c = n.nt;
    return st == 0 ? rvt_nt_cfg_check(c) : st;
}

int rvt_nt_cfg_write(const rvt_nt_cfg *c, FILE *f)
{
    return c ? write_native(&proto_ntrace, &(proto_native){ .nt = *c }, f) : RVT_ERR_INVAL;
}
