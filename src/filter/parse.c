/* The text form of the filter configuration (docs/filter.md): what the
 * CLI's --comparator, --filter and --trace-on/-off/-notify options take. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter/filter_int.h"

typedef struct flt_parse {
    rvt_filter_sym_fn lookup;
    void *lookup_ctx;
    char *err;
    size_t errlen;
} flt_parse;

static int perr(const flt_parse *p, const char *fmt, ...)
{
    if (p->err && p->errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->errlen, fmt, ap);
        va_end(ap);
    }
    return RVT_ERR_INVAL;
}

static bool parse_num(const char *s, uint64_t *v)
{
    if (!isdigit((unsigned char)*s))
        return false;     /* strict: no sign, no spaces */
    char *end;
    errno = 0;
    *v = strtoull(s, &end, 0);
    return !errno && !*end;
}

/* NUMBER, SYMBOL, SYMBOL+NUMBER or SYMBOL-NUMBER. */
static int parse_value(const flt_parse *p, const char *s, uint64_t *v)
{
    if (parse_num(s, v))
        return 0;
    char name[256];
    size_t n = strcspn(s, "+-");
    if (!p->lookup || n == 0 || n >= sizeof name)
        return perr(p, "'%s' is not a number%s", s, p->lookup ? " or symbol" : "");
    memcpy(name, s, n);
    name[n] = 0;
    uint64_t off = 0;
    if (s[n] && !parse_num(s + n + 1, &off))
        return perr(p, "'%s': bad offset after the symbol", s);
    if (!p->lookup(p->lookup_ctx, name, v))
        return perr(p, "no symbol '%s' in the program", name);
    *v = s[n] == '-' ? *v - off : *v + off;
    return 0;
}

static int lookup_name(const char *const *names, unsigned n, const char *s, size_t len)
{
    for (unsigned i = 0; i < n; i++) {
        if (names[i] && strlen(names[i]) == len && !strncmp(names[i], s, len))
            return (int)i;
    }
    return -1;
}

static const char *const input_names[] = { "iaddr", "context", "tval", "daddr" };
static const char *const func_names[] = { "eq", "ne", "lt", "le", "gt", "ge", "mask", "always" };
static const char *const mode_names[] = { "p", "and", "nand", "latch" };

/* "INPUT:FUNC:VALUE" (VALUE absent for always). */
static int parse_compare(const flt_parse *p, const char *s, uint8_t *input, uint8_t *func,
                         uint64_t *match)
{
    const char *c1 = strchr(s, ':');
    int in = c1 ? lookup_name(input_names, 4, s, (size_t)(c1 - s)) : -1;
    if (in < 0)
        return perr(p, "'%s': expected INPUT:FUNC:VALUE, INPUT one of iaddr, context, tval, daddr", s);
    const char *f = c1 + 1, *c2 = strchr(f, ':');
    int fn = lookup_name(func_names, 8, f, c2 ? (size_t)(c2 - f) : strlen(f));
    if (fn < 0)
        return perr(p, "'%s': FUNC must be eq, ne, lt, le, gt, ge, mask or always", s);
    *input = (uint8_t)in;
    *func = (uint8_t)fn;
    *match = 0;
    if (fn == RVT_FILTER_ALWAYS)
        return c2 ? perr(p, "'%s': 'always' takes no value", s) : 0;
    if (!c2)
        return perr(p, "'%s': missing the value (INPUT:FUNC:VALUE)", s);
    return parse_value(p, c2 + 1, match);
}

/* "N:" prefix: the unit number, below max. */
static int parse_index(const flt_parse *p, const char **s, unsigned max, const char *what)
{
    char *end;
    unsigned long n = strtoul(*s, &end, 10);
    if (end == *s || *end != ':' || n >= max)
        return perr(p, "'%s': expected N:FIELDS with %s N from 0 to %u", *s, what, max - 1);
    *s = end + 1;
    return (int)n;
}

/* Store the unit at dst (inside cfg) only if the result passes the check. */
static int commit_checked(rvt_filter_cfg *cfg, const void *unit, size_t size, void *dst,
                          char *err, size_t errlen)
{
    rvt_filter_cfg trial = *cfg;
    memcpy((char *)&trial + ((char *)dst - (char *)cfg), unit, size);
    int st = rvt_filter_cfg_check(&trial, err, errlen);
    if (st == 0)
        *cfg = trial;
    return st;
}

static int cmp_field(const flt_parse *p, void *unit, const char *key, size_t klen,
                     const char *val)
{
    rvt_filter_cmp *c = unit;
    if (klen == 1 && (*key == 'p' || *key == 's')) {
        if (!val)
            return perr(p, "'%c' needs =INPUT:FUNC:VALUE", *key);
        if (*key == 'p')
            return parse_compare(p, val, &c->p_input, &c->p_function, &c->p_match);
        return parse_compare(p, val, &c->s_input, &c->s_function, &c->s_match);
    }
    if (klen == 4 && !strncmp(key, "mode", 4)) {
        int m = val ? lookup_name(mode_names, 4, val, strlen(val)) : -1;
        if (m < 0)
            return perr(p, "mode must be p, and, nand or latch");
        c->match_mode = (uint8_t)m;
        return 0;
    }
    if (klen == 6 && !strncmp(key, "notify", 6) && val && strspn(val, "ps") == strlen(val) && *val) {
        c->p_notify = strchr(val, 'p') != NULL;
        c->s_notify = strchr(val, 's') != NULL;
        return 0;
    }
    return perr(p, "unknown comparator field '%.*s' (p=, s=, mode=, notify=p|s|ps)", (int)klen, key);
}

typedef int (*field_fn)(const flt_parse *p, void *unit, const char *key, size_t klen,
                        const char *val);

/* Split "k=v,k,k=v" and hand each field to fn. */
static int for_fields(const flt_parse *p, const char *s, void *unit, field_fn fn)
{
    char buf[512];
    if (strlen(s) >= sizeof buf)
        return perr(p, "specification too long");
    strcpy(buf, s);
    for (char *f = buf, *next; f; f = next) {
        next = strchr(f, ',');
        if (next)
            *next++ = 0;
        if (!*f)
            return perr(p, "empty field in '%s'", s);
        char *eq = strchr(f, '=');
        size_t klen = eq ? (size_t)(eq - f) : strlen(f);
        int st = fn(p, unit, f, klen, eq ? eq + 1 : NULL);
        if (st < 0)
            return st;
    }
    return 0;
}

int rvt_filter_parse_cmp(rvt_filter_cfg *cfg, const char *text, rvt_filter_sym_fn lookup,
                         void *lookup_ctx, char *err, size_t errlen)
{
    flt_parse p = { lookup, lookup_ctx, err, errlen };
    int n = parse_index(&p, &text, RVT_FILTER_COMPARATORS, "comparator");
    if (n < 0)
        return n;
    rvt_filter_cmp c = { 0 };
    int st = for_fields(&p, text, &c, cmp_field);
    if (st < 0)
        return st;
    return commit_checked(cfg, &c, sizeof c, &cfg->cmp[n], err, errlen);
}

/* ---- filters ---- */

static const char *const priv_names[] = { "u", "s", NULL, "m", "d" };
static const char *const dtype_names[] = {
    "load", "store", NULL, NULL, "csr-rw", "csr-rs", "csr-rc", NULL,
    "amo-swap", "amo-add", "amo-and", "amo-or", "amo-xor", "amo-max", "amo-min",
};

/* "A+B+C": each a name from names or a number below max, into a bit set.
 * For dsize the numbers are byte counts (bit log2(bytes)). */
static int parse_set(const flt_parse *p, const char *val, const char *const *names, unsigned nnames,
                     unsigned max, bool bytes, uint64_t *set)
{
    if (!val || !*val)
        return perr(p, "a list is missing (A+B+...)");
    *set = 0;
    for (const char *s = val; *s; ) {
        size_t len = strcspn(s, "+");
        int i = names ? lookup_name(names, nnames, s, len) : -1;
        if (i < 0) {
            char tok[32];
            uint64_t v;
            snprintf(tok, sizeof tok, "%.*s", (int)(len < 31 ? len : 31), s);
            if (!parse_num(tok, &v))
                return perr(p, "'%s' in '%s' is not a known name or a number", tok, val);
            if (bytes) {
                if (v == 0 || (v & (v - 1)))
                    return perr(p, "dsize %s is not a power of two", tok);
                v = (uint64_t)__builtin_ctzll(v);
            }
            if (v >= max)
                return perr(p, "'%s' in '%s' is out of range (< %u)", tok, val, max);
            i = (int)v;
        }
        *set |= 1ull << i;
        s += len;
        if (*s == '+' && !*++s)
            return perr(p, "'%s' ends with '+'", val);
    }
    return 0;
}

static int impdef_field(const flt_parse *p, rvt_filter_ctl *c, const char *val)
{
    const char *slash = val ? strchr(val, '/') : NULL;
    char v[64];
    if (!slash || (size_t)(slash - val) >= sizeof v)
        return perr(p, "impdef needs VALUE/MASK");
    snprintf(v, sizeof v, "%.*s", (int)(slash - val), val);
    if (!parse_num(v, &c->value_impdef) || !parse_num(slash + 1, &c->mask_impdef))
        return perr(p, "impdef=%s: VALUE and MASK must be numbers", val);
    c->match_impdef = true;
    return 0;
}

typedef struct flt_unit {
    rvt_filter_ctl c;
    bool inst, data;
    unsigned ncomp;
} flt_unit;

static bool key_is(const char *key, size_t klen, const char *name)
{
    return strlen(name) == klen && !strncmp(key, name, klen);
}

static int filter_field(const flt_parse *p, void *unit, const char *key, size_t klen, const char *val)
{
    flt_unit *u = unit;
    rvt_filter_ctl *c = &u->c;
    uint64_t set;
    int st;
    if (key_is(key, klen, "inst") || key_is(key, klen, "data")) {
        *(*key == 'i' ? &u->inst : &u->data) = true;
        return val ? perr(p, "'%.*s' takes no value", (int)klen, key) : 0;
    }
    if (key_is(key, klen, "exception") || key_is(key, klen, "interrupt")) {
        c->match_interrupt = true;
        c->value_interrupt = *key == 'i';   /* table 2.5: 1 matches itype 2 */
        return val ? perr(p, "'%.*s' takes no value", (int)klen, key) : 0;
    }
    if (key_is(key, klen, "comp")) {
        uint64_t k;
        if (u->ncomp == 3)
            return perr(p, "a filter uses at most 3 comparators (table 2.4)");
        if (!val || !parse_num(val, &k) || k >= RVT_FILTER_COMPARATORS)
            return perr(p, "comp=K needs a comparator number 0-%u", RVT_FILTER_COMPARATORS - 1);
        c->match_comp[u->ncomp] = true;
        c->comp[u->ncomp++] = (uint8_t)k;
        return 0;
    }
    if (key_is(key, klen, "impdef"))
        return impdef_field(p, c, val);
    if (key_is(key, klen, "priv")) {
        st = parse_set(p, val, priv_names, 5, 8, false, &set);
        c->match_privilege = true;
        c->choice_privilege = (uint8_t)set;
    } else if (key_is(key, klen, "ecause")) {
        st = parse_set(p, val, NULL, 0, 32, false, &set);
        c->match_ecause = true;
        c->choice_ecause = (uint32_t)set;
    } else if (key_is(key, klen, "dtype")) {
        st = parse_set(p, val, dtype_names, 15, 16, false, &set);
        c->match_dtype = true;
        c->choice_dtype = (uint16_t)set;
    } else if (key_is(key, klen, "dsize")) {
        st = parse_set(p, val, NULL, 0, 8, true, &set);
        c->match_dsize = true;
        c->choice_dsize = (uint8_t)set;
    } else {
        return perr(p, "unknown filter field '%.*s' (comp=, priv=, ecause=, exception, interrupt, "
                    "impdef=, dtype=, dsize=, inst, data)", (int)klen, key);
    }
    return st;
}

int rvt_filter_parse_filter(rvt_filter_cfg *cfg, const char *text, char *err, size_t errlen)
{
    flt_parse p = { NULL, NULL, err, errlen };
    int n = parse_index(&p, &text, RVT_FILTER_FILTERS, "filter");
    if (n < 0)
        return n;
    flt_unit u = { .c = { .enable = true } };
    int st = for_fields(&p, text, &u, filter_field);
    if (st < 0)
        return st;
    if (!u.inst && !u.data)
        u.inst = true;          /* a filter qualifies instruction trace unless told */
    int rc = commit_checked(cfg, &u.c, sizeof u.c, &cfg->filt[n], err, errlen);
    if (rc == 0 && u.inst)
        cfg->ifilters |= (uint16_t)(1u << n);
    if (rc == 0 && u.data)
        cfg->dfilters |= (uint16_t)(1u << n);
    return rc;
}

/* ---- triggers ---- */

int rvt_filter_add_trigger(rvt_filter_cfg *cfg, unsigned action, const char *text,
                           rvt_filter_sym_fn lookup, void *lookup_ctx, char *err, size_t errlen)
{
    flt_parse p = { lookup, lookup_ctx, err, errlen };
    if (cfg->ntrig >= RVT_FILTER_TRIGGERS)
        return perr(&p, "at most %u triggers", RVT_FILTER_TRIGGERS);
    if (action < RVT_FILTER_TRACE_ON || action > RVT_FILTER_TRACE_NOTIFY)
        return perr(&p, "trigger action must be 2, 3 or 4 (table 4.7)");
    uint64_t addr;
    int st = parse_value(&p, text, &addr);
    if (st < 0)
        return st;
    cfg->trig[cfg->ntrig].action = (uint8_t)action;
    cfg->trig[cfg->ntrig++].addr = addr;
    return 0;
}
