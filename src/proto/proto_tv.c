/* The tandem-verification trace reader ("tv") behind rvtrace/proto.h: its
 * settings are rvt_tv_cfg (ch. 3: XLEN, FLEN, MLEN the two sides agree on;
 * 0 = the Appendix C hart).  No sidecar: the command line states them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "proto/proto_int.h"

static const struct { const char *name, *help; size_t off; } tv_settings[] = {
    { "xlen", "XLEN of the traced hart, 32 or 64 (0 = 64)", offsetof(rvt_tv_cfg, xlen) },
    { "flen", "FLEN, 32 or 64 (0 = XLEN)", offsetof(rvt_tv_cfg, flen) },
    { "mlen", "memory address bits 32..64 (0 = XLEN)", offsetof(rvt_tv_cfg, mlen) },
};
#define NTV (sizeof tv_settings / sizeof tv_settings[0])

static const char *tv_setting(size_t i, const char **help)
{
    if (help)
        *help = i < NTV ? tv_settings[i].help : NULL;
    return i < NTV ? tv_settings[i].name : NULL;
}

static void tv_defaults(proto_native *n)
{
    memset(&n->tv, 0, sizeof n->tv);
}

static unsigned *tv_field(proto_native *n, const char *name)
{
    for (size_t i = 0; i < NTV; i++)
        if (!strcmp(name, tv_settings[i].name))
            return (unsigned *)((char *)&n->tv + tv_settings[i].off);
    return NULL;
}

static int tv_set(proto_native *n, const char *name, const char *value)
{
    unsigned *f = tv_field(n, name);
    char *end;
    if (!f || !*value || *value < '0' || *value > '9')
        return RVT_ERR_INVAL;
    errno = 0;
    unsigned long v = strtoul(value, &end, 0);
    if (errno || *end || v > 128)
        return RVT_ERR_INVAL;
    *f = (unsigned)v;
    return 0;
}

static int tv_get(const proto_native *n, const char *name, char *buf, size_t len)
{
    unsigned *f = tv_field((proto_native *)n, name);
    if (!f)
        return RVT_ERR_INVAL;
    snprintf(buf, len, "%u", *f);
    return 0;
}

static int tv_check(const proto_native *n, const char **why)
{
    rvt_tv_cfg out;
    int st = rvt_tv_cfg_resolve(&n->tv, &out);
    if (st < 0)
        *why = "XLEN and FLEN must be 32 or 64, MLEN 32..64";
    return st;
}

const rvt_proto proto_tv = {
    .name = "tv", .title = "tandem verification", .unit = "item", .end_marker = "",
    .caps = 0, .setting = tv_setting, .defaults = tv_defaults, .set = tv_set, .get = tv_get,
    .check = tv_check,
};
