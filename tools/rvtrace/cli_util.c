/* Small helpers shared by the subcommands. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "util/thousands.h"
#include "rvtrace/io.h"

void cli_err(const char *fmt, ...)
{
    va_list ap;
    fputs("rvtrace: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Digits only (decimal, or hex after 0x), no sign, no spaces; then an
 * optional suffix from `suffixes` (scale[k] for suffixes[k]); nothing after. */
static bool parse_scaled(const char *s, const char *suffixes, const uint64_t *scale, uint64_t *out)
{
    if (!s || !isdigit((unsigned char)s[0]))
        return false;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (hex && !isxdigit((unsigned char)s[2]))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, hex ? 16 : 10);
    if (errno)
        return false;
    uint64_t mul = 1;
    const char *k = *end && suffixes ? strchr(suffixes, *end) : NULL;
    if (k) {
        mul = scale[k - suffixes];
        end++;
    }
    if (*end || v > UINT64_MAX / mul)
        return false;
    *out = (uint64_t)v * mul;
    return true;
}

bool cli_parse_u64(const char *s, uint64_t *out)
{
    return parse_scaled(s, NULL, NULL, out);
}

bool cli_parse_count(const char *s, uint64_t *out)
{
    static const uint64_t dec[] = { 1000ull, 1000ull, 1000000ull, 1000000000ull };
    return parse_scaled(s, "kKMG", dec, out);
}

bool cli_parse_size(const char *s, uint64_t *out)
{
    static const uint64_t bin[] = { 1ull << 10, 1ull << 10, 1ull << 20, 1ull << 30 };
    return parse_scaled(s, "kKMG", bin, out);
}

/* A limit as the user would write it: sizes in whole K/M/G where they divide. */
static const char *num_text(uint64_t v, cli_num_kind kind, char *buf, size_t n)
{
    static const char sfx[] = "GMK";
    for (int k = 0; kind == CLI_NUM_SIZE && v && k < 3; k++) {
        unsigned shift = 30u - 10u * (unsigned)k;
        if (v % (1ull << shift) == 0) {
            snprintf(buf, n, "%" PRIu64 "%c", v >> shift, sfx[k]);
            return buf;
        }
    }
    return cli_thousands(v, buf, n);
}

bool cli_parse_range(const char *name, const char *v, cli_num_kind kind, uint64_t lo, uint64_t hi,
                     uint64_t *out)
{
    bool ok = kind == CLI_NUM_SIZE ? cli_parse_size(v, out)
            : kind == CLI_NUM_COUNT ? cli_parse_count(v, out) : cli_parse_u64(v, out);
    if (ok && *out >= lo && *out <= hi)
        return true;
    static const char *const what[] = { "a number", "a count (k/M/G = 10^3/10^6/10^9)",
                                        "a size in bytes (k/M/G = KiB/MiB/GiB)" };
    char a[32], b[32];
    if (hi == UINT64_MAX)
        cli_err("%s: expected %s of at least %s, got '%s'", name, what[kind], num_text(lo, kind, a, sizeof a), v);
    else
        cli_err("%s: expected %s from %s to %s, got '%s'", name, what[kind], num_text(lo, kind, a, sizeof a),
                num_text(hi, kind, b, sizeof b), v);
    return false;
}

bool cli_parse_ram_size(const char *name, const char *v, uint64_t *out)
{
    /* the hart's limits (src/hart/hart.c check_cfg; docs/hart.md) */
    if (!cli_parse_range(name, v, CLI_NUM_SIZE, 4096, 16ull << 30, out))
        return false;
    if (*out % 4096 == 0)
        return true;
    cli_err("%s: %s is not a multiple of the 4 KiB page", name, v);
    return false;
}

static const rvt_out_writer *cli_extra;     /* cli_extra_writer */

void cli_extra_writer(const rvt_out_writer *w)
{
    cli_extra = w;
}

/* "--NAME" of a registered writer (out.h) or the command's own
 * (cli_extra_writer); "pcs" is --pcs FILE, not stdout, and so are the file
 * writers (cli_file_out.c). */
static const rvt_out_writer *stdout_writer_opt(const char *arg)
{
    if (strncmp(arg, "--", 2) || !strcmp(arg + 2, "pcs"))
        return NULL;
    if (cli_extra && !strcmp(arg + 2, cli_extra->name))
        return cli_extra;
    const rvt_out_writer *w = rvt_out_find(arg + 2);
    return w && !w->file_option ? w : NULL;
}

/* "--listing, --json, --folded": every stdout writer, in registry order. */
static void stdout_writer_names(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    const rvt_out_writer *w;
    for (size_t i = 0; (w = rvt_out_writer_at(i)) != NULL && k < n; i++)
        if (strcmp(w->name, "pcs") && !w->file_option)
            k += (size_t)snprintf(buf + k, n - k, "%s--%s", k ? ", " : "", w->name);
}

bool cli_stdout_writer(const char *arg, const rvt_out_writer **w, int *given)
{
    const rvt_out_writer *opt = stdout_writer_opt(arg);
    if (!opt)
        return false;
    if (*given && *w != opt) {
        char names[128];
        stdout_writer_names(names, sizeof names);
        cli_err("decode: one of %s goes to stdout, not two", names);
        (*given)++;
    } else if (!*given) {
        *given = 1;
    }
    *w = opt;
    return true;
}

const char *cli_opt(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != '\0')
        return NULL;
    if (*i + 1 >= argc) {
        /* One error, not a second "unknown option" from the caller. */
        cli_err("option %s needs a value", name);
        cli_out_abort();
        exit(CLI_USAGE);
    }
    return argv[++*i];
}

bool cli_has_suffix(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

const char *cli_thousands(uint64_t v, char *buf, size_t n)
{
    return rvt_thousands(v, buf, n);
}

uint8_t *cli_slurp(const char *path, size_t *len)
{
    int st;
    const char *why = "";
    if (!cli_in(path))
        return NULL;
    uint8_t *buf = rvt_read_file(path, 0, len, &st, &why);
    if (!buf)
        cli_err("%s: cannot read: %s", path, why);
    return buf;
}

bool cli_parse_isa(const char *isa, unsigned *xlen, bool *no_c, bool *no_fp)
{
    static const struct { const char *name; bool no_c, no_fp; } isas[] = {
        { "imafdc", false, false }, { "gc", false, false }, { "imafd", true, false },
        { "g", true, false }, { "imac", false, true }, { "ima", true, true },
    };
    unsigned x = !strncmp(isa, "rv64", 4) ? 64 : !strncmp(isa, "rv32", 4) ? 32 : 0;
    for (size_t i = 0; x && i < sizeof isas / sizeof isas[0]; i++) {
        if (!strcmp(isa + 4, isas[i].name)) {
            *xlen = x;
            *no_c = isas[i].no_c;
            *no_fp = isas[i].no_fp;
            return true;
        }
    }
    return false;
}
