/* Transport settings and their sidecar spelling (.attrs keys). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "transport/tp_int.h"

void rvt_tp_config_init(rvt_tp_config *c)
{
    if (!c)
        return;
    memset(c, 0, sizeof *c);
    c->size = sizeof *c;
}

int rvt_tp_config_check(const rvt_tp_config *c)
{
    /* Encapsulation 2.1.2: srcID 0-16 bits; 2.1.3: T bytes (rvtrace keeps
     * a timestamp in 64 bits); 2.1.4: the type field fits with a payload
     * byte in 31 bytes */
    if (!c || c->src_bits > 16 || c->ts_bytes > 8 || c->type_bits > 8)
        return RVT_ERR_INVAL;
    if (c->src_id >> c->src_bits)
        return RVT_ERR_INVAL;
    return 0;
}

unsigned rvt_encap_null_run(const rvt_tp_config *c)
{
    return 31 + c->ts_bytes + c->src_bits / 8;   /* 2.3: N = 31 + T + S */
}

typedef struct key {
    const char *name;
    size_t off;
    uint64_t max;
    unsigned width;     /* bytes of the field */
} key;

static const key keys[] = {
    { "encap_src_bits", offsetof(rvt_tp_config, src_bits), 16, sizeof(unsigned) },
    { "encap_src_id", offsetof(rvt_tp_config, src_id), 65535, sizeof(unsigned) },
    { "encap_ts_bytes", offsetof(rvt_tp_config, ts_bytes), 8, sizeof(unsigned) },
    { "encap_type_bits", offsetof(rvt_tp_config, type_bits), 8, sizeof(unsigned) },
    { "encap_sync_interval", offsetof(rvt_tp_config, sync_interval), UINT64_MAX / 2, sizeof(uint64_t) },
    { "encap_unframed", offsetof(rvt_tp_config, unframed), 1, sizeof(bool) },
};

static const key *find_key(const char *kv, size_t n)
{
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strlen(keys[i].name) == n && !strncmp(keys[i].name, kv, n))
            return &keys[i];
    return NULL;
}

bool rvt_tp_config_key(const char *kv)
{
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq)
        return false;
    size_t n = (size_t)(eq - kv);
    char name[32];
    if (n >= sizeof name)
        return false;
    memcpy(name, kv, n);
    name[n] = 0;
    return rvt_tp_config_name(name);
}

bool rvt_tp_config_name(const char *name)
{
    /* the sink buffer's keys describe the container too (sink_buf.c) */
    return name && (!strcmp(name, "container") || find_key(name, strlen(name)) ||
                    rvt_sink_state_name(name));
}

static int set_field(rvt_tp_config *c, const key *k, uint64_t v)
{
    char *p = (char *)c + k->off;
    if (k->width == sizeof(uint64_t))
        *(uint64_t *)p = v;
    else if (k->width == sizeof(bool))
        *(bool *)p = v != 0;
    else
        *(unsigned *)p = (unsigned)v;
    return 0;
}

int rvt_tp_config_set(rvt_tp_config *c, const char *kv, const char **container)
{
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!c || !eq || !eq[1])
        return RVT_ERR_INVAL;
    size_t n = (size_t)(eq - kv);
    if (n == 9 && !strncmp(kv, "container", 9)) {
        const char *const *names = rvt_tp_names();
        for (size_t i = 0; names[i]; i++)
            if (!strcmp(names[i], eq + 1)) {
                if (container)
                    *container = names[i];
                return 0;
            }
        return RVT_ERR_INVAL;
    }
    const key *k = find_key(kv, n);
    char *end;
    if (!k || eq[1] == '-')
        return RVT_ERR_INVAL;
    unsigned long long v = strtoull(eq + 1, &end, 0);
    if (*end || v > k->max)
        return RVT_ERR_INVAL;
    return set_field(c, k, v);
}

int rvt_tp_config_write(const rvt_tp_config *c, FILE *f)
{
    if (!c || !f)
        return RVT_ERR_INVAL;
    int w = fprintf(f, "# container (Encapsulation 1.0; docs/transport.md)\ncontainer=encap\n"
                       "encap_src_bits=%u\nencap_src_id=%u\nencap_ts_bytes=%u\nencap_type_bits=%u\n"
                       "encap_sync_interval=%llu\nencap_unframed=%u\n",
                    c->src_bits, c->src_id, c->ts_bytes, c->type_bits,
                    (unsigned long long)c->sync_interval, c->unframed ? 1u : 0u);
    return w < 0 ? RVT_ERR_IO : 0;
}
