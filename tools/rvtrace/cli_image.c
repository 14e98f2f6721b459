/* decode --elf FILE[@KEY] and --image FILE@ADDR (repeatable): several
 * program images, each in every address space or in the one its key names
 * (include/rvtrace/mem.h; issue 15's "--elf init@ctx=N"), and the image
 * map run writes beside its traces (TRACE.images, docs/formats.md), which
 * says the same in the same spellings.  The one place the CLI turns image
 * options into an rvt_mem. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_image.h"

struct cli_mem {
    int argc;                /* the command line, whose images the map's give way to */
    char **argv;
    rvt_mem *mem;
    rvt_image **keyed;       /* images of FILE@KEY, owned */
    size_t n;
    bool reset_vector;       /* the map: Spike's boot ROM was there */
    /* every file loaded, keyed or not, in order (path, raw base or
     * UINT64_MAX for an ELF): replayed into view when some are keyed */
    char **paths;
    uint64_t *bases;
    size_t nloaded;
    rvt_image *view;         /* all of them in one image, for the outputs */
};

/* Note a file loaded (for the outputs' view); false when out of memory. */
static bool note_loaded(cli_mem *cm, const char *path, uint64_t base)
{
    char **p = realloc(cm->paths, (cm->nloaded + 1) * sizeof *p);
    if (p)
        cm->paths = p;
    uint64_t *b = realloc(cm->bases, (cm->nloaded + 1) * sizeof *b);
    if (b)
        cm->bases = b;
    if (!p || !b || !(p[cm->nloaded] = strdup(path)))
        return false;
    b[cm->nloaded++] = base;
    return true;
}

bool cli_is_elf(const char *path)
{
    unsigned char m[4] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(m, 1, 4, f);
    fclose(f);
    return n == 4 && !memcmp(m, "\177ELF", 4);
}

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
        return cli_in(spec) && rvt_image_load_elf(img, spec) >= 0 && note_loaded(cm, spec, UINT64_MAX)
                   ? 0 : -1;
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
    if (!cli_in(path) || rvt_image_load_elf(k, path) < 0 || !note_loaded(cm, path, UINT64_MAX))
        return -1;
    return rvt_mem_add_image(cm->mem, &key, k);
}

/* --image FILE@ADDR: *base, the '@' (NULL after printing why). */
static const char *raw_addr(const char *spec, uint64_t *base)
{
    const char *at = strrchr(spec, '@');
    if (!at || (size_t)(at - spec) >= 4096 || !cli_parse_u64(at + 1, base)) {
        cli_err("--image: want FILE@ADDRESS, got '%s'", spec);
        return NULL;
    }
    return at;
}

bool cli_image_addr_ok(const char *spec)
{
    uint64_t base;
    return raw_addr(spec, &base) != NULL;
}

/* One --image value: FILE@ADDR, a raw binary at ADDR (every space). */
static int add_raw(cli_mem *cm, rvt_image *img, const char *spec, bool *usage)
{
    char path[4096];
    uint64_t base;
    const char *at = raw_addr(spec, &base);
    if (!at) {
        *usage = true;
        return -1;
    }
    memcpy(path, spec, (size_t)(at - spec));
    path[at - spec] = 0;
    return cli_in(path) && rvt_image_load_raw(img, path, base) >= 0 && note_loaded(cm, path, base) ? 0 : -1;
}

/* A map line's FILE relative to the map's folder (run writes absolute
 * paths; a map moved with its files keeps working when they are beside it). */
static bool resolve(char *out, size_t n, const char *map, const char *spec)
{
    const char *slash = strrchr(map, '/');
    int w = spec[0] == '/' || !slash ? snprintf(out, n, "%s", spec)
                                     : snprintf(out, n, "%.*s/%s", (int)(slash - map), map, spec);
    return w >= 0 && (size_t)w < n;
}

/* The same file, by its real path (the map writes absolute ones). */
static bool same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/* The command line's next --elf (elf) or --image/--raw value from *i on. */
static const char *next_given(const cli_mem *cm, bool elf, int *i)
{
    const char *v;
    for (; *i < cm->argc; ++*i)
        if ((v = cli_opt(cm->argc, cm->argv, i, elf ? "--elf" : "--image")) ||
            (!elf && (v = cli_opt(cm->argc, cm->argv, i, "--raw"))))
            return v;
    return NULL;
}

/* A map entry the command line gives too (the same spec, FILE by its real
 * path): left to the command line, so a file is loaded once. */
static bool given_too(const cli_mem *cm, bool elf, const char *spec)
{
    size_t n = cli_image_spec_file_len(elf, spec);
    char file[4096], given[4096];
    snprintf(file, sizeof file, "%.*s", (int)n, spec);
    const char *v;
    for (int i = 1; (v = next_given(cm, elf, &i)); i++) {
        size_t m = cli_image_spec_file_len(elf, v);
        snprintf(given, sizeof given, "%.*s", (int)m, v);
        if (!strcmp(v + m, spec + n) && same_file(given, file))
            return true;
    }
    return false;
}

/* A map entry whose file is not there (a trace moved to another machine):
 * skipped with a warning when the command line gives images of its own,
 * which may stand in for it; an error otherwise. */
static bool missing_but_given(const cli_mem *cm, const char *map, bool elf, const char *spec)
{
    char file[4096];
    snprintf(file, sizeof file, "%.*s", (int)cli_image_spec_file_len(elf, spec), spec);
    int i = 1;
    if (access(file, R_OK) == 0 || (!next_given(cm, true, &i) && (i = 1, !next_given(cm, false, &i))))
        return false;
    char msg[4200];
    snprintf(msg, sizeof msg, "%s: not found; skipped (the command line gives images)", file);
    cli_diag((void *)map, RVT_DIAG_WARN, UINT64_MAX, msg);
    return true;
}

/* One line of the map: "elf SPEC", "image SPEC" (the options' values) or
 * "spike-reset-vector"; '#' comments and blank lines skipped. */
static int map_line(cli_mem *cm, rvt_image *img, const char *map, char *line, bool *usage)
{
    char spec[4096 + 64];
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0] || line[0] == '#')
        return 0;
    if (!strcmp(line, "spike-reset-vector")) {
        cm->reset_vector = true;
        return 0;
    }
    if (!strncmp(line, "elf ", 4) && line[4]) {
        if (!resolve(spec, sizeof spec, map, line + 4))
            return -2;
        return given_too(cm, true, spec) || missing_but_given(cm, map, true, spec) ? 0
                                                                                : add_one(cm, img, spec, usage);
    }
    if (!strncmp(line, "image ", 6) && line[6]) {
        if (!resolve(spec, sizeof spec, map, line + 6))
            return -2;
        return given_too(cm, false, spec) || missing_but_given(cm, map, false, spec)
                   ? 0 : add_raw(cm, img, spec, usage);
    }
    return -2;
}

/* TRACE.images, when there: its images first, so that options given on
 * the command line, added later, win where they overlap. */
static int load_map(cli_mem *cm, rvt_image *img, const char *trace)
{
    char map[4096], line[8192];
    cli_image_map_name(map, sizeof map, trace);
    FILE *f = fopen(map, "r");
    if (!f) {
        cli_err("%s: cannot open the image map", map);
        return -1;
    }
    int rc = 0;
    bool usage = false;
    for (long off = 0; rc == 0 && fgets(line, sizeof line, f); off = ftell(f)) {
        rc = map_line(cm, img, map, line, &usage);
        if (rc < 0) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s (docs/formats.md \"Image map\")",
                     rc == -2 || usage ? "bad image map line" : "an image it names does not load");
            cli_diag((void *)map, RVT_DIAG_ERROR, (uint64_t)off, msg);
        }
    }
    fclose(f);
    return rc < 0 ? -1 : 0;
}

/* With keyed images, the outputs (listings, symbols, instruction lengths)
 * need their code too: one image of every file, in load order (a later
 * one shadows an earlier one where they overlap: the outputs look code up
 * by address alone). */
static int build_view(cli_mem *cm)
{
    if (!(cm->view = rvt_image_new()))
        return -1;
    rvt_image_set_diag(cm->view, cli_diag, NULL);
    for (size_t i = 0; i < cm->nloaded; i++) {
        int st = cm->bases[i] == UINT64_MAX ? rvt_image_load_elf(cm->view, cm->paths[i])
                                            : rvt_image_load_raw(cm->view, cm->paths[i], cm->bases[i]);
        if (st < 0)
            return -1;
    }
    return 0;
}

cli_mem *cli_image_load(rvt_image *img, const char *trace, int argc, char **argv, bool *usage)
{
    *usage = false;
    cli_mem *cm = calloc(1, sizeof *cm);
    int rc = cm && (cm->mem = rvt_mem_new()) ? 0 : -1;
    if (cm)
        cm->argc = argc, cm->argv = argv;
    /* img first: the keyed images, more specific, win where they overlap */
    if (rc == 0)
        rc = rvt_mem_add_image(cm->mem, NULL, img);
    if (rc == 0 && trace && cli_image_map_exists(trace))
        rc = load_map(cm, img, trace);
    const char *v;
    for (int i = 1; i < argc && rc == 0; i++)
        if ((v = cli_opt(argc, argv, &i, "--elf")))
            rc = add_one(cm, img, v, usage);
        else if ((v = cli_opt(argc, argv, &i, "--image")) || (v = cli_opt(argc, argv, &i, "--raw")))
            rc = add_raw(cm, img, v, usage);
    if (rc == 0 && cm->n)
        rc = build_view(cm);
    if (rc < 0) {
        cli_image_free(cm);
        return NULL;
    }
    return cm;
}

rvt_image *cli_image_view(cli_mem *cm, rvt_image *img)
{
    return cm->view ? cm->view : img;
}

bool cli_image_reset_vector(const cli_mem *cm)
{
    return cm->reset_vector;
}

/* ---- the writing side: run ---- */

bool cli_image_spec_ok(const char *spec)
{
    const char *at = strrchr(spec, '@');
    rvt_space key;
    if (at && strchr(at, '=') && !parse_key(at + 1, &key)) {
        cli_err("--elf %s: want FILE@KEY, KEY = ctx=N,priv=U|S|M|0-3,src=N (each optional)", spec);
        return false;
    }
    return true;
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
    for (size_t i = 0; i < cm->nloaded; i++)
        free(cm->paths[i]);
    free(cm->paths);
    free(cm->bases);
    rvt_image_free(cm->view);
    free(cm);
}
