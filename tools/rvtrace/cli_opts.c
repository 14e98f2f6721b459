/* The option table of dump, decode and encode and its parser (cli_opts.h). */
#include <string.h>
#include "cli_opts.h"

#define D CMD_DUMP
#define X CMD_DECODE
#define E CMD_ENCODE
#define I CMD_INDEX
static const cli_option table[] = {
    { O_ETRACE, "--etrace", NULL, NULL, D | X | E | I, K_TE, "the trace is (encode: write) an E-Trace stream" },
    { O_NTRACE, "--ntrace", NULL, NULL, D | X | E | I, K_NT, "the trace is (encode: write) an N-Trace stream" },
    { O_TV, "--tv", NULL, NULL, D, K_TVT, "the file is a tandem-verification trace (.tvt)" },
    { O_TE_OPT, "--te-opt", NULL, "LIST", D | X | E | I, K_TE, "E-Trace modes (see E-Trace options)" },
    { O_TE_ATTR, "--te-attr", NULL, "NAME=VALUE", D | X | E | I, K_TE, "an E-Trace attribute" },
    { O_TE_PROFILE, "--te-profile", NULL, "NAME", D | X | E | I, K_TE, "a named E-Trace attribute set (refflow)" },
    { O_TE_DATA, "--te-data", NULL, NULL, D | X | E | I, K_TE, "E-Trace data trace (te_data packets, ch. 7)" },
    { O_NT_OPT, "--nt-opt", NULL, "LIST", D | X | E | I, K_NT, "N-Trace settings (see N-Trace options)" },
    { O_NT_SRC, "--nt-src", NULL, "BITS:ID", D | X | E | I, K_NT, "N-Trace SRC field width and id" },
    { O_NT_ATTR, "--nt-attr", NULL, "NAME=VALUE", D | X | E | I, K_NT, "an N-Trace chapter 4 control" },
    { O_JSON, "--json", NULL, NULL, D, K_ALL, "one JSON object per line" },
    { O_SUMMARY, "--summary", NULL, NULL, D, K_TE | K_NT, "packets/messages per kind, not the list" },
    { O_ADDRESSES, "--addresses", NULL, NULL, D, K_NT, "the PC each F-ADDR/U-ADDR stands for" },
    { O_XLEN, "--xlen", NULL, "N", D, K_TVT, "XLEN of the traced hart (default 64)" },
    { O_FLEN, "--flen", NULL, "N", D, K_TVT, "FLEN (default XLEN)" },
    { O_MLEN, "--mlen", NULL, "N", D, K_TVT, "memory address bits (default XLEN)" },
    { O_ELF, "--elf", NULL, "PROG.elf[@KEY]", X | E, K_TE | K_NT,
      "the program (encode: symbols of the filters); decode: repeatable, KEY = ctx=N,priv=U|S|M,src=N" },
    { O_NO_MAP, "--no-image-map", NULL, NULL, X, K_TE | K_NT, "ignore FILE.images (run's image map)" },
    { O_PCS, "--pcs", "--pcs-retired", "FILE", X, K_TE | K_NT, "the retired PCs, one per line" },
    { O_WRITER, "--listing", NULL, NULL, X, K_TE | K_NT,
      "on stdout: one registered writer" },
    { O_COUNT, "--count", NULL, NULL, X, K_TE | K_NT, "print only the number of instructions" },
    { O_STRICT, "--strict", NULL, NULL, X, K_TE | K_NT, "exit 1 when the end marker is missing" },
    { O_DATA_OUT, "--data-out", "--data", "FILE", X, K_TE, "the data accesses of te_data packets" },
    { O_RAW, "--image", "--raw", "FILE@ADDR", X, K_TE | K_NT, "a raw binary at ADDR (repeatable)" },
    { O_SPIKE_RV, "--spike-reset-vector", NULL, NULL, X, K_TE, "Spike's reset vector at 0x1000" },
    { O_SMC, "--smc", NULL, "FILE", X, K_TE | K_NT, "self-modifying code: words written at fence.i" },
    { O_SRC, "--src", NULL, "N", X, K_NT | K_TE, "decode only source N (N-Trace SRC 0..4095, E-Trace encapsulation srcID 0..65535)" },
    { O_OUT, "-o", NULL, "OUT", E, K_TE | K_NT, "the stream to write (settings in OUT.attrs)" },
    { O_FILTER, "--trace-range", NULL, "...", E, K_TE | K_NT,
      "the filter and trigger options of run (docs/filter.md)" },
    { O_FILE_OUT, "--lcov", NULL, "FILE", X, K_TE | K_NT,
      "also write file writer NAME into FILE (docs/coverage.md)" },
    { O_SYMFS, "--symfs", NULL, "DIR", X, K_TE,
      "perf.data: the files its MMAP records name, under DIR (default .)" },
    { O_JOBS, "--jobs", NULL, "N", X, K_TE | K_NT,
      "decode on N threads, cut at the index points (docs/parallel.md)" },
    { O_RANGE, "--range", NULL, "A:B", X, K_TE | K_NT, "decode only index points A..B (rvtrace index)" },
    { O_WRITE_THREAD, "--write-thread", NULL, NULL, X, K_TE | K_NT,
      "write the outputs on a second thread while decoding (the same bytes)" },
    { O_INDEX_OUT, "-o", NULL, "FILE", I, K_TE | K_NT, "the index file (default TRACE.idx)" },
    { O_INDEX_LIST, "--list", NULL, NULL, I, K_TE | K_NT, "also print the points, one per line" },
    { O_INDEX_GAP, "--min-gap", NULL, "BYTES", I, K_TE | K_NT,
      "keep points BYTES or more apart (default 0: every one)" },
    { O_CONTAINER, "--container", NULL, "refflow|encap", D | X | E | I, K_TE,
      "E-Trace framing, with --encap-* (docs/transport.md)" },
    /* the --encap-* settings, parsed by cli_container_option (rows for help) */
    { O_CONTAINER, "--encap-src-bits", NULL, "N", D | X | E | I, K_TE, "encap: srcID width 0..16 bits" },
    { O_CONTAINER, "--encap-src-id", NULL, "N", D | X | E | I, K_TE, "encap: the srcID written (encode)" },
    { O_CONTAINER, "--encap-ts-bytes", NULL, "N", D | X | E | I, K_TE, "encap: timestamp bytes 0..8" },
    { O_CONTAINER, "--encap-type-bits", NULL, "N", D | X | E | I, K_TE,
      "encap: payload type width 0..8 (0 te_inst, 1 te_data)" },
    { O_CONTAINER, "--encap-sync-interval", NULL, "BYTES", D | X | E | I, K_TE,
      "encap: bytes between sync sequences (encode; 0: one at the start)" },
    { O_CONTAINER, "--encap-unframed", NULL, NULL, D | X | E | I, K_TE,
      "encap: a sync sequence ends in null.alignment" },
    { O_CONTAINER, "--encap-source", NULL, "N", D | X | E | I, K_TE, "encap: srcID N only (as --src)" },
    { O_CONTAINER, "--encap-resync", NULL, NULL, D | X | E | I, K_TE,
      "encap: start at the first sync point (a wrapped sink buffer)" },
};
#undef D
#undef X
#undef E
#undef I
#define NTABLE (sizeof table / sizeof table[0])

static const char *const kind_titles[] = { "unknown", "E-Trace", "N-Trace", "ingress records",
                                           "tandem verification" };

const char *cli_kind_title(cli_kind k)
{
    return kind_titles[k];
}

/* "--name" or "--name=value" */
static bool spelt_as(const char *a, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return name && !strncmp(a, name, n) && (!a[n] || a[n] == '=');
}

static const cli_option *find(const char *a, unsigned cmd)
{
    for (size_t k = 0; k < NTABLE; k++)
        if ((table[k].cmds & cmd) && table[k].id != O_WRITER && table[k].id != O_FILTER &&
            table[k].id != O_CONTAINER && table[k].id != O_FILE_OUT &&
            (spelt_as(a, table[k].name) || spelt_as(a, table[k].alias)))
            return &table[k];
    return NULL;
}

static const cli_option *row(cli_opt_id id)
{
    for (size_t k = 0; k < NTABLE; k++)
        if (table[k].id == id)
            return &table[k];
    return NULL;
}

static int add(cli_args *a, const cli_option *o, const char *value, const char *spelt)
{
    if (a->ngiven == CLI_MAX_GIVEN) {
        cli_err("%s: too many options", a->cmd_name);
        return CLI_USAGE;
    }
    a->given[a->ngiven++] = (cli_given){ o, value, spelt };
    return CLI_OK;
}

/* The option at argv[*i] (advancing *i past its value). */
static int parse_one(cli_args *a, int argc, char **argv, int *i)
{
    const char *s = argv[*i];
    int used;
    const cli_option *o = find(s, a->cmd);
    if (o) {
        const char *name = spelt_as(s, o->name) ? o->name : o->alias;
        const char *v = o->arg ? cli_opt(argc, argv, i, name) : NULL;
        if (!o->arg && s[strlen(name)] == '=') {
            cli_err("%s: option %s takes no value", a->cmd_name, name);
            return CLI_USAGE;
        }
        return add(a, o, v, name);
    }
    if ((a->cmd & CMD_DECODE) && cli_stdout_writer(s, &a->writer, &a->writers))
        return add(a, row(O_WRITER), NULL, s);
    if ((a->cmd & CMD_DECODE) && cli_file_out_opt(&a->fouts, argc, argv, i))
        return add(a, row(O_FILE_OUT), NULL, s);
    if ((a->cmd & CMD_ENCODE) && encode_filter_option(argc, argv, *i, &used)) {
        *i += used - 1;      /* taken by encode_filter_open() */
        return add(a, row(O_FILTER), NULL, s);
    }
    int c = cli_container_option(argc, argv, i);   /* --container, --encap-* (cli_container.c) */
    if (c < 0)
        return CLI_USAGE;
    if (c > 0)
        return add(a, row(O_CONTAINER), NULL, s);
    cli_err("%s: unknown option %s", a->cmd_name, s);
    return CLI_USAGE;
}

int cli_args_parse(cli_args *a, unsigned cmd, const char *cmd_name, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->cmd_name = cmd_name;
    a->writer = rvt_out_find("listing");
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (s[0] != '-' || !s[1]) {
            if (a->nfiles < CLI_MAX_FILES)
                a->files[a->nfiles++] = s;
            else
                a->too_many_files = true;
            continue;
        }
        int rc = parse_one(a, argc, argv, &i);
        if (rc != CLI_OK)
            return rc;
    }
    return a->writers > 1 ? CLI_USAGE : CLI_OK;
}

/* "E-Trace, N-Trace": the kinds in mask. */
static void kinds_text(unsigned mask, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (cli_kind k = KIND_TE; k <= KIND_TVT; k++)
        if (mask & (1u << k))
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? ", " : "",
                                    cli_kind_title(k));
}

int cli_args_check_kind(const cli_args *a, cli_kind k)
{
    for (int i = 0; i < a->ngiven; i++) {
        if (a->given[i].opt->kinds & (1u << k))
            continue;
        char kinds[96];
        kinds_text(a->given[i].opt->kinds, kinds, sizeof kinds);
        cli_err("%s: option %s cannot be used with %s (only with: %s)", a->cmd_name,
                a->given[i].spelt, cli_kind_title(k), kinds);
        return CLI_USAGE;
    }
    return CLI_OK;
}

const char *cli_args_value(const cli_args *a, cli_opt_id id)
{
    const char *v = NULL;
    for (int i = 0; i < a->ngiven; i++)
        if (a->given[i].opt->id == id)
            v = a->given[i].value;
    return v;
}

bool cli_args_has(const cli_args *a, cli_opt_id id)
{
    for (int i = 0; i < a->ngiven; i++)
        if (a->given[i].opt->id == id)
            return true;
    return false;
}

cli_kind cli_args_kind_switch(const cli_args *a)
{
    for (int i = 0; i < a->ngiven; i++) {
        cli_opt_id id = a->given[i].opt->id;
        if (id == O_ETRACE || id == O_NTRACE || id == O_TV)
            return id == O_ETRACE ? KIND_TE : id == O_NTRACE ? KIND_NT : KIND_TVT;
    }
    return KIND_NONE;
}

cli_kind cli_args_kind_settings(const cli_args *a)
{
    for (int i = 0; i < a->ngiven; i++) {
        unsigned k = a->given[i].opt->kinds;
        if (k == K_TE || k == K_NT)
            return k == K_TE ? KIND_TE : KIND_NT;
    }
    return KIND_NONE;
}

/* The spelling of row o in help: "--pcs, --pcs-retired FILE"; the writer
 * row lists every registered stdout writer. */
static void spelling(const cli_option *o, char *buf, size_t n)
{
    size_t len = 0;
    if (o->id == O_WRITER) {
        const rvt_out_writer *w;
        buf[0] = 0;
        for (size_t i = 0; (w = rvt_out_writer_at(i)); i++)
            if (strcmp(w->name, "pcs") && !w->file_option)
                len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s--%s", len ? ", " : "",
                                        w->name);
        return;
    }
    if (o->id == O_FILE_OUT) {      /* every file writer: --lcov FILE, ... */
        const rvt_out_writer *w;
        buf[0] = 0;
        for (size_t i = 0; (w = rvt_out_writer_at(i)); i++)
            if (w->file_option)
                len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s--%s", len ? ", " : "",
                                        w->name);
        snprintf(buf + len, len < n ? n - len : 0, " FILE");
        return;
    }
    snprintf(buf, n, "%s%s%s%s%s", o->name, o->alias ? ", " : "", o->alias ? o->alias : "",
             o->arg ? " " : "", o->arg ? o->arg : "");
}

void cli_args_help(FILE *f, unsigned cmd)
{
    fputs("Options (from the one option table of dump/decode/encode; [kinds] that\n"
          "honour each: an option the trace's kind cannot honour is a usage error):\n", f);
    for (size_t k = 0; k < NTABLE; k++) {
        const cli_option *o = &table[k];
        if (!(o->cmds & cmd))
            continue;
        char spell[96], kinds[96];
        spelling(o, spell, sizeof spell);
        kinds_text(o->kinds, kinds, sizeof kinds);
        fprintf(f, "  %-27s %s [%s]\n", spell, o->help, kinds);
    }
}

void cli_options_help(FILE *f, const char *cmd)
{
    unsigned c = !strcmp(cmd, "dump") ? CMD_DUMP : !strcmp(cmd, "decode") ? CMD_DECODE
               : !strcmp(cmd, "encode") ? CMD_ENCODE : !strcmp(cmd, "index") ? CMD_INDEX : 0;
    if (c)
        cli_args_help(f, c);
}
