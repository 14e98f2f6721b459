/* N-Trace CLI settings: --nt-opt lists, --nt-src, --nt-attr and the
 * OUT.nt.attrs sidecar (docs/format-nt.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "nt_cli.h"


static bool set_num(rvt_nt_cfg *c, const char *name, const char *v)
{
    return rvt_nt_cfg_set(c, name, v) == 0;
}

static bool opt_item(rvt_nt_cfg *c, const char *k, const char *v)
{
    static const struct { const char *opt, *attr; } flags[] = {
        { "seq-jump", "trTeInstEnSequentialJump" },
        { "repeat-history", "trTeInstEnRepeatedHistory" },
        { "all-jumps", "trTeInstEnAllJumps" },
        { "no-addr-diff", "trTeInstNoAddrDiff" },
        { "extend-msb", "trTeInstExtendAddrMSB" },
        { "timestamps", "trTsEnable" },
        { "context", "trTeContext" },
        { "start-disabled", "rvtStartDisabled" },
    };
    static const struct { const char *opt, *attr; } nums[] = {
        { "implicit-return", "trTeInstImplicitReturnMode" },
        { "return-depth", "rvtReturnStackDepth" },
        { "return-bits", "rvtReturnAddrBits" },
        { "repeat-kinds", "rvtRepeatKinds" },
        { "icnt-bits", "rvtIcntBits" },
        { "hist-bits", "rvtHistBits" },
        { "xlen", "rvtXlen" },
        { "port", "rvtPortBytes" },
    };
    if (!strcmp(k, "btm") && !v) { c->inst_mode = RVT_NT_MODE_BTM; return true; }
    if (!strcmp(k, "htm") && !v) { c->inst_mode = RVT_NT_MODE_HTM; return true; }
    if (!strcmp(k, "itype3") && !v) { c->itype_bits = 3; return true; }
    if (!strcmp(k, "no-trap-addr")) {
        cli_err("--nt-opt: no-trap-addr: N-Trace table 7 hard-codes trTeInstNoTrapAddr to 0 "
                "(trap addresses are always sent)");
        return false;
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(k, flags[i].opt))
            return set_num(c, flags[i].attr, v ? v : "1");
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (!strcmp(k, nums[i].opt))
            return v && set_num(c, nums[i].attr, v);
    if (!strcmp(k, "sync") && v) {
        char mode[16];
        const char *colon = strchr(v, ':');
        size_t n = colon ? (size_t)(colon - v) : strlen(v);
        if (n >= sizeof mode)
            return false;
        memcpy(mode, v, n);
        mode[n] = 0;
        return set_num(c, "trTeInstSyncMode", mode) &&
               (!colon || set_num(c, "trTeInstSyncMax", colon + 1));
    }
    return false;
}

bool nt_opt_list(rvt_nt_cfg *c, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq++ = 0;
        if (!opt_item(c, tok, eq)) {
            cli_err("--nt-opt: bad item '%s%s%s'", tok, eq ? "=" : "", eq ? eq : "");
            return false;
        }
    }
    return true;
}

bool nt_opt_src(rvt_nt_cfg *c, const char *arg)
{
    char b[32];
    const char *colon = strchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    uint64_t bits = 0, id = 0;
    bool ok = n < sizeof b;
    if (ok) {
        memcpy(b, arg, n);
        b[n] = 0;
        ok = cli_parse_u64(b, &bits) && (!colon || cli_parse_u64(colon + 1, &id));
    }
    if (!ok || bits > 12 || (bits && id >= (1ull << bits))) {
        cli_err("--nt-src: expected BITS:ID with BITS <= 12 and ID < 2^BITS, got '%s'", arg);
        return false;
    }
    c->src_bits = (unsigned)bits;
    c->src_id = (unsigned)id;
    return true;
}

int nt_opt_setting(int argc, char **argv, int *i, rvt_nt_cfg *c)
{
    const char *v;
    if ((v = cli_opt(argc, argv, i, "--nt-opt")))
        return nt_opt_list(c, v) ? 1 : -1;
    if ((v = cli_opt(argc, argv, i, "--nt-src")))
        return nt_opt_src(c, v) ? 1 : -1;
    if ((v = cli_opt(argc, argv, i, "--nt-attr"))) {
        char name[128];
        const char *eq = strchr(v, '=');
        if (!eq || (size_t)(eq - v) >= sizeof name) {
            cli_err("--nt-attr: expected NAME=VALUE, got '%s'", v);
            return -1;
        }
        memcpy(name, v, (size_t)(eq - v));
        name[eq - v] = 0;
        if (rvt_nt_cfg_set(c, name, eq + 1) < 0) {
            cli_err("--nt-attr: bad setting '%s'%s", v, strcmp(name, "trTeInstNoTrapAddr") ? "" :
                    " (N-Trace table 7: trTeInstNoTrapAddr is hard-coded to 0)");
            return -1;
        }
        return 1;
    }
    return 0;
}

int nt_settings_for(const char *path, int argc, char **argv, rvt_nt_cfg *c)
{
    rvt_nt_cfg_default(c);
    if (path) {
        char side[4096];
        snprintf(side, sizeof side, "%s.attrs", path);
        if (!cli_in(side))
            return CLI_FAIL;
        FILE *f = fopen(side, "r");
        if (f) {
            int st = rvt_nt_cfg_read(c, f, cli_diag, side);
            fclose(f);
            if (st < 0)
                return CLI_FAIL;
        }
    }
    for (int i = 1; i < argc; i++)
        if (nt_opt_setting(argc, argv, &i, c) < 0)
            return CLI_USAGE;
    if (rvt_nt_cfg_check(c) < 0) {
        cli_err("inconsistent N-Trace settings (see --nt-opt in 'rvtrace help encode')");
        return CLI_USAGE;
    }
    return CLI_OK;
}
