/* rvtrace dump FILE.nt: one N-Trace message per line, every field named
 * (the reference corpus' "@OFFSET Name(TCODE) FIELD=0xV" form), or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dump_summary.h"
#include "nt_cli.h"

int nt_cmd_dump(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false, summary = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--summary"))
            summary = true;
        else if (!strcmp(argv[i], "--ntrace"))
            continue;
        else if (argv[i][0] != '-')
            path = argv[i];
        else if (nt_opt_setting(argc, argv, &i, &(rvt_nt_cfg){0}) == 0) {
            cli_err("dump: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!path) {
        fputs(cmd_dump_help, stderr);
        return CLI_USAGE;
    }
    rvt_nt_cfg cfg;
    int st = nt_settings_for(path, argc, argv, &cfg);
    if (st)
        return st;
    size_t len;
    uint8_t *buf = cli_slurp(path, &len);
    if (!buf)
        return CLI_FAIL;
    dump_summary *sum = summary ? calloc(1, sizeof *sum) : NULL;
    if (summary && !sum) {
        free(buf);
        cli_err("dump: out of memory");
        return CLI_FAIL;
    }
    rvt_nt_reader r;
    rvt_nt_msg m;
    rvt_nt_reader_init(&r, buf, len, &cfg);
    char line[512];
    uint64_t errors = 0;
    while ((st = rvt_nt_reader_next(&r, &m)) != 0) {
        if (st < 0) {
            errors++;
            cli_diag((void *)path, RVT_DIAG_ERROR, r.err_offset, r.err);
            if (json)
                printf("{\"offset\":%llu,\"error\":\"%s\"}\n", (unsigned long long)r.err_offset, r.err);
            continue;
        }
        if (sum) {
            const char *name = rvt_nt_tcode_name(m.tcode);
            dump_summary_add(sum, name ? name : "vendor/reserved", m.len);
            continue;
        }
        rvt_nt_msg_format(&m, json, line, sizeof line);
        puts(line);
    }
    if (sum)
        dump_summary_print(sum, len, "messages");
    free(sum);
    free(buf);
    return errors ? CLI_FAIL : CLI_OK;
}
