/* main() of a regression test: replays every file of tests/regress/<name>/
 * (or the files and directories given as arguments) through the target's
 * LLVMFuzzerTestOneInput, compiled WITHOUT libFuzzer (the normal gcc build,
 * and the ASan build of `make asan`).  A crash, sanitizer report or invariant
 * violation fails the test; SIGALRM after RVT_REPLAY_SECONDS per input
 * catches hangs.  Include after the target source, with RVT_FUZZ_NAME set.
 * Files named *.open reproduce a reported bug that is not fixed yet: they
 * are listed, not replayed (rename them when the fix lands; see
 * docs/reliability.md). */
#ifndef RVT_REPLAY_MAIN_H
#define RVT_REPLAY_MAIN_H

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>

#ifndef RVT_REPLAY_SECONDS
#define RVT_REPLAY_SECONDS 20
#endif

static int rvt_replay_one(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf)
        return 1;
    /* An exact-size copy, so that ASan sees any read past the input. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, buf, n);
    free(buf);
    alarm(RVT_REPLAY_SECONDS);
    LLVMFuzzerTestOneInput(exact, n);
    alarm(0);
    free(exact);
    return 0;
}

static int rvt_replay_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replay a file, or every regular file of a directory in name order. */
static int rvt_replay_path(const char *path, unsigned *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: %s: no such file or directory\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return rvt_replay_one(path);
    }
    DIR *d = opendir(path);
    if (!d)
        return 1;
    char **names = NULL;
    size_t nn = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char **nv = realloc(names, (nn + 1) * sizeof *names);
        if (!nv)
            break;
        names = nv;
        names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, rvt_replay_cmp);
    int fails = 0;
    for (size_t i = 0; i < nn; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        size_t len = strlen(names[i]);
        if (len > 5 && strcmp(names[i] + len - 5, ".open") == 0) {
            fprintf(stderr, "replay: %s: open bug, not replayed\n", full);
        } else if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) {
            fprintf(stderr, "replay: %s\n", full);
            (*count)++;
            fails += rvt_replay_one(full);
        }
        free(names[i]);
    }
    free(names);
    return fails;
}

int main(int argc, char **argv)
{
    int fails = 0;
    unsigned count = 0;
    signal(SIGALRM, SIG_DFL);
    LLVMFuzzerInitialize(&argc, &argv);
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            fails += rvt_replay_path(argv[i], &count);
    } else {
        char dir[4096];
        fails += rvt_replay_path(rvt_fuzz_src("tests/regress/" RVT_FUZZ_NAME, dir, sizeof dir),
                                 &count);
    }
    printf("%s: %u inputs replayed, %d unreadable\n", RVT_FUZZ_NAME, count, fails);
    return fails ? 1 : 0;
}

#endif
