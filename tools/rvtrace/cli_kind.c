/* The trace kind of dump/decode/encode's file (issue 14: "the protocol and
 * container come from the sidecar, then from the bytes; the file name is
 * only a hint"): the --etrace/--ntrace/--tv switch, else the FILE.attrs
 * sidecar (rvt_proto_of_sidecar; an error when the bytes are plainly the
 * other trace), else the bytes (rvt_proto_detect), else the name (.te .nt
 * .rvi .tvt) or the settings options given; a name the bytes contradict is
 * said on stderr. */
#include <string.h>
#include "cli_kind.h"
#include "rvtrace/proto.h"
#include "rvtrace/trace.h"

/* The name only hints (the library's rvt_trace_proto_of_name); .rvi is
 * the CLI's own input kind, not a protocol. */
static cli_kind kind_of_name(const char *f)
{
    cli_kind k = cli_kind_of_proto(rvt_trace_proto_of_name(f));
    return k == KIND_NONE && cli_has_suffix(f, ".rvi") ? KIND_RVI : k;
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

static bool is_elf(const char *path)
{
    return rvt_trace_sniff(path, NULL) == RVT_FILE_ELF;
}

/* The kind the first bytes look like (rvt_proto_detect; the RVTI magic
 * of .rvi files), or KIND_NONE when they do not tell. */
static cli_kind kind_of_bytes(const char *path)
{
    const rvt_proto *p;
    if (rvt_trace_sniff(path, &p) == RVT_FILE_RVI)
        return KIND_RVI;
    return cli_kind_of_proto(p);
}

static const char *title(cli_kind k)
{
    return k == KIND_TE ? "E-Trace" : k == KIND_NT ? "N-Trace" : k == KIND_RVI ? "ingress records"
         : "a tandem-verification trace";
}

/* Issue 14: the bytes before the name, which is only a hint; the name
 * (or the settings options) decides when the bytes do not tell, or name a
 * kind rvt_proto_detect cannot recognise (.tvt has no header).  What the
 * bytes decided is said on stderr unless the hint agreed. */
static cli_kind kind_of_bytes_or_hint(const char *path, cli_kind hint)
{
    cli_kind kb = path ? kind_of_bytes(path) : KIND_NONE;
    if (kb == KIND_NONE || hint == KIND_TVT)
        return hint;
    if (hint == KIND_NONE)
        cli_err("%s: read as %s (from its bytes: no --etrace/--ntrace, telling name or FILE.attrs)", path,
                title(kb));
    else if (hint != kb)
        cli_err("%s: read as %s (from its bytes), though its name or options say %s; --etrace/--ntrace "
                "overrides", path, title(kb), title(hint));
    return kb;
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
    /* issue 14: the switch, the sidecar, the bytes, the name (a hint) */
    cli_kind k = cli_args_kind_switch(a), hint = f ? kind_of_name(f) : KIND_NONE;
    char side[4096];
    snprintf(side, sizeof side, "%s.attrs", f ? f : "");
    cli_kind ks = f ? cli_kind_of_proto(rvt_trace_proto_of_sidecar(f)) : KIND_NONE;
    bool decode = a->cmd & CMD_DECODE;
    if (f && is_elf(f)) {
        cli_err("%s: is an ELF program, not a trace%s", f,
                decode ? " (decode takes the program with --elf PROG.elf)" : "");
        return CLI_FAIL;
    }
    if (hint == KIND_NONE)
        hint = cli_args_kind_settings(a);
    if (k == KIND_NONE && ks != KIND_NONE) {
        cli_kind kb = kind_of_bytes(f);
        /* bytes plainly of the other trace: the sidecar is not this
         * stream's (said below) */
        k = kb == KIND_TE || kb == KIND_NT ? kb : ks;
    }
    if (k == KIND_NONE)
        k = kind_of_bytes_or_hint(f, hint);
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
    return rc == CLI_OK ? cli_flow_kind(a, k) : rc;
}

int cli_flow_kind(cli_args *a, cli_kind *k)
{
    int rc = cli_kind_of(a, k);
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
    const char *why = NULL;
    int st = rvt_trace_sidecar_load(c, trace, cli_diag, side, &why);
    if (st < 0 && why)          /* (a bad line: printed by cli_diag) */
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
