/* Buffered CSV output shared by the ingress CSV writers (csv_out.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "ingress/csv_out.h"
#include "util/create.h"
#include "rvtrace/status.h"

/* A file of the writer's own, with a buffer of its own: glibc ignores
 * setvbuf's size when the buffer is NULL (it takes st_blksize, 4 KiB
 * writes), so the 64 KiB are given, and freed after fclose. */
static FILE *open_own(csv_out *o, const char *path)
{
    int fd = rvt_file_create(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        return NULL;
    }
    if (!(o->buf = malloc(CSV_OUT_BUF))) {
        fclose(f);
        return NULL;
    }
    setvbuf(f, o->buf, _IOFBF, CSV_OUT_BUF);
    return f;
}

bool csv_out_open(csv_out *o, const char *path, const char *header)
{
    *o = (csv_out){ .own = strcmp(path, "-") != 0 };
    /* stdout outlives the writer, so it keeps a buffer of its own (glibc's,
     * fully buffered) */
    o->f = o->own ? open_own(o, path) : stdout;
    if (!o->f)
        return false;
    if (!o->own)
        setvbuf(o->f, NULL, _IOFBF, 0);
    fputs(header, o->f);
    return true;
}

int csv_out_flush(csv_out *o, int *err)
{
    if (fflush(o->f) != 0 && *err == RVT_OK)
        *err = RVT_ERR_IO;
    return *err;
}

int csv_out_close(csv_out *o, int err)
{
    csv_out_flush(o, &err);
    if (o->own && fclose(o->f) != 0 && err == RVT_OK)
        err = RVT_ERR_IO;
    free(o->buf);           /* after fclose: the FILE wrote from it until then */
    *o = (csv_out){ 0 };
    return err;
}
