/* Trace input by mmap (trace_in.h): the decode path holds no copy of the
 * trace, whatever its size; pipes and special files are read as before. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "trace_in.h"

/* A regular file mapped read-only; false (nothing printed) when it is
 * not one, so the caller reads it instead. */
static bool map_file(trace_in *t, const char *path)
{
    static const uint8_t empty[1];
    /* O_NONBLOCK: opening a FIFO must not wait for a writer */
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat st;
    bool ok = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (ok && st.st_size == 0) {
        t->buf = empty;
        t->len = 0;
    } else if (ok) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        ok = m != MAP_FAILED;
        if (ok) {
            madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
            t->map = m;
            t->map_len = (size_t)st.st_size;
            t->buf = m;
            t->len = t->map_len;
        }
    }
    if (fd >= 0)
        close(fd);
    return ok;
}

bool trace_in_open(trace_in *t, const char *path, cli_kind k)
{
    *t = (trace_in){ 0 };
    if (map_file(t, path) && !cli_in(path)) {
        trace_in_close(t);
        return false;
    }
    if (!t->buf) {
        size_t len = 0;
        if (!(t->owned = cli_slurp(path, &len)))
            return false;
        t->buf = t->owned;
        t->len = len;
    }
    if (k != KIND_TE && k != KIND_NT)
        return true;
    size_t len = t->len;
    /* N-Trace keeps MSEO framing: only a sink's buffer is put in order */
    uint8_t *u = k == KIND_NT ? cli_container_sink_borrowed(path, "mseo", t->buf, &len)
                              : cli_container_unwrap_borrowed(path, t->buf, &len);
    if (!u) {
        trace_in_close(t);
        return false;
    }
    if (u != t->buf) {        /* unwrapped: the frames' payloads, in memory */
        free(t->owned);
        t->owned = u;
        t->buf = u;
        t->len = len;
        t->unwrapped = true;
    }
    return true;
}

void trace_in_close(trace_in *t)
{
    if (t->map)
        munmap(t->map, t->map_len);
    free(t->owned);
    *t = (trace_in){ 0 };
}

void trace_in_drop_pages(const uint8_t *buf, uint64_t from, uint64_t to)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)(buf + from) + page - 1) & ~(page - 1);
    uintptr_t b = (uintptr_t)(buf + to) & ~(page - 1);
    if (b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}
