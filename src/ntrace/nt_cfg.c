/* N-Trace settings: the chapter 4 controls as name=value pairs (the
 * OUT.nt.attrs sidecar, docs/format-nt.md). */
#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "rvtrace/ntrace.h"
#include "ntrace/nt_return.h"

typedef struct cfg_item {
    const char *name;
    size_t off;
    bool is_bool;
    unsigned min, max;
    const char *help;
} cfg_item;

#define U(n, f, lo, hi, h) { n, offsetof(rvt_nt_cfg, f), false, lo, hi, h }
#define B(n, f, h) { n, offsetof(rvt_nt_cfg, f), true, 0, 1, h }
static const cfg_item items[] = {
    U("trTeInstMode", inst_mode, 0, 7, "3 BTM (branch messages), 6 HTM (history, the default)"),
    B("trTeContext", context, "Ownership messages on context changes"),
    B("trTeInhibitSrc", inhibit_src, "no SRC field"),
    U("trTeSrcBits", src_bits, 0, 12, "SRC field width 0..12"),
    U("trTeSrcID", src_id, 0, 4095, "this encoder's SRC id"),
    U("trTeInstSyncMode", sync_mode, 0, 3, "periodic sync: 0 off, 1 messages, 2 cycles, 3 I-CNT"),
    U("trTeInstSyncMax", sync_max, 0, 15, "sync period 2^(N+4)"),
    B("trTeInstNoAddrDiff", no_addr_diff, "U-ADDR not XORed with the previous address"),
    B("trTeInstEnSequentialJump", seq_jump, "sequentially inferable jumps (9.1)"),
    U("trTeInstImplicitReturnMode", implicit_return, 0, 3, "implicit return 0..3 (9.2)"),
    B("trTeInstEnRepeatedHistory", repeat_history, "repeated history (9.3)"),
    B("trTeInstEnAllJumps", all_jumps, "every jump reported"),
    B("trTeInstExtendAddrMSB", extend_addr_msb, "address MSB extension (8.2)"),
    B("trTsEnable", timestamps, "timestamps (8.7)"),
    /* rvtrace extras (implementation parameters) */
    U("rvtReturnStackDepth", return_depth, 0, NT_RETURN_DEPTH_MAX, "implicit return: call-stack depth (0 = 32)"),
    U("rvtReturnAddrBits", return_bits, 0, 64, "implicit return mode 2: address bits kept (0 = 16)"),
    U("rvtRepeatKinds", repeat_kinds, 0, 7, "repeated history kinds: 1 RepeatBranch, 2 ResourceFull of HIST windows, 4 of patterns (0 = 5)"),
    U("rvtIcntBits", icnt_bits, 0, 64, "I-CNT width (0 = 22)"),
    U("rvtHistBits", hist_bits, 0, 32, "HIST width with its stop bit (0 = 32)"),
    U("rvtItypeBits", itype_bits, 0, 4, "ingress itype width 3 or 4 (0 = 4)"),
    U("rvtXlen", xlen, 0, 64, "address width 32 or 64 (0 = 64)"),
    U("rvtPortBytes", port_bytes, 0, 8, "probe port: bytes per word 1, 2, 4, 8 (0 = 1)"),
    B("rvtStartDisabled", start_disabled, "trace starts disabled until a start trigger"),
};
#undef U
#undef B
#define NITEMS (sizeof items / sizeof items[0])

void rvt_nt_cfg_default(rvt_nt_cfg *c)
{
    memset(c, 0, sizeof *c);
    c->size = sizeof *c;
    rvt_nt_cfg_check(c);
}

unsigned rvt_nt_cfg_src_bits(const rvt_nt_cfg *c)
{
    return c->inhibit_src ? 0 : c->src_bits;
}

static bool pow2(unsigned v) { return v && !(v & (v - 1)); }

int rvt_nt_cfg_check(rvt_nt_cfg *c)
{
    if (c->size && c->size != sizeof *c)
        return RVT_ERR_VERSION;     /* built against another layout */
    if (!c->inst_mode) c->inst_mode = RVT_NT_MODE_HTM;
    if (!c->return_depth)                           /* 9.2: the largest depth, */
        c->return_depth = NT_RETURN_DEPTH_MAX;      /* fewest explicit returns */
    if (!c->return_bits) c->return_bits = 16;
    if (!c->repeat_kinds) c->repeat_kinds = 5;     /* RepeatBranch + pattern runs */
    if (!c->icnt_bits) c->icnt_bits = 22;
    if (!c->hist_bits) c->hist_bits = 32;
    if (!c->itype_bits) c->itype_bits = 4;
    if (!c->xlen) c->xlen = 64;
    if (!c->port_bytes) c->port_bytes = 1;
    if (c->inst_mode != RVT_NT_MODE_BTM && c->inst_mode != RVT_NT_MODE_HTM)
        return RVT_ERR_INVAL;       /* 4: trTeInstMode 3 or 6 */
    if (c->xlen != 32 && c->xlen != 64)
        return RVT_ERR_INVAL;
    if (c->return_depth > NT_RETURN_DEPTH_MAX || c->implicit_return > 3)
        return RVT_ERR_INVAL;       /* 9.2: never deeper than 32 */
    if (c->icnt_bits < 4 || c->icnt_bits > 62 || c->hist_bits < 3 || c->hist_bits > 32)
        return RVT_ERR_INVAL;
    if ((c->itype_bits != 3 && c->itype_bits != 4) || !pow2(c->port_bytes) || c->port_bytes > 8)
        return RVT_ERR_INVAL;
    if (c->src_bits > 12 || c->src_id >= (1u << c->src_bits) + (c->src_bits ? 0u : 1u))
        return RVT_ERR_INVAL;
    /* 9.2 needs the 4-bit itype to see calls and returns */
    if (c->implicit_return && c->itype_bits == 3)
        return RVT_ERR_INVAL;
    if (c->no_trap_addr)
        return RVT_ERR_INVAL;       /* table 7: hard-coded 0 */
    return 0;
}

int rvt_nt_cfg_assign_src(rvt_nt_cfg *c, unsigned harts)
{
    if (!c)
        return RVT_ERR_INVAL;
    if (harts < 2)
        return 0;
    if (!c->src_bits)
        while (c->src_bits < 12 && (1u << c->src_bits) < harts)
            c->src_bits++;
    if (c->inhibit_src || c->src_id + harts > (1u << c->src_bits))
        return RVT_ERR_RANGE;
    return 0;
}

static const cfg_item *find(const char *name)
{
    for (size_t i = 0; i < NITEMS; i++)
        if (!strcmp(items[i].name, name))
            return &items[i];
    return NULL;
}

int rvt_nt_cfg_set(rvt_nt_cfg *c, const char *name, const char *value)
{
    if (!c || !name || !value)
        return RVT_ERR_INVAL;
    /* Fixed identification controls of ch. 4: accepted when they match. */
    if (!strcmp(name, "trTeFormat"))
        return strcmp(value, "1") ? RVT_ERR_VERSION : 0;
    if (!strcmp(name, "trTeProtocolMajor"))
        return strcmp(value, "1") ? RVT_ERR_VERSION : 0;
    /* Table 7: trTeInstNoTrapAddr "must be hard-coded as 0" in N-Trace:
     * trap addresses are always sent, so 1 cannot be honoured. */
    if (!strcmp(name, "trTeInstNoTrapAddr"))
        return value && !strcmp(value, "0") ? 0 : RVT_ERR_INVAL;
    if (!strcmp(name, "trTeProtocolMinor") || !strcmp(name, "trTeInstEnImplicitReturn"))
        return 0;   /* minor: down-compatible; the enable bit follows the mode */
    const cfg_item *it = find(name);
    if (!it || !value || !isdigit((unsigned char)*value))
        return RVT_ERR_INVAL;     /* strict: no sign, no spaces */
    char *end;
    unsigned long v = strtoul(value, &end, 0);
    if (*end || v < it->min || v > it->max)
        return RVT_ERR_INVAL;
    char *p = (char *)c + it->off;
    if (it->is_bool)
        *(bool *)p = v != 0;
    else
        *(unsigned *)p = (unsigned)v;
    return 0;
}

/* The fixed identification controls of ch. 4 the sidecar states first
 * (docs/format-nt.md), then every item. */
static const char *const fixed_names[] = { "trTeFormat", "trTeProtocolMajor", "trTeProtocolMinor",
                                           "trTeInstEnImplicitReturn", "trTeInstNoTrapAddr" };
#define NFIXED (sizeof fixed_names / sizeof fixed_names[0])

const char *rvt_nt_cfg_name(size_t i, const char **help)
{
    const char *name = NULL, *h = NULL;
    if (i < NFIXED) {
        name = fixed_names[i];
        h = "fixed identification control (ch. 4)";
    } else if (i - NFIXED < NITEMS) {
        name = items[i - NFIXED].name;
        h = items[i - NFIXED].help;
    }
    if (help)
        *help = h;
    return name;
}

int rvt_nt_cfg_get(const rvt_nt_cfg *c, const char *name, char *buf, size_t n)
{
    if (!c || !name || !buf || !n)
        return RVT_ERR_INVAL;
    unsigned v;
    const cfg_item *it = find(name);
    if (it) {
        const char *p = (const char *)c + it->off;
        v = it->is_bool ? *(const bool *)p : *(const unsigned *)p;
    } else if (!strcmp(name, "trTeFormat") || !strcmp(name, "trTeProtocolMajor"))
        v = 1;
    else if (!strcmp(name, "trTeProtocolMinor") || !strcmp(name, "trTeInstNoTrapAddr"))
        v = 0;
    else if (!strcmp(name, "trTeInstEnImplicitReturn"))
        v = c->implicit_return != 0;
    else
        return RVT_ERR_INVAL;
    snprintf(buf, n, "%u", v);
    return 0;
}

