/* Creating an output file by name (create.h). */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/create.h"

int rvt_file_create(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        return -1;
    struct stat st;
    /* devices and FIFOs are written as they are, as O_TRUNC leaves them */
    bool keep = fstat(fd, &st) == 0 && (!S_ISREG(st.st_mode) || st.st_size == 0);
    if (keep || ftruncate(fd, 0) == 0)
        return fd;
    int e = errno;
    close(fd);
    errno = e;
    return -1;
}
