/* Images keyed by address space and the read-memory callback (mem.h).
 * The per-decoder caches over an rvt_mem are in mem_view.c. */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "image/mem_internal.h"
#include "util/grow.h"

rvt_space rvt_space_any(void)
{
    rvt_space s = { RVT_SPACE_ANY_CONTEXT, RVT_SPACE_ANY_PRIV, RVT_SPACE_ANY_SOURCE };
    return s;
}

bool rvt_space_matches(const rvt_space *key, const rvt_space *space)
{
    if (!key || !space)
        return false;
    return (key->context == RVT_SPACE_ANY_CONTEXT || key->context == space->context) &&
           (key->priv == RVT_SPACE_ANY_PRIV || key->priv == space->priv) &&
           (key->source == RVT_SPACE_ANY_SOURCE || key->source == space->source);
}

static unsigned specific(const rvt_space *k)
{
    return (k->context != RVT_SPACE_ANY_CONTEXT) + (k->priv != RVT_SPACE_ANY_PRIV) +
           (k->source != RVT_SPACE_ANY_SOURCE);
}

rvt_mem *rvt_mem_new(void)
{
    return calloc(1, sizeof(rvt_mem));
}

void rvt_mem_free(rvt_mem *m)
{
    if (m)
        free(m->ent);
    free(m);
}

int rvt_mem_add_image(rvt_mem *m, const rvt_space *key, const rvt_image *img)
{
    if (!m || !img)
        return RVT_ERR_INVAL;
    if (m->n == m->cap) {
        mem_ent *e = rvt_grow(m->ent, &m->cap, m->n + 1, sizeof *e, 4);
        if (!e)
            return RVT_ERR_NOMEM;
        m->ent = e;
    }
    mem_ent *e = &m->ent[m->n++];
    e->key = key ? *key : rvt_space_any();
    e->img = img;
    e->specific = specific(&e->key);
    return RVT_OK;
}

size_t rvt_mem_image_count(const rvt_mem *m)
{
    return m ? m->n : 0;
}

const rvt_image *rvt_mem_image(const rvt_mem *m, size_t i, rvt_space *key)
{
    if (!m || i >= m->n)
        return NULL;
    if (key)
        *key = m->ent[i].key;
    return m->ent[i].img;
}

int rvt_mem_set_read(rvt_mem *m, rvt_mem_read_fn fn, void *ctx, unsigned flags)
{
    if (!m || flags > RVT_MEM_READ_FIRST)
        return RVT_ERR_INVAL;
    m->read = fn;
    m->read_ctx = fn ? ctx : NULL;
    m->read_flags = fn ? flags : 0;
    return RVT_OK;
}

/* Most specific first, then the latest added: walk the specificity
 * levels down and the entries backwards. */
size_t mem_match(const rvt_mem *m, const rvt_space *space, size_t *out)
{
    size_t n = 0;
    for (unsigned lvl = 4; lvl-- > 0;)
        for (size_t i = m->n; i-- > 0;)
            if (m->ent[i].specific == lvl && rvt_space_matches(&m->ent[i].key, space))
                out[n++] = i;
    return n;
}

const rvt_image *rvt_mem_image_at(const rvt_mem *m, const rvt_space *space, uint64_t addr)
{
    if (!m || !space)
        return NULL;
    for (unsigned lvl = 4; lvl-- > 0;)
        for (size_t i = m->n; i-- > 0;) {
            const mem_ent *e = &m->ent[i];
            if (e->specific == lvl && rvt_space_matches(&e->key, space) && img_find(e->img, addr))
                return e->img;
        }
    return NULL;
}

static size_t read_cb(const rvt_mem *m, const rvt_space *space, uint64_t addr, void *buf,
                      size_t len)
{
    if (!m->read)
        return 0;
    size_t n = m->read(m->read_ctx, space, addr, buf, len);
    return n > len ? len : n;     /* a callback that claims more gave len */
}

size_t rvt_mem_read(const rvt_mem *m, const rvt_space *space, uint64_t addr, void *buf,
                    size_t len)
{
    if (!m || !space || !buf || !len)
        return 0;
    size_t n = 0;
    if (m->read_flags & RVT_MEM_READ_FIRST)
        n = read_cb(m, space, addr, buf, len);
    if (!n) {
        const rvt_image *img = rvt_mem_image_at(m, space, addr);
        n = img ? rvt_image_read(img, addr, buf, len)
                : !(m->read_flags & RVT_MEM_READ_FIRST) ? read_cb(m, space, addr, buf, len) : 0;
    }
    return n;
}

bool mem_read_insn_word(const rvt_mem *m, const rvt_space *space, uint64_t addr, uint32_t *raw)
{
    uint8_t b[4] = { 0, 0, 0, 0 };
    size_t n = read_cb(m, space, addr, b, sizeof b);
    *raw = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    /* RISC-V length encoding: low bits 11 = 32 bits or longer; longer
     * ones decode from their first word as in the image path. */
    return n >= 4 || (n >= 2 && (b[0] & 3) != 3);
}

unsigned rvt_mem_xlen(const rvt_mem *m)
{
    for (size_t i = 0; m && i < m->n; i++)
        if (rvt_image_xlen(m->ent[i].img))
            return rvt_image_xlen(m->ent[i].img);
    return 64;
}
