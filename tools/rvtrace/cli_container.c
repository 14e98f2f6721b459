/* All of the CLI's container handling (issue #16): encode --container
 * encap and its settings, the .attrs keys that record them, and on the
 * reading side the choice of container from FILE.attrs, else from the
 * bytes, said on stderr when it is not the plain reference-flow framing.
 * The library's transport stage (rvtrace/transport.h) does the framing. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/etrace.h"
#include "rvtrace/transport.h"

/* One command per process: the settings the options gave. */
static struct {
    const char *name;        /* NULL: not given (refflow for E-Trace) */
    rvt_tp_config cfg;
    bool cfg_init, type_given;
    long source;             /* --encap-source: decode this srcID only; -1 = first seen */
    bool damaged;            /* an encapsulated stream had bad packets */
    bool resync;             /* --encap-resync: start at the first sync point (2.3) */
    /* Where each unwrapped frame came from, so that what the decoders say
     * about an offset of the unwrapped stream names the file's byte. */
    struct frame_at { uint64_t unwrapped, header, payload; } *map;
    size_t nmap, capmap;
} opt = { .source = -1 };

static rvt_tp_config *cfg(void)
{
    if (!opt.cfg_init) {
        rvt_tp_config_init(&opt.cfg);
        opt.cfg_init = true;
    }
    return &opt.cfg;
}

static const struct { const char *opt, *key; } valued[] = {
    { "--encap-src-bits", "encap_src_bits" },
    { "--encap-src-id", "encap_src_id" },
    { "--encap-ts-bytes", "encap_ts_bytes" },
    { "--encap-type-bits", "encap_type_bits" },
    { "--encap-sync-interval", "encap_sync_interval" },
};

int cli_container_option_args(int argc, char **argv, int i)
{
    const char *a = argv[i];
    if (strcmp(a, "--container") && strcmp(a, "--encap-source") && strncmp(a, "--encap-", 8))
        return 0;
    if (!strcmp(a, "--encap-unframed") || !strcmp(a, "--encap-resync") || strchr(a, '='))
        return 1;
    return i + 1 < argc ? 2 : 1;
}

static int set_kv(const char *opt_name, const char *key, const char *v)
{
    char kv[128];
    snprintf(kv, sizeof kv, "%s=%s", key, v);
    if (rvt_tp_config_set(cfg(), kv, NULL) < 0) {
        cli_err("%s: bad value '%s'", opt_name, v);
        return -1;
    }
    if (!strcmp(key, "encap_type_bits"))
        opt.type_given = true;
    return 1;
}

int cli_container_option(int argc, char **argv, int *i)
{
    const char *v;
    int j = *i, r = 0;
    if ((v = cli_opt(argc, argv, &j, "--container"))) {
        if (strcmp(v, "encap") && strcmp(v, "refflow")) {
            cli_err("--container: '%s' is not refflow or encap", v);
            return -1;
        }
        opt.name = !strcmp(v, "encap") ? "encap" : "refflow";
        r = 1;
    } else if (!strcmp(argv[j], "--encap-resync")) {
        opt.resync = true;      /* a wrapped sink buffer starts mid-packet */
        r = 1;
    } else if (!strcmp(argv[j], "--encap-unframed")) {
        cfg()->unframed = true;
        r = 1;
    } else if ((v = cli_opt(argc, argv, &j, "--encap-source"))) {
        uint64_t s;
        if (!cli_parse_u64(v, &s) || s > 0xFFFF) {
            cli_err("--encap-source: bad srcID '%s'", v);
            return -1;
        }
        opt.source = (long)s;
        r = 1;
    }
    for (size_t k = 0; !r && k < sizeof valued / sizeof valued[0]; k++)
        if ((v = cli_opt(argc, argv, &j, valued[k].opt)))
            r = set_kv(valued[k].opt, valued[k].key, v);
    if (r > 0)
        *i = j;
    return r;
}

/* ---- encode ---- */

static rvt_encap_writer *writer;

static int to_file(void *ctx, const uint8_t *b, size_t n)
{
    return fwrite(b, 1, n, ctx) == n ? 0 : RVT_ERR_IO;
}

int cli_container_encode_start(bool data_trace)
{
    if (!opt.name || strcmp(opt.name, "encap")) {
        if (opt.cfg_init) {
            cli_err("encode: --encap-* options need --container encap");
            return CLI_USAGE;
        }
        return CLI_OK;
    }
    /* Encapsulation 3.3: type width 0 with instruction trace only, 1 with
     * data trace (0 instruction, 1 data) */
    if (!opt.type_given)
        cfg()->type_bits = data_trace ? 1 : 0;
    if (data_trace && cfg()->type_bits == 0) {
        cli_err("encode: --te-data needs --encap-type-bits >= 1 (Encapsulation 3.3)");
        return CLI_USAGE;
    }
    if (rvt_tp_config_check(cfg()) < 0) {
        cli_err("encode: --encap-src-id does not fit --encap-src-bits");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cli_container_write(FILE *f, const uint8_t *frame, size_t n)
{
    if (!opt.name || strcmp(opt.name, "encap"))
        return fwrite(frame, 1, n, f) == n ? 0 : RVT_ERR_IO;
    if (!writer && !(writer = rvt_encap_writer_new(cfg(), to_file, f, NULL)))
        return RVT_ERR_NOMEM;
    /* the encoder writes reference-flow frames: header msg_type<<5 | length */
    unsigned type = ((frame[0] >> 5) & 3u) - RVT_TE_MSG_INST;
    if (type && cfg()->type_bits == 0)
        return RVT_ERR_RANGE;
    return rvt_encap_write(writer, type, NULL, frame + 1, n - 1);
}

void cli_container_attrs_write(FILE *f)
{
    rvt_encap_writer_free(writer);      /* the stream is complete */
    writer = NULL;
    if (!opt.name || strcmp(opt.name, "encap"))
        return;
    const rvt_tp_config *c = cfg();
    fprintf(f, "# container (Encapsulation 1.0; docs/transport.md)\ncontainer=encap\n"
               "encap_src_bits=%u\nencap_src_id=%u\nencap_ts_bytes=%u\nencap_type_bits=%u\n"
               "encap_sync_interval=%llu\nencap_unframed=%u\n",
            c->src_bits, c->src_id, c->ts_bytes, c->type_bits,
            (unsigned long long)c->sync_interval, c->unframed ? 1u : 0u);
}

/* ---- dump / decode ---- */

/* The container keys of TRACE.attrs (other lines belong to the protocol).
 * 1 when it names a container, 0 when not, -1 (printed) on a bad key. */
static int attrs_container(const char *trace, rvt_tp_config *c, const char **name)
{
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s.attrs", trace);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned ln = 0;
    int found = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        if (!rvt_tp_config_key(line))
            continue;
        if (rvt_tp_config_set(c, line, name) < 0) {
            cli_err("%s: line %u: bad container setting", path, ln);
            found = -1;
            break;
        }
        found = found < 0 ? found : 1;
    }
    fclose(f);
    return found < 0 ? -1 : *name ? 1 : 0;
}

/* Without FILE.attrs: a reference-flow stream starts with a header whose
 * length is not 0; an encapsulated one written by rvtrace starts with a
 * synchronisation sequence of N + 1 = 32 + S + T null bytes (2.3)... */
static bool bytes_say_encap(const uint8_t *buf, size_t len, rvt_tp_config *c)
{
    size_t run = 0;
    while (run < len && (buf[run] & 31) == 0)
        run++;
    /* ...ending in a null.alignment (0x80) before a packet: all-zero bytes
     * are damage, not a container */
    if (run < 32 || run >= len || buf[run - 1] != 0x80)
        return false;
    unsigned extra = run - 32 > 2 ? 2 : (unsigned)(run - 32);
    if (!opt.cfg_init)      /* assumed: whole srcID bytes, no timestamp */
        c->src_bits = 8 * extra;
    return true;
}

typedef struct unwrap {
    uint8_t *out;
    size_t n;
    long source;
    uint32_t other;       /* frames of other sources */
    uint32_t other_types; /* frames whose type is not te_inst/te_data */
} unwrap;

/* One encapsulated frame back into the reference-flow framing: type 0
 * te_inst, 1 te_data (Encapsulation 3.3; width 0: te_inst). */
static void put_frame(unwrap *u, const rvt_tp_frame *f)
{
    if (u->source < 0)
        u->source = f->src;
    if (f->src != (uint32_t)u->source) {
        u->other++;
        return;
    }
    if (f->type > 1) {
        u->other_types++;
        return;
    }
    if (opt.nmap == opt.capmap) {
        size_t cap = opt.capmap ? 2 * opt.capmap : 1024;
        struct frame_at *m = realloc(opt.map, cap * sizeof *m);
        if (m)
            opt.map = m, opt.capmap = cap;
    }
    if (opt.nmap < opt.capmap)   /* (out of memory: offsets stay those of the unwrapped stream) */
        opt.map[opt.nmap++] = (struct frame_at){ u->n, f->offset, f->offset + f->size - f->len };
    u->out[u->n++] = (uint8_t)((f->type + RVT_TE_MSG_INST) << 5 | f->len);
    memcpy(u->out + u->n, f->payload, f->len);
    u->n += f->len;
}

/* own: buf is the caller's malloc'd buffer, freed here (else borrowed,
 * e.g. a mapped file). */
static uint8_t *unwrap_encap(const char *trace, const rvt_tp_config *c, uint8_t *buf, size_t *len,
                             bool own)
{
    rvt_transport *t = rvt_tp_new("encap", c, buf, *len, NULL);
    unwrap u = { .out = malloc(*len ? *len : 1), .source = opt.source };
    if (!t || !u.out) {
        cli_err("%s: out of memory", trace);
        free(u.out);
        rvt_tp_free(t);
        if (own)
            free(buf);
        return NULL;
    }
    rvt_tp_frame f;
    int st;
    if (opt.resync && rvt_tp_sync_forward(t) < 0)
        cli_err("%s: encap: no synchronisation point in the stream", trace);
    while ((st = rvt_tp_next(t, &f)) != 0) {
        if (st > 0) {
            put_frame(&u, &f);
            continue;
        }
        char msg[128];
        snprintf(msg, sizeof msg, "bad encapsulated packet (%s); resynchronised at offset %llu",
                 rvt_status_str(st), (unsigned long long)rvt_tp_get_offset(t));
        cli_diag((void *)trace, RVT_DIAG_ERROR, f.offset, msg);
        opt.damaged = true;
    }
    if (rvt_tp_skipped(t))
        cli_err("%s: encap: %llu bytes skipped to resynchronise", trace,
                (unsigned long long)rvt_tp_skipped(t));
    if (u.other)
        cli_err("%s: encap: decoding srcID %ld; %u packets of other sources left out "
                "(--encap-source N)", trace, u.source, u.other);
    if (u.other_types)
        cli_err("%s: encap: %u packets of types other than 0/1 left out", trace, u.other_types);
    rvt_tp_free(t);
    if (own)
        free(buf);
    *len = u.n;
    return u.out;
}

static uint8_t *container_unwrap(const char *trace, uint8_t *buf, size_t *len, bool own)
{
    if (!buf)
        return NULL;
    rvt_tp_config c = *cfg();
    const char *name = opt.name;
    const char *from = "--container";
    if (!name) {
        int r = attrs_container(trace, &c, &name);
        if (r < 0) {
            if (own)
                free(buf);
            return NULL;
        }
        from = r ? "FILE.attrs" : NULL;
        c = r ? c : *cfg();
    }
    if (!name && bytes_say_encap(buf, *len, &c)) {
        name = "encap";
        from = "the bytes (a leading sync sequence; srcID width guessed, no timestamp)";
    }
    if (!name || strcmp(name, "encap"))
        return buf;
    cli_err("%s: container encap (from %s): srcID %u bits, timestamp %u bytes, type %u bits",
            trace, from, c.src_bits, c.ts_bytes, c.type_bits);
    return unwrap_encap(trace, &c, buf, len, own);
}

uint8_t *cli_container_unwrap(const char *trace, uint8_t *buf, size_t *len)
{
    return container_unwrap(trace, buf, len, true);
}

uint8_t *cli_container_unwrap_borrowed(const char *trace, const uint8_t *buf, size_t *len)
{
    return container_unwrap(trace, (uint8_t *)buf, len, false);
}

uint64_t cli_container_offset(uint64_t off)
{
    if (!opt.nmap || off == UINT64_MAX)
        return off;
    size_t lo = 0, hi = opt.nmap;       /* the last frame starting at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (opt.map[mid].unwrapped <= off)
            lo = mid;
        else
            hi = mid;
    }
    const struct frame_at *m = &opt.map[lo];
    if (off < m->unwrapped)
        return off;
    return off == m->unwrapped ? m->header : m->payload + (off - m->unwrapped - 1);
}

bool cli_container_damaged(void)
{
    return opt.damaged;
}
