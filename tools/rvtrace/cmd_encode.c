/* rvtrace encode --etrace|--ntrace IN... -o OUT, and the encoder sinks of
 * `rvtrace run --etrace/--ntrace`: ingress records into an E-Trace or
 * N-Trace stream, its settings beside it in OUT.attrs.  Several inputs
 * (N-Trace) are several harts, one encoder each with its own SRC id,
 * merged by record time (rvt_merge_harts). */
#include <stdlib.h>
#include <string.h>
#include "cli_kind.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"

const char cmd_encode_help[] =
    "usage: rvtrace encode --etrace|--ntrace [OPTIONS] IN.rvi|IN.csv -o OUT\n"
    "\n"
    "Encode ingress records (an .rvi file or the E-Trace reference flow's\n"
    "encoder-input CSV) as an E-Trace or N-Trace stream.  The settings are\n"
    "written beside the stream as OUT.attrs.\n"
    "\n"
    "The filter and trigger options of `rvtrace run` (--trace-range, --comparator,\n"
    "--filter, --trace-on/-off/-notify; docs/filter.md) apply here too (N-Trace\n"
    "with several inputs: to each hart); --elf PROG.elf lets their addresses be\n"
    "symbols.\n"
    "\n"
    "E-Trace container (docs/transport.md): --container refflow (default: the\n"
    "reference flow's header byte per packet) or encap (Unformatted Trace &\n"
    "Diagnostic Data Packet Encapsulation 1.0) with --encap-src-bits 0..16,\n"
    "--encap-src-id N, --encap-ts-bytes 0..8 (each packet then carries the\n"
    "time of the record that made the encoder write it, in T bytes; decode\n"
    "shows them as time events), --encap-type-bits 0..8 (default 0, 1 with\n"
    "--te-data: 0 te_inst, 1 te_data), --encap-sync-interval BYTES (a sync\n"
    "sequence of N+1 nulls starts the stream and follows every BYTES; 0 =\n"
    "only at the start), --encap-unframed; all recorded in OUT.attrs.\n"
    "Several srcIDs in one stream: decode runs one decoder per srcID, one\n"
    "source after the other in order of first appearance, each event tagged\n"
    "with its srcID (JSON \"src\"), its --count line and loss summary\n"
    "prefixed \"srcID N: \"; --src N (or --encap-source N) keeps one;\n"
    "dump lists them all in stream order, each packet ending srcID=N.\n"
    "--encap-resync starts at the first synchronisation point (a wrapped\n"
    "sink buffer that begins mid-packet; the bytes skipped are reported).\n"
    "\n"
    "A progress line (instructions so far) is shown every 2 s on a terminal.\n";

/* One E-Trace encoder of a stream: the hart its packets come from. */
typedef struct te_lane {
    struct enc_sink *s;
    unsigned hart;
    rvt_te_encoder *te;
    rvt_te_data_encoder *dt;          /* E-Trace with --te-data */
} te_lane;

/* One output stream and its encoder(s): one per hart. */
typedef struct enc_sink {
    cli_kind kind;
    rvt_proto_cfg *cfg;
    char *path;
    FILE *f;
    te_lane te[CLI_MAX_FILES];
    rvt_nt_port *port;
    rvt_nt_encoder *harts[CLI_MAX_FILES];
    unsigned nharts;
} enc_sink;

static int te_write(void *ctx, const uint8_t *b, size_t n)
{
    te_lane *l = ctx;
    if (l->dt)
        rvt_te_data_encoder_observe(l->dt, b, n);   /* 7.1.3: sync with te_inst */
    return cli_container_write_hart(l->s->f, l->hart, b, n);   /* refflow or encap (cli_container.c) */
}

/* The encoders, one per hart: E-Trace ones (with their data encoders)
 * told apart by srcID, N-Trace ones with SRC ids src_id, src_id + 1, ...
 * A status. */
static int encoders_new(enc_sink *s, unsigned nharts)
{
    int st = 0;
    if (s->kind == KIND_TE) {
        const rvt_te_attrs *a = rvt_proto_cfg_native(s->cfg);
        for (unsigned k = 0; k < nharts; k++) {
            te_lane *l = &s->te[s->nharts++];
            *l = (te_lane){ .s = s, .hart = k };
            if ((l->te = rvt_te_encoder_new(a, te_write, l, &st)) && a->data_trace)
                l->dt = rvt_te_data_encoder_new(a, te_write, l, &st);
            if (!l->te || (a->data_trace && !l->dt))
                return st < 0 ? st : RVT_ERR_NOMEM;
        }
        return 0;
    }
    const rvt_nt_cfg *c = rvt_proto_cfg_native(s->cfg);
    if (!(s->port = rvt_nt_port_new(s->f, c->port_bytes)))
        return RVT_ERR_NOMEM;
    for (unsigned k = 0; k < nharts; k++) {
        rvt_nt_cfg hart = *c;
        hart.src_id += k;
        if (!(s->harts[s->nharts++] = rvt_nt_encoder_new(&hart, rvt_nt_port_write, s->port, &st)))
            return st < 0 ? st : RVT_ERR_NOMEM;
    }
    return 0;
}

/* Close the stream; write OUT.attrs when all went well.  CLI status. */
static int sink_finish(enc_sink *s, int rc)
{
    for (unsigned k = 0; k < s->nharts; k++) {
        const rvt_te_encoder *te = s->te[k].te;
        if (te && *rvt_te_encoder_why(te)) {   /* a value too wide for its field */
            cli_err("%s: %s", s->path, rvt_te_encoder_why(te));
            rc = CLI_FAIL;
        }
        if (s->harts[k] && rvt_nt_encoder_end(s->harts[k]) < 0)
            rc = CLI_FAIL;
    }
    if (s->port && rvt_nt_port_close(s->port) < 0)
        rc = CLI_FAIL;
    if (s->f && fclose(s->f) != 0 && rc == CLI_OK) {
        cli_err("%s: %s", s->path, rvt_status_str(RVT_ERR_IO));
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && cli_settings_save(s->path, s->cfg) != CLI_OK)
        rc = CLI_FAIL;
    for (unsigned k = 0; k < s->nharts; k++) {
        rvt_te_encoder_free(s->te[k].te);
        rvt_te_data_encoder_free(s->te[k].dt);
        rvt_nt_encoder_free(s->harts[k]);
    }
    rvt_proto_cfg_free(s->cfg);
    free(s->path);
    free(s);
    return rc;
}

/* The stream OUT written with cfg (taken over) by nharts encoders. */
static int sink_new(const char *out, rvt_proto_cfg *cfg, unsigned nharts, enc_sink **res)
{
    enc_sink *s = calloc(1, sizeof *s);
    if (!s) {
        rvt_proto_cfg_free(cfg);
        return CLI_FAIL;
    }
    s->kind = cli_kind_of_proto(rvt_proto_cfg_proto(cfg));
    s->cfg = cfg;
    s->path = strdup(out);
    if (!s->path || !(s->f = cli_out_fopen(out, "wb")))
        return sink_finish(s, CLI_FAIL);
    int st = encoders_new(s, nharts);
    if (st < 0) {
        cli_err("%s: cannot start the %s encoder (%s)", out, cli_kind_title(s->kind), rvt_status_str(st));
        return sink_finish(s, CLI_FAIL);
    }
    *res = s;
    return CLI_OK;
}

static rvt_irec_sink hart_sink(enc_sink *s, unsigned k)
{
    if (s->kind == KIND_TE) {
        const te_lane *l = &s->te[k < s->nharts ? k : 0];
        return l->dt ? rvt_te_data_sink(l->dt, l->te) : rvt_te_encoder_sink(l->te);
    }
    return rvt_nt_encoder_sink(s->harts[k]);
}

/* The settings of a stream to write: defaults, the options, the input's
 * XLEN, the SRC ids of nharts harts, the dependent defaults, the check.
 * CLI status; *cfg set on CLI_OK. */
static int settings_for_writing(const cli_args *a, cli_kind k, unsigned xlen, unsigned nharts,
                                const char *what, rvt_proto_cfg **cfg)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(cli_kind_proto(k));
    if (!c)
        return CLI_FAIL;
    int rc = cli_settings_apply(a, c);
    rvt_proto_cfg_input_xlen(c, xlen);
    if (rc == CLI_OK && k == KIND_NT && rvt_nt_cfg_assign_src(rvt_proto_cfg_native(c), nharts) < 0) {
        const rvt_nt_cfg *n = rvt_proto_cfg_native(c);
        cli_err("--nt-src: %u harts need %u ids from %u, more than %u bits hold", nharts, nharts,
                n->src_id, n->src_bits);
        rc = CLI_USAGE;
    }
    rvt_proto_cfg_fill(c);
    if (rc == CLI_OK)
        rc = cli_settings_check(c, what);
    if (rc == CLI_OK && k == KIND_TE && cli_container_harts(nharts) != CLI_OK)
        rc = CLI_USAGE;
    if (rc == CLI_OK && k == KIND_TE &&
        cli_container_encode_start(((const rvt_te_attrs *)rvt_proto_cfg_native(c))->data_trace))
        rc = CLI_USAGE;
    const char *caveat = rc == CLI_OK ? rvt_proto_cfg_caveat(c) : NULL;
    if (caveat)
        cli_err("%s: warning: %s", what, caveat);
    if (rc != CLI_OK)
        rvt_proto_cfg_free(c);
    else
        *cfg = c;
    return rc;
}

/* ---- encode ---- */

static unsigned rvi_xlen(const char *in)
{
    if (!cli_has_suffix(in, ".rvi"))
        return 0;
    rvt_rvi_reader *r = rvt_rvi_reader_open(in, NULL);
    unsigned x = r ? rvt_rvi_reader_xlen(r) : 0;
    rvt_rvi_reader_close(r);
    return x;
}

/* The taker of runs of steps for hart k's sink h, where its records go
 * straight to an encoder (E-Trace without data trace; no filter or time
 * stamping stage between, which need every record). */
static rvt_irec_steps hart_steps(enc_sink *s, unsigned k, const rvt_irec_sink *h)
{
    rvt_irec_sink bare = hart_sink(s, k);
    if ((s->kind == KIND_TE && s->te[k].dt) || h->put != bare.put || h->ctx != bare.ctx)
        return (rvt_irec_steps){ NULL, NULL };
    return s->kind == KIND_TE ? rvt_te_encoder_steps(s->te[k].te) : rvt_nt_encoder_steps(s->harts[k]);
}

/* One input: an .rvi file, else the reference flow's encoder-input CSV
 * (the importer ends the sink). */
static int encode_one(int argc, char **argv, const char *in, enc_sink *s)
{
    rvt_irec_sink h = hart_sink(s, 0);
    rvt_irec_sink k = s->kind == KIND_TE ? cli_container_timed_sink(&h) : h;
    encode_filter ef;
    int rc = encode_filter_open(argc, argv, &k, &ef), st = 0;
    rvt_irec_steps runs = hart_steps(s, 0, &k);
    cli_sink_progress sp;
    k = cli_progress_sink(&sp, in, &k);
    runs = cli_progress_steps(&sp, &runs);
    if (rc == CLI_OK && cli_has_suffix(in, ".rvi")) {
        st = rvt_rvi_replay_steps(in, &k, &runs, cli_diag, (void *)in);
    } else if (rc == CLI_OK) {
        char w[16] = "";
        rvt_proto_cfg_get(s->cfg, s->kind == KIND_TE ? "itype_width" : "rvtItypeBits", w, sizeof w);
        rvt_import_cfg cfg = { .itype3 = !strcmp(w, "3"), .diag = cli_diag, .diag_ctx = (void *)in };
        st = rvt_import_file(RVT_IMPORT_REFCSV, in, &cfg, &k, NULL);
    }
    cli_progress_done(&sp.p);
    encode_filter_close(&ef);
    if (rc == CLI_OK && st < 0)
        rc = CLI_FAIL;
    return rc == CLI_OK ? cli_sink_nonempty(&sp) : rc;
}

/* Several harts: the same filters for each, merged by record time. */
static int encode_harts(int argc, char **argv, const cli_args *a, enc_sink *s)
{
    unsigned n = (unsigned)a->nfiles, bad = 0;
    rvt_irec_sink sinks[CLI_MAX_FILES];
    encode_filter ef[CLI_MAX_FILES];
    cli_sink_progress sp[CLI_MAX_FILES];
    rvt_rvi_reader *in[CLI_MAX_FILES] = { 0 };
    memset(ef, 0, sizeof ef);
    int rc = CLI_OK, st = 0;
    for (unsigned k = 0; k < n && rc == CLI_OK; k++) {
        sinks[k] = hart_sink(s, k);
        rc = encode_filter_open(argc, argv, &sinks[k], &ef[k]);
        sinks[k] = cli_progress_sink(&sp[k], a->files[k], &sinks[k]);
    }
    for (unsigned k = 0; k < n && st >= 0 && rc == CLI_OK; k++)
        if (!(in[k] = rvt_rvi_reader_open_diag(a->files[k], cli_diag, (void *)a->files[k], &st)))
            st = st < 0 ? st : RVT_ERR_IO;
    if (st >= 0 && rc == CLI_OK && (st = rvt_merge_harts(in, n, sinks, &bad)) < 0)
        cli_err("%s: bad record at byte %llu", a->files[bad],
                (unsigned long long)rvt_rvi_reader_offset(in[bad]));
    for (unsigned k = 0; k < n; k++) {
        if (in[k])
            rvt_rvi_reader_close(in[k]);
        encode_filter_close(&ef[k]);
        if (rc == CLI_OK && st >= 0 && cli_sink_nonempty(&sp[k]) != CLI_OK)
            rc = CLI_FAIL;
    }
    return rc != CLI_OK ? rc : st < 0 ? CLI_FAIL : CLI_OK;
}

int cmd_encode(int argc, char **argv)
{
    cli_args a;
    cli_kind k;
    int rc = cli_args_parse(&a, CMD_ENCODE, "encode", argc, argv);
    if (rc == CLI_OK)
        rc = cli_kind_of(&a, &k);
    if (rc != CLI_OK)
        return rc;
    if (k == KIND_NONE) {
        cli_err("encode: cannot tell the trace kind to write: give --etrace or --ntrace");
        return CLI_USAGE;
    }
    if ((rc = cli_args_check_kind(&a, k)) != CLI_OK)
        return rc;
    const char *out = cli_args_value(&a, O_OUT);
    if (!a.nfiles || !out) {
        cli_err("encode: need IN and -o OUT");
        return CLI_USAGE;
    }
    rvt_proto_cfg *cfg;
    unsigned n = (unsigned)a.nfiles;
    if ((rc = settings_for_writing(&a, k, rvi_xlen(a.files[0]), n, "encode", &cfg)) != CLI_OK)
        return rc;
    for (unsigned i = 0; i < n; i++)
        if (!cli_in(a.files[i])) {
            rvt_proto_cfg_free(cfg);
            return CLI_FAIL;
        }
    enc_sink *s = NULL;
    if ((rc = sink_new(out, cfg, n, &s)) != CLI_OK)
        return rc;
    rc = n == 1 ? encode_one(argc, argv, a.files[0], s) : encode_harts(argc, argv, &a, s);
    return sink_finish(s, rc);
}

/* ---- the sinks of `run` ---- */

/* run's encoder options (--etrace OUT, --te-*; --ntrace OUT, --nt-*). */
static bool run_option(cli_kind k, int argc, char **argv, int i, int *consumed)
{
    static const char *const te[] = { "--etrace", "--te-opt", "--te-attr", "--te-profile", NULL };
    static const char *const nt[] = { "--ntrace", "--nt-opt", "--nt-src", "--nt-attr", NULL };
    if (k == KIND_TE && !strcmp(argv[i], "--te-data"))
        return *consumed = 1, true;
    if (k == KIND_TE && (*consumed = cli_container_option_args(argc, argv, i)) > 0)
        return true;        /* --container, --encap-* */
    for (const char *const *n = k == KIND_TE ? te : nt; *n; n++) {
        size_t len = strlen(*n);
        if (!strncmp(argv[i], *n, len) && (argv[i][len] == '=' || !argv[i][len])) {
            *consumed = argv[i][len] == '=' || i + 1 >= argc ? 1 : 2;
            return true;
        }
    }
    return false;
}

bool te_is_run_option(int argc, char **argv, int i, int *consumed)
{
    return run_option(KIND_TE, argc, argv, i, consumed);
}

bool nt_is_run_option(int argc, char **argv, int i, int *consumed)
{
    return run_option(KIND_NT, argc, argv, i, consumed);
}

/* argv holds only the options run_option collected, from index 0: the
 * output path of --etrace/--ntrace (*path), the settings parsed as
 * encode's (*cfg).  CLI status. */
static int run_settings(cli_kind k, int argc, char **argv, unsigned xlen, unsigned nharts,
                        const char **path, rvt_proto_cfg **cfg)
{
    const char *sw = k == KIND_TE ? "--etrace" : "--ntrace", *v;
    char **rest = calloc((size_t)argc + 2, sizeof *rest);
    int nrest = 1;
    *path = NULL;
    *cfg = NULL;
    if (!rest)
        return CLI_FAIL;
    rest[0] = (char *)"run";
    for (int i = 0; i < argc; i++) {
        if ((v = cli_opt(argc, argv, &i, sw)))
            *path = v;
        else
            rest[nrest++] = argv[i];
    }
    cli_args a;
    int rc = cli_args_parse(&a, CMD_ENCODE, "run", nrest, rest);
    free(rest);
    if (rc == CLI_OK && !*path) {
        cli_err(k == KIND_TE ? "--te-opt/--te-attr need --etrace OUT.te"
                             : "--nt-opt/--nt-src/--nt-attr need --ntrace OUT.nt");
        rc = CLI_USAGE;
    }
    if (rc == CLI_OK)
        rc = settings_for_writing(&a, k, xlen, nharts, sw, cfg);
    return rc;
}

static int run_sink_open(cli_kind k, int argc, char **argv, unsigned xlen, unsigned nharts,
                         rvt_irec_sink *out, void **handle)
{
    const char *path;
    rvt_proto_cfg *cfg;
    *handle = NULL;
    int rc = run_settings(k, argc, argv, xlen, nharts, &path, &cfg);
    enc_sink *s = NULL;
    if (rc == CLI_OK && (rc = sink_new(path, cfg, nharts, &s)) == CLI_OK) {
        for (unsigned i = 0; i < nharts; i++)
            out[i] = hart_sink(s, i);
        *handle = s;
    }
    return rc;
}

int te_sink_open_harts(int argc, char **argv, unsigned xlen, unsigned nharts, rvt_irec_sink *out,
                       void **handle)
{
    return run_sink_open(KIND_TE, argc, argv, xlen, nharts, out, handle);
}

int nt_sink_open_harts(int argc, char **argv, unsigned xlen, unsigned nharts, rvt_irec_sink *out,
                       void **handle)
{
    return run_sink_open(KIND_NT, argc, argv, xlen, nharts, out, handle);
}

int te_run_attrs(int argc, char **argv, unsigned xlen, const char **path, rvt_te_attrs *out)
{
    rvt_proto_cfg *cfg;
    int rc = run_settings(KIND_TE, argc, argv, xlen, 1, path, &cfg);
    if (rc == CLI_OK) {
        *out = *(const rvt_te_attrs *)rvt_proto_cfg_native(cfg);
        rvt_proto_cfg_free(cfg);
    }
    return rc;
}

/* The producer has ended the sink (the encoder flushed). */
int te_sink_close(void *handle)
{
    return handle ? sink_finish(handle, CLI_OK) : CLI_OK;
}

int nt_sink_close(void *handle)
{
    return handle ? sink_finish(handle, CLI_OK) : CLI_OK;
}
