/* The settings options of dump, decode, encode and run, applied through the
 * protocol registry's one style (rvt_proto_cfg_set): --te-opt, --te-attr,
 * --te-profile, --te-data (E-Trace, docs/format-te.md), --nt-opt, --nt-src,
 * --nt-attr (N-Trace, docs/format-nt.md), --xlen/--flen/--mlen (.tvt). */
#include <stdlib.h>
#include <string.h>
#include "cli_kind.h"
#include "rvtrace/etrace.h"

const char te_options_help[] =
    "E-Trace options:\n"
    "  --etrace OUT.te           write an E-Trace stream (attributes in OUT.te.attrs)\n"
    "  --te-data                 also write data trace (te_data packets, ch. 7);\n"
    "                            options: --te-attr no_data=1, no_address=1,\n"
    "                            data_compress=0..3, data_width=32|64,\n"
    "                            split_loads=1 index_width=0..8 (split loads,\n"
    "                            tables 7.4/7.5/7.9/7.10)\n"
    "  --te-opt LIST             modes: full-address, implicit-except, sijump,\n"
    "                            implicit-return, branch-prediction,\n"
    "                            jump-target-cache, or all (every mode that makes\n"
    "                            the stream smaller: all but full-address);\n"
    "                            resync-max=N (= --te-attr resync_max=N); default:\n"
    "                            delta address;\n"
    "                            implicit-return uses a 32-entry return stack\n"
    "                            (return_stack_size=5: sizes are log2, 2^5 entries)\n"
    "                            unless return_stack_size or call_counter_size is\n"
    "                            given\n"
    "  --te-profile refflow      the E-Trace reference flow's encoder, byte for byte:\n"
    "                            version=2.0 resync_mode=packets irdepth_ones=1\n"
    "                            trap_noupd=1 (later --te-attr options override)\n"
    "  --te-attr NAME=VALUE      an encoder attribute (E-Trace 9.1 names, *_p values):\n"
    "                            version=1.1|2.0, iaddress_width, iaddress_lsb,\n"
    "                            ecause_width, context_width, nocontext, notime,\n"
    "                            time_width, privilege_width, call_counter_size,\n"
    "                            return_stack_size, bpred_size, cache_size, f0s_width,\n"
    "                            sijump, retires, resync_mode=off|packets|halfwords,\n"
    "                            resync_max, resync_interval, irdepth_ones,\n"
    "                            trap_noupd, data_trace, data_width, no_data,\n"
    "                            no_address, data_compress, split_loads,\n"
    "                            index_width\n"
    "                            (docs/format-te.md)\n"
    "  decode --count            print only the number of instructions decoded\n"
    "  decode --strict           exit 1 when the stream ends without the encoder's\n"
    "                            end marker (final support packet): truncated\n";

const char nt_options_help[] =
    "N-Trace options:\n"
    "  --ntrace OUT.nt          write an N-Trace stream (settings in OUT.nt.attrs)\n"
    "  --nt-opt LIST            comma list: btm | htm (default), seq-jump,\n"
    "                           implicit-return=1|2|3, return-depth=N (1..32),\n"
    "                           return-bits=N, repeat-history, repeat-kinds=N\n"
    "                           (sum of: 1 RepeatBranch, 2 ResourceFull RCODE 2 of\n"
    "                           whole HIST windows, 4 RCODE 2 of the shortest\n"
    "                           repeating pattern; default 5), all-jumps,\n"
    "                           no-addr-diff, extend-msb, timestamps,\n"
    "                           context, sync=MODE:MAX (periodic sync; MODE 1\n"
    "                           messages, 2 cycles, 3 I-CNT; period 2^(MAX+4)),\n"
    "                           icnt-bits=N, hist-bits=N, itype3, xlen=32|64,\n"
    "                           port=1|2|4|8 (bytes per probe word), start-disabled\n"
    "  --nt-src BITS:ID         SRC field of BITS bits with this encoder's ID\n"
    "                           (decode: the SRC width)\n"
    "  decode --src N           decode only source N (0..4095); a source the\n"
    "                           stream does not have is an error\n"
    "  encode --ntrace A.rvi B.rvi ...: one hart per input, ids ID, ID+1, ...\n"
    "                           (no --nt-src: the fewest bits, ids from 0), merged\n"
    "                           into one stream by record time\n"
    "  --nt-attr NAME=VALUE     set a chapter 4 control by name\n"
    "  decode --count           print only the number of instructions decoded\n"
    "                           (no per-instruction work: fastest)\n"
    "  decode --strict          exit 1 when the stream ends without its end marker\n"
    "                           (the last ProgTraceCorrelation of each source: a\n"
    "                           cut capture or an empty file); without it, a\n"
    "                           warning names the offset where the last complete\n"
    "                           message ends\n";

/* ---- E-Trace ---- */

/* One --te-opt item: a mode, added to the options in force, or
 * resync-max=N, the resync_max attribute (table 2.1 ResyncMax). */
static int te_opt_item(rvt_proto_cfg *c, const char *item)
{
    static const char resync[] = "resync-max=";
    if (!strncmp(item, resync, sizeof resync - 1)) {
        if (rvt_proto_cfg_set(c, "resync_max", item + sizeof resync - 1) < 0) {
            cli_err("--te-opt: bad value in '%s'", item);
            return CLI_USAGE;
        }
        return CLI_OK;
    }
    unsigned opts;
    char now[256], list[512];
    if (rvt_te_opts_parse(item, &opts) < 0) {
        cli_err("--te-opt: unknown mode '%s'", item);
        return CLI_USAGE;
    }
    rvt_proto_cfg_get(c, "options", now, sizeof now);
    snprintf(list, sizeof list, "%s,%s", strcmp(now, "none") ? now : "none", item);
    return rvt_proto_cfg_set(c, "options", list) < 0 ? CLI_USAGE : CLI_OK;
}

static int te_opt_list(rvt_proto_cfg *c, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        return CLI_FAIL;
    int rc = CLI_OK;
    for (char *item = strtok_r(copy, ",", &save); item && rc == CLI_OK; item = strtok_r(NULL, ",", &save))
        rc = te_opt_item(c, item);
    free(copy);
    return rc;
}

/* "NAME=VALUE" split in place into buf; NULL value when there is no '='. */
static const char *split_kv(const char *kv, char *buf, size_t n)
{
    snprintf(buf, n, "%s", kv);
    char *eq = strchr(buf, '=');
    if (!eq || eq == buf)
        return NULL;
    *eq = 0;
    return eq + 1;
}

static int te_setting(rvt_proto_cfg *c, cli_opt_id id, const char *v)
{
    char kv[256];
    const char *val;
    switch (id) {
    case O_TE_DATA:
        return rvt_proto_cfg_set(c, "data_trace", "1") < 0 ? CLI_USAGE : CLI_OK;
    case O_TE_OPT:
        return te_opt_list(c, v);
    case O_TE_PROFILE:
        if (rvt_proto_cfg_set(c, "profile", v) < 0) {
            cli_err("--te-profile: unknown profile '%s' (known: refflow)", v);
            return CLI_USAGE;
        }
        return CLI_OK;
    case O_TE_ATTR:
        if (!(val = split_kv(v, kv, sizeof kv)) || rvt_proto_cfg_set(c, kv, val) < 0) {
            cli_err("--te-attr: bad attribute '%s'", v);
            return CLI_USAGE;
        }
        return CLI_OK;
    default:
        return CLI_OK;
    }
}

/* ---- N-Trace ---- */

/* --nt-opt items and the chapter 4 controls they set. */
static bool nt_opt_item(rvt_proto_cfg *c, const char *k, const char *v)
{
    static const struct { const char *opt, *attr, *value; } fixed[] = {
        { "btm", "trTeInstMode", "3" }, { "htm", "trTeInstMode", "6" },
        { "itype3", "rvtItypeBits", "3" },
    };
    static const struct { const char *opt, *attr; } flags[] = {
        { "seq-jump", "trTeInstEnSequentialJump" }, { "repeat-history", "trTeInstEnRepeatedHistory" },
        { "all-jumps", "trTeInstEnAllJumps" }, { "no-addr-diff", "trTeInstNoAddrDiff" },
        { "extend-msb", "trTeInstExtendAddrMSB" }, { "timestamps", "trTsEnable" },
        { "context", "trTeContext" }, { "start-disabled", "rvtStartDisabled" },
    };
    static const struct { const char *opt, *attr; } nums[] = {
        { "implicit-return", "trTeInstImplicitReturnMode" }, { "return-depth", "rvtReturnStackDepth" },
        { "return-bits", "rvtReturnAddrBits" }, { "repeat-kinds", "rvtRepeatKinds" },
        { "icnt-bits", "rvtIcntBits" }, { "hist-bits", "rvtHistBits" }, { "xlen", "rvtXlen" },
        { "port", "rvtPortBytes" },
    };
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (!strcmp(k, fixed[i].opt) && !v)
            return rvt_proto_cfg_set(c, fixed[i].attr, fixed[i].value) == 0;
    if (!strcmp(k, "no-trap-addr")) {
        cli_err("--nt-opt: no-trap-addr: N-Trace table 7 hard-codes trTeInstNoTrapAddr to 0 "
                "(trap addresses are always sent)");
        return false;
    }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(k, flags[i].opt))
            return rvt_proto_cfg_set(c, flags[i].attr, v ? v : "1") == 0;
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (!strcmp(k, nums[i].opt))
            return v && rvt_proto_cfg_set(c, nums[i].attr, v) == 0;
    if (!strcmp(k, "sync") && v) {
        char mode[16];
        const char *colon = strchr(v, ':');
        size_t n = colon ? (size_t)(colon - v) : strlen(v);
        if (n >= sizeof mode)
            return false;
        memcpy(mode, v, n);
        mode[n] = 0;
        return rvt_proto_cfg_set(c, "trTeInstSyncMode", mode) == 0 &&
               (!colon || rvt_proto_cfg_set(c, "trTeInstSyncMax", colon + 1) == 0);
    }
    return false;
}

static int nt_opt_list(rvt_proto_cfg *c, const char *list)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq)
            *eq++ = 0;
        if (!nt_opt_item(c, tok, eq)) {
            cli_err("--nt-opt: bad item '%s%s%s'", tok, eq ? "=" : "", eq ? eq : "");
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

/* --nt-src BITS:ID: trTeSrcBits and trTeSrcID. */
static int nt_src(rvt_proto_cfg *c, const char *arg)
{
    char b[32], id[32] = "0";
    const char *colon = strchr(arg, ':');
    size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
    uint64_t bits = 0, idv = 0;
    bool ok = n < sizeof b && (!colon || strlen(colon + 1) < sizeof id);
    if (ok) {
        memcpy(b, arg, n);
        b[n] = 0;
        if (colon)
            snprintf(id, sizeof id, "%s", colon + 1);
        ok = cli_parse_u64(b, &bits) && cli_parse_u64(id, &idv);
    }
    if (!ok || bits > 12 || (bits && idv >= (1ull << bits)) ||
        rvt_proto_cfg_set(c, "trTeSrcBits", b) < 0 || rvt_proto_cfg_set(c, "trTeSrcID", id) < 0) {
        cli_err("--nt-src: expected BITS:ID with BITS <= 12 and ID < 2^BITS, got '%s'", arg);
        return CLI_USAGE;
    }
    return CLI_OK;
}

static int nt_setting(rvt_proto_cfg *c, cli_opt_id id, const char *v)
{
    char kv[256];
    const char *val;
    switch (id) {
    case O_NT_OPT:
        return nt_opt_list(c, v);
    case O_NT_SRC:
        return nt_src(c, v);
    case O_NT_ATTR:
        if (!(val = split_kv(v, kv, sizeof kv)) || strlen(v) - strlen(val) - 1 >= 128) {
            cli_err("--nt-attr: expected NAME=VALUE, got '%s'", v);
            return CLI_USAGE;
        }
        if (rvt_proto_cfg_set(c, kv, val) < 0) {
            cli_err("--nt-attr: bad setting '%s'%s", v, strcmp(kv, "trTeInstNoTrapAddr") ? "" :
                    " (N-Trace table 7: trTeInstNoTrapAddr is hard-coded to 0)");
            return CLI_USAGE;
        }
        return CLI_OK;
    default:
        return CLI_OK;
    }
}

/* ---- tandem verification: --xlen/--flen/--mlen, 0..128 ---- */
static int tv_setting(rvt_proto_cfg *c, const cli_given *g)
{
    uint64_t x;
    if (g->opt->id != O_XLEN && g->opt->id != O_FLEN && g->opt->id != O_MLEN)
        return CLI_OK;
    if (!cli_parse_range(g->spelt, g->value, CLI_NUM_PLAIN, 0, 128, &x))
        return CLI_USAGE;
    return rvt_proto_cfg_set(c, g->spelt + 2, g->value) < 0 ? CLI_USAGE : CLI_OK;
}

int cli_settings_apply(const cli_args *a, rvt_proto_cfg *c)
{
    cli_kind k = cli_kind_of_proto(rvt_proto_cfg_proto(c));
    for (int i = 0; i < a->ngiven; i++) {
        const cli_given *g = &a->given[i];
        int rc = CLI_OK;
        if (k == KIND_TE && g->opt->kinds == K_TE)
            rc = te_setting(c, g->opt->id, g->value);
        else if (k == KIND_NT && g->opt->kinds == K_NT)
            rc = nt_setting(c, g->opt->id, g->value);
        else if (k == KIND_TVT)
            rc = tv_setting(c, g);
        if (rc != CLI_OK)
            return rc;
    }
    return CLI_OK;
}

int cli_settings_check(const rvt_proto_cfg *c, const char *what)
{
    const char *why;
    if (rvt_proto_cfg_check(c, &why) < 0) {
        cli_err("%s: %s", what, why);
        return CLI_USAGE;
    }
    return CLI_OK;
}
