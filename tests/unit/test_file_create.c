/* rvt_file_create (src/util/create.c): the output opener of the .rvi and
 * CSV writers.  A file with bytes is emptied; an empty one is opened as
 * it is, for truncating it would make ext4 write the whole output back
 * when it is closed (auto_da_alloc).  Whether the open truncated is seen
 * in the modification time: open(2) with O_TRUNC and ftruncate(2) set it
 * even when the size does not change, so an empty file whose time is put
 * a day back keeps that time only if it was left alone. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tharness.h"
#include "util/create.h"

static time_t day_back(const char *path)
{
    struct stat st;
    stat(path, &st);
    struct timespec t[2] = { { st.st_mtime - 86400, 0 }, { st.st_mtime - 86400, 0 } };
    utimensat(AT_FDCWD, path, t, 0);
    return st.st_mtime - 86400;
}

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

int main(void)
{
    char dir[] = "/tmp/rvt-create-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[64];
    snprintf(path, sizeof path, "%s/out", dir);
    struct stat st;

    /* missing: made, 0666 less the umask (as fopen makes files) */
    mode_t mask = umask(022);
    int fd = rvt_file_create(path);
    CHECK(fd >= 0);
    CHECK(fstat(fd, &st) == 0 && (st.st_mode & 0777) == 0644);
    CHECK(write(fd, "ab", 2) == 2);
    close(fd);
    umask(mask);

    /* with bytes: emptied, written from the start */
    put(path, "old contents");
    fd = rvt_file_create(path);
    CHECK(fd >= 0 && fstat(fd, &st) == 0 && st.st_size == 0);
    CHECK(write(fd, "new", 3) == 3);
    close(fd);
    CHECK(stat(path, &st) == 0 && st.st_size == 3);

    /* empty: not truncated again (its time stays a day back) */
    put(path, "");
    time_t back = day_back(path);
    fd = rvt_file_create(path);
    CHECK(fd >= 0 && fstat(fd, &st) == 0);
    CHECK_EQ(st.st_mtime, back);
    close(fd);

    /* a device is written as it is */
    fd = rvt_file_create("/dev/null");
    CHECK(fd >= 0 && write(fd, "x", 1) == 1);
    close(fd);

    /* a directory, or a missing directory: -1 */
    CHECK(rvt_file_create(dir) < 0);
    snprintf(path, sizeof path, "%s/none/out", dir);
    CHECK(rvt_file_create(path) < 0);

    snprintf(path, sizeof path, "%s/out", dir);
    unlink(path);
    rmdir(dir);
    return TH_DONE();
}
