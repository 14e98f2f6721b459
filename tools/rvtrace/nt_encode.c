/* N-Trace encoder in the CLI: `rvtrace encode --ntrace IN.rvi -o OUT.nt`
 * and the `run --ntrace OUT.nt` sink.  Settings go beside the stream in
 * OUT.nt.attrs (docs/format-nt.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "nt_cli.h"

typedef struct nt_sink {
    rvt_nt_cfg cfg;
    char *path;
    FILE *f;
    rvt_nt_port *port;
    rvt_nt_encoder *enc;
} nt_sink;

static int sink_free(nt_sink *s, int rc)
{
    if (s->enc && rvt_nt_encoder_end(s->enc) < 0)
        rc = CLI_FAIL;
    if (s->port && rvt_nt_port_close(s->port) < 0)
        rc = CLI_FAIL;
    if (s->f && fclose(s->f) != 0)
        rc = CLI_FAIL;
    if (rc == CLI_OK && s->path) {
        char side[4096];
        snprintf(side, sizeof side, "%s.attrs", s->path);
        FILE *a = fopen(side, "w");
        if (!a || rvt_nt_cfg_write(&s->cfg, a) < 0)
            rc = CLI_FAIL;
        if (a && fclose(a) != 0)
            rc = CLI_FAIL;
        if (rc != CLI_OK)
            cli_err("%s: cannot write", side);
    }
    rvt_nt_encoder_free(s->enc);
    free(s->path);
    free(s);
    return rc;
}

/* argv[first..argc-1] hold the options (run passes only the collected
 * N-Trace options, from index 0). */
static int sink_new(const char *out, int argc, char **argv, int first, unsigned xlen, nt_sink **res)
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
    int st;
    if (rvt_nt_cfg_check(&s->cfg) < 0) {
        cli_err("inconsistent N-Trace settings");
        return sink_free(s, CLI_USAGE);
    }
    s->path = strdup(out);
    s->f = fopen(out, "wb");
    if (!s->f) {
        cli_err("%s: cannot create", out);
        return sink_free(s, CLI_FAIL);
    }
    s->port = rvt_nt_port_new(s->f, s->cfg.port_bytes);
    s->enc = s->port ? rvt_nt_encoder_new(&s->cfg, rvt_nt_port_write, s->port, &st) : NULL;
    if (!s->enc)
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
        cli_err("--ntrace needs an output file");
        return RVT_ERR_INVAL;
    }
    nt_sink *s;
    if (sink_new(path, argc, argv, 0, xlen, &s))
        return RVT_ERR_INVAL;
    *out = rvt_nt_encoder_sink(s->enc);
    *handle = s;
    return CLI_OK;
}

int nt_sink_close(void *handle)
{
    /* run checks for a negative status */
    return handle && sink_free(handle, CLI_OK) != CLI_OK ? RVT_ERR_IO : 0;
}

int nt_cmd_encode(int argc, char **argv)
{
    const char *in = NULL, *out = NULL, *v;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt(argc, argv, &i, "-o")))
            out = v;
        else if (!strcmp(argv[i], "--ntrace"))
            continue;
        else if (argv[i][0] != '-')
            in = argv[i];
        else if (nt_opt_setting(argc, argv, &i, &(rvt_nt_cfg){0}) == 0) {
            cli_err("encode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!in || !out) {
        fputs(cmd_encode_help, stderr);
        fputs(nt_options_help, stderr);
        return CLI_USAGE;
    }
    int st;
    rvt_rvi_reader *r = rvt_rvi_reader_open(in, &st);
    unsigned xlen = r ? rvt_rvi_reader_xlen(r) : 0;
    if (r)
        rvt_rvi_reader_close(r);
    nt_sink *s;
    int rc = sink_new(out, argc, argv, 1, xlen, &s);
    if (rc)
        return rc;
    rvt_irec_sink sink = rvt_nt_encoder_sink(s->enc);
    st = rvt_rvi_replay(in, &sink, cli_diag, (void *)in);
    return sink_free(s, st < 0 ? CLI_FAIL : CLI_OK);
}
