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

struct frame_at {
    uint64_t unwrapped, header, payload;
};

struct rvt_unwrapped {
    uint8_t *out;
    size_t n;
    rvt_unwrap_stats st;
    struct frame_at *map;
    size_t nmap, capmap;
};

static void map_frame(rvt_unwrapped *u, const rvt_tp_frame *f)
{
    if (u->nmap == u->capmap) {
        size_t cap = u->capmap ? 2 * u->capmap : 1024;
        struct frame_at *m = realloc(u->map, cap * sizeof *m);
        if (m)
            u->map = m, u->capmap = cap;
    }
    if (u->nmap < u->capmap)   /* (out of memory: offsets stay those of the unwrapped stream) */
        u->map[u->nmap++] = (struct frame_at){ u->n, f->offset, f->offset + f->size - f->len };
}

/* One encapsulated frame back into the reference-flow framing: type 0
 * te_inst, 1 te_data (Encapsulation 3.3; width 0: te_inst). */
static void put_frame(rvt_unwrapped *u, const rvt_tp_frame *f)
{
    if (u->st.source < 0)
        u->st.source = f->src;
    if (f->src != (uint32_t)u->st.source) {
        u->st.other_sources++;
        return;
    }
    if (f->type > 1) {
        u->st.other_types++;
        return;
    }
    map_frame(u, f);
    u->out[u->n++] = (uint8_t)((f->type + RVT_TE_MSG_INST) << 5 | f->len);
    memcpy(u->out + u->n, f->payload, f->len);
    u->n += f->len;
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

rvt_unwrapped *rvt_unwrap_encap(const rvt_tp_config *c, const uint8_t *buf, size_t len,
                                const rvt_unwrap_opts *o, int *status)
{
    rvt_unwrapped *u = calloc(1, sizeof *u);
    rvt_transport *t = c && (buf || !len) ? rvt_tp_new("encap", c, buf, len, NULL) : NULL;
    if (!u || !t || !(u->out = malloc(len ? len : 1))) {
        if (status)
            *status = !c || (!buf && len) ? RVT_ERR_INVAL : RVT_ERR_NOMEM;
        rvt_tp_free(t);
        rvt_unwrapped_free(u);
        return NULL;
    }
    u->st.source = o ? o->source : -1;
    if (o && o->resync && rvt_tp_sync_forward(t) < 0)
        u->st.no_sync = true;
    rvt_tp_frame f;
    int st;
    while ((st = rvt_tp_next(t, &f)) != 0) {
        if (st > 0)
            put_frame(u, &f);
        else
            bad_packet(u, o, t, &f, st);
    }
    u->st.skipped = rvt_tp_skipped(t);
    rvt_tp_free(t);
    if (status)
        *status = 0;
    return u;
}

const uint8_t *rvt_unwrapped_bytes(const rvt_unwrapped *u, size_t *len)
{
    if (len)
        *len = u ? u->n : 0;
    return u ? u->out : NULL;
}

void rvt_unwrapped_stats(const rvt_unwrapped *u, rvt_unwrap_stats *out)
{
    if (u && out)
        *out = u->st;
}

uint64_t rvt_unwrapped_offset(const rvt_unwrapped *u, uint64_t off)
{
    if (!u || !u->nmap || off == UINT64_MAX)
        return off;
    size_t lo = 0, hi = u->nmap;       /* the last frame starting at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (u->map[mid].unwrapped <= off)
            lo = mid;
        else
            hi = mid;
    }
    const struct frame_at *m = &u->map[lo];
    if (off < m->unwrapped)
        return off;
    return off == m->unwrapped ? m->header : m->payload + (off - m->unwrapped - 1);
}

void rvt_unwrapped_free(rvt_unwrapped *u)
{
    if (!u)
        return;
    free(u->out);
    free(u->map);
    free(u);
}
