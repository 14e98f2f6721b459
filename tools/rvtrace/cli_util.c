/* Small helpers shared by the subcommands. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
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

bool cli_parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s)
        return false;
    uint64_t mul = 1;
    if (*end == 'k' || *end == 'K') mul = 1000ull, end++;
    else if (*end == 'M') mul = 1000000ull, end++;
    else if (*end == 'G') mul = 1000000000ull, end++;
    if (*end)
        return false;
    if (v > UINT64_MAX / mul)
        return false;
    *out = (uint64_t)v * mul;
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
        cli_err("option %s needs a value", name);
        return NULL;
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
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%" PRIu64, v);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0 && o + 2 < n)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

uint8_t *cli_slurp(const char *path, size_t *len)
{
    int st;
    const char *why = "";
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
