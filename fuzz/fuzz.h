/* Shared helpers for rvtrace's libFuzzer targets (the files in fuzz/targets/).
 *
 * Each target is one translation unit that defines LLVMFuzzerInitialize()
 * and LLVMFuzzerTestOneInput().  The same source is built two ways:
 * - by fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined;
 * - by the normal gcc build as tests/unit/test_regress_<target>.c, which
 *   includes the target and fuzz/replay_main.h (a main() that replays every
 *   file of tests/regress/<target>/ through the same entry point).
 *
 * Everything here is static inline: a target includes it once. */
#ifndef RVT_FUZZ_H
#define RVT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "rvtrace/status.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property the library must keep on every input; a violation aborts so
 * that libFuzzer (and the replay driver) report it as a crash. */
#define RVT_FUZZ_ASSERT(cond) do { if (!(cond)) { \
    fprintf(stderr, "%s:%d: fuzz invariant violated: %s\n", __FILE__, __LINE__, #cond); \
    abort(); } } while (0)

/* Path of a file in the source tree: $RVT_SRC (set by CTest) or the root
 * compiled in by fuzz/CMakeLists.txt. */
static inline const char *rvt_fuzz_src(const char *rel, char *buf, size_t n)
{
    const char *root = getenv("RVT_SRC");
#ifdef RVT_FUZZ_SRC_ROOT
    if (!root || !*root)
        root = RVT_FUZZ_SRC_ROOT;
#endif
    if (!root || !*root)
        root = ".";
    snprintf(buf, n, "%s/%s", root, rel);
    return buf;
}

/* The input as a file the path-based APIs can open: an anonymous in-memory
 * file (memfd) reached through /proc/self/fd, rewritten for each input, so
 * that fuzzing touches no disk. */
static inline const char *rvt_fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("rvt-fuzz", 0);
        RVT_FUZZ_ASSERT(fd >= 0);
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    RVT_FUZZ_ASSERT(ftruncate(fd, 0) == 0);
    size_t done = 0;
    while (done < size) {
        ssize_t w = pwrite(fd, data + done, size - done, (off_t)done);
        RVT_FUZZ_ASSERT(w > 0);
        done += (size_t)w;
    }
    return path;
}

/* Diagnostics sink: a message must be a readable string and its offset
 * either "none" or inside the input (limit = input size; 0 = unchecked). */
typedef struct rvt_fuzz_diag_ctx {
    uint64_t limit;
    unsigned count;
} rvt_fuzz_diag_ctx;

static inline void rvt_fuzz_diag(void *ctx, int level, uint64_t offset, const char *msg)
{
    rvt_fuzz_diag_ctx *d = ctx;
    RVT_FUZZ_ASSERT(msg != NULL);
    RVT_FUZZ_ASSERT(strlen(msg) < 4096);
    RVT_FUZZ_ASSERT(level >= RVT_DIAG_INFO && level <= RVT_DIAG_ERROR);
    if (d) {
        d->count++;
        if (d->limit)
            RVT_FUZZ_ASSERT(offset == UINT64_MAX || offset <= d->limit);
    }
}

/* A library status must be 0/positive or one of enum rvt_status. */
static inline void rvt_fuzz_check_status(int st)
{
    RVT_FUZZ_ASSERT(st >= RVT_ERR_STATE);
    if (st < 0) {
        const char *s = rvt_status_str(st);
        RVT_FUZZ_ASSERT(s != NULL && *s);
    }
}

/* Little cursor over the input for targets that take parameters from the
 * input's first bytes. */
typedef struct rvt_fuzz_in {
    const uint8_t *p;
    size_t n;
} rvt_fuzz_in;

static inline uint8_t rvt_fuzz_u8(rvt_fuzz_in *in)
{
    if (!in->n)
        return 0;
    in->n--;
    return *in->p++;
}

#endif
