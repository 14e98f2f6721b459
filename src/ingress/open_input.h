/* Opening a named input file for the ingress readers: regular files only.
 * A FIFO with no writer would block open() forever and a directory reads
 * as an error deep in the parser: both are refused up front.  O_NONBLOCK
 * keeps the open itself from waiting; it does not change how a regular
 * file reads.  Internal header. */
#ifndef RVT_INGRESS_OPEN_INPUT_H
#define RVT_INGRESS_OPEN_INPUT_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Returns the fd, or -1 with *why set to the reason. */
static inline int ingress_open_input(const char *path, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
        close(fd);
        return -1;
    }
    return fd;
}

#endif
