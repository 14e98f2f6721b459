/* The one reader and writer of "name=value" settings files (util/kv.h). */
#include <string.h>
#include "util/kv.h"

/* One line, its end of line already cut: 0 when set or skipped. */
static int kv_line(char *s, rvt_kv_set_fn set, void *obj)
{
    s += strspn(s, " \t");
    if (!*s || *s == '#')
        return 0;
    char *eq = strchr(s, '=');
    if (!eq || eq == s)
        return RVT_ERR_INVAL;
    *eq = 0;
    int st = set(obj, s, eq + 1);
    *eq = '=';
    return st < 0 ? st : 0;
}

int rvt_kv_read(FILE *f, rvt_kv_set_fn set, void *obj, rvt_diag_fn diag, void *diag_ctx,
                unsigned *bad_line)
{
    char line[256];
    unsigned ln = 0;
    int first = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        line[strcspn(line, "\r\n")] = 0;
        int st = kv_line(line, set, obj);
        if (st == 0)
            continue;
        if (diag) {
            char msg[320];
            snprintf(msg, sizeof msg, "line %u: bad setting '%s'", ln, line + strspn(line, " \t"));
            diag(diag_ctx, RVT_DIAG_ERROR, UINT64_MAX, msg);
        }
        if (!first) {
            first = st;
            if (bad_line)
                *bad_line = ln;
        }
    }
    if (ferror(f))
        return RVT_ERR_IO;
    return first;
}

int rvt_kv_write(FILE *f, const char *header, rvt_kv_name_fn name_at, rvt_kv_get_fn get,
                 const void *obj)
{
    char v[256];
    fprintf(f, "# %s\n", header);
    const char *name;
    for (size_t i = 0; (name = name_at(obj, i)); i++) {
        int st = get(obj, name, v, sizeof v);
        if (st < 0)
            return st;
        fprintf(f, "%s=%s\n", name, v);
    }
    return ferror(f) ? RVT_ERR_IO : 0;
}
