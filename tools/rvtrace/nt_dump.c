/* rvtrace dump FILE.nt: one N-Trace message per line, every field named
 * (the reference corpus' "@OFFSET Name(TCODE) FIELD=0xV" form), or JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "dump_summary.h"
#include "nt_cli.h"
#include "ntrace/nt_addr.h"

/* --addresses: the PC a message's F-ADDR or U-ADDR stands for (8.1: U-ADDR
 * is XORed with the previous address of the same source, unless
 * trTeInstNoAddrDiff), appended as "-> 0x...".  Off by default: the plain
 * dump is the reference corpus' format. */
typedef struct nt_addrs {
    uint64_t ref[1u << 12];          /* per SRC (trTeSrcBits <= 12) */
    uint64_t xmask;
    bool no_diff;
} nt_addrs;

static bool message_pc(nt_addrs *t, const rvt_nt_msg *m, uint64_t *pc)
{
    uint64_t *ref = &t->ref[rvt_nt_has(m, RVT_NT_F_SRC) ? m->f[RVT_NT_F_SRC] & 0xfff : 0];
    if (rvt_nt_has(m, RVT_NT_F_FADDR))
        *ref = nt_faddr_pc(m->f[RVT_NT_F_FADDR], t->xmask);
    else if (rvt_nt_has(m, RVT_NT_F_UADDR))
        *ref = nt_uaddr_pc(*ref, m->f[RVT_NT_F_UADDR], t->no_diff, t->xmask);
    else
        return false;
    *pc = *ref;
    return true;
}

static void print_line(char *line, size_t n, nt_addrs *t, const rvt_nt_msg *m, bool json)
{
    uint64_t pc;
    size_t len = strlen(line);
    if (t && message_pc(t, m, &pc) && len + 32 < n) {
        if (json && len && line[len - 1] == '}')
            snprintf(line + len - 1, n - len + 1, ",\"pc\":\"0x%llx\"}", (unsigned long long)pc);
        else if (!json)
            snprintf(line + len, n - len, " -> 0x%llx", (unsigned long long)pc);
    }
    puts(line);
}

int nt_cmd_dump(int argc, char **argv)
{
    const char *path = NULL;
    bool json = false, summary = false, addresses = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = true;
        else if (!strcmp(argv[i], "--summary"))
            summary = true;
        else if (!strcmp(argv[i], "--addresses"))
            addresses = true;
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
    nt_addrs *addrs = addresses && !summary ? calloc(1, sizeof *addrs) : NULL;
    if ((summary && !sum) || (addresses && !summary && !addrs)) {
        free(buf);
        free(sum);
        cli_err("dump: out of memory");
        return CLI_FAIL;
    }
    if (addrs) {
        addrs->xmask = cfg.xlen == 32 ? 0xffffffffull : ~0ull;
        addrs->no_diff = cfg.no_addr_diff;
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
                printf("{\"offset\":%llu,\"kind\":\"error\",\"msg\":\"%s\"}\n",
                       (unsigned long long)r.err_offset, r.err);
            continue;
        }
        if (sum) {
            const char *name = rvt_nt_tcode_name(m.tcode);
            dump_summary_add(sum, name ? name : "vendor/reserved", m.len);
            continue;
        }
        rvt_nt_msg_format(&m, json, line, sizeof line);
        print_line(line, sizeof line, addrs, &m, json);
    }
    if (sum)
        dump_summary_print(sum, len, "messages");
    free(addrs);
    free(sum);
    free(buf);
    return errors ? CLI_FAIL : CLI_OK;
}
