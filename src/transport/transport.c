/* Transport stage: the registry of framings and the calls every framing
 * shares (include/rvtrace/transport.h). */
#include <stdlib.h>
#include <string.h>
#include "transport/tp_int.h"

static const tp_ops *const registry[] = { &tp_refflow_ops, &tp_encap_ops, &tp_mseo_ops };
#define N_TRANSPORTS (sizeof registry / sizeof registry[0])

const char *const *rvt_tp_names(void)
{
    static const char *names[N_TRANSPORTS + 1];
    for (size_t i = 0; i < N_TRANSPORTS; i++)
        names[i] = registry[i]->name;
    return names;
}

static const tp_ops *find(const char *name)
{
    for (size_t i = 0; name && i < N_TRANSPORTS; i++)
        if (!strcmp(registry[i]->name, name))
            return registry[i];
    return NULL;
}

rvt_transport *rvt_tp_new(const char *name, const rvt_tp_config *cfg, const uint8_t *buf,
                          size_t len, int *status)
{
    const tp_ops *ops = find(name);
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    if (cfg) /* libipt's size rule: take what the caller's version has */
        memcpy(&c, cfg, cfg->size < sizeof c ? cfg->size : sizeof c);
    c.size = sizeof c;
    int st = !ops || (!buf && len) ? RVT_ERR_INVAL : rvt_tp_config_check(&c);
    rvt_transport *t = st < 0 ? NULL : calloc(1, sizeof *t);
    if (!t && st == 0)
        st = RVT_ERR_NOMEM;
    if (status)
        *status = st;
    if (!t)
        return NULL;
    t->ops = ops;
    t->cfg = c;
    t->buf = buf;
    t->len = len;
    return t;
}

void rvt_tp_free(rvt_transport *t)
{
    free(t);
}

const char *rvt_tp_name(const rvt_transport *t)
{
    return t ? t->ops->name : NULL;
}

int rvt_tp_next(rvt_transport *t, rvt_tp_frame *f)
{
    if (!t || !f)
        return RVT_ERR_INVAL;
    memset(f, 0, sizeof *f);
    t->why = NULL;
    int st = t->ops->next(t, f);
    if (st < 0 && !t->why)
        t->why = rvt_status_str(st);
    return st;
}

const char *rvt_tp_error(const rvt_transport *t)
{
    return t ? t->why : NULL;
}

void rvt_tp_reject(rvt_transport *t, const rvt_tp_frame *f)
{
    if (!t || !f || f->offset >= t->len)
        return;
    /* the frame's bytes after its first were taken; give them back as
     * candidates, counting the first byte as skipped */
    t->pos = (size_t)f->offset;
    tp_skip_to(t, t->pos + 1);
}

int rvt_tp_sync_forward(rvt_transport *t)
{
    if (!t)
        return RVT_ERR_INVAL;
    size_t at = t->ops->sync_from(t, t->pos);
    tp_skip_to(t, at);
    if (at >= t->len)
        return RVT_ERR_EOS;
    t->sync_off = at;
    t->have_sync = true;
    return 0;
}

int rvt_tp_sync_set(rvt_transport *t, uint64_t offset)
{
    if (!t || offset > t->len)
        return RVT_ERR_INVAL;
    t->pos = (size_t)offset;
    t->sync_off = offset;
    t->have_sync = true;
    return 0;
}

int rvt_tp_get_sync_offset(const rvt_transport *t, uint64_t *offset)
{
    if (!t || !offset)
        return RVT_ERR_INVAL;
    if (!t->have_sync)
        return RVT_ERR_NOSYNC;
    *offset = t->sync_off;
    return 0;
}

uint64_t rvt_tp_get_offset(const rvt_transport *t)
{
    return t ? t->pos : 0;
}

uint64_t rvt_tp_skipped(const rvt_transport *t)
{
    return t ? t->skipped : 0;
}
