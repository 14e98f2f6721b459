/* The image map (docs/formats.md "Image map"): its name beside a trace,
 * and the writing side, run's: what the hart loaded and what it was told
 * of code it does not load, in the spellings of decode's options
 * (cli_image.c reads it). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cli_image.h"

void cli_image_map_name(char *buf, size_t n, const char *trace)
{
    snprintf(buf, n, "%s.images", trace);
}

bool cli_image_map_exists(const char *trace)
{
    char m[4096];
    if (!trace)
        return false;
    cli_image_map_name(m, sizeof m, trace);
    return access(m, F_OK) == 0;
}

/* The length of a spec's FILE: before "@KEY" (--elf) or "@ADDR" (--image). */
size_t cli_image_spec_file_len(bool elf, const char *spec)
{
    const char *at = strrchr(spec, '@');
    return at && (!elf || strchr(at, '=')) ? (size_t)(at - spec) : strlen(spec);
}

/* FILE of a spec as an absolute path, the "@..." tail kept. */
static void put_spec(FILE *f, const char *kind, const char *path, const char *tail)
{
    char abs[PATH_MAX];
    fprintf(f, "%s %s%s\n", kind, realpath(path, abs) ? abs : path, tail);
}

/* run --elf FILE[@KEY] or --image FILE@ADDR: "KIND /abs/FILE@...". */
static void put_given(FILE *f, const char *kind, const char *spec)
{
    char path[4096];
    size_t n = cli_image_spec_file_len(!strcmp(kind, "elf"), spec);
    snprintf(path, sizeof path, "%.*s", (int)n, spec);
    put_spec(f, kind, path, spec + n);
}

int cli_image_map_write(const char *trace, const rvt_image *img, const cli_map_extra *extra,
                        bool reset_vector)
{
    char map[4096];
    cli_image_map_name(map, sizeof map, trace);
    FILE *f = cli_out_fopen(map, "w");
    if (!f)
        return CLI_FAIL;
    fprintf(f, "# rvtrace image map (docs/formats.md \"Image map\"): what the hart loaded\n");
    for (size_t i = 0; i < rvt_image_segment_count(img); i++) {
        const rvt_segment *s = rvt_image_segment(img, i);
        size_t k = 0;
        while (k < i && strcmp(rvt_image_segment(img, k)->name, s->name))
            k++;
        if (k < i)
            continue;           /* the file's first region stands for it */
        char at[32];
        snprintf(at, sizeof at, "@0x%llx", (unsigned long long)s->vaddr);
        bool elf = cli_is_elf(s->name);
        put_spec(f, elf ? "elf" : "image", s->name, elf ? "" : at);
    }
    if (reset_vector)
        fprintf(f, "spike-reset-vector\n");
    for (size_t i = 0; i < extra->n; i++)     /* code the hart did not load */
        put_given(f, extra->kind[i], extra->spec[i]);
    if (fclose(f) != 0) {
        cli_err("%s: cannot write", map);
        return CLI_FAIL;
    }
    return CLI_OK;
}
