/* DWARF line tables and functions through libdw (dwarf_lines.h).  DWARF 5
 * 6.2 (line number information): each row's address range runs to the
 * next row's address; an end_sequence row closes a sequence. */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <elfutils/libdw.h>
#include <dwarf.h>
#include "util/grow.h"
#include "out/dwarf_lines.h"

typedef struct dw_load {
    rvt_dw_info *dw;
    const char *dir;            /* the ELF's directory */
    const char *last_raw;       /* libdw's string for the last file interned */
    const char *last;
} dw_load;

/* name, or dir/name when name is relative and that file exists. */
static char *resolve(const char *dir, const char *name)
{
    char buf[PATH_MAX], real[PATH_MAX];
    if (name[0] != '/' && (size_t)snprintf(buf, sizeof buf, "%s/%s", dir, name) < sizeof buf &&
        realpath(buf, real))
        return strdup(real);
    return strdup(name);
}

static const char *intern(dw_load *l, const char *raw)
{
    if (raw == l->last_raw)
        return l->last;
    rvt_dw_info *dw = l->dw;
    char *name = resolve(l->dir, raw);
    if (!name)
        return NULL;
    for (size_t i = 0; i < dw->nfiles; i++)
        if (!strcmp(dw->files[i], name)) {
            free(name);
            l->last_raw = raw;
            return l->last = dw->files[i];
        }
    char **f = rvt_grow(dw->files, &dw->files_cap, dw->nfiles + 1, sizeof *f, 16);
    if (!f) {
        free(name);
        return NULL;
    }
    dw->files = f;
    dw->files[dw->nfiles++] = name;
    l->last_raw = raw;
    return l->last = name;
}

static int add_row(rvt_dw_info *dw, const char *file, int line, uint64_t start, uint64_t end)
{
    if (line <= 0 || end <= start)
        return 0;           /* line 0: code of no line; empty rows have no code */
    rvt_dw_row *r = rvt_grow(dw->rows, &dw->rows_cap, dw->nrows + 1, sizeof *r, 256);
    if (!r)
        return -1;
    dw->rows = r;
    dw->rows[dw->nrows++] = (rvt_dw_row){ file, (uint32_t)line, start, end };
    return 0;
}

static int cu_lines(dw_load *l, Dwarf_Die *cu)
{
    Dwarf_Lines *lines;
    size_t n;
    if (dwarf_getsrclines(cu, &lines, &n) != 0)
        return 0;
    for (size_t i = 0; i + 1 < n; i++) {
        Dwarf_Line *a = dwarf_onesrcline(lines, i), *b = dwarf_onesrcline(lines, i + 1);
        Dwarf_Addr s, e;
        int line;
        bool end_seq = false;
        const char *src;
        if (!a || !b || dwarf_lineendsequence(a, &end_seq) || end_seq || dwarf_lineaddr(a, &s) ||
            dwarf_lineaddr(b, &e) || dwarf_lineno(a, &line) || !(src = dwarf_linesrc(a, NULL, NULL)))
            continue;
        const char *file = intern(l, src);
        if (!file || add_row(l->dw, file, line, s, e) < 0)
            return -1;
    }
    return 0;
}

static int add_func(dw_load *l, Dwarf_Die *die)
{
    Dwarf_Addr lo;
    int line = 0;
    const char *name = dwarf_diename(die), *src = dwarf_decl_file(die);
    if (!name || !src || dwarf_lowpc(die, &lo) != 0 || dwarf_decl_line(die, &line) != 0)
        return 0;           /* a declaration, or inlined only: no code of its own */
    rvt_dw_info *dw = l->dw;
    rvt_dw_func *f = rvt_grow(dw->funcs, &dw->funcs_cap, dw->nfuncs + 1, sizeof *f, 64);
    if (!f)
        return -1;
    dw->funcs = f;
    const char *file = intern(l, src);
    char *copy = strdup(name);
    if (!file || !copy) {
        free(copy);
        return -1;
    }
    dw->funcs[dw->nfuncs++] = (rvt_dw_func){ file, (uint32_t)line, lo, copy };
    return 0;
}

static int cu_funcs(dw_load *l, Dwarf_Die *cu)
{
    Dwarf_Die die;
    if (dwarf_child(cu, &die) != 0)
        return 0;
    do {
        if (dwarf_tag(&die) == DW_TAG_subprogram && add_func(l, &die) < 0)
            return -1;
    } while (dwarf_siblingof(&die, &die) == 0);
    return 0;
}

static int walk_cus(dw_load *l, Dwarf *d)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(d, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(d, off + hsize, &cu) && (cu_lines(l, &cu) < 0 || cu_funcs(l, &cu) < 0))
            return -1;
        off = next;
    }
    return 1;
}

int rvt_dw_load(rvt_dw_info *dw, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return 0;
    Dwarf *d = dwarf_begin(fd, DWARF_C_READ);
    int rc = 0;
    char *p = strdup(path);
    if (d && p) {
        dw_load l = { .dw = dw, .dir = dirname(p) };
        rc = walk_cus(&l, d);
    } else if (!p) {
        rc = -1;
    }
    if (d)
        dwarf_end(d);
    free(p);
    close(fd);
    return rc;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_row(const void *a, const void *b)
{
    const rvt_dw_row *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_func(const void *a, const void *b)
{
    const rvt_dw_func *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

void rvt_dw_sort(rvt_dw_info *dw)
{
    if (dw->nfiles)
        qsort(dw->files, dw->nfiles, sizeof *dw->files, cmp_name);
    if (dw->nrows)
        qsort(dw->rows, dw->nrows, sizeof *dw->rows, cmp_row);
    if (dw->nfuncs)
        qsort(dw->funcs, dw->nfuncs, sizeof *dw->funcs, cmp_func);
}

void rvt_dw_free(rvt_dw_info *dw)
{
    for (size_t i = 0; i < dw->nfiles; i++)
        free(dw->files[i]);
    for (size_t i = 0; i < dw->nfuncs; i++)
        free(dw->funcs[i].name);
    free(dw->files);
    free(dw->rows);
    free(dw->funcs);
    *dw = (rvt_dw_info){ 0 };
}
