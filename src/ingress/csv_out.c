/* Buffered CSV output shared by the ingress CSV writers (csv_out.h). */
#include <string.h>
#include <unistd.h>
#include "ingress/csv_out.h"
#include "util/create.h"
#include "rvtrace/status.h"

FILE *csv_out_open(const char *path, const char *header, bool *own)
{
    *own = strcmp(path, "-") != 0;
    int fd = *own ? rvt_file_create(path) : -1;
    FILE *f = *own ? (fd >= 0 ? fdopen(fd, "w") : NULL) : stdout;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    setvbuf(f, NULL, _IOFBF, 1 << 16);
    fputs(header, f);
    return f;
}

int csv_out_flush(FILE *f, int *err)
{
    if (fflush(f) != 0 && *err == RVT_OK)
        *err = RVT_ERR_IO;
    return *err;
}

int csv_out_close(FILE *f, bool own, int err)
{
    csv_out_flush(f, &err);
    if (own && fclose(f) != 0 && err == RVT_OK)
        err = RVT_ERR_IO;
    return err;
}
