/* A tiny unit-test harness (after libipt's ptunit): CHECK* record a failure
 * with file:line and keep going; TH_DONE() prints "N passed, N failed" and
 * yields the exit status. */
#ifndef RVT_THARNESS_H
#define RVT_THARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int th_passed, th_failed;

/* xorshift64 (Marsaglia, shifts 13, 7, 17): the same pseudo-random cases
 * on every run, from the seed *s (not 0). */
static inline uint64_t th_xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* RVT_TEST_QUICK set and not 0 (the sanitizer builds' tests,
 * tests/CMakeLists.txt): a test that drives one code path through many
 * like cases runs fewer of them, each path still crossed
 * (docs/architecture.md "Tests"). */
static inline int th_quick(void)
{
    const char *q = getenv("RVT_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

#define TH_FAIL(...) do { th_failed++; fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } while (0)

#define CHECK(cond) do { if (cond) th_passed++; else TH_FAIL("%s", #cond); } while (0)

#define CHECK_EQ(a, b) do { uint64_t th_a = (uint64_t)(a), th_b = (uint64_t)(b); \
    if (th_a == th_b) th_passed++; else \
    TH_FAIL("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, th_a, th_b); } while (0)

#define CHECK_STR(a, b) do { const char *th_a = (a), *th_b = (b); \
    if (th_a && th_b && strcmp(th_a, th_b) == 0) th_passed++; else \
    TH_FAIL("%s == %s: \"%s\" != \"%s\"", #a, #b, th_a ? th_a : "(null)", th_b ? th_b : "(null)"); } while (0)

#define CHECK_MEM(a, b, n) do { if (memcmp((a), (b), (n)) == 0) th_passed++; else \
    TH_FAIL("%s == %s (%zu bytes)", #a, #b, (size_t)(n)); } while (0)

/* text (a string) holds want. */
#define CHECK_HAS(text, want) do { const char *th_t = (text), *th_w = (want); \
    if (strstr(th_t, th_w)) th_passed++; else TH_FAIL("missing %s in:\n%s", th_w, th_t); } while (0)
#define TH_DONE() (printf("%d passed, %d failed\n", th_passed, th_failed), th_failed ? 1 : 0)

#endif
