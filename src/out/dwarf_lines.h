/* What the lcov writer needs from DWARF (libdw): the line table as
 * address ranges per source line, and the functions (DW_TAG_subprogram)
 * with their entry address and declaration line. */
#ifndef RVT_OUT_DWARF_LINES_H
#define RVT_OUT_DWARF_LINES_H

#include <stddef.h>
#include <stdint.h>

/* One line-table row's code: [start, end) belongs to file:line. */
typedef struct rvt_dw_row {
    const char *file;       /* interned: one pointer per name */
    uint32_t line;
    uint64_t start, end;
} rvt_dw_row;

typedef struct rvt_dw_func {
    const char *file;       /* interned */
    uint32_t line;
    uint64_t entry;
    char *name;
} rvt_dw_func;

typedef struct rvt_dw_info {
    char **files;           /* the interned names, sorted by rvt_dw_sort */
    size_t nfiles, files_cap;
    rvt_dw_row *rows;
    size_t nrows, rows_cap;
    rvt_dw_func *funcs;
    size_t nfuncs, funcs_cap;
} rvt_dw_info;

/* Add the line tables and functions of ELF file path.  A relative source
 * name (DW_AT_comp_dir "." from -ffile-prefix-map) is resolved against the
 * ELF's directory when the file is there.  Returns 1 when the file had
 * DWARF, 0 when not (or it is no ELF), -1 when out of memory. */
int rvt_dw_load(rvt_dw_info *dw, const char *path);
/* Sort files by name, rows by (file, line, start), funcs by (file, line). */
void rvt_dw_sort(rvt_dw_info *dw);
void rvt_dw_free(rvt_dw_info *dw);

#endif
