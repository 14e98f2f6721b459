/* All of the CLI's container handling (issue #16): encode --container
 * encap and its settings, the .attrs keys that record them, and on the
 * reading side the choice of container from FILE.attrs, else from the
 * bytes, said on stderr when it is not the plain reference-flow framing.
 * The library's transport stage (rvtrace/transport.h) does the framing. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ingress.h"
#include "rvtrace/trace.h"
#include "rvtrace/transport.h"

/* One command per process: the settings the options gave. */
static struct {
    const char *name;        /* NULL: not given (refflow for E-Trace) */
    rvt_tp_config cfg;
    bool cfg_init, type_given, src_bits_given;
    bool widths_given;       /* an --encap-* value option: the bytes need not tell */
    long source;             /* --encap-source/--src: decode this srcID only; -1 = all */
    bool merged;             /* dump: every source in one stream, in stream order */
    bool damaged;            /* an encapsulated stream had bad packets */
    bool resync;             /* --encap-resync: start at the first sync point (2.3) */
    bool tagged;             /* srcIDs are in the stream (width > 0) */
    rvt_unwrapped *u;        /* the stream unwrapped: one per srcID (merged: one
                                for all), their offsets and timestamps */
    size_t cur;              /* the source being decoded */
    size_t next_ts;          /* its first packet whose timestamp is not yet out */
    size_t nsources;         /* distinct srcIDs seen */
    rvt_sink_state sink;     /* FILE.attrs sink_* keys: a RAM sink's buffer */
    rvt_sink_view view;      /* ... put in stream order (rvt_sink_order) */
    const char *capture;     /* a capture's own metadata said encap (what said it) */
    unsigned capture_src_bits;
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
    if (!strcmp(key, "encap_src_bits"))
        opt.src_bits_given = true;
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

/* --encap-ts-bytes T: the packets carry a timestamp (extend = 1, 2.1.1),
 * the time (hart cycles, .rvi `time`) of the record whose retirement made
 * the encoder write them, T bytes wide (higher bits wrap as a counter of
 * that width would).  Records go to the encoder one at a time for that. */
static struct {
    rvt_irec_sink inner;
    uint64_t now;
} clock;

static int timed_put(void *ctx, const rvt_irec *recs, size_t n)
{
    (void)ctx;
    for (size_t i = 0; i < n; i++) {
        clock.now = recs[i].time;
        int st = clock.inner.put(clock.inner.ctx, recs + i, 1);
        if (st)
            return st;
    }
    return 0;
}

static int timed_data(void *ctx, const rvt_drec *recs, size_t n)
{
    (void)ctx;
    return clock.inner.data(clock.inner.ctx, recs, n);
}

static int timed_end(void *ctx)
{
    (void)ctx;
    return clock.inner.end(clock.inner.ctx);
}

rvt_irec_sink cli_container_timed_sink(const rvt_irec_sink *inner)
{
    if (!opt.name || strcmp(opt.name, "encap") || !cfg()->ts_bytes)
        return *inner;
    clock.inner = *inner;
    return (rvt_irec_sink){ NULL, timed_put, inner->data ? timed_data : NULL,
                            inner->end ? timed_end : NULL };
}

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
    return cli_container_write_hart(f, 0, frame, n);
}

int cli_container_write_hart(FILE *f, unsigned hart, const uint8_t *frame, size_t n)
{
    if (!opt.name || strcmp(opt.name, "encap"))
        return fwrite(frame, 1, n, f) == n ? 0 : RVT_ERR_IO;
    if (!writer && !(writer = rvt_encap_writer_new(cfg(), to_file, f, NULL)))
        return RVT_ERR_NOMEM;
    int st = rvt_encap_writer_set_src(writer, cfg()->src_id + hart);
    uint64_t ts = cfg()->ts_bytes < 8 ? clock.now & ((1ull << 8 * cfg()->ts_bytes) - 1) : clock.now;
    return st < 0 ? st : rvt_encap_write_frame(writer, cfg()->ts_bytes ? &ts : NULL, frame, n);
}

int cli_container_harts(unsigned n)
{
    if (n < 2)
        return CLI_OK;
    if (opt.name && strcmp(opt.name, "encap")) {
        cli_err("run: --harts %u with --etrace needs --container encap (one srcID per hart)", n);
        return CLI_USAGE;
    }
    opt.name = "encap";     /* Encapsulation 2.1.2: the srcID names the hart */
    unsigned bits = 0;
    while ((cfg()->src_id + n - 1) >> bits)
        bits++;
    if (cfg()->src_bits < bits && !opt.src_bits_given) {
        cfg()->src_bits = bits;
    } else if (cfg()->src_bits < bits) {
        cli_err("run: --harts %u needs srcIDs %u..%u, more than --encap-src-bits %u hold", n,
                cfg()->src_id, cfg()->src_id + n - 1, cfg()->src_bits);
        return CLI_USAGE;
    }
    return CLI_OK;
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

/* The frames of the source(s) asked for, each source's in a stream of
 * its own (merged: all in one) in the reference-flow framing, by the
 * library (rvt_unwrap_encap); stream 0 is returned, the others follow
 * with cli_container_next_source.  own: buf is the caller's malloc'd
 * buffer, freed here (else borrowed, e.g. a mapped file). */
static uint8_t *unwrap_encap(const char *trace, const rvt_tp_config *c, uint8_t *buf, size_t *len,
                             bool own)
{
    rvt_unwrapped_free(opt.u);       /* a stream unwrapped before (perf.data: one per CPU) */
    opt.cur = opt.next_ts = 0;
    opt.tagged = c->src_bits > 0;
    rvt_unwrap_opts o = { .source = opt.source >= 0 ? opt.source : RVT_UNWRAP_ALL,
                          .merged = opt.merged, .resync = opt.resync,
                          .diag = cli_diag, .diag_ctx = (void *)trace };
    int st;
    opt.u = rvt_unwrap_encap(c, buf, *len, &o, &st);
    if (own)
        free(buf);
    if (!opt.u) {
        cli_err("%s: %s", trace, st == RVT_ERR_NOMEM ? "out of memory" : rvt_status_str(st));
        return NULL;
    }
    rvt_unwrap_stats s;
    rvt_unwrapped_stats(opt.u, &s);
    opt.nsources = s.sources;
    if (s.no_sync)
        cli_err("%s: encap: no synchronisation point in the stream", trace);
    if (s.bad)
        opt.damaged = true;
    if (s.skipped)
        cli_err("%s: encap: %llu bytes skipped to resynchronise", trace,
                (unsigned long long)s.skipped);
    if (s.other_sources)
        cli_err("%s: encap: decoding srcID %ld; %u packets of other sources left out",
                trace, opt.source, s.other_sources);
    if (s.other_types)
        cli_err("%s: encap: %u packets of types other than 0/1 left out", trace, s.other_types);
    if (opt.source >= 0 && !s.sources) {
        cli_err("%s: encap: no packet of srcID %ld", trace, opt.source);
        opt.damaged = true;
    }
    return rvt_unwrapped_take(opt.u, 0, len);
}

/* The sink_* keys of TRACE.attrs (TCI 1.0 "Trace RAM Sink": where the
 * buffer was and where the write pointer stood) into opt.sink.  0, or -1
 * (printed) on a bad key. */
static int sink_attrs(const char *trace)
{
    unsigned line = 0;
    if (rvt_trace_sidecar_sink(trace, &opt.sink, &line) < 0) {
        cli_err("%s.attrs: line %u: bad sink setting", trace, line);
        return -1;
    }
    return 0;
}

/* A RAM sink's buffer (FILE.attrs sink_* keys, TCI 1.0 "Trace RAM Sink"):
 * in stream order from where a reader may start (rvt_sink_take), what was
 * lost said.  NULL (printed, buf freed) when it does not fit its
 * addresses or a wrapped one holds no sync point. */
static uint8_t *sink_order(const char *trace, const char *name, const rvt_tp_config *c, uint8_t *buf,
                           size_t *len)
{
    char msg[256];
    int st = rvt_sink_take(&opt.sink, name, c, buf, len, &opt.view, msg, sizeof msg);
    if (msg[0])
        cli_err("%s: %s", trace, msg);
    if (st < 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* A RAM sink's buffer (FILE.attrs sink_* keys) put in stream order for
 * transport tp (sink_order); buf as it is without those keys.  NULL
 * (printed; buf freed when *own) on error; a borrowed buf is copied
 * first (*own set). */
static uint8_t *sink_unwrap(const char *trace, const char *tp, const rvt_tp_config *c, uint8_t *buf,
                            size_t *len, bool *own)
{
    if (sink_attrs(trace) < 0) {
        if (*own)
            free(buf);
        return NULL;
    }
    if (!opt.sink.present)
        return buf;
    if (!*own) {
        /* put in order in place: a copy of a borrowed (mapped) buffer */
        uint8_t *copy = malloc(*len ? *len : 1);
        if (!copy) {
            cli_err("%s: out of memory", trace);
            return NULL;
        }
        memcpy(copy, buf, *len);
        buf = copy;
        *own = true;
    }
    return sink_order(trace, tp, c, buf, len);
}

bool cli_container_mid_stream(void)
{
    return opt.sink.present && opt.sink.wrap && !opt.sink.stop_on_wrap;
}

uint8_t *cli_container_sink_borrowed(const char *trace, const char *tp, const uint8_t *buf, size_t *len)
{
    bool own = false;
    return buf ? sink_unwrap(trace, tp, cfg(), (uint8_t *)buf, len, &own) : NULL;
}

static uint8_t *container_unwrap(const char *trace, uint8_t *buf, size_t *len, bool own)
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
            if (own)
                free(buf);
            return NULL;
        }
        from = r ? "FILE.attrs" : NULL;
        c = r ? c : *cfg();
    }
    if (!name && opt.capture) {      /* below the options and FILE.attrs */
        name = "encap";
        from = opt.capture;
        if (!opt.widths_given)
            c.src_bits = opt.capture_src_bits;
    }
    if (!(buf = sink_unwrap(trace, name, &c, buf, len, &own)))
        return NULL;
    /* from the bytes: whole srcID bytes, no timestamp, unless --encap-* said */
    int r = name ? 0 : rvt_trace_bytes_encap(buf, *len, &c, !opt.widths_given);
    if (r < 0) {
        cli_err("%s: encapsulated, with srcID and timestamp bytes the sync sequence's length "
                "(Encapsulation 2.3) does not split: give --encap-src-bits N and --encap-ts-bytes N, "
                "or keep FILE.attrs beside it", trace);
        if (own)
            free(buf);
        return NULL;
    }
    if (r > 0) {
        name = "encap";
        from = "the bytes (a leading sync sequence: srcID whole bytes from its length, 2.3; "
               "--encap-src-bits N for another width)";
    }
    if ((!name || strcmp(name, "encap")) && opt.source >= 0) {
        cli_err("%s: --src %ld: the stream is not encapsulated, it carries no srcID", trace,
                opt.source);
        if (own)
            free(buf);
        return NULL;
    }
    if (!name || strcmp(name, "encap"))
        return buf;
    cli_err("%s: container encap (from %s): srcID %u bits, timestamp %u bytes, type %u bits",
            trace, from, c.src_bits, c.ts_bytes, c.type_bits);
    return unwrap_encap(trace, &c, buf, len, own);
}

void cli_container_capture(const char *what, unsigned src_bits)
{
    opt.capture = what;
    opt.capture_src_bits = src_bits;
}

uint8_t *cli_container_unwrap(const char *trace, uint8_t *buf, size_t *len)
{
    return container_unwrap(trace, buf, len, true);
}

uint8_t *cli_container_unwrap_borrowed(const char *trace, const uint8_t *buf, size_t *len)
{
    return container_unwrap(trace, (uint8_t *)buf, len, false);
}

/* An offset of the ordered sink buffer back to the saved one's. */
static uint64_t sink_file_offset(uint64_t off)
{
    if (!opt.sink.present || off == UINT64_MAX)
        return off;
    return rvt_sink_file_offset(&opt.view, off + opt.view.begin, rvt_sink_size(&opt.sink));
}

uint64_t cli_container_offset(uint64_t off)
{
    return sink_file_offset(rvt_unwrapped_source_offset(opt.u, opt.cur, off));
}

void cli_container_merge_sources(void)
{
    opt.merged = true;
}

void cli_container_select(unsigned src)
{
    opt.source = (long)src;
}

size_t cli_container_nsources(void)
{
    return opt.nsources;
}

long cli_container_src_at(uint64_t off)
{
    return opt.tagged ? rvt_unwrapped_src_at(opt.u, opt.cur, off) : -1;
}

uint8_t *cli_container_next_source(size_t *len)
{
    if (opt.merged || opt.cur + 1 >= rvt_unwrapped_count(opt.u))
        return NULL;
    opt.next_ts = 0;
    return rvt_unwrapped_take(opt.u, ++opt.cur, len);
}

bool cli_container_time(uint64_t off, uint64_t *ts, uint64_t *file_off)
{
    return rvt_unwrapped_time(opt.u, opt.cur, &opt.next_ts, off, ts, file_off);
}

bool cli_container_timed(void)
{
    /* any packet of the current source with a timestamp (2.1.1): the
     * library's cursor walked over the whole stream finds the first */
    size_t next = 0;
    uint64_t ts, file_off;
    return opt.u && rvt_unwrapped_time(opt.u, opt.cur, &next, UINT64_MAX, &ts, &file_off);
}

bool cli_container_damaged(void)
{
    return opt.damaged;
}
