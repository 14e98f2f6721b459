/* rvtrace dump --summary: packets/messages counted and sized per kind, to
 * see where a trace's bandwidth goes (the bench's bits per instruction,
 * broken down). */
#include <string.h>
#include "cli.h"
#include "dump_summary.h"

void dump_summary_add(dump_summary *s, const char *kind, uint64_t bytes)
{
    size_t i = 0;
    while (i < s->n && strcmp(s->k[i].name, kind))
        i++;
    if (i == s->n) {
        if (s->n == DUMP_SUMMARY_KINDS)
            i--;                        /* cannot happen: fewer kinds than slots */
        else
            s->k[s->n++] = (dump_kind){ kind, 0, 0 };
    }
    s->k[i].count++;
    s->k[i].bytes += bytes;
}

static int by_bytes(const void *a, const void *b)
{
    const dump_kind *x = a, *y = b;
    return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : strcmp(x->name, y->name);
}

void dump_summary_print(dump_summary *s, uint64_t file_bytes, const char *unit)
{
    qsort(s->k, s->n, sizeof s->k[0], by_bytes);
    uint64_t count = 0, bytes = 0;
    for (size_t i = 0; i < s->n; i++) {
        count += s->k[i].count;
        bytes += s->k[i].bytes;
    }
    char c[32], b[32];
    printf("%-22s %12s %12s %7s %8s\n", "kind", unit, "bytes", "share", "average");
    for (size_t i = 0; i < s->n; i++) {
        const dump_kind *k = &s->k[i];
        printf("%-22s %12s %12s %6.1f%% %8.1f\n", k->name, cli_thousands(k->count, c, sizeof c),
               cli_thousands(k->bytes, b, sizeof b),
               bytes ? 100.0 * (double)k->bytes / (double)bytes : 0.0,
               (double)k->bytes / (double)k->count);
    }
    printf("%-22s %12s %12s %6.1f%% %8.1f\n", "total", cli_thousands(count, c, sizeof c),
           cli_thousands(bytes, b, sizeof b), bytes ? 100.0 : 0.0,
           count ? (double)bytes / (double)count : 0.0);
    if (file_bytes > bytes)
        printf("%-22s %12s %12s\n", "(idle, damaged)", "", cli_thousands(file_bytes - bytes, b, sizeof b));
}
