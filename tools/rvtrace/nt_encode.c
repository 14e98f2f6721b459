/* N-Trace encoder in the CLI: `rvtrace encode --ntrace IN.rvi... -o OUT.nt`
 * and the `run --ntrace OUT.nt` sink.  Several inputs are several harts:
 * one encoder each, with its own SRC id, merged into one stream by
 * timestamp (ch. 3: messages of different sources interleave whole).
 * Settings go beside the stream in OUT.nt.attrs (docs/format-nt.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "nt_cli.h"

#define NT_MAX_HARTS 16

typedef struct nt_sink {
    rvt_nt_cfg cfg;
    char *path;
    FILE *f;
    rvt_nt_port *port;
    rvt_nt_encoder *enc;          /* = harts[0] */
    rvt_nt_encoder *harts[NT_MAX_HARTS];
    unsigned nharts;
} nt_sink;

static int sink_free(nt_sink *s, int rc)
{
    for (unsigned k = 0; k < s->nharts; k++)
        if (s->harts[k] && rvt_nt_encoder_end(s->harts[k]) < 0)
            rc = CLI_FAIL;
    if (s->port && rvt_nt_port_close(s->port) < 0)
        rc = CLI_FAIL;
    if (s->f && fclose(s->f) != 0)
        rc = CLI_FAIL;
    if (rc == CLI_OK && s->path) {
        char side[4096];
        snprintf(side, sizeof side, "%s.attrs", s->path);
        FILE *a = cli_out_fopen(side, "w");
        if (!a || rvt_nt_cfg_write(&s->cfg, a) < 0)
            rc = CLI_FAIL;
        if (a && fclose(a) != 0)
            rc = CLI_FAIL;
        if (rc != CLI_OK)
            cli_err("%s: cannot write", side);
    }
    for (unsigned k = 0; k < s->nharts; k++)
        rvt_nt_encoder_free(s->harts[k]);
    free(s->path);
    free(s);
    return rc;
}

/* Several harts share one stream: SRC ids base..base+n-1 (--nt-src BITS:BASE),
 * or, without --nt-src, the fewest bits that hold n ids from 0. */
static bool assign_src(rvt_nt_cfg *c, unsigned n)
{
    if (n < 2)
        return true;
    if (!c->src_bits)
        while ((1u << c->src_bits) < n)
            c->src_bits++;
    if (c->inhibit_src || c->src_id + n > (1u << c->src_bits)) {
        cli_err("--nt-src: %u harts need %u ids from %u, more than %u bits hold", n, n, c->src_id,
                c->src_bits);
        return false;
    }
    return true;
}

/* argv[first..argc-1] hold the options (run passes only the collected
 * N-Trace options, from index 0).  nharts encoders share the stream. */
static int sink_new(const char *out, int argc, char **argv, int first, unsigned xlen,
                    unsigned nharts, nt_sink **res)
{
    nt_sink *s = calloc(1, sizeof *s);
    if (!s)
        return CLI_FAIL;
    rvt_nt_cfg_default(&s->cfg);
    if (xlen)
        s->cfg.xlen = xlen;
    for (int i = first; i < argc; i++)
        if (nt_opt_setting(argc, argv, &i, &s->cfg) < 0)
            return sink_free(s, CLI_USAGE);
    int st = 0;
    if (!assign_src(&s->cfg, nharts))
        return sink_free(s, CLI_USAGE);
    if (rvt_nt_cfg_check(&s->cfg) < 0) {
        cli_err("inconsistent N-Trace settings");
        return sink_free(s, CLI_USAGE);
    }
    s->path = strdup(out);
    s->f = cli_out_fopen(out, "wb");
    if (!s->f)
        return sink_free(s, CLI_FAIL);
    s->port = rvt_nt_port_new(s->f, s->cfg.port_bytes);
    for (unsigned k = 0; s->port && k < nharts; k++) {
        rvt_nt_cfg c = s->cfg;
        c.src_id += k;
        if (!(s->harts[s->nharts++] = rvt_nt_encoder_new(&c, rvt_nt_port_write, s->port, &st)))
            break;
    }
    s->enc = s->harts[0];
    if (!s->port || st < 0)
        return sink_free(s, CLI_FAIL);
    *res = s;
    return CLI_OK;
}

bool nt_is_run_option(int argc, char **argv, int i, int *consumed)
{
    static const char *const names[] = { "--ntrace", "--nt-opt", "--nt-src", "--nt-attr" };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t n = strlen(names[k]);
        if (!strncmp(argv[i], names[k], n) && (argv[i][n] == '=' || !argv[i][n])) {
            *consumed = argv[i][n] == '=' || i + 1 >= argc ? 1 : 2;
            return true;
        }
    }
    return false;
}

static const char *ntrace_out(int argc, char **argv)
{
    const char *out = NULL, *v;
    for (int i = 0; i < argc; i++)
        if ((v = cli_opt(argc, argv, &i, "--ntrace")))
            out = v;
    return out;
}

int nt_sink_open(int argc, char **argv, unsigned xlen, rvt_irec_sink *out, void **handle)
{
    const char *path = ntrace_out(argc, argv);
    if (!path) {
        cli_err("--nt-opt/--nt-src/--nt-attr need --ntrace OUT.nt");
        return CLI_USAGE;
    }
    nt_sink *s = NULL;
    int rc = sink_new(path, argc, argv, 0, xlen, 1, &s);
    if (rc != CLI_OK)
        return rc;
    *out = rvt_nt_encoder_sink(s->enc);
    *handle = s;
    return CLI_OK;
}

int nt_sink_close(void *handle)
{
    return handle ? sink_free(handle, CLI_OK) : CLI_OK;
}

/* One input per hart, read ahead by one record for the merge. */
typedef struct hart_in {
    const char *path;
    rvt_rvi_reader *r;
    rvt_irec next;
    bool have;
} hart_in;

static int hart_advance(hart_in *h)
{
    rvt_drec dr;
    bool is_data;
    int st;
    while ((st = rvt_rvi_reader_next(h->r, &h->next, &dr, &is_data)) == 1 && is_data)
        ;
    h->have = st == 1;
    if (st < 0)
        cli_err("%s: bad record at byte %llu", h->path,
                (unsigned long long)rvt_rvi_reader_offset(h->r));
    return st;
}

/* Merge the harts' records by time (ties: input order) into their sinks
 * (each hart's encoder, behind its own filter stage when filtering). */
static int merge_harts(hart_in *in, unsigned n, rvt_irec_sink *sinks)
{
    int st = 0;
    for (unsigned k = 0; k < n && st >= 0; k++)
        st = hart_advance(&in[k]);
    while (st >= 0) {
        unsigned best = n;
        for (unsigned k = 0; k < n; k++)
            if (in[k].have && (best == n || in[k].next.time < in[best].next.time))
                best = k;
        if (best == n)
            break;
        st = sinks[best].put(sinks[best].ctx, &in[best].next, 1);
        if (st >= 0)
            st = hart_advance(&in[best]);
    }
    for (unsigned k = 0; k < n && st >= 0; k++)
        if (sinks[k].end)
            st = sinks[k].end(sinks[k].ctx);
    return st;
}

int nt_cmd_encode(int argc, char **argv)
{
    const char *out = NULL, *v;
    hart_in in[NT_MAX_HARTS];
    unsigned nin = 0;
    memset(in, 0, sizeof in);
    for (int i = 1; i < argc; i++) {
        int used;
        if ((v = cli_opt(argc, argv, &i, "-o")))
            out = v;
        else if (!strcmp(argv[i], "--ntrace"))
            continue;
        else if (encode_filter_option(argc, argv, i, &used))
            i += used - 1;         /* taken by encode_filter_open() */
        else if (argv[i][0] != '-' && nin < NT_MAX_HARTS)
            in[nin++].path = argv[i];
        else if (argv[i][0] != '-') {
            cli_err("encode: at most %d inputs (harts)", NT_MAX_HARTS);
            return CLI_USAGE;
        } else if (nt_opt_setting(argc, argv, &i, &(rvt_nt_cfg){0}) == 0) {
            cli_err("encode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!nin || !out) {
        fputs(cmd_encode_help, stderr);
        fputs(nt_options_help, stderr);
        return CLI_USAGE;
    }
    for (unsigned k = 0; k < nin; k++)
        if (!cli_in(in[k].path))
            return CLI_FAIL;
    int st;
    rvt_rvi_reader *r = rvt_rvi_reader_open(in[0].path, &st);
    unsigned xlen = r ? rvt_rvi_reader_xlen(r) : 0;
    if (r)
        rvt_rvi_reader_close(r);
    nt_sink *s = NULL;
    int rc = sink_new(out, argc, argv, 1, xlen, nin, &s);
    if (rc)
        return rc;
    if (nin == 1) {
        rvt_irec_sink sink = rvt_nt_encoder_sink(s->enc);
        encode_filter ef;
        rc = encode_filter_open(argc, argv, &sink, &ef);
        cli_sink_progress sp;
        sink = cli_progress_sink(&sp, in[0].path, &sink);
        if (rc == CLI_OK)
            st = rvt_rvi_replay(in[0].path, &sink, cli_diag, (void *)in[0].path);
        cli_progress_done(&sp.p);
        encode_filter_close(&ef);
        if (rc == CLI_OK && st >= 0)
            rc = cli_sink_nonempty(&sp);
        return sink_free(s, rc != CLI_OK ? rc : st < 0 ? CLI_FAIL : CLI_OK);
    }
    /* The same filters and triggers for every hart, each its own stage. */
    rvt_irec_sink sinks[NT_MAX_HARTS];
    encode_filter ef[NT_MAX_HARTS];
    memset(ef, 0, sizeof ef);
    st = 0;
    cli_sink_progress sp[NT_MAX_HARTS];
    for (unsigned k = 0; k < nin && rc == CLI_OK; k++) {
        sinks[k] = rvt_nt_encoder_sink(s->harts[k]);
        rc = encode_filter_open(argc, argv, &sinks[k], &ef[k]);
        sinks[k] = cli_progress_sink(&sp[k], in[k].path, &sinks[k]);
    }
    for (unsigned k = 0; k < nin && st >= 0 && rc == CLI_OK; k++)
        if (!(in[k].r = rvt_rvi_reader_open_diag(in[k].path, cli_diag, (void *)in[k].path, &st)))
            st = st < 0 ? st : RVT_ERR_IO;
    if (st >= 0 && rc == CLI_OK)
        st = merge_harts(in, nin, sinks);
    for (unsigned k = 0; k < nin; k++) {
        if (in[k].r)
            rvt_rvi_reader_close(in[k].r);
        encode_filter_close(&ef[k]);
        if (rc == CLI_OK && st >= 0 && cli_sink_nonempty(&sp[k]) != CLI_OK)
            rc = CLI_FAIL;
    }
    return sink_free(s, rc != CLI_OK ? rc : st < 0 ? CLI_FAIL : CLI_OK);
}
