/* Output-file safety (issue #13 item 2): no output may be an input or
 * another output of the same command, and an output appears only when
 * the command succeeds.
 *
 * Every input is registered (cli_in), every output claimed (cli_out_claim
 * or cli_out_fopen).  Files are told apart by device and inode when they
 * exist, else by their canonical name (the real directory and the base
 * name), so two spellings of one new file are one file.  A claimed output
 * is written under a temporary name in its own directory and renamed into
 * place by cli_out_commit(); main() removes what is left uncommitted when
 * the command fails.  Outputs that are not regular files (/dev/null, a
 * FIFO, a terminal) and "-" (stdout) are written directly. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

#define CLI_MAX_FILES 64

typedef struct cli_file {
    char *path;          /* as given */
    char *canon;         /* real directory + base name */
    char *tmp;           /* output written here until committed; NULL: direct */
    int fd;              /* tmp, open for writing until handed on; -1: closed */
    dev_t dev;
    ino_t ino;
    bool exists, output;
} cli_file;

static cli_file files[CLI_MAX_FILES];
static size_t nfiles;

/* realpath() of the directory, then the base name: the file need not exist. */
static char *canonical(const char *path)
{
    char *a = strdup(path), *b = strdup(path), *res = NULL;
    char dir[PATH_MAX];
    if (a && b && realpath(dirname(a), dir)) {
        const char *base = basename(b);
        size_t n = strlen(dir) + strlen(base) + 2;
        if ((res = malloc(n)))
            snprintf(res, n, "%s/%s", dir, base);
    }
    free(a);
    free(b);
    return res ? res : strdup(path);
}

static bool same_file(const cli_file *x, const cli_file *y)
{
    if (x->exists && y->exists)
        return x->dev == y->dev && x->ino == y->ino;
    return !strcmp(x->canon, y->canon);
}

/* Regular files are registered; others (devices, FIFOs) are used directly. */
static bool is_special(const char *path)
{
    struct stat st;
    return !strcmp(path, "-") || (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

/* Describe path, refuse it if it clashes with a registered file (an
 * output with anything, an input with an output); then keep it. */
static cli_file *add(const char *path, bool output)
{
    cli_file f = { .output = output, .fd = -1 };
    struct stat st;
    if (stat(path, &st) == 0) {
        f.exists = true;
        f.dev = st.st_dev;
        f.ino = st.st_ino;
    }
    f.canon = canonical(path);
    for (size_t i = 0; i < nfiles; i++) {
        if ((output || files[i].output) && same_file(&f, &files[i])) {
            cli_err("%s: is also %s '%s' of this command; refusing to overwrite it", path,
                    files[i].output ? "the output" : "the input", files[i].path);
            free(f.canon);
            return NULL;
        }
    }
    if (nfiles == CLI_MAX_FILES) {
        cli_err("%s: too many files for one command", path);
        free(f.canon);
        return NULL;
    }
    f.path = strdup(path);
    files[nfiles] = f;
    return &files[nfiles++];
}

bool cli_in(const char *path)
{
    if (!path || is_special(path))
        return true;
    struct stat st;
    if (stat(path, &st) != 0)
        return true;         /* the reader reports a missing file */
    return add(path, false) != NULL;
}

/* An empty file beside the output, with the permissions a new file gets,
 * left open in *fd: the writer takes that descriptor, for reopening the
 * file with O_TRUNC would make ext4 write all of it back when it is
 * closed (auto_da_alloc treats a truncated file's close as a replacement
 * to make durable: about 1.5 s for a 1.9 GB PC list, decode's own CPU
 * time being 1.4 s). */
static char *make_tmp(const char *path, int *fd)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return NULL;
    snprintf(tmp, n, "%s.rvt-XXXXXX", path);
    *fd = mkstemp(tmp);
    if (*fd < 0) {
        cli_err("%s: cannot create: %s", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(*fd, 0666 & ~mask) != 0) {
        cli_err("%s: cannot create: %s", tmp, strerror(errno));
        close(*fd);
        unlink(tmp);
        free(tmp);
        return NULL;
    }
    return tmp;
}

/* The temporary file's descriptor closed, if it is still ours. */
static void drop_fd(cli_file *f)
{
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
}

/* The claimed output's record (its temporary file open in fd), or NULL
 * for a path written directly. */
static cli_file *claim(const char *path, bool *failed)
{
    *failed = false;
    if (is_special(path))
        return NULL;
    /* A symbolic link is written through: the file it names is replaced,
     * not the link. */
    struct stat st;
    char real[PATH_MAX];
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && realpath(path, real))
        path = real;
    cli_file *f = add(path, true);
    if (f && !(f->tmp = make_tmp(path, &f->fd))) {
        free(f->path);
        free(f->canon);
        nfiles--;
        f = NULL;
    }
    *failed = !f;
    return f;
}

const char *cli_out_claim(const char *path)
{
    bool failed;
    cli_file *f = claim(path, &failed);
    if (!f)
        return failed ? NULL : path;
    /* the caller opens the name: the library's openers truncate only a
     * file that has bytes (rvt_file_create) */
    drop_fd(f);
    return f->tmp;
}

FILE *cli_out_fopen(const char *path, const char *mode)
{
    if (!strcmp(path, "-"))
        return stdout;
    bool failed;
    cli_file *c = claim(path, &failed);
    if (failed)
        return NULL;
    FILE *f = c ? fdopen(c->fd, mode) : fopen(path, mode);
    if (!f)
        cli_err("%s: cannot create: %s", path, strerror(errno));
    if (c && f)
        c->fd = -1;          /* the FILE owns it now */
    return f;
}

int cli_out_commit(void)
{
    int rc = CLI_OK;
    for (size_t i = 0; i < nfiles; i++) {
        cli_file *f = &files[i];
        if (!f->tmp)
            continue;
        drop_fd(f);
        if (rename(f->tmp, f->path) != 0) {
            cli_err("%s: cannot rename %s into place: %s", f->path, f->tmp, strerror(errno));
            unlink(f->tmp);
            rc = CLI_FAIL;
        }
        free(f->tmp);
        f->tmp = NULL;
    }
    return rc;
}

void cli_out_abort(void)
{
    for (size_t i = 0; i < nfiles; i++) {
        drop_fd(&files[i]);
        if (files[i].tmp) {
            unlink(files[i].tmp);
            free(files[i].tmp);
            files[i].tmp = NULL;
        }
    }
}
