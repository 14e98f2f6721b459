/* decode --elf FILE[@KEY] (repeatable): several program images, each in
 * every address space or in one (include/rvtrace/mem.h; issue 15's
 * "--elf init@ctx=N").  The one place the CLI turns image options into an
 * rvt_mem. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_image.h"

struct cli_mem {
    rvt_mem *mem;
    rvt_image **keyed;       /* images of FILE@KEY, owned */
    size_t n;
};

/* priv=: the letter or the encoding of E-Trace's privilege field and
 * N-Trace's Ownership PRV (0 U, 1 S, 3 M). */
static bool parse_priv(const char *v, uint32_t *out)
{
    static const char *const names[] = { "U", "S", NULL, "M" };
    uint64_t n;
    for (uint32_t i = 0; i < 4; i++)
        if (names[i] && (!strcmp(v, names[i]) || (v[0] == names[i][0] + 32 && !v[1]))) {
            *out = i;
            return true;
        }
    if (!cli_parse_u64(v, &n) || n > 3)
        return false;
    *out = (uint32_t)n;
    return true;
}

/* KEY: ctx=N,priv=P,src=N in any order, each at most once. */
static bool parse_key(const char *s, rvt_space *k)
{
    *k = rvt_space_any();
    char buf[256];
    if (strlen(s) >= sizeof buf || !*s)
        return false;
    strcpy(buf, s);
    for (char *f = buf, *next; f; f = next) {
        if ((next = strchr(f, ',')))
            *next++ = 0;            /* an empty field is an error, not skipped */
        char *eq = strchr(f, '=');
        uint64_t n;
        if (!eq)
            return false;
        *eq++ = 0;
        if (!strcmp(f, "ctx") && k->context == RVT_SPACE_ANY_CONTEXT && cli_parse_u64(eq, &n) &&
            n != RVT_SPACE_ANY_CONTEXT)
            k->context = n;
        else if (!strcmp(f, "priv") && k->priv == RVT_SPACE_ANY_PRIV && parse_priv(eq, &k->priv))
            continue;
        else if (!strcmp(f, "src") && k->source == RVT_SPACE_ANY_SOURCE && cli_parse_u64(eq, &n) &&
                 n <= 4095)
            k->source = (uint32_t)n;     /* N-Trace SRC: at most 12 bits (table 8) */
        else
            return false;
    }
    return true;
}

/* One --elf value: FILE, or FILE@KEY when what follows the last '@' is a
 * key (has '='), so a path with '@' in it still loads. */
static int add_one(cli_mem *cm, rvt_image *img, const char *spec, bool *usage)
{
    char path[4096];
    const char *at = strrchr(spec, '@');
    if (!at || !strchr(at, '='))
        return cli_in(spec) && rvt_image_load_elf(img, spec) >= 0 ? 0 : -1;
    rvt_space key;
    if ((size_t)(at - spec) >= sizeof path || !parse_key(at + 1, &key)) {
        cli_err("--elf %s: want FILE@KEY, KEY = ctx=N,priv=U|S|M|0-3,src=N (each optional)", spec);
        *usage = true;
        return -1;
    }
    memcpy(path, spec, (size_t)(at - spec));
    path[at - spec] = 0;
    rvt_image *k = rvt_image_new();
    rvt_image **v = realloc(cm->keyed, (cm->n + 1) * sizeof *v);
    if (!k || !v) {
        rvt_image_free(k);
        if (v)
            cm->keyed = v;
        return -1;
    }
    cm->keyed = v;
    cm->keyed[cm->n++] = k;
    rvt_image_set_diag(k, cli_diag, (void *)spec);
    if (!cli_in(path) || rvt_image_load_elf(k, path) < 0)
        return -1;
    return rvt_mem_add_image(cm->mem, &key, k);
}

cli_mem *cli_image_load(rvt_image *img, int argc, char **argv, bool *usage)
{
    *usage = false;
    cli_mem *cm = calloc(1, sizeof *cm);
    int rc = cm && (cm->mem = rvt_mem_new()) ? 0 : -1;
    /* img first: the keyed images, more specific, win where they overlap */
    if (rc == 0)
        rc = rvt_mem_add_image(cm->mem, NULL, img);
    const char *v;
    for (int i = 1; i < argc && rc == 0; i++)
        if ((v = cli_opt(argc, argv, &i, "--elf")))
            rc = add_one(cm, img, v, usage);
    if (rc < 0) {
        cli_image_free(cm);
        return NULL;
    }
    return cm;
}

bool cli_image_keyed(const cli_mem *cm)
{
    return cm->n > 0;
}

rvt_mem *cli_image_mem(cli_mem *cm)
{
    return cm->mem;
}

void cli_image_free(cli_mem *cm)
{
    if (!cm)
        return;
    rvt_mem_free(cm->mem);
    for (size_t i = 0; i < cm->n; i++)
        rvt_image_free(cm->keyed[i]);
    free(cm->keyed);
    free(cm);
}
