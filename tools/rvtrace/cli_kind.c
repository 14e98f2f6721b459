/* The trace kind of dump/decode/encode's file: the --etrace/--ntrace/--tv
 * switch, else the name (.te .nt .rvi .tvt: only a hint), else the
 * FILE.attrs sidecar (rvt_proto_of_sidecar), else the settings options
 * given.  The container (today: none) is found in this one place too. */
#include <string.h>
#include <sys/stat.h>
#include "cli_kind.h"
#include "rvtrace/proto.h"

/* Peek only into regular files: a FIFO would block (the reader that
 * follows reports what it is). */
static FILE *open_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? fopen(path, "rb") : NULL;
}

static cli_kind kind_of_name(const char *f)
{
    if (cli_has_suffix(f, ".te") || strstr(f, "te_inst_raw"))
        return KIND_TE;
    if (cli_has_suffix(f, ".nt"))
        return KIND_NT;
    if (cli_has_suffix(f, ".rvi"))
        return KIND_RVI;
    if (cli_has_suffix(f, ".tvt"))
        return KIND_TVT;
    return KIND_NONE;
}

cli_kind cli_kind_of_proto(const rvt_proto *p)
{
    const char *n = rvt_proto_name(p);
    if (!n)
        return KIND_NONE;
    return !strncmp(n, "etrace", 6) ? KIND_TE : !strcmp(n, "ntrace") ? KIND_NT
         : !strcmp(n, "tv") ? KIND_TVT : KIND_NONE;
}

const rvt_proto *cli_kind_proto(cli_kind k)
{
    return rvt_proto_find(k == KIND_TE ? "etrace" : k == KIND_NT ? "ntrace" : k == KIND_TVT ? "tv" : "");
}

static cli_kind kind_of_sidecar(const char *side)
{
    FILE *f = open_regular(side);
    if (!f)
        return KIND_NONE;
    cli_kind k = cli_kind_of_proto(rvt_proto_of_sidecar(f));
    fclose(f);
    return k;
}

static bool is_elf(const char *path)
{
    unsigned char m[4] = { 0 };
    FILE *f = open_regular(path);
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f)
        fclose(f);
    return n == 4 && !memcmp(m, "\177ELF", 4);
}

/* The kind the first bytes look like (rvt_proto_detect), said on stderr:
 * the last resort after the switches, the name, the sidecar and the
 * settings options. */
static cli_kind kind_of_bytes(const char *path)
{
    uint8_t b[4096];
    FILE *f = open_regular(path);
    size_t n = f ? fread(b, 1, sizeof b, f) : 0;
    bool whole = f && feof(f);
    if (f)
        fclose(f);
    if (n >= 4 && !memcmp(b, "RVTI", 4))
        return KIND_RVI;
    /* a stream longer than what was read is judged on its first bytes */
    const rvt_proto *p = rvt_proto_detect(b, whole ? n : n + 1);   /* reads at most n */
    cli_kind k = cli_kind_of_proto(p);
    if (k != KIND_NONE)
        cli_err("%s: read as %s (from its bytes: no --etrace/--ntrace, telling name or FILE.attrs)", path,
                k == KIND_TE ? "E-Trace" : "N-Trace");
    return k;
}

static const char *described(cli_kind k)
{
    static const char *const d[] = { "unknown", "an E-Trace stream", "an N-Trace stream",
                                     "ingress records", "a tandem-verification trace" };
    return d[k];
}

/* encode: the kind of the stream written: the switch, else the settings
 * options, else the name given to -o. */
static cli_kind kind_written(const cli_args *a)
{
    cli_kind k = cli_args_kind_switch(a);
    const char *out = cli_args_value(a, O_OUT);
    if (k == KIND_NONE)
        k = cli_args_kind_settings(a);
    if (k == KIND_NONE && out)
        k = kind_of_name(out);
    return k == KIND_TE || k == KIND_NT ? k : KIND_NONE;
}

int cli_kind_of(const cli_args *a, cli_kind *out)
{
    const char *f = a->nfiles ? a->files[0] : NULL;
    if (a->cmd & CMD_ENCODE) {
        *out = kind_written(a);
        if (a->too_many_files && *out == KIND_NT) {
            cli_err("encode: at most %d inputs (harts)", CLI_MAX_FILES);
            return CLI_USAGE;
        }
        if (a->nfiles > 1 && *out != KIND_NT) {   /* only N-Trace merges harts */
            cli_err("encode: more than one file given ('%s', '%s'): one trace at a time",
                    a->files[0], a->files[1]);
            return CLI_USAGE;
        }
        return CLI_OK;
    }
    cli_kind k = cli_args_kind_switch(a);
    if (k == KIND_NONE && f)
        k = kind_of_name(f);
    char side[4096];
    snprintf(side, sizeof side, "%s.attrs", f ? f : "");
    cli_kind ks = f ? kind_of_sidecar(side) : KIND_NONE;
    if (k == KIND_NONE)
        k = ks;
    if (k == KIND_NONE)
        k = cli_args_kind_settings(a);
    bool decode = a->cmd & CMD_DECODE;
    if (f && is_elf(f)) {
        cli_err("%s: is an ELF program, not a trace%s", f,
                decode ? " (decode takes the program with --elf PROG.elf)" : "");
        return CLI_FAIL;
    }
    if (k == KIND_NONE && f)
        k = kind_of_bytes(f);
    *out = k;
    if ((k == KIND_TE || k == KIND_NT) && ks != KIND_NONE && ks != k) {
        cli_err("%s: holds %s settings, but %s is read as %s (see --etrace/--ntrace)", side,
                ks == KIND_TE ? "E-Trace" : "N-Trace", f, described(k));
        return CLI_FAIL;
    }
    /* One trace per command. */
    if (a->nfiles > 1 || a->too_many_files) {
        cli_err("%s: more than one file given ('%s', '%s'): one trace at a time", a->cmd_name,
                a->files[0], a->files[1]);
        return CLI_USAGE;
    }
    return CLI_OK;
}

void cli_kind_unknown(const cli_args *a)
{
    cli_err("%s: cannot tell the trace kind: name the file *.te or *.nt, give --etrace/--ntrace, "
            "or keep its FILE.attrs beside it", a->cmd_name);
}

int cli_flow_args(cli_args *a, unsigned cmd, const char *name, int argc, char **argv, cli_kind *k)
{
    int rc = cli_args_parse(a, cmd, name, argc, argv);
    if (rc == CLI_OK)
        rc = cli_kind_of(a, k);
    if (rc != CLI_OK)
        return rc;
    if (*k != KIND_TE && *k != KIND_NT) {
        cli_kind_unknown(a);
        return CLI_USAGE;
    }
    return cli_args_check_kind(a, *k);
}

/* TRACE.attrs into c: CLI_OK (also when there is none) or CLI_FAIL
 * (printed: a bad line, inconsistent settings). */
static int sidecar_load(const char *trace, rvt_proto_cfg *c)
{
    char side[4096];
    snprintf(side, sizeof side, "%s.attrs", trace);
    if (!cli_in(side))
        return CLI_FAIL;
    FILE *f = fopen(side, "r");
    if (!f)
        return CLI_OK;
    int st = rvt_proto_sidecar_read(c, f, cli_diag, side);
    fclose(f);
    rvt_proto_cfg_fill(c);
    const char *why;
    if (st == 0 && (st = rvt_proto_cfg_check(c, &why)) < 0)
        cli_err("%s: %s", side, why);
    return st < 0 ? CLI_FAIL : CLI_OK;
}

int cli_settings_load(const cli_args *a, const char *trace, rvt_proto_cfg *c)
{
    bool sidecar = rvt_proto_caps(rvt_proto_cfg_proto(c)) & RVT_PROTO_SIDECAR;
    if (trace && sidecar && sidecar_load(trace, c) != CLI_OK)
        return CLI_FAIL;
    int rc = cli_settings_apply(a, c);
    if (rc != CLI_OK || !sidecar)
        return rc;
    rvt_proto_cfg_fill(c);
    return cli_settings_check(c, trace ? trace : a->cmd_name);
}

int cli_settings_save(const char *trace, const rvt_proto_cfg *c)
{
    char side[4096];
    snprintf(side, sizeof side, "%s.attrs", trace);
    FILE *f = cli_out_fopen(side, "w");
    if (!f)
        return CLI_FAIL;
    int st = rvt_proto_sidecar_write(c, f);
    if (cli_kind_of_proto(rvt_proto_cfg_proto(c)) == KIND_TE)
        cli_container_attrs_write(f);       /* the container's keys (transport.h) */
    if (fclose(f) != 0 || st < 0) {
        cli_err("%s: cannot write", side);
        return CLI_FAIL;
    }
    return CLI_OK;
}
