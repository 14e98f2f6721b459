/* pgo: the workload of the AutoFDO loop (programs/pgo.sh, docs/coverage.md
 * "The PGO loop"): built with clang-19, traced on the rvtrace hart, its
 * branch samples turned into a sample profile by llvm-profgen, rebuilt
 * with -fprofile-sample-use.  A hash round too big for clang's -O2 inline
 * threshold is called from one hot loop and from two places run once: with
 * the profile the hot call site is inlined (and the cold ones stay calls),
 * which saves the call, the spills and the return per element. */
#include "rt.h"

#define N 512
#define PASSES 10

static uint32_t data[N];

static uint32_t rotl(uint32_t x, unsigned r)
{
    return (x << r) | (x >> (32 - r));
}

#define ROUNDS(h, k) \
    k *= 0x85ebca77u; k = rotl(k, 13); k *= 0xc2b2ae3du; \
    h ^= k; h = rotl(h, 17) * 0x27d4eb2fu + 0x165667b1u; \
    k ^= h >> 15; k *= 0x2c1b3c6du; k = rotl(k, 11); \
    h ^= k; h = rotl(h, 19) * 0x9e3779b1u + 0x7f4a7c15u

/* Unrolled rounds of a mixing function (murmur/xxhash-like constants). */
static uint32_t mix(uint32_t h, uint32_t k)
{
    ROUNDS(h, k);
    ROUNDS(h, k);
    ROUNDS(h, k);
    k *= 0x85ebca77u; k = rotl(k, 13); k *= 0xc2b2ae3du;
    h ^= k; h = rotl(h, 17) * 0x27d4eb2fu + 0x165667b1u;
    k ^= h >> 15; k *= 0x2c1b3c6du; k = rotl(k, 11);
    h ^= k; h = rotl(h, 19) * 0x9e3779b1u + 0x7f4a7c15u;
    k ^= h >> 13; k *= 0x297a2d39u; k = rotl(k, 7);
    h ^= k; h = rotl(h, 5) * 0x85ebca6bu + 0xe6546b64u;
    k ^= h >> 16; k *= 0xcc9e2d51u; k = rotl(k, 15);
    h ^= k; h = rotl(h, 13) * 0x1b873593u + 0x38b34ae5u;
    if (h == 0)
        h = 1;                      /* never 0: a rare branch */
    return h;
}

static uint32_t hot_loop(void)
{
    uint32_t h = 0;
    for (unsigned p = 0; p < PASSES; p++)
        for (unsigned i = 0; i < N; i++)
            h = mix(h, data[i] + p);
    return h;
}

int main(void)
{
    uint32_t seed = mix(1, 2);          /* cold call site 1 */
    for (unsigned i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        data[i] = seed;
    }
    uint32_t h = hot_loop();
    uint32_t check = mix(h, 3);         /* cold call site 2 */
    return rt_report("pgo", check, 0);
}
