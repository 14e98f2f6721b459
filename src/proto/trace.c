/* A trace file opened with its sidecar (include/rvtrace/trace.h): the
 * protocol from the caller, the name, the sidecar or the bytes; the
 * settings from TRACE.attrs; the container taken off.  The CLI finds a
 * trace's kind with the same pieces (tools/rvtrace/cli_kind.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "rvtrace/io.h"
#include "rvtrace/trace.h"

struct rvt_trace {
    const rvt_proto *proto;
    rvt_proto_cfg *cfg;
    const char *found_by;
    const char *container;
    uint8_t *raw;
    size_t rawlen;
    rvt_unwrapped *unwrapped;
    rvt_sink_state sink;     /* TRACE.attrs sink_* keys: a RAM sink's buffer */
    rvt_sink_view view;      /* ... put in stream order */
    char error[512];
};

static bool has_suffix(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcmp(s + n - m, suf);
}

const rvt_proto *rvt_trace_proto_of_name(const char *path)
{
    if (!path)
        return NULL;
    if (has_suffix(path, ".te") || strstr(path, "te_inst_raw"))
        return rvt_proto_find("etrace");
    if (has_suffix(path, ".nt"))
        return rvt_proto_find("ntrace");
    if (has_suffix(path, ".tvt"))
        return rvt_proto_find("tv");
    return NULL;
}

/* Peek only into regular files: a FIFO would block (the reader that
 * follows reports what it is). */
static FILE *open_regular(const char *path)
{
    struct stat st;
    return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
}

const rvt_proto *rvt_trace_proto_of_sidecar(const char *path)
{
    char side[4096];
    if (!path)
        return NULL;
    snprintf(side, sizeof side, "%s.attrs", path);
    FILE *f = open_regular(side);
    if (!f)
        return NULL;
    const rvt_proto *p = rvt_proto_of_sidecar(f);
    fclose(f);
    return p;
}

rvt_file_kind rvt_trace_sniff(const char *path, const rvt_proto **p)
{
    uint8_t b[4096];
    FILE *f = open_regular(path);
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    bool whole = f && feof(f);
    if (f)
        fclose(f);
    if (p)
        *p = NULL;
    if (n >= 4 && !memcmp(b, "\177ELF", 4))
        return RVT_FILE_ELF;
    if (n >= 4 && !memcmp(b, "RVTI", 4))
        return RVT_FILE_RVI;
    /* a stream longer than what was read is judged on its first bytes */
    const rvt_proto *d = rvt_proto_detect(b, whole ? n : n + 1);   /* reads at most n */
    if (p)
        *p = d;
    return d ? RVT_FILE_TRACE : RVT_FILE_UNKNOWN;
}

int rvt_trace_sidecar_load(rvt_proto_cfg *c, const char *path, rvt_diag_fn diag, void *diag_ctx,
                           const char **why)
{
    char side[4096];
    if (!c || !path)
        return RVT_ERR_INVAL;
    snprintf(side, sizeof side, "%s.attrs", path);
    FILE *f = fopen(side, "r");
    if (!f)
        return 0;
    int st = rvt_proto_sidecar_read(c, f, diag, diag_ctx);
    fclose(f);
    rvt_proto_cfg_fill(c);
    if (st < 0 && why)
        *why = NULL;            /* the bad line went to diag */
    if (st == 0)
        st = rvt_proto_cfg_check(c, why);
    return st < 0 ? st : 0;
}

/* ---- rvt_trace_open ---- */

static int fail(rvt_trace *t, int st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(rvt_trace *t, int st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->error, sizeof t->error, fmt, ap);
    va_end(ap);
    return st;
}

static void note(const rvt_trace_opts *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(const rvt_trace_opts *o, const char *fmt, ...)
{
    char msg[512];
    if (!o || !o->diag)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    o->diag(o->diag_ctx, RVT_DIAG_INFO, UINT64_MAX, msg);
}

/* The protocol, in trace.h's order; a sidecar of the other protocol is an
 * error, as in the CLI. */
static int find_proto(rvt_trace *t, const char *path, const rvt_trace_opts *o)
{
    const rvt_proto *side = rvt_trace_proto_of_sidecar(path);
    const rvt_proto *p = NULL;
    if (o && o->protocol && !(p = rvt_proto_find(o->protocol)))
        return fail(t, RVT_ERR_INVAL, "%s: no protocol called '%s'", path, o->protocol);
    /* issue 14: "the protocol and container come from the sidecar, then
     * from the bytes; the file name is only a hint" */
    const rvt_proto *bytes = NULL, *name = rvt_trace_proto_of_name(path);
    rvt_file_kind k = rvt_trace_sniff(path, &bytes);
    if (k == RVT_FILE_ELF)
        return fail(t, RVT_ERR_FORMAT, "%s: is an ELF program, not a trace", path);
    if (k == RVT_FILE_RVI)
        return fail(t, RVT_ERR_FORMAT, "%s: holds ingress records (.rvi), not a trace", path);
    /* with a sidecar, bytes that plainly tell decide, so that a sidecar of
     * the other protocol is an error below */
    t->found_by = p ? "option" : side ? (p = bytes ? bytes : side, "sidecar")
                : (p = bytes) ? "bytes" : (p = name) ? "name" : NULL;
    if (!p)
        return fail(t, RVT_ERR_FORMAT, "%s: cannot tell the protocol: name the file *.te or *.nt, "
                    "keep its FILE.attrs beside it, or name the protocol", path);
    if (p == bytes && !strcmp(t->found_by, "bytes") && name != bytes)
        note(o, "%s: read as %s (from its bytes)%s", path, rvt_proto_title(p),
             name ? ", though its name says otherwise" : "");
    /* "etrace" and "etrace-data" share one sidecar style */
    if (side && strncmp(rvt_proto_name(side), rvt_proto_name(p), 6))
        return fail(t, RVT_ERR_FORMAT, "%s.attrs: holds %s settings, but %s is read as %s", path,
                    rvt_proto_title(side), path, rvt_proto_title(p));
    t->proto = side ? side : p;   /* the sidecar tells etrace-data from etrace */
    return 0;
}

static int load_settings(rvt_trace *t, const char *path, const rvt_trace_opts *o)
{
    const char *why = NULL;
    if (!(t->cfg = rvt_proto_cfg_new(t->proto)))
        return fail(t, RVT_ERR_NOMEM, "%s: out of memory", path);
    if (!(rvt_proto_caps(t->proto) & RVT_PROTO_SIDECAR))
        return 0;
    int st = rvt_trace_sidecar_load(t->cfg, path, o ? o->diag : NULL, o ? o->diag_ctx : NULL, &why);
    return st < 0 ? fail(t, RVT_ERR_FORMAT, "%s.attrs: %s", path, why ? why : "bad setting") : 0;
}

/* A RAM sink's saved buffer (TRACE.attrs sink_* keys, TCI 1.0 "Trace RAM
 * Sink") put in stream order from where a reader may start
 * (rvt_sink_order, framing tp), the bytes lost before it said. */
static int take_sink(rvt_trace *t, const char *path, const rvt_trace_opts *o, const char *tp,
                     const rvt_tp_config *c)
{
    unsigned line = 0;
    if (rvt_trace_sidecar_sink(path, &t->sink, &line) < 0)
        return fail(t, RVT_ERR_FORMAT, "%s.attrs: line %u: bad sink setting", path, line);
    if (!t->sink.present)
        return 0;
    char msg[256];
    int st = rvt_sink_take(&t->sink, tp, c, t->raw, &t->rawlen, &t->view, msg, sizeof msg);
    if (st < 0)
        return fail(t, st == RVT_ERR_NOSYNC ? st : RVT_ERR_FORMAT, "%s: %s", path, msg);
    if (msg[0])
        note(o, "%s: %s", path, msg);
    return 0;
}

/* The container named by the caller, the sidecar or the bytes (E-Trace
 * only; N-Trace keeps its MSEO framing); a sink buffer put in order first;
 * an encapsulated stream is unwrapped. */
static int take_container(rvt_trace *t, const char *path, const rvt_trace_opts *o)
{
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    const char *name = o ? o->container : NULL;
    unsigned line = 0;
    if (!strcmp(rvt_proto_name(t->proto), "ntrace"))
        return take_sink(t, path, o, "mseo", &c);
    if (strncmp(rvt_proto_name(t->proto), "etrace", 6))
        return 0;
    if (!name && rvt_trace_sidecar_container(path, &c, &name, &line) < 0)
        return fail(t, RVT_ERR_FORMAT, "%s.attrs: line %u: bad container setting", path, line);
    int st = take_sink(t, path, o, name, &c);
    if (st < 0)
        return st;
    int enc = name ? 0 : rvt_trace_bytes_encap(t->raw, t->rawlen, &c, true);
    if (enc < 0)
        return fail(t, enc, "%s: encapsulated, with srcID and timestamp widths the bytes do not "
                    "tell (the sync sequence's length, Encapsulation 2.3): name them, or keep "
                    "FILE.attrs beside it", path);
    if (enc > 0) {
        name = "encap";
        note(o, "%s: container encap (from the bytes: a leading sync sequence, 2.3; srcID %u bits)",
             path, c.src_bits);
    }
    t->container = name && !strcmp(name, "encap") ? "encap" : "refflow";
    if (!name || strcmp(name, "encap"))
        return 0;
    long all = o && o->encap_all_sources ? RVT_UNWRAP_ALL : -1;
    rvt_unwrap_opts uo = { .source = o && o->encap_source_given ? (long)o->encap_source : all,
                           .resync = o && o->encap_resync,
                           .diag = o ? o->diag : NULL, .diag_ctx = o ? o->diag_ctx : NULL };
    if (!(t->unwrapped = rvt_unwrap_encap(&c, t->raw, t->rawlen, &uo, &st)))
        return fail(t, st, "%s: %s", path, rvt_status_str(st));
    return 0;
}

static int open_into(rvt_trace *t, const char *path, const rvt_trace_opts *o)
{
    int st;
    const char *why = "";
    const char *cont = o ? o->container : NULL;
    if (cont && strcmp(cont, "encap") && strcmp(cont, "refflow"))
        return fail(t, RVT_ERR_INVAL, "%s: container '%s' is not refflow or encap", path, cont);
    if ((st = find_proto(t, path, o)) < 0 || (st = load_settings(t, path, o)) < 0)
        return st;
    if (!(t->raw = rvt_read_file(path, 0, &t->rawlen, &st, &why)))
        return fail(t, st, "%s: %s", path, why);
    return take_container(t, path, o);
}

int rvt_trace_open(const char *path, const rvt_trace_opts *opts, rvt_trace **out)
{
    if (!out)
        return RVT_ERR_INVAL;
    rvt_trace *t = *out = calloc(1, sizeof *t);
    if (!t)
        return RVT_ERR_NOMEM;
    int st = path ? open_into(t, path, opts) : fail(t, RVT_ERR_INVAL, "no path given");
    if (st < 0) {   /* only the message stays */
        char msg[sizeof t->error];
        memcpy(msg, t->error, sizeof msg);
        rvt_trace_free(t);
        if ((t = *out = calloc(1, sizeof *t)))
            memcpy(t->error, msg, sizeof msg);
    }
    return st;
}

void rvt_trace_free(rvt_trace *t)
{
    if (!t)
        return;
    rvt_proto_cfg_free(t->cfg);
    rvt_unwrapped_free(t->unwrapped);
    free(t->raw);
    free(t);
}

const char *rvt_trace_error(const rvt_trace *t)
{
    return t ? t->error : "out of memory";
}

const rvt_proto *rvt_trace_proto(const rvt_trace *t)
{
    return t ? t->proto : NULL;
}

rvt_proto_cfg *rvt_trace_cfg(rvt_trace *t)
{
    return t ? t->cfg : NULL;
}

const char *rvt_trace_found_by(const rvt_trace *t)
{
    return t ? t->found_by : NULL;
}

const char *rvt_trace_container(const rvt_trace *t)
{
    return t ? t->container : NULL;
}

const uint8_t *rvt_trace_bytes(const rvt_trace *t, size_t *len)
{
    if (t && t->unwrapped)
        return rvt_unwrapped_bytes(t->unwrapped, len);
    if (len)
        *len = t ? t->rawlen : 0;
    return t ? t->raw : NULL;
}

uint64_t rvt_trace_file_offset(const rvt_trace *t, uint64_t off)
{
    if (!t)
        return off;
    off = rvt_unwrapped_offset(t->unwrapped, off);
    if (!t->sink.present || off == UINT64_MAX)
        return off;
    return rvt_sink_file_offset(&t->view, off + t->view.begin, rvt_sink_size(&t->sink));
}

const rvt_sink_view *rvt_trace_sink_view(const rvt_trace *t)
{
    return t && t->sink.present ? &t->view : NULL;
}

const rvt_unwrapped *rvt_trace_unwrapped(const rvt_trace *t)
{
    return t ? t->unwrapped : NULL;
}
