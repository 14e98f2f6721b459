/* rvtrace workloads: a read-only walk of a flattened device tree
 * (Devicetree spec 0.4 5.4 "Structure Block": big-endian tokens
 * FDT_BEGIN_NODE 1, FDT_END_NODE 2, FDT_PROP 3, FDT_NOP 4, FDT_END 9). */
#include "fdt.h"

#define FDT_MAGIC 0xd00dfeedu
enum { FDT_BEGIN_NODE = 1, FDT_END_NODE = 2, FDT_PROP = 3, FDT_NOP = 4, FDT_END = 9 };

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int str_eq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

static unsigned str_len(const char *s)
{
    unsigned n = 0;
    while (s[n])
        n++;
    return n;
}

/* whether the string list (len bytes of NUL-terminated strings) holds s */
static int list_has(const char *list, uint32_t len, const char *s)
{
    for (uint32_t i = 0; i < len; i += str_len(list + i) + 1)
        if (str_eq(list + i, s))
            return 1;
    return 0;
}

uint64_t rt_fdt_reg_by_compatible(const void *dtb, const char *compat)
{
    const uint8_t *h = dtb;
    if (!h || be32(h) != FDT_MAGIC)
        return 0;
    const uint8_t *p = h + be32(h + 8);             /* off_dt_struct */
    const char *strings = (const char *)h + be32(h + 12);
    int match = 0;
    uint64_t reg = 0;
    for (;;) {
        uint32_t tok = be32(p);
        p += 4;
        if (tok == FDT_BEGIN_NODE) {
            if (match)      /* a node's properties come before its children */
                return reg;
            match = 0, reg = 0;
            p += (str_len((const char *)p) + 4) & ~3u;    /* name, NUL, padding */
        } else if (tok == FDT_PROP) {
            uint32_t len = be32(p), name = be32(p + 4);
            const uint8_t *v = p + 8;
            if (str_eq(strings + name, "compatible"))
                match = list_has((const char *)v, len, compat);
            else if (str_eq(strings + name, "reg") && len >= 8)
                reg = (uint64_t)be32(v) << 32 | be32(v + 4);
            p = v + ((len + 3) & ~3u);
        } else if (tok == FDT_END_NODE) {
            if (match)      /* both properties seen, in either order */
                return reg;
        } else if (tok != FDT_NOP) {
            return 0;       /* FDT_END or not a token */
        }
    }
}
