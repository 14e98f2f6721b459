/* fptr: indirect calls.  C "classes" with vtables (structs of function
 * pointers) and a base-method call through the vtable of the parent, a
 * table of operation pointers chosen by data, and a callback-driven sort.
 * The pointers pass through volatile objects so the compiler cannot turn
 * the calls back into direct ones. */
#include "rt.h"

struct shape;
struct shape_ops {
    const char *name;
    int64_t (*area2)(const struct shape *);      /* twice the area */
    int64_t (*perimeter)(const struct shape *);
    void (*scale)(struct shape *, int64_t k);
    const struct shape_ops *base;
};
struct shape {
    const struct shape_ops *volatile ops;
    int64_t a, b;                       /* sides, or legs of a right triangle */
};

static int64_t rect_area2(const struct shape *s) { return 2 * s->a * s->b; }
static int64_t rect_perim(const struct shape *s) { return 2 * (s->a + s->b); }
static void both_scale(struct shape *s, int64_t k) { s->a *= k; s->b *= k; }
static int64_t tri_area2(const struct shape *s) { return s->a * s->b; }
static int64_t tri_perim(const struct shape *s)
{
    /* legs a, b of a Pythagorean triple; hypotenuse by integer sqrt */
    int64_t h2 = s->a * s->a + s->b * s->b, h = 0;
    while ((h + 1) * (h + 1) <= h2)
        h++;
    return s->a + s->b + h;
}
static int64_t square_perim(const struct shape *s)
{
    return s->ops->base->perimeter(s);  /* "super" call */
}

static const struct shape_ops rect_ops = {
    "rect", rect_area2, rect_perim, both_scale, 0 };
static const struct shape_ops square_ops = {
    "square", rect_area2, square_perim, both_scale, &rect_ops };
static const struct shape_ops tri_ops = {
    "tri", tri_area2, tri_perim, both_scale, 0 };

typedef uint32_t (*binop)(uint32_t, uint32_t);
static uint32_t op_add(uint32_t x, uint32_t y) { return x + y; }
static uint32_t op_sub(uint32_t x, uint32_t y) { return x - y; }
static uint32_t op_xor(uint32_t x, uint32_t y) { return x ^ y; }
static uint32_t op_mul(uint32_t x, uint32_t y) { return x * y; }
static uint32_t op_rol(uint32_t x, uint32_t y)
{
    y &= 31;
    return y ? (x << y) | (x >> (32 - y)) : x;
}
static binop volatile ops[5] = { op_add, op_sub, op_xor, op_mul, op_rol };

static uint32_t direct(unsigned i, uint32_t x, uint32_t y)
{
    switch (i) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x ^ y;
    case 3: return x * y;
    default: y &= 31; return y ? (x << y) | (x >> (32 - y)) : x;
    }
}

typedef int (*cmp_fn)(uint32_t, uint32_t);
static int cmp_up(uint32_t x, uint32_t y) { return x < y ? -1 : x > y; }
static int cmp_down(uint32_t x, uint32_t y) { return cmp_up(y, x); }

static void sort_with(uint32_t *v, int n, cmp_fn volatile cmp)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && cmp(v[j - 1], v[j]) > 0; j--) {
            uint32_t t = v[j]; v[j] = v[j - 1]; v[j - 1] = t;
        }
}

static int shapes(int64_t *total)
{
    struct shape s[6] = {
        { &rect_ops, 3, 4 }, { &square_ops, 5, 5 }, { &tri_ops, 3, 4 },
        { &tri_ops, 5, 12 }, { &rect_ops, 7, 2 }, { &square_ops, 1, 1 } };
    static const int64_t area2[6] = { 24, 50, 12, 60, 28, 2 };
    static const int64_t perim[6] = { 14, 20, 12, 30, 18, 4 };
    int err = 0;
    *total = 0;
    for (int round = 1; round <= 3 && !err; round++)
        for (int i = 0; i < 6 && !err; i++) {
            struct shape *p = &s[i];
            int64_t k = round == 1 ? 1 : round == 2 ? 2 : 6;
            int64_t a = p->ops->area2(p), per = p->ops->perimeter(p);
            err = rt_expect(a, area2[i] * k * k, 10 + i);
            if (!err) err = rt_expect(per, perim[i] * k, 20 + i);
            *total += a + per;
            p->ops->scale(p, round == 1 ? 2 : 3);
        }
    return err;
}

int main(void)
{
    int64_t total;
    int err = shapes(&total);
    uint32_t acc = 1, ref = 1;
    for (uint32_t i = 0; i < 500; i++) {
        unsigned k = (acc ^ i) % 5;
        acc = ops[k](acc, i * 2654435761u);
        ref = direct((ref ^ i) % 5, ref, i * 2654435761u);
    }
    if (!err) err = rt_expect(acc, ref, 30);
    uint32_t v[40];
    for (int i = 0; i < 40; i++)
        v[i] = (uint32_t)(i * 37 % 41);
    sort_with(v, 40, cmp_up);
    for (int i = 1; i < 40 && !err; i++)
        err = rt_expect(v[i - 1] < v[i], 1, 31);
    sort_with(v, 40, cmp_down);
    for (int i = 1; i < 40 && !err; i++)
        err = rt_expect(v[i - 1] > v[i], 1, 32);
    return rt_report("fptr", (uint64_t)total ^ acc, err);
}
