/* An E-Trace stream's container (Encapsulation 1.0, docs/transport.md):
 * named by TRACE.attrs or seen in the first bytes, and taken off into the
 * reference-flow framing the E-Trace readers take, with a map back to the
 * file's bytes so that what a decoder says about an offset names the
 * file's byte.  Moved here from the CLI (issue 18: using the library from
 * C needs nothing from tools/). */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "rvtrace/trace.h"
#include "util/grow.h"

/* The lines of PATH.attrs, each to fn until it fails: 0 (also without a
 * sidecar), or fn's status with *bad_line. */
static int sidecar_lines(const char *path, int (*fn)(void *ctx, const char *line), void *ctx,
                         unsigned *bad_line)
{
    char side[4096], line[256];
    snprintf(side, sizeof side, "%s.attrs", path);
    FILE *f = fopen(side, "r");
    if (!f)
        return 0;
    unsigned ln = 0;
    int st = 0;
    while (st == 0 && fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        st = fn(ctx, line);
    }
    fclose(f);
    if (st < 0 && bad_line)
        *bad_line = ln;
    return st;
}

struct container_keys { rvt_tp_config *c; const char **name; };

/* sink_* keys describe a RAM sink's buffer (rvt_sink_order), not the framing */
static int container_line(void *ctx, const char *line)
{
    struct container_keys *k = ctx;
    if (!rvt_tp_config_key(line) || !strncmp(line, "sink_", 5))
        return 0;
    return rvt_tp_config_set(k->c, line, k->name) < 0 ? RVT_ERR_FORMAT : 0;
}

int rvt_trace_sidecar_container(const char *path, rvt_tp_config *c, const char **name,
                                unsigned *bad_line)
{
    if (!path || !c || !name)
        return RVT_ERR_INVAL;
    struct container_keys k = { c, name };
    int st = sidecar_lines(path, container_line, &k, bad_line);
    return st < 0 ? st : *name ? 1 : 0;
}

static int sink_line(void *ctx, const char *line)
{
    if (strncmp(line, "sink_", 5))
        return 0;
    return rvt_sink_state_set(ctx, line) < 0 ? RVT_ERR_FORMAT : 0;
}

int rvt_trace_sidecar_sink(const char *path, rvt_sink_state *s, unsigned *bad_line)
{
    if (!path || !s)
        return RVT_ERR_INVAL;
    return sidecar_lines(path, sink_line, s, bad_line);
}

#define SOURCES_MAX 4       /* distinct srcIDs a bare stream may carry */

/* Whether the packets from p on, read with S srcID bytes (2.1.5: 1 + S +
 * length bytes each), look like S is right: no header.extend (2.1.1: a
 * timestamp of unknown width would follow) and at most SOURCES_MAX srcID
 * values (with T > 0 taken for S, payload bytes would be read as srcIDs). */
static bool srcid_bytes_fit(const uint8_t *buf, size_t len, size_t p, unsigned s)
{
    uint32_t seen[SOURCES_MAX];
    unsigned nseen = 0;
    while (p < len) {
        unsigned h = buf[p], l = h & 31;
        if (!l) {
            p++;
            continue;
        }
        if (h & 0x80)
            return false;
        uint32_t id = 0;
        for (unsigned k = 0; k < s && p + 1 + k < len; k++)
            id |= (uint32_t)buf[p + 1 + k] << (8 * k);
        unsigned i = 0;
        while (i < nseen && seen[i] != id)
            i++;
        if (i == nseen && nseen++ == SOURCES_MAX)
            return false;
        seen[i] = id;
        p += 1 + s + l;
    }
    return true;
}

int rvt_trace_bytes_encap(const uint8_t *buf, size_t len, rvt_tp_config *c, bool guess)
{
    size_t run = 0;
    if (!buf || !c)
        return 0;
    while (run < len && (buf[run] & 31) == 0)
        run++;
    /* Encapsulation 2.3: N + 1 = 32 + S + T null bytes, the last a
     * null.alignment (0x80) before a packet: all-zero bytes are damage,
     * not a container */
    if (run < 32 || run >= len || buf[run - 1] != 0x80)
        return 0;
    if (!guess)
        return 1;
    /* S + T bytes; srcID is at most 16 bits (2.1.2), so S <= 2; T is
     * taken as 0 when the packets read with S = S + T fit (no timestamp,
     * few srcIDs) */
    size_t st = run - 32;
    if (st > 2 || !srcid_bytes_fit(buf, len, run, (unsigned)st))
        return RVT_ERR_FORMAT;
    c->src_bits = 8 * (unsigned)st;
    return 1;
}

/* Where each frame of a source's unwrapped stream came from, so that what
 * a decoder says about an offset names the file's byte, and the packet's
 * timestamp (extend = 1, 2.1.1) reaches the output. */
struct frame_at {
    uint64_t unwrapped, header, payload, ts;
    bool has_ts;
    uint32_t src;
};

/* One source's frames back in the reference-flow framing (merged: every
 * source's, in stream order). */
typedef struct lane {
    uint32_t src;
    uint8_t *out;
    size_t n, cap;
    struct frame_at *map;
    size_t nmap, capmap;
} lane;

struct rvt_unwrapped {
    lane *lanes;
    size_t nlanes;
    rvt_unwrap_stats st;
    bool all, merged;
    size_t hint;              /* one stream holds it all: the input's size */
    uint8_t seen[65536 / 8];  /* srcIDs kept so far (2.1.2: at most 16 bits) */
};

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    void *q = rvt_grow(*p, cap, need, elem, 1024);
    if (q)
        *p = q;
    return q != NULL;
}

/* The lane of srcID src (merged, or one source kept: the one lane), made
 * when first seen; NULL when out of memory. */
static lane *lane_of(rvt_unwrapped *u, uint32_t src)
{
    for (size_t i = 0; i < u->nlanes; i++)
        if (!u->all || u->merged || u->lanes[i].src == src)
            return &u->lanes[i];
    lane *l = realloc(u->lanes, (u->nlanes + 1) * sizeof *l);
    if (!l)
        return NULL;
    u->lanes = l;
    l = &u->lanes[u->nlanes++];
    *l = (lane){ .src = src };
    return grow((void **)&l->out, &l->cap, u->hint ? u->hint : 1, 1) ? l : NULL;
}

/* Whether frame f is kept; counts what is left out. */
static bool keep(rvt_unwrapped *u, const rvt_tp_frame *f)
{
    if (!u->all && u->st.source < 0)
        u->st.source = f->src;           /* the first seen */
    if (u->st.source >= 0 && f->src != (uint32_t)u->st.source) {
        u->st.other_sources++;
        return false;
    }
    if (f->type > 1) {
        u->st.other_types++;
        return false;
    }
    if (!(u->seen[f->src >> 3] & 1u << (f->src & 7))) {
        u->seen[f->src >> 3] |= (uint8_t)(1u << (f->src & 7));
        u->st.sources++;
    }
    return true;
}

/* One encapsulated frame back into the reference-flow framing: type 0
 * te_inst, 1 te_data (Encapsulation 3.3; width 0: te_inst).  false: out
 * of memory. */
static bool put_frame(rvt_unwrapped *u, const rvt_tp_frame *f)
{
    if (!keep(u, f))
        return true;
    lane *l = lane_of(u, f->src);
    if (!l || !grow((void **)&l->out, &l->cap, l->n + 1 + f->len, 1) ||
        !grow((void **)&l->map, &l->capmap, l->nmap + 1, sizeof *l->map))
        return false;
    l->map[l->nmap++] = (struct frame_at){ l->n, f->offset, f->offset + f->size - f->len,
                                           f->timestamp, f->has_timestamp, f->src };
    l->out[l->n++] = (uint8_t)((f->type + RVT_TE_MSG_INST) << 5 | f->len);
    memcpy(l->out + l->n, f->payload, f->len);
    l->n += f->len;
    return true;
}

static void bad_packet(rvt_unwrapped *u, const rvt_unwrap_opts *o, const rvt_transport *t,
                       const rvt_tp_frame *f, int st)
{
    u->st.bad++;
    if (!o || !o->diag)
        return;
    char msg[128];
    snprintf(msg, sizeof msg, "bad encapsulated packet (%s); resynchronised at offset %llu",
             rvt_status_str(st), (unsigned long long)rvt_tp_get_offset(t));
    o->diag(o->diag_ctx, RVT_DIAG_ERROR, f->offset, msg);
}

static int read_frames(rvt_unwrapped *u, rvt_transport *t, const rvt_unwrap_opts *o)
{
    if (o && o->resync && rvt_tp_sync_forward(t) < 0)
        u->st.no_sync = true;
    rvt_tp_frame f;
    int st;
    while ((st = rvt_tp_next(t, &f)) != 0) {
        if (st < 0)
            bad_packet(u, o, t, &f, st);
        else if (!put_frame(u, &f))
            return RVT_ERR_NOMEM;
    }
    u->st.skipped = rvt_tp_skipped(t);
    /* nothing kept: one empty stream, so that stream 0 always exists */
    return u->nlanes || lane_of(u, 0) ? 0 : RVT_ERR_NOMEM;
}

rvt_unwrapped *rvt_unwrap_encap(const rvt_tp_config *c, const uint8_t *buf, size_t len,
                                const rvt_unwrap_opts *o, int *status)
{
    int st = !c || (!buf && len) || (o && o->source < RVT_UNWRAP_ALL) ? RVT_ERR_INVAL : 0;
    rvt_unwrapped *u = st ? NULL : calloc(1, sizeof *u);
    rvt_transport *t = u ? rvt_tp_new("encap", c, buf, len, &st) : NULL;
    if (u && t) {
        u->st.source = o ? o->source : -1;
        u->all = u->st.source == RVT_UNWRAP_ALL;
        u->merged = u->all && o->merged;
        /* one stream of all or of one source: the input's size bounds it */
        u->hint = !u->all || u->merged ? (len ? len : 1) : 0;
        st = read_frames(u, t, o);
    } else if (!st) {
        st = RVT_ERR_NOMEM;
    }
    rvt_tp_free(t);
    if (status)
        *status = st;
    if (st < 0) {
        rvt_unwrapped_free(u);
        return NULL;
    }
    return u;
}

size_t rvt_unwrapped_count(const rvt_unwrapped *u)
{
    return u ? u->nlanes : 0;
}

static const lane *lane_at(const rvt_unwrapped *u, size_t i)
{
    return u && i < u->nlanes ? &u->lanes[i] : NULL;
}

const uint8_t *rvt_unwrapped_bytes(const rvt_unwrapped *u, size_t *len)
{
    return rvt_unwrapped_source(u, 0, len, NULL);
}

const uint8_t *rvt_unwrapped_source(const rvt_unwrapped *u, size_t i, size_t *len, uint32_t *src)
{
    const lane *l = lane_at(u, i);
    if (len)
        *len = l ? l->n : 0;
    if (src)
        *src = l ? l->src : 0;
    return l ? l->out : NULL;
}

uint8_t *rvt_unwrapped_take(rvt_unwrapped *u, size_t i, size_t *len)
{
    lane *l = u && i < u->nlanes ? &u->lanes[i] : NULL;
    uint8_t *out = l ? l->out : NULL;
    if (len)
        *len = out ? l->n : 0;
    if (l)
        l->out = NULL;
    return out;
}

void rvt_unwrapped_stats(const rvt_unwrapped *u, rvt_unwrap_stats *out)
{
    if (u && out)
        *out = u->st;
}

/* The frame of stream i that holds its offset off: the last one starting
 * at or before it; NULL when none does. */
static const struct frame_at *frame_of(const rvt_unwrapped *u, size_t i, uint64_t off)
{
    const lane *l = lane_at(u, i);
    if (!l || !l->nmap || off == UINT64_MAX)
        return NULL;
    size_t lo = 0, hi = l->nmap;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->map[mid].unwrapped <= off)
            lo = mid;
        else
            hi = mid;
    }
    return l->map[lo].unwrapped <= off ? &l->map[lo] : NULL;
}

uint64_t rvt_unwrapped_offset(const rvt_unwrapped *u, uint64_t off)
{
    return rvt_unwrapped_source_offset(u, 0, off);
}

uint64_t rvt_unwrapped_source_offset(const rvt_unwrapped *u, size_t i, uint64_t off)
{
    const struct frame_at *m = frame_of(u, i, off);
    if (!m)
        return off;
    return off == m->unwrapped ? m->header : m->payload + (off - m->unwrapped - 1);
}

long rvt_unwrapped_src_at(const rvt_unwrapped *u, size_t i, uint64_t off)
{
    const struct frame_at *m = frame_of(u, i, off);
    return m ? (long)m->src : -1;
}

bool rvt_unwrapped_time(const rvt_unwrapped *u, size_t i, size_t *next, uint64_t off, uint64_t *ts,
                        uint64_t *file_off)
{
    const lane *l = lane_at(u, i);
    if (!l || !next || !ts || !file_off)
        return false;
    /* Encapsulation 2.1.1: a timestamp belongs to its packet; it is due
     * before the first event that packet (or a later one) produced */
    while (*next < l->nmap && l->map[*next].unwrapped <= off) {
        const struct frame_at *m = &l->map[(*next)++];
        if (m->has_ts) {
            *ts = m->ts;
            *file_off = m->header;
            return true;
        }
    }
    return false;
}

void rvt_unwrapped_free(rvt_unwrapped *u)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->nlanes; i++) {
        free(u->lanes[i].out);
        free(u->lanes[i].map);
    }
    free(u->lanes);
    free(u);
}
