/* sort: loops and branches.  Three sorts (insertion, shell, quicksort with
 * an explicit stack) over the same 300 pseudo-random words; each result
 * must be ordered, a permutation of the input (sum and xor), equal to the
 * others, and match the position-weighted hash computed off-target. */
#include "rt.h"

#define N 300
/* sum((i+1) * sorted[i]) for seed 1, computed with Python from the same
 * LCG (x = x*1103515245 + 12345 mod 2^32, value = x >> 8) */
#define WANT_HASH 0x764fc9c501ull

static uint32_t input[N], a[N], b[N], c[N];

static void fill(uint32_t seed)
{
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        input[i] = seed >> 8;
    }
}

static void copy(uint32_t *dst)
{
    for (int i = 0; i < N; i++)
        dst[i] = input[i];
}

static void insertion_sort(uint32_t *v, int n)
{
    for (int i = 1; i < n; i++) {
        uint32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static void shell_sort(uint32_t *v, int n)
{
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int i = gap; i < n; i++) {
            uint32_t x = v[i];
            int j = i;
            for (; j >= gap && v[j - gap] > x; j -= gap)
                v[j] = v[j - gap];
            v[j] = x;
        }
}

static int partition(uint32_t *v, int lo, int hi)
{
    uint32_t pivot = v[(lo + hi) / 2];
    int i = lo - 1, j = hi + 1;
    for (;;) {
        do i++; while (v[i] < pivot);
        do j--; while (v[j] > pivot);
        if (i >= j)
            return j;
        uint32_t t = v[i]; v[i] = v[j]; v[j] = t;
    }
}

static void quick_sort(uint32_t *v, int n)
{
    int stack[64], sp = 0;          /* Hoare partition, smaller half first */
    stack[sp++] = 0;
    stack[sp++] = n - 1;
    while (sp) {
        int hi = stack[--sp], lo = stack[--sp];
        if (lo >= hi)
            continue;
        int p = partition(v, lo, hi);
        stack[sp++] = lo; stack[sp++] = p;
        stack[sp++] = p + 1; stack[sp++] = hi;
    }
}

static int check_sorted(const uint32_t *v, int code)
{
    uint64_t sum_in = 0, sum_out = 0;
    uint32_t xor_in = 0, xor_out = 0;
    for (int i = 0; i < N; i++) {
        if (i && v[i - 1] > v[i])
            return rt_expect(i, 0, code);
        sum_in += input[i]; xor_in ^= input[i];
        sum_out += v[i]; xor_out ^= v[i];
    }
    if (sum_in != sum_out || xor_in != xor_out)
        return rt_expect(sum_out, sum_in, code + 1);
    return 0;
}

int main(void)
{
    int err = 0;
    fill(1);
    copy(a); insertion_sort(a, N);
    copy(b); shell_sort(b, N);
    copy(c); quick_sort(c, N);
    err = check_sorted(a, 10);
    if (!err) err = check_sorted(b, 20);
    if (!err) err = check_sorted(c, 30);
    uint64_t hash = 0;
    for (int i = 0; i < N && !err; i++) {
        if (a[i] != b[i] || a[i] != c[i])
            err = rt_expect(i, N, 40);
        hash += (uint64_t)(i + 1) * a[i];
    }
    if (!err)
        err = rt_expect(hash, WANT_HASH, 50);
    return rt_report("sort", hash, err);
}
