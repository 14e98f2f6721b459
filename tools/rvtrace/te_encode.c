/* rvtrace encode --etrace, and the E-Trace sink of `rvtrace run --etrace`. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "te_opts.h"

typedef struct te_sink {
    FILE *f;
    rvt_te_encoder *enc;
    rvt_te_data_encoder *dt;     /* with --te-data */
    rvt_te_attrs a;
    char *path;
} te_sink;

static int write_bytes(void *ctx, const uint8_t *b, size_t n)
{
    te_sink *s = ctx;
    if (s->dt)
        rvt_te_data_encoder_observe(s->dt, b, n);   /* 7.1.3: sync with te_inst */
    return cli_container_write(s->f, b, n);
}

static te_sink *sink_new(const char *path, const rvt_te_attrs *a)
{
    te_sink *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->a = *a;
    s->path = strdup(path);
    s->f = cli_out_fopen(path, "wb");
    int st = 0;
    if (s->f)
        s->enc = rvt_te_encoder_new(a, write_bytes, s, &st);
    if (s->enc && a->data_trace)
        s->dt = rvt_te_data_encoder_new(a, write_bytes, s, &st);
    if (!s->f || !s->enc || !s->path || (a->data_trace && !s->dt)) {
        rvt_te_encoder_free(s->enc);
        cli_err("%s: cannot start the E-Trace encoder (%s)", path,
                s->f ? rvt_status_str(st) : "cannot write");
        if (s->f)
            fclose(s->f);
        free(s->path);
        free(s);
        return NULL;
    }
    return s;
}

static int sink_finish(te_sink *s, bool flush)
{
    int st = flush ? rvt_te_encoder_end(s->enc) : 0;
    const char *why = rvt_te_encoder_why(s->enc);
    bool too_wide = *why != 0;
    if (too_wide) {     /* a value too wide for its field stopped the encoder */
        cli_err("%s: %s", s->path, why);
        st = RVT_ERR_RANGE;
    }
    if (fclose(s->f) != 0 && st >= 0)
        st = RVT_ERR_IO;
    if (st >= 0 && te_attrs_save(s->path, &s->a) < 0)
        st = RVT_ERR_IO;
    if (st < 0 && !too_wide)
        cli_err("%s: %s", s->path, rvt_status_str(st));
    rvt_te_encoder_free(s->enc);
    rvt_te_data_encoder_free(s->dt);
    free(s->path);
    free(s);
    return st < 0 ? CLI_FAIL : CLI_OK;
}

int te_cmd_encode(int argc, char **argv)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    const char *in = NULL, *out = NULL, *v;
    for (int i = 1; i < argc; i++) {
        int r = te_opt_apply(argc, argv, &i, &a), used;
        if (r < 0)
            return CLI_USAGE;
        if (r > 0 || !strcmp(argv[i], "--etrace") || (r = cli_container_option(argc, argv, &i)) > 0)
            continue;
        if (r < 0)
            return CLI_USAGE;
        if (encode_filter_option(argc, argv, i, &used))
            i += used - 1;         /* taken by encode_filter_open() */
        else if ((v = cli_opt(argc, argv, &i, "-o")))
            out = v;
        else if (argv[i][0] != '-')
            in = argv[i];
        else {
            cli_err("encode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!in || !out) {
        cli_err("encode: need IN and -o OUT");
        return CLI_USAGE;
    }
    if (cli_has_suffix(in, ".rvi")) {
        /* the .rvi header's XLEN sizes addresses, as for `run --etrace` */
        rvt_rvi_reader *r = rvt_rvi_reader_open(in, NULL);
        te_attrs_input_xlen(argc, argv, &a, r ? rvt_rvi_reader_xlen(r) : 0);
        rvt_rvi_reader_close(r);
    }
    if (te_attrs_finish(argc, argv, &a, "encode") < 0 || cli_container_encode_start(a.data_trace))
        return CLI_USAGE;
    if (!cli_in(in))
        return CLI_FAIL;
    te_sink *s = sink_new(out, &a);
    if (!s)
        return CLI_FAIL;
    rvt_irec_sink k = s->dt ? rvt_te_data_sink(s->dt, s->enc) : rvt_te_encoder_sink(s->enc);
    encode_filter ef;
    int st = encode_filter_open(argc, argv, &k, &ef);
    if (st != CLI_OK) {
        encode_filter_close(&ef);
        sink_finish(s, false);
        return st;
    }
    cli_sink_progress sp;
    k = cli_progress_sink(&sp, in, &k);
    if (cli_has_suffix(in, ".rvi")) {
        st = rvt_rvi_replay(in, &k, cli_diag, (void *)in);
    } else {
        /* The reference flow's encoder-input CSV (the importer ends the sink). */
        rvt_import_cfg cfg = { .itype3 = a.itype_width == 3, .diag = cli_diag, .diag_ctx = (void *)in };
        st = rvt_import_file(RVT_IMPORT_REFCSV, in, &cfg, &k, NULL);
    }
    cli_progress_done(&sp.p);
    encode_filter_close(&ef);
    if (st < 0) {
        sink_finish(s, false);
        return CLI_FAIL;
    }
    st = cli_sink_nonempty(&sp);
    int fin = sink_finish(s, false);
    return st != CLI_OK ? st : fin;
}

bool te_is_run_option(int argc, char **argv, int i, int *consumed)
{
    const char *a = argv[i];
    if (strcmp(a, "--etrace") && strncmp(a, "--etrace=", 9) && strcmp(a, "--te-data") &&
        strcmp(a, "--te-opt") && strncmp(a, "--te-opt=", 9) &&
        strcmp(a, "--te-attr") && strncmp(a, "--te-attr=", 10) &&
        strcmp(a, "--te-profile") && strncmp(a, "--te-profile=", 13) &&
        !cli_container_option_args(argc, argv, i))
        return false;
    if (cli_container_option_args(argc, argv, i)) {
        *consumed = cli_container_option_args(argc, argv, i);
        return true;
    }
    *consumed = strchr(a, '=') || i + 1 >= argc || !strcmp(a, "--te-data") ? 1 : 2;
    return true;
}

int te_sink_open(int argc, char **argv, unsigned xlen, rvt_irec_sink *out, void **handle)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    if (xlen)
        a.iaddress_width = xlen;
    const char *path = NULL, *v;
    /* argv holds only the options collected by te_is_run_option(). */
    for (int i = 0; i < argc; i++) {
        int r = te_opt_apply(argc, argv, &i, &a);
        if (r < 0)
            return CLI_USAGE;
        if (r == 0 && (v = cli_opt(argc, argv, &i, "--etrace")))
            path = v;
        else if (r == 0 && cli_container_option(argc, argv, &i) < 0)
            return CLI_USAGE;
    }
    *handle = NULL;
    if (!path) {
        cli_err("--te-opt/--te-attr need --etrace OUT.te");
        return CLI_USAGE;
    }
    if (te_attrs_finish(argc, argv, &a, "--etrace") < 0 || cli_container_encode_start(a.data_trace))
        return CLI_USAGE;
    te_sink *s = sink_new(path, &a);
    if (!s)
        return CLI_FAIL;
    *out = s->dt ? rvt_te_data_sink(s->dt, s->enc) : rvt_te_encoder_sink(s->enc);
    *handle = s;
    return CLI_OK;
}

int te_sink_close(void *handle)
{
    if (!handle)
        return CLI_OK;
    /* The producer calls the sink's end(); the encoder has flushed. */
    return sink_finish(handle, false);
}
