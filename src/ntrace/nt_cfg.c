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
} cfg_item;

#define U(n, f, lo, hi) { n, offsetof(rvt_nt_cfg, f), false, lo, hi }
#define B(n, f) { n, offsetof(rvt_nt_cfg, f), true, 0, 1 }
static const cfg_item items[] = {
    U("trTeInstMode", inst_mode, 0, 7),
    B("trTeContext", context),
    B("trTeInhibitSrc", inhibit_src),
    U("trTeSrcBits", src_bits, 0, 12),
    U("trTeSrcID", src_id, 0, 4095),
    U("trTeInstSyncMode", sync_mode, 0, 3),
    U("trTeInstSyncMax", sync_max, 0, 15),
    B("trTeInstNoAddrDiff", no_addr_diff),
    B("trTeInstEnSequentialJump", seq_jump),
    U("trTeInstImplicitReturnMode", implicit_return, 0, 3),
    B("trTeInstEnRepeatedHistory", repeat_history),
    B("trTeInstEnAllJumps", all_jumps),
    B("trTeInstExtendAddrMSB", extend_addr_msb),
    B("trTsEnable", timestamps),
    /* rvtrace extras (implementation parameters) */
    U("rvtReturnStackDepth", return_depth, 0, NT_RETURN_DEPTH_MAX),
    U("rvtReturnAddrBits", return_bits, 0, 64),
    U("rvtRepeatKinds", repeat_kinds, 0, 7),
    U("rvtIcntBits", icnt_bits, 0, 64),
    U("rvtHistBits", hist_bits, 0, 32),
    U("rvtItypeBits", itype_bits, 0, 4),
    U("rvtXlen", xlen, 0, 64),
    U("rvtPortBytes", port_bytes, 0, 8),
    B("rvtStartDisabled", start_disabled),
};
#undef U
#undef B
#define NITEMS (sizeof items / sizeof items[0])

void rvt_nt_cfg_default(rvt_nt_cfg *c)
{
    memset(c, 0, sizeof *c);
    rvt_nt_cfg_check(c);
}

unsigned rvt_nt_cfg_src_bits(const rvt_nt_cfg *c)
{
    return c->inhibit_src ? 0 : c->src_bits;
}

static bool pow2(unsigned v) { return v && !(v & (v - 1)); }

int rvt_nt_cfg_check(rvt_nt_cfg *c)
{
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

static const cfg_item *find(const char *name)
{
    for (size_t i = 0; i < NITEMS; i++)
        if (!strcmp(items[i].name, name))
            return &items[i];
    return NULL;
}

int rvt_nt_cfg_set(rvt_nt_cfg *c, const char *name, const char *value)
{
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

int rvt_nt_cfg_write(const rvt_nt_cfg *c, FILE *f)
{
    fprintf(f, "# rvtrace N-Trace encoder settings (docs/format-nt.md)\n"
               "trTeFormat=1\ntrTeProtocolMajor=1\ntrTeProtocolMinor=0\n"
               "trTeInstEnImplicitReturn=%d\ntrTeInstNoTrapAddr=0\n", c->implicit_return != 0);
    for (size_t i = 0; i < NITEMS; i++) {
        const char *p = (const char *)c + items[i].off;
        unsigned v = items[i].is_bool ? *(const bool *)p : *(const unsigned *)p;
        fprintf(f, "%s=%u\n", items[i].name, v);
    }
    return ferror(f) ? RVT_ERR_IO : 0;
}

int rvt_nt_cfg_read(rvt_nt_cfg *c, FILE *f, rvt_diag_fn diag, void *diag_ctx)
{
    char line[256];
    uint64_t lineno = 0;
    int st = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        char *s = line + strspn(line, " \t");
        if (!*s || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        int r = RVT_ERR_INVAL;
        if (eq) {
            *eq = 0;
            r = rvt_nt_cfg_set(c, s, eq + 1);
        }
        if (r < 0) {
            if (diag) {
                char msg[320];
                snprintf(msg, sizeof msg, "line %llu: bad setting '%s'",
                         (unsigned long long)lineno, s);
                diag(diag_ctx, RVT_DIAG_ERROR, UINT64_MAX, msg);
            }
            st = r;
        }
    }
    if (st == 0)
        st = rvt_nt_cfg_check(c);
    return st;
}
