/* rvtrace dump F.te: one te_inst or te_data packet per line, every field
 * named. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dump_summary.h"
#include "te_opts.h"

/* The command line: the input file, --json, --summary and the E-Trace
 * settings (applied later by te_attrs_for_input); anything else is a usage
 * error, as in the N-Trace dump.  0 or CLI_USAGE (printed). */
static int parse_args(int argc, char **argv, const char **in, bool *json, bool *summary)
{
    rvt_te_attrs scratch;
    rvt_te_attrs_default(&scratch);
    *in = NULL;
    for (int i = 1; i < argc; i++) {
        int r = te_opt_apply(argc, argv, &i, &scratch);
        if (r < 0)
            return CLI_USAGE;
        if (r > 0 || !strcmp(argv[i], "--etrace") || (r = cli_container_option(argc, argv, &i)) > 0)
            continue;
        if (r < 0)
            return CLI_USAGE;
        if (!strcmp(argv[i], "--json"))
            *json = true;
        else if (!strcmp(argv[i], "--summary"))
            *summary = true;
        else if (argv[i][0] != '-')
            *in = argv[i];
        else {
            cli_err("dump: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!*in) {
        cli_err("dump: no input file");
        return CLI_USAGE;
    }
    return 0;
}

/* te_data packets (E-Trace ch. 7): 0 when printed (or counted in sum), or
 * a status. */
static int te_dump_data(const rvt_te_attrs *a, const uint8_t *pl, size_t n, uint64_t off, bool json,
                        dump_summary *sum, uint64_t frame_bytes, uint8_t *sizes)
{
    rvt_te_dpkt d;
    char line[512];
    /* sizes: the outstanding split atomics, which give a split atomic
     * data packet (table 7.10) its data_len width */
    int st = rvt_te_dunpack_split(a, pl, n, sizes, &d);
    if (st < 0)
        return st;
    rvt_te_dsplit_track(a, &d, sizes);
    if (sum) {
        dump_summary_add(sum, rvt_te_dpkt_kind(a, &d), frame_bytes);
        return 0;
    }
    rvt_te_dpkt_format(a, &d, json, line, sizeof line);
    if (json)
        printf("{\"offset\":%" PRIu64 ",%s\n", off, line + 1);
    else
        printf("%8" PRIu64 "  %s\n", off, line);
    return 0;
}

int te_cmd_dump(int argc, char **argv)
{
    bool json = false, summary = false;
    const char *in;
    if (parse_args(argc, argv, &in, &json, &summary))
        return CLI_USAGE;
    rvt_te_attrs a;
    if (te_attrs_for_input(in, argc, argv, &a) < 0)
        return CLI_USAGE;
    size_t len;
    uint8_t *buf = cli_container_unwrap(in, cli_slurp(in, &len), &len);
    if (!buf)
        return CLI_FAIL;
    dump_summary *sum = summary ? calloc(1, sizeof *sum) : NULL;
    if (summary && !sum) {
        free(buf);
        cli_err("dump: out of memory");
        return CLI_FAIL;
    }
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, buf, len);
    rvt_te_pkt p;
    uint64_t off;
    char line[1024];
    int st, errors = 0;
    unsigned type;
    const uint8_t *pl;
    size_t n;
    uint8_t sizes[1u << RVT_TE_MAX_INDEX_WIDTH];
    memset(sizes, RVT_TE_NO_ATOMIC, sizeof sizes);
    bool ended = false;         /* the last te_inst packet is the end marker */
    uint64_t complete = 0;      /* where the last whole packet ends */
    while ((st = rvt_te_reader_frame(&r, &type, &pl, &n, &off)) != 0) {
        if (st > 0 && type == RVT_TE_MSG_DATA) {
            st = te_dump_data(&a, pl, n, off, json, sum, r.pos - off, sizes);
        } else if (st > 0) {
            st = rvt_te_unpack(&a, pl, n, &p);
            st = st < 0 ? st : 1;
        }
        if (st >= 0)
            complete = r.pos;
        if (st == 0)
            continue;                   /* printed by te_dump_data */
        if (st < 0) {
            rvt_te_reader_reject(&r, off);      /* resynchronise byte by byte */
            ended = false;
            char msg[96];
            snprintf(msg, sizeof msg, "bad packet (%s)", rvt_status_str(st));
            cli_diag((void *)in, RVT_DIAG_ERROR, off, msg);
            errors++;
            continue;
        }
        ended = rvt_te_pkt_is_end(&p);
        /* Support packets change the options the next packets are read with. */
        if (p.format == 3 && p.subformat == 3)
            a.options = rvt_te_support_options(&a, p.options);
        if (sum) {
            dump_summary_add(sum, rvt_te_pkt_name(&p), r.pos - off);
            continue;
        }
        rvt_te_pkt_format(&a, &p, json, line, sizeof line);
        if (json)   /* docs/formats.md: every object names its kind */
            printf("{\"offset\":%" PRIu64 ",\"kind\":\"te_inst\",\"name\":\"%s\",%s\n", off,
                   rvt_te_pkt_name(&p), line + 1);
        else
            printf("%8" PRIu64 "  %s\n", off, line);
    }
    if (sum)
        dump_summary_print(sum, len, "packets");
    if (!ended && !errors)      /* bad packets already say it is damaged */
        te_warn_incomplete(in, complete);
    free(sum);
    free(buf);
    return errors || cli_container_damaged() ? CLI_FAIL : CLI_OK;
}
