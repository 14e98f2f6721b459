/* crc: loops, branches and string code.  CRC-32 (reflected, 0xEDB88320)
 * bit by bit and table driven, CRC-16/CCITT-FALSE, and small string
 * routines (length, compare, reverse, search, decimal conversion). */
#include "rt.h"

#define BUF 4096
/* zlib.crc32 of the LCG buffer below (x = x*1664525 + 1013904223 mod 2^32,
 * byte = x >> 24), computed with Python */
#define WANT_BUF_CRC 0x9d3dd2c4u

static uint8_t buf[BUF];
static uint32_t table[256];
static char text[64];

static uint32_t crc32_bits(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++)
            crc = (crc & 1) ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
    }
    return ~crc;
}

static void crc32_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
        table[i] = c;
    }
}

static uint32_t crc32_table(const uint8_t *p, size_t n)
{
    uint32_t crc = 0xffffffffu;
    while (n--)
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static uint16_t crc16_ccitt(const uint8_t *p, size_t n)
{
    uint16_t crc = 0xffff;
    while (n--) {
        crc ^= (uint16_t)(*p++ << 8);
        for (int k = 0; k < 8; k++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021)
                                 : (uint16_t)(crc << 1);
    }
    return crc;
}

static size_t str_len(const char *s)
{
    const char *e = s;
    while (*e)
        e++;
    return (size_t)(e - s);
}

static int str_cmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

static void str_reverse(char *s)
{
    for (char *e = s + str_len(s) - 1; s < e; s++, e--) {
        char t = *s; *s = *e; *e = t;
    }
}

static const char *str_find(const char *hay, const char *needle)
{
    for (; *hay; hay++) {
        const char *h = hay, *n = needle;
        while (*n && *h == *n)
            h++, n++;
        if (!*n)
            return hay;
    }
    return 0;
}

static char *utoa10(uint32_t v, char *out)
{
    char *p = out;
    do {
        *p++ = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    *p = 0;
    str_reverse(out);
    return out;
}

static uint32_t atou10(const char *s)
{
    uint32_t v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (uint32_t)(*s++ - '0');
    return v;
}

static int strings(void)
{
    static const char fox[] = "the quick brown fox jumps over the lazy dog";
    int err = rt_expect(str_len(fox), 43, 20);
    if (!err) err = rt_expect(str_find(fox, "lazy") - fox, 35, 21);
    if (!err) err = rt_expect(str_find(fox, "cat") == 0, 1, 22);
    if (!err) err = rt_expect(str_cmp("abc", "abd") < 0, 1, 23);
    if (!err) err = rt_expect(str_cmp("abc", "abc"), 0, 24);
    for (uint32_t v = 1; v < 4000000000u && !err; v = v * 7 + 3)
        err = rt_expect(atou10(utoa10(v, text)), v, 25);
    if (!err) err = rt_expect(str_cmp(utoa10(907150, text), "907150"), 0, 26);
    return err;
}

int main(void)
{
    static const uint8_t check[] = "123456789";
    uint32_t x = 7;
    for (int i = 0; i < BUF; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (uint8_t)(x >> 24);
    }
    crc32_init();
    /* catalogued check values of CRC-32 and CRC-16/CCITT-FALSE */
    int err = rt_expect(crc32_bits(check, 9), 0xcbf43926u, 1);
    if (!err) err = rt_expect(crc32_table(check, 9), 0xcbf43926u, 2);
    if (!err) err = rt_expect(crc16_ccitt(check, 9), 0x29b1, 3);
    uint32_t crc = crc32_table(buf, BUF);
    if (!err) err = rt_expect(crc32_bits(buf, BUF), crc, 4);
    if (!err) err = rt_expect(crc, WANT_BUF_CRC, 5);
    if (!err) err = strings();
    return rt_report("crc", crc, err);
}
