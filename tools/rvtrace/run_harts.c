/* rvtrace run --harts N --quantum Q: options and per-hart output names
 * (run_harts.h, docs/hart.md "Several harts"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run_harts.h"

int run_harts_option(int argc, char **argv, int *i, run_harts *rh)
{
    const char *v;
    if ((v = cli_opt(argc, argv, i, "--harts")))
        return cli_parse_range("--harts", v, CLI_NUM_PLAIN, 1, RVT_SMP_MAX_HARTS, &rh->n) ? 1 : -1;
    if ((v = cli_opt(argc, argv, i, "--quantum")))
        return cli_parse_range("--quantum", v, CLI_NUM_COUNT, 1, UINT64_MAX, &rh->quantum) ? 1 : -1;
    return 0;
}

int run_harts_allows(const run_harts *rh, const char *what)
{
    if (rh->n <= 1 || !what)
        return CLI_OK;
    cli_err("run: %s does not go with --harts %llu (one hart only)", what, (unsigned long long)rh->n);
    return CLI_USAGE;
}

const char *run_harts_path(run_harts *rh, unsigned kind, unsigned i, const char *path)
{
    if (!path || rh->n <= 1 || !strcmp(path, "-"))
        return path;
    const char *slash = strrchr(path, '/'), *dot = strrchr(path, '.');
    size_t stem = dot && dot > (slash ? slash + 1 : path) ? (size_t)(dot - path) : strlen(path);
    size_t len = strlen(path) + 16;
    char *p = malloc(len);
    if (!p)
        return NULL;
    snprintf(p, len, "%.*s-hart%u%s", (int)stem, path, i, path + stem);
    free(rh->path[kind][i]);
    rh->path[kind][i] = p;
    return p;
}

void run_harts_free(run_harts *rh)
{
    for (unsigned k = 0; k < 2; k++)
        for (unsigned i = 0; i < RVT_SMP_MAX_HARTS; i++)
            free(rh->path[k][i]);
}
