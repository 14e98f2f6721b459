/* E-Trace encoder parameters (9.1, tables 9.1-9.4) and the OUT.te.attrs
 * sidecar (docs/format-te.md): one "name=value" per line. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/etrace.h"
#include "etrace/attrs_int.h"

void rvt_te_attrs_default(rvt_te_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->size = sizeof *a;
    a->version = RVT_TE_V11;
    a->iaddress_width = 64;
    a->iaddress_lsb = 1;
    a->ecause_width = 5;
    a->context_width = 32;
    a->nocontext = 1;
    a->notime = 1;
    a->privilege_width = 2;
    a->retires = 1;
    a->itype_width = 4;
    a->encoder_mode_width = 1;
    a->resync_mode = RVT_TE_RESYNC_HALFWORDS;
    a->resync_max = 12;     /* a sync every 2^16 half-words */
    a->data_width = 64;
    a->data_compress = 3;   /* table 2.2: XOR or differential, per packet */
    /* Table 9.3 for rvtrace's filter stage (filter.h: 8 comparators, 16
     * filters, a 32-bit matchChoiceEcause, context/trap/privilege/tval
     * inputs). */
    a->comparators = 8;
    a->filters = 16;
    a->ecause_choice = 5;
    a->filter_context = a->filter_excint = a->filter_privilege = a->filter_tval = 1;
}

/* Numeric attributes by name, with their help; the table drives set, get,
 * the sidecar and the help (E-Trace 9.1 names, *_p values). */
#define ATTR(name, help) { #name, offsetof(rvt_te_attrs, name), help }
static const struct { const char *name; size_t off; const char *help; } num_attrs[] = {
    ATTR(iaddress_width, "instruction address width (= XLEN)"),
    ATTR(iaddress_lsb, "low address bits never sent (1 with compressed instructions)"),
    ATTR(ecause_width, "width of the exception cause"),
    ATTR(context_width, "width of the context field"),
    ATTR(nocontext, "1: no context field"),
    ATTR(notime, "1: no time field"),
    ATTR(time_width, "width of the time field"),
    ATTR(privilege_width, "width of the privilege field"),
    ATTR(call_counter_size, "implicit return: log2 of the call counter's range"),
    ATTR(return_stack_size, "implicit return: log2 of the return stack's entries"),
    ATTR(bpred_size, "branch predictor: log2 of its entries, 1-16 (0: 8 when the mode is on)"),
    ATTR(cache_size, "jump target cache: log2 of its entries, 1-16 (0: 4 when the mode is on)"),
    ATTR(f0s_width, "format 0 subformat width (6.8.1)"),
    ATTR(sijump, "1: the hart gives the sijump input (3.2.4)"),
    ATTR(retires, "instructions retired per cycle"),
    ATTR(itype_width, "ingress itype width (3 or 4)"),
    ATTR(encoder_mode_width, "width of the encoder mode field (table 6.4)"),
    ATTR(resync_max, "a sync every 2^(N+4) of the resync_mode unit"),
    ATTR(irdepth_ones, "reference flow deviation: irdepth filled with ones"),
    ATTR(trap_noupd, "reference flow deviation: no updiscon before an ecall/ebreak's trap"),
    ATTR(data_trace, "1: te_data packets are written (ch. 7)"),
    ATTR(data_width, "data trace: data width 32 or 64"),
    ATTR(no_data, "data trace: no data values (table 2.2 noData)"),
    ATTR(no_address, "data trace: no addresses (table 2.2 noAddress)"),
    ATTR(data_compress, "data trace: DataCompress 0..3 (table 2.2)"),
    ATTR(comparators, "filter stage: comparators (table 9.3)"),
    ATTR(filters, "filter stage: filters (table 9.3)"),
    ATTR(ecause_choice, "filter stage: matchChoiceEcause covers 2^N causes"),
    ATTR(filter_context, "filter stage: context input"),
    ATTR(filter_excint, "filter stage: exception/interrupt input"),
    ATTR(filter_privilege, "filter stage: privilege input"),
    ATTR(filter_tval, "filter stage: tval input"),
    ATTR(split_loads, "data trace: split loads and atomics (tables 7.4, 7.5, 7.9, 7.10)"),
    ATTR(index_width, "data trace: split index width 0..8"),
};
#undef ATTR

static const struct { const char *name; unsigned bit; } opt_names[] = {
    { "full-address", RVT_TE_OPT_FULL_ADDRESS },
    { "implicit-except", RVT_TE_OPT_IMPLICIT_EXCEPT },
    { "sijump", RVT_TE_OPT_SIJUMP },
    { "implicit-return", RVT_TE_OPT_IMPLICIT_RETURN },
    { "branch-prediction", RVT_TE_OPT_BRANCH_PRED },
    { "jump-target-cache", RVT_TE_OPT_JTC },
};
#define N_OPTS (sizeof opt_names / sizeof opt_names[0])

static const char *resync_names[] = { "off", "packets", "cycles", "halfwords" };

int rvt_te_opts_parse(const char *list, unsigned *opts)
{
    unsigned v = 0;
    const char *s = list;
    while (*s) {
        size_t n = strcspn(s, ",");
        bool found = false;
        if (n == 3 && !strncmp(s, "all", 3)) {
            v |= RVT_TE_OPT_COMPRESSING;
            found = true;
        } else if ((n == 4 && !strncmp(s, "none", 4)) || (n == 5 && !strncmp(s, "delta", 5))) {
            found = true;
        }
        for (size_t i = 0; i < N_OPTS && !found; i++) {
            if (strlen(opt_names[i].name) == n && !strncmp(s, opt_names[i].name, n)) {
                v |= opt_names[i].bit;
                found = true;
            }
        }
        if (!found)
            return RVT_ERR_INVAL;
        s += n;
        if (*s == ',')
            s++;
    }
    *opts = v;
    return 0;
}

static bool parse_num(const char *s, uint64_t *out)
{
    if (!*s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

/* Named attribute sets (docs/conformance-etrace.md).  "refflow": what the
 * E-Trace reference flow's encoder_model.py writes, its deviations
 * included: the ratified (2.0) packet layout, a resync counter counting
 * te_inst packets, irdepth filled with ones, and its updiscon rule around
 * ecall/ebreak. */
int rvt_te_attrs_profile(rvt_te_attrs *a, const char *name)
{
    if (strcmp(name, "refflow") != 0)
        return RVT_ERR_INVAL;
    a->version = RVT_TE_V20;
    a->resync_mode = RVT_TE_RESYNC_PACKETS;
    a->irdepth_ones = 1;
    a->trap_noupd = 1;
    return 0;
}

static int set_value(rvt_te_attrs *a, const char *name, size_t n, const char *val)
{
    uint64_t v = 0;
    if (n == 7 && !strncmp(name, "profile", n))
        return rvt_te_attrs_profile(a, val);
    if (n == 7 && !strncmp(name, "version", n)) {
        if (!strcmp(val, "1.1") || !strcmp(val, "1.1.1"))
            a->version = RVT_TE_V11;
        else if (!strcmp(val, "2.0"))
            a->version = RVT_TE_V20;
        else
            return RVT_ERR_INVAL;
        return 0;
    }
    if (n == 7 && !strncmp(name, "options", n))
        return rvt_te_opts_parse(val, &a->options);
    if (n == 11 && !strncmp(name, "resync_mode", n)) {
        for (unsigned i = 0; i < 4; i++)
            if (!strcmp(val, resync_names[i])) {
                a->resync_mode = i;
                return 0;
            }
        return RVT_ERR_INVAL;
    }
    if (!parse_num(val, &v))
        return RVT_ERR_INVAL;
    if (n == 15 && !strncmp(name, "resync_interval", n)) {
        a->resync_interval = v;
        return 0;
    }
    for (size_t i = 0; i < sizeof num_attrs / sizeof num_attrs[0]; i++) {
        if (strlen(num_attrs[i].name) == n && !strncmp(name, num_attrs[i].name, n)) {
            if (v > 64)
                return RVT_ERR_RANGE;
            *(unsigned *)((char *)a + num_attrs[i].off) = (unsigned)v;
            return 0;
        }
    }
    return RVT_ERR_INVAL;
}

int rvt_te_attrs_set_value(rvt_te_attrs *a, const char *name, const char *value)
{
    if (!a || !name || !value)
        return RVT_ERR_INVAL;
    return set_value(a, name, strlen(name), value);
}

int rvt_te_attrs_set(rvt_te_attrs *a, const char *kv)
{
    const char *eq = kv ? strchr(kv, '=') : NULL;
    if (!a || !eq || eq == kv)
        return RVT_ERR_INVAL;
    return set_value(a, kv, (size_t)(eq - kv), eq + 1);
}

const char *rvt_te_attrs_caveat(const rvt_te_attrs *a)
{
    if (!(a->options & RVT_TE_OPT_IMPLICIT_RETURN) || a->return_stack_size)
        return NULL;
    if (!a->call_counter_size)
        return "implicit return with neither a return stack nor a call counter "
               "(return_stack_size=0, call_counter_size=0) leaves out every return, also those "
               "whose call was never traced and those to a changed return address: no decoder "
               "can follow such returns (E-Trace 3.2.5: a return is inferable only if its call "
               "was reported); give return_stack_size for a stream every program decodes from";
    return "implicit return with a call counter and no return stack (return_stack_size=0) "
           "does not check return addresses: code that changes them (co-routine switches, "
           "setjmp/longjmp, stack unwinding) cannot be followed (E-Trace 3.2.5); "
           "give return_stack_size for a stream every program decodes from";
}

unsigned rvt_te_irdepth_width(const rvt_te_attrs *a)
{
    /* 6.6: return_stack_size_p + (return_stack_size_p > 0) + call_counter_size_p */
    return a->return_stack_size + (a->return_stack_size > 0) + a->call_counter_size;
}

/* Defaults chosen on the workloads of docs/etrace.md: a 256-entry
 * predictor and a 16-entry cache. */
#define TE_DEFAULT_BPRED_SIZE 8
#define TE_DEFAULT_CACHE_SIZE 4

void rvt_te_attrs_fill(rvt_te_attrs *a)
{
    bool bp = a->options & RVT_TE_OPT_BRANCH_PRED, jtc = a->options & RVT_TE_OPT_JTC;
    if (bp && a->bpred_size == 0)
        a->bpred_size = TE_DEFAULT_BPRED_SIZE;
    if (jtc && a->cache_size == 0)
        a->cache_size = TE_DEFAULT_CACHE_SIZE;
    if (bp && jtc && a->f0s_width == 0)
        a->f0s_width = 1;
    /* 3.2.4, table 9.1: sequentially inferable jump mode needs the hart's
     * sijump input (sijump_p = 1), which the attributes must then state.
     * The 2.0 layout's ioptions has no sijump bit: there sijump_p alone
     * says whether the mode is on (rvt_te_support_options), so the
     * encoder and the decoder both take it from there. */
    if (a->options & RVT_TE_OPT_SIJUMP)
        a->sijump = 1;
    if (a->version == RVT_TE_V20 && a->sijump)
        a->options |= RVT_TE_OPT_SIJUMP;
}

int rvt_te_attrs_check(const rvt_te_attrs *a)
{
    if (a->size && a->size != sizeof *a)
        return RVT_ERR_VERSION;          /* built against another layout */
    if (a->version != RVT_TE_V11 && a->version != RVT_TE_V20)
        return RVT_ERR_INVAL;
    if (a->iaddress_width < 8 || a->iaddress_width > 64 || a->iaddress_lsb > 2)
        return RVT_ERR_INVAL;
    if (a->ecause_width > 32 || a->privilege_width > 8 || a->context_width > 64 ||
        a->time_width > 64 || a->encoder_mode_width > 8)
        return RVT_ERR_INVAL;
    if (a->bpred_size > 16 || a->cache_size > 16 || a->return_stack_size > 12 ||
        a->call_counter_size > 32 || a->f0s_width > 2)
        return RVT_ERR_INVAL;
    /* 6.8.1: with both format 0 subformats in use the field is needed. */
    if ((a->options & RVT_TE_OPT_BRANCH_PRED) && (a->options & RVT_TE_OPT_JTC) && a->f0s_width == 0)
        return RVT_ERR_INVAL;
    /* Table 9.1: 2^size entries, at least 2, so size 1 is the smallest
     * predictor or cache and 0 means none is implemented: the mode cannot
     * be in use without one. */
    if ((a->options & RVT_TE_OPT_BRANCH_PRED) && a->bpred_size == 0)
        return RVT_ERR_INVAL;
    if ((a->options & RVT_TE_OPT_JTC) && a->cache_size == 0)
        return RVT_ERR_INVAL;
    if (a->resync_max > 40 || a->resync_mode > 3)
        return RVT_ERR_INVAL;
    return 0;
}

int rvt_te_attrs_filled(const rvt_te_attrs *a, rvt_te_attrs *out)
{
    *out = *a;
    rvt_te_attrs_fill(out);
    return rvt_te_attrs_check(out);
}

/* Sidecar order (docs/format-te.md): version, the numeric attributes,
 * resync_mode, resync_interval, options. */
#define N_NUM (sizeof num_attrs / sizeof num_attrs[0])

const char *rvt_te_attrs_name(size_t i, const char **help)
{
    static const char *const tail[][2] = {
        { "resync_mode", "what resync_max counts: off, packets, cycles, halfwords" },
        { "resync_interval", "an explicit sync interval; overrides resync_max" },
        { "options", "modes in force: full-address, implicit-except, sijump, implicit-return, "
                     "branch-prediction, jump-target-cache, or none" },
    };
    const char *name = NULL, *h = NULL;
    if (i == 0) {
        name = "version";
        h = "packet layout: 1.1 (the 1.1.1 draft) or 2.0 (ratified)";
    } else if (i - 1 < N_NUM) {
        name = num_attrs[i - 1].name;
        h = num_attrs[i - 1].help;
    } else if (i - 1 - N_NUM < 3) {
        name = tail[i - 1 - N_NUM][0];
        h = tail[i - 1 - N_NUM][1];
    }
    if (help)
        *help = h;
    return name;
}

static void options_text(unsigned options, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < N_OPTS; i++)
        if (options & opt_names[i].bit)
            len += (size_t)snprintf(buf + len, len < n ? n - len : 0, "%s%s", len ? "," : "",
                                    opt_names[i].name);
    if (!len)
        snprintf(buf, n, "none");
}

int rvt_te_attrs_get(const rvt_te_attrs *a, const char *name, char *buf, size_t n)
{
    if (!a || !name || !buf || !n)
        return RVT_ERR_INVAL;
    if (!strcmp(name, "version"))
        snprintf(buf, n, "%s", a->version == RVT_TE_V20 ? "2.0" : "1.1");
    else if (!strcmp(name, "resync_mode"))
        snprintf(buf, n, "%s", resync_names[a->resync_mode & 3]);
    else if (!strcmp(name, "resync_interval"))
        snprintf(buf, n, "%" PRIu64, a->resync_interval);
    else if (!strcmp(name, "options"))
        options_text(a->options, buf, n);
    else {
        for (size_t i = 0; i < N_NUM; i++)
            if (!strcmp(name, num_attrs[i].name)) {
                snprintf(buf, n, "%u", *(const unsigned *)((const char *)a + num_attrs[i].off));
                return 0;
            }
        return RVT_ERR_INVAL;
    }
    return 0;
}

unsigned rvt_te_support_options(const rvt_te_attrs *a, unsigned options)
{
    unsigned keep = a->version == RVT_TE_V20 && a->sijump ? RVT_TE_OPT_SIJUMP : 0;
    return keep | (options & RVT_TE_OPT_ALL);
}
