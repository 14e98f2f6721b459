/* The N-Trace MSEO reader of src/ntrace/nt_mseo.h (3.1-3.3: each byte is
 * 6 MDO bits above 2 MSEO bits; MDO bits are packed LSB first; MSEO 00
 * goes on, 01 ends a field, 11 ends the message).  Messages of up to 8
 * bytes are unpacked a word at a time, longer ones a byte at a time: both
 * against values worked out by hand from the bytes. */
#include "ntrace/nt_mseo.h"
#include "tharness.h"

static uint8_t byte(unsigned mdo, unsigned mseo)
{
    return (uint8_t)(mdo << 2 | mseo);
}

/* 3 bytes: MDO 1 (00), 2 (01), 63 (11): a 6-bit fixed field 1, then
 * two variable fields, 2 and 63, each 6 bits wide. */
static void test_short(void)
{
    const uint8_t m[] = { byte(1, NT_MSEO_CONT), byte(2, NT_MSEO_VEND), byte(63, NT_MSEO_MEND) };
    nt_mr r;
    nt_mr_load(&r, m, sizeof m);
    CHECK_EQ(r.nseg, 2);
    CHECK_EQ(r.seg_end[0], 12);
    CHECK_EQ(r.seg_end[1], 18);
    uint64_t v;
    unsigned w;
    CHECK(nt_mr_fixed(&r, 6, &v));
    CHECK_EQ(v, 1);
    CHECK(nt_mr_var(&r, &v, &w));
    CHECK_EQ(v, 2);
    CHECK_EQ(w, 6);
    CHECK(nt_mr_more(&r));
    CHECK(nt_mr_var(&r, &v, &w));
    CHECK_EQ(v, 63);
    CHECK(!nt_mr_more(&r));
}

/* n bytes (8: the last the word path takes; 9: the first the byte path
 * takes): a 6-bit fixed field 0x2a, then one variable field of MDOs
 * 1, 2, ..., n - 2 and 0x3f in the last byte (MSEO 11):
 * sum over i = 1..n-2 of i << 6 (i - 1), plus 0x3f << 6 (n - 2), 6 (n - 1)
 * bits wide. */
static void test_one_field(size_t n)
{
    uint8_t m[16];
    uint64_t want = 0x3full << 6 * (n - 2);
    m[0] = byte(0x2a, NT_MSEO_CONT);
    for (size_t i = 1; i + 1 < n; i++) {
        m[i] = byte((unsigned)i, NT_MSEO_CONT);
        want |= (uint64_t)i << 6 * (i - 1);
    }
    m[n - 1] = byte(0x3f, NT_MSEO_MEND);
    nt_mr r;
    nt_mr_load(&r, m, n);
    CHECK_EQ(r.nseg, 1);
    CHECK_EQ(r.seg_end[0], 6 * n);
    uint64_t v;
    unsigned w;
    CHECK(nt_mr_fixed(&r, 6, &v));
    CHECK_EQ(v, 0x2a);
    CHECK(nt_mr_var(&r, &v, &w));
    CHECK_EQ(w, 6 * (n - 1));
    CHECK_EQ(v, want);
    CHECK(!nt_mr_more(&r));
}

/* 8 bytes, every one ending a field but the first: seven 6-bit fields
 * with MDO 7 - i, the message end last. */
static void test_many_ends(void)
{
    uint8_t m[8];
    m[0] = byte(5, NT_MSEO_CONT);
    for (unsigned i = 1; i < 8; i++)
        m[i] = byte(7 - i, i == 7 ? NT_MSEO_MEND : NT_MSEO_VEND);
    nt_mr r;
    nt_mr_load(&r, m, sizeof m);
    CHECK_EQ(r.nseg, 7);
    uint64_t v;
    unsigned w;
    CHECK(nt_mr_fixed(&r, 3, &v));
    CHECK_EQ(v, 5);
    CHECK(nt_mr_var(&r, &v, &w));     /* the rest of byte 0 and byte 1 */
    CHECK_EQ(w, 9);
    CHECK_EQ(v, 6u << 3);
    for (unsigned i = 2; i < 8; i++) {
        CHECK(nt_mr_var(&r, &v, &w));
        CHECK_EQ(v, 7 - i);
        CHECK_EQ(w, 6);
    }
    CHECK(!nt_mr_more(&r));
}

int main(void)
{
    test_short();
    for (size_t n = 2; n <= 9; n++)
        test_one_field(n);
    test_many_ends();
    return TH_DONE();
}
