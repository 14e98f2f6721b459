/* The writers' formatters (src/out/fmt.h) at their edges, expected
 * strings written by hand: hex without leading zeros (0, one nibble, all
 * 16 digits, 32-bit PCs), zero- and space-padded hex as printf's "%016"
 * and "%8" PRIx64 give them, decimal up to UINT64_MAX; and the buffer:
 * lines past its size (RVT_OBUF_SIZE) arrive whole and in order. */
#include <stdlib.h>
#include "tharness.h"
#include "out/fmt.h"

typedef char *(*fmt1)(char *, uint64_t);

static void check_fmt(fmt1 fn, uint64_t v, const char *want)
{
    char buf[64];
    *fn(buf, v) = 0;
    CHECK_STR(buf, want);
}

static char *hex16(char *p, uint64_t v) { return rvt_fmt_hex0(p, v, 16); }
static char *hex4(char *p, uint64_t v) { return rvt_fmt_hex0(p, v, 4); }
static char *right8(char *p, uint64_t v) { return rvt_fmt_hex_right(p, v, 8); }

static void test_hex(void)
{
    check_fmt(rvt_fmt_hex, 0, "0");
    check_fmt(rvt_fmt_hex, 0xf, "f");
    check_fmt(rvt_fmt_hex, 0x10, "10");
    check_fmt(rvt_fmt_hex, 0x80000000u, "80000000");          /* a 32-bit PC */
    check_fmt(rvt_fmt_hex, 0xfffffffeu, "fffffffe");
    check_fmt(rvt_fmt_hex, 0x100000000ull, "100000000");
    check_fmt(rvt_fmt_hex, UINT64_MAX, "ffffffffffffffff");
    check_fmt(hex16, 0, "0000000000000000");
    check_fmt(hex16, 0x80000010u, "0000000080000010");
    check_fmt(hex16, UINT64_MAX, "ffffffffffffffff");
    check_fmt(hex4, 0x1, "0001");
    check_fmt(hex4, 0x12345, "12345");                       /* wider than asked */
    check_fmt(right8, 0, "       0");
    check_fmt(right8, 0x80000000u, "80000000");
    check_fmt(right8, 0x1234, "    1234");
    check_fmt(right8, 0x8000000000ull, "8000000000");
}

static void test_dec(void)
{
    check_fmt(rvt_fmt_dec, 0, "0");
    check_fmt(rvt_fmt_dec, 9, "9");
    check_fmt(rvt_fmt_dec, 10, "10");
    check_fmt(rvt_fmt_dec, 4294967295u, "4294967295");
    check_fmt(rvt_fmt_dec, UINT64_MAX, "18446744073709551615");
}

/* NLINES numbered lines through the buffer (about 1.5 buffers' worth with
 * the padding), one printf line among them. */
#define NLINES (10000u * (RVT_OBUF_SIZE / 65536u))
static void test_buffer(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    static rvt_obuf b;
    rvt_obuf_init(&b, f);
    for (uint64_t i = 0; i < NLINES; i++) {
        char *p = rvt_obuf_reserve(&b, 32);
        p = rvt_fmt_dec(p, i);
        p = rvt_fmt_str(p, "          \n");
        rvt_obuf_commit(&b, p);
        if (i == 5000)
            rvt_obuf_printf(&b, "-- %s %d\n", "mid", 5000);
    }
    rvt_obuf_flush(&b);
    fclose(f);
    CHECK(len > RVT_OBUF_SIZE);
    char *at = text;
    bool ok = true;
    for (uint64_t i = 0; i < NLINES && ok; i++) {
        char want[40];
        snprintf(want, sizeof want, "%llu          \n", (unsigned long long)i);
        ok = !strncmp(at, want, strlen(want));
        at += strlen(want);
        if (ok && i == 5000) {
            ok = !strncmp(at, "-- mid 5000\n", 12);
            at += 12;
        }
    }
    CHECK(ok);
    CHECK_EQ(at - text, len);
    free(text);
}

int main(void)
{
    test_hex();
    test_dec();
    test_buffer();
    return TH_DONE();
}
