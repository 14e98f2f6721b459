/* E-Trace CLI option handling shared by run, encode, decode and dump. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "te_opts.h"


/* One --te-opt item: a mode (rvt_te_opts_parse), or resync-max=N, the
 * resync_max attribute (table 2.1 ResyncMax) in the option spelling. */
static int apply_opt_item(const char *item, rvt_te_attrs *a)
{
    static const char resync[] = "resync-max=";
    if (!strncmp(item, resync, sizeof resync - 1)) {
        char kv[64];
        snprintf(kv, sizeof kv, "resync_max=%s", item + sizeof resync - 1);
        if (rvt_te_attrs_set(a, kv) < 0) {
            cli_err("--te-opt: bad value in '%s'", item);
            return -1;
        }
        return 0;
    }
    unsigned opts;
    if (rvt_te_opts_parse(item, &opts) < 0) {
        cli_err("--te-opt: unknown mode '%s'", item);
        return -1;
    }
    a->options |= opts;
    return 0;
}

static int apply_opt_list(const char *list, rvt_te_attrs *a)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        return -1;
    int st = 0;
    for (char *item = strtok_r(copy, ",", &save); item && st == 0; item = strtok_r(NULL, ",", &save))
        st = apply_opt_item(item, a);
    free(copy);
    return st;
}

int te_opt_apply(int argc, char **argv, int *i, rvt_te_attrs *a)
{
    const char *v;
    int j = *i;
    if (!strcmp(argv[j], "--te-data")) {
        a->data_trace = 1;              /* ch. 7: te_data packets too */
        return 1;
    }
    if ((v = cli_opt(argc, argv, &j, "--te-opt"))) {
        if (apply_opt_list(v, a) < 0)
            return -1;
        *i = j;
        return 1;
    }
    if ((v = cli_opt(argc, argv, &j, "--te-profile"))) {
        if (rvt_te_attrs_profile(a, v) < 0) {
            cli_err("--te-profile: unknown profile '%s' (known: refflow)", v);
            return -1;
        }
        *i = j;
        return 1;
    }
    if ((v = cli_opt(argc, argv, &j, "--te-attr"))) {
        if (rvt_te_attrs_set(a, v) < 0) {
            cli_err("--te-attr: bad attribute '%s'", v);
            return -1;
        }
        *i = j;
        return 1;
    }
    return 0;
}

/* Whether the command line gives attribute `name` ("--te-attr NAME=V" or
 * "--te-attr=NAME=V"): an explicit 0 must not be taken for the default. */
static bool attr_given(int argc, char **argv, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < argc; i++) {
        const char *v = !strncmp(argv[i], "--te-attr=", 10) ? argv[i] + 10
                      : !strcmp(argv[i], "--te-attr") && i + 1 < argc ? argv[i + 1] : NULL;
        if (v && !strncmp(v, name, n) && v[n] == '=')
            return true;
    }
    return false;
}

int te_attrs_finish(int argc, char **argv, rvt_te_attrs *a, const char *what)
{
    bool sized = attr_given(argc, argv, "return_stack_size") ||
                 attr_given(argc, argv, "call_counter_size");
    if ((a->options & RVT_TE_OPT_IMPLICIT_RETURN) && !sized && !a->return_stack_size &&
        !a->call_counter_size)
        a->return_stack_size = 5;
    rvt_te_attrs_fill(a);
    if (rvt_te_attrs_check(a) < 0 || rvt_te_data_attrs_check(a) < 0) {
        cli_err("%s: inconsistent E-Trace attributes or options", what);
        return -1;
    }
    const char *caveat = rvt_te_attrs_caveat(a);
    if (caveat)
        cli_err("%s: warning: %s", what, caveat);
    return 0;
}

void te_attrs_input_xlen(int argc, char **argv, rvt_te_attrs *a, unsigned xlen)
{
    if (xlen && !attr_given(argc, argv, "iaddress_width"))
        a->iaddress_width = xlen;
}

int te_attrs_for_input(const char *trace, int argc, char **argv, rvt_te_attrs *a)
{
    rvt_te_attrs_default(a);
    char path[4096];
    snprintf(path, sizeof path, "%s.attrs", trace);
    if (!cli_in(path))
        return -1;
    FILE *f = fopen(path, "r");
    if (f) {
        unsigned line = 0;
        int st = rvt_te_attrs_read(a, f, &line);
        fclose(f);
        if (st < 0) {
            cli_err("%s: line %u: bad attribute", path, line);
            return -1;
        }
    }
    for (int i = 1; i < argc; i++)
        if (te_opt_apply(argc, argv, &i, a) < 0)
            return -1;
    rvt_te_attrs_fill(a);
    if (rvt_te_attrs_check(a) < 0) {
        cli_err("%s: inconsistent E-Trace attributes", trace);
        return -1;
    }
    return 0;
}

int te_attrs_save(const char *trace, const rvt_te_attrs *a)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.attrs", trace);
    FILE *f = cli_out_fopen(path, "w");
    if (!f)
        return -1;
    int st = rvt_te_attrs_write(a, f);
    if (fclose(f) != 0 || st < 0) {
        cli_err("%s: write error", path);
        return -1;
    }
    return 0;
}

void te_warn_incomplete(const char *trace, uint64_t offset)
{
    cli_diag((void *)trace, RVT_DIAG_WARN, offset,
             "incomplete trace: the stream ends without the encoder's end marker (the final "
             "support packet, E-Trace 6.5.1); the last complete packet ends here");
}
