/* All of the CLI's container handling (issue #16): encode --container
 * encap and its settings, the .attrs keys that record them, and on the
 * reading side the choice of container from FILE.attrs, else from the
 * bytes, said on stderr when it is not the plain reference-flow framing.
 * The library does the framing (rvtrace/transport.h) and the unwrapping
 * (rvtrace/trace.h); here are the options and what is said about them. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/etrace.h"
#include "rvtrace/trace.h"
#include "rvtrace/transport.h"

/* One command per process: the settings the options gave. */
static struct {
    const char *name;        /* NULL: not given (refflow for E-Trace) */
    rvt_tp_config cfg;
    bool cfg_init, type_given;
    bool widths_given;       /* an --encap-* value option: the bytes need not tell */
    long source;             /* --encap-source: decode this srcID only; -1 = first seen */
    bool damaged;            /* an encapsulated stream had bad packets */
    bool resync;             /* --encap-resync: start at the first sync point (2.3) */
    /* Where each unwrapped frame came from, so that what the decoders say
     * about an offset of the unwrapped stream names the file's byte. */
    rvt_unwrapped *unwrapped;
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
    opt.widths_given = true;
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

/* The library unwraps (rvt_unwrap_encap, trace.h); the CLI says what it
 * left out. */
static uint8_t *unwrap_encap(const char *trace, const rvt_tp_config *c, uint8_t *buf, size_t *len)
{
    rvt_unwrap_opts o = { .source = opt.source, .resync = opt.resync, .diag = cli_diag,
                          .diag_ctx = (void *)trace };
    rvt_unwrap_stats u;
    rvt_unwrapped_free(opt.unwrapped);
    opt.unwrapped = rvt_unwrap_encap(c, buf, *len, &o, NULL);
    free(buf);
    if (!opt.unwrapped) {
        cli_err("%s: out of memory", trace);
        return NULL;
    }
    rvt_unwrapped_stats(opt.unwrapped, &u);
    opt.damaged = u.bad > 0;
    if (u.no_sync)
        cli_err("%s: encap: no synchronisation point in the stream", trace);
    if (u.skipped)
        cli_err("%s: encap: %llu bytes skipped to resynchronise", trace, (unsigned long long)u.skipped);
    if (u.other_sources)
        cli_err("%s: encap: decoding srcID %ld; %u packets of other sources left out "
                "(--encap-source N)", trace, u.source, u.other_sources);
    if (u.other_types)
        cli_err("%s: encap: %u packets of types other than 0/1 left out", trace, u.other_types);
    const uint8_t *b = rvt_unwrapped_bytes(opt.unwrapped, len);
    uint8_t *copy = malloc(*len ? *len : 1);   /* the caller frees what it gets */
    if (!copy)
        cli_err("%s: out of memory", trace);
    else
        memcpy(copy, b, *len);
    return copy;
}

uint8_t *cli_container_unwrap(const char *trace, uint8_t *buf, size_t *len)
{
    if (!buf)
        return NULL;
    rvt_tp_config c = *cfg();
    const char *name = opt.name;
    const char *from = "--container";
    if (!name) {
        unsigned line = 0;
        int r = rvt_trace_sidecar_container(trace, &c, &name, &line);
        if (r < 0) {
            cli_err("%s.attrs: line %u: bad container setting", trace, line);
            free(buf);
            return NULL;
        }
        from = r ? "FILE.attrs" : NULL;
        c = r ? c : *cfg();
    }
    /* from the bytes: whole srcID bytes, no timestamp, unless --encap-* said */
    int r = name ? 0 : rvt_trace_bytes_encap(buf, *len, &c, !opt.widths_given);
    if (r < 0) {
        cli_err("%s: encapsulated, with srcID and timestamp bytes the sync sequence's length "
                "(Encapsulation 2.3) does not split: give --encap-src-bits N and --encap-ts-bytes N, "
                "or keep FILE.attrs beside it", trace);
        free(buf);
        return NULL;
    }
    if (r > 0) {
        name = "encap";
        from = "the bytes (a leading sync sequence: srcID whole bytes from its length, 2.3; "
               "--encap-src-bits N for another width)";
    }
    if (!name || strcmp(name, "encap"))
        return buf;
    cli_err("%s: container encap (from %s): srcID %u bits, timestamp %u bytes, type %u bits",
            trace, from, c.src_bits, c.ts_bytes, c.type_bits);
    return unwrap_encap(trace, &c, buf, len);
}

uint64_t cli_container_offset(uint64_t off)
{
    return rvt_unwrapped_offset(opt.unwrapped, off);
}

bool cli_container_damaged(void)
{
    return opt.damaged;
}
