/* Safe opening of input files (see rvtrace/io.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "rvtrace/io.h"
#include "rvtrace/status.h"

int rvt_open_input(const char *path, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    if (!path || !*path) {
        *why = "no file name";
        return RVT_ERR_INVAL;
    }
    if (!strcmp(path, "-"))
        return 0;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return RVT_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
        close(fd);
        return RVT_ERR_IO;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

uint8_t *rvt_read_file(const char *path, size_t max_len, size_t *len, int *status, const char **why)
{
    const char *dummy;
    int st_dummy;
    if (!why)
        why = &dummy;
    if (!status)
        status = &st_dummy;
    if (!max_len)
        max_len = (size_t)1 << 30;
    int fd = rvt_open_input(path, why);
    if (fd < 0) {
        *status = fd;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    *status = RVT_OK;
    while (buf) {
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            *why = strerror(errno);
            *status = RVT_ERR_IO;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n < cap)
            continue;
        if (cap >= max_len) {
            *why = "file too large";
            *status = RVT_ERR_LIMIT;
            break;
        }
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb)
            break;
        buf = nb;
        cap *= 2;
    }
    if (fd > 0)
        close(fd);
    if (!buf || *status < 0) {
        if (!buf) {
            *why = "out of memory";
            *status = RVT_ERR_NOMEM;
        }
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}
