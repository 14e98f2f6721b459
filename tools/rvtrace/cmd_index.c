/* rvtrace index FILE: the trace's synchronisation points (rvtrace/index.h)
 * into FILE.idx, for decode --jobs and --range (docs/parallel.md). */
#include <stdlib.h>
#include <string.h>
#include "cli_index.h"
#include "cli_kind.h"

const char cmd_index_help[] =
    "usage: rvtrace index [OPTIONS] FILE.te|FILE.nt\n"
    "\n"
    "Write the synchronisation points of a trace into FILE.idx (-o another\n"
    "name): for each, its byte offset, the PC it restarts at and the modes in\n"
    "force there (E-Trace: te_inst format 3 subformats 0 and 1, with the last\n"
    "support packet; N-Trace: messages with SYNC and F-ADDR that restart the\n"
    "encoder, with the source's last Ownership message).  decode --jobs N cuts\n"
    "the trace at these points (it indexes in memory when FILE.idx is absent)\n"
    "and --range A:B decodes points A..B only.  Prints the number of points\n"
    "and, with --list, one line per point: 'N @OFFSET pc=0x... size=B'\n"
    "(and ' src=S' in an N-Trace stream of several sources).\n"
    "--min-gap BYTES keeps a point only that far after the last one kept\n"
    "of its source (k/M/G = KiB/MiB/GiB): the index of a huge trace stays small,\n"
    "its pieces as long (decode indexes in memory with the piece size).\n"
    "Settings come from FILE.attrs as for decode.  The file format is in\n"
    "docs/formats.md; an encapsulated E-Trace stream has no index file (its\n"
    "offsets are those of the unwrapped stream: decode --jobs indexes it in\n"
    "memory).\n";

static void list_points(const rvt_index *x)
{
    for (size_t i = 0; i < rvt_index_count(x); i++) {
        const rvt_index_point *p = rvt_index_at(x, i);
        printf("%zu @%llu pc=0x%llx size=%u", i, (unsigned long long)p->offset,
               (unsigned long long)p->pc, p->size);
        if (rvt_index_sources(x) > 1)
            printf(" src=%u", p->src);
        putchar('\n');
    }
}

static int write_index(const char *out, const rvt_index *x)
{
    FILE *f = cli_out_fopen(out, "wb");
    if (!f)
        return CLI_FAIL;
    int st = rvt_index_write(x, f);
    if (fclose(f) != 0 || st < 0) {
        cli_err("%s: cannot write", out);
        return CLI_FAIL;
    }
    return cli_out_commit();
}

static int index_trace(const cli_args *a, cli_kind k, const rvt_proto_cfg *c, bool list,
                       uint64_t gap)
{
    const char *in = a->files[0], *out = cli_args_value(a, O_INDEX_OUT);
    char def[4096];
    cli_index_path(in, def, sizeof def);
    trace_in t;
    if (!trace_in_open(&t, in, k))
        return CLI_FAIL;
    int rc = CLI_FAIL;
    if (t.unwrapped) {
        cli_err("%s: an encapsulated stream: no index file (decode --jobs indexes it in memory)", in);
    } else {
        rvt_index *x = cli_index_build(in, c, &t, gap);
        if (x) {
            rc = write_index(out ? out : def, x);
            if (list)
                list_points(x);
            printf("%zu synchronisation points\n", rvt_index_count(x));
        }
        rvt_index_free(x);
    }
    trace_in_close(&t);
    return rc;
}

int cmd_index(int argc, char **argv)
{
    cli_args a;
    cli_kind k;
    int rc = cli_flow_args(&a, CMD_INDEX, "index", argc, argv, &k);
    if (rc != CLI_OK)
        return rc;
    if (!a.nfiles) {
        cli_err("index: no trace file");
        return CLI_USAGE;
    }
    rvt_proto_cfg *c = rvt_proto_cfg_new(cli_kind_proto(k));
    if (!c)
        return CLI_FAIL;
    const char *g = cli_args_value(&a, O_INDEX_GAP);
    uint64_t gap = 0;
    if (g && !cli_parse_range("index: --min-gap", g, CLI_NUM_SIZE, 0, UINT64_MAX, &gap))
        rc = CLI_USAGE;
    if (rc == CLI_OK)
        rc = cli_settings_load(&a, a.files[0], c);
    if (rc == CLI_OK)
        rc = index_trace(&a, k, c, cli_args_has(&a, O_INDEX_LIST), gap);
    rvt_proto_cfg_free(c);
    return rc;
}
