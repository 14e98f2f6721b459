/* Corrupt and truncated .tvt input: the reader never crashes or loops,
 * reports errors with an offset inside the input, resyncs at the next
 * begin-group byte, and the verifier survives whatever comes out. */
#include "tharness.h"
#include "rvtrace/tv.h"

static const rvt_tv_cfg C64 = { 64, 64, 64 };

/* A small valid stream: C.1 (add gp) then a store group with a memory
 * request and response. */
static const uint8_t good[] = {
    0x01, 0x03, 0x11, 0xb3, 0x81, 0x62, 0x00, 0x04, 0x03, 0x10,
    0x34, 0x12, 0, 0, 0, 0, 0, 0, 0x02,
    0x01, 0x03, 0x11, 0x23, 0x20, 0xb5, 0x00,
    0x08, 0x00, 0x10, 0, 0x80, 0, 0, 0, 0, 0x21, 1, 2, 3, 4,
    0x09, 0x02, 0x02,
};

/* Reads everything; returns errors seen, checks offsets and termination. */
static unsigned drain(const uint8_t *buf, size_t len, uint64_t *items)
{
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&C64, buf, len, NULL);
    rvt_tv_item it;
    uint64_t off;
    unsigned errs = 0;
    *items = 0;
    for (size_t guard = 0; guard <= len + 1; guard++) {
        int st = rvt_tv_reader_next(r, &it, &off);
        if (st == RVT_ERR_EOS)
            break;
        if (st == RVT_OK) {
            CHECK(it.offset < len);
            (*items)++;
        } else {
            CHECK(st == RVT_ERR_FORMAT || st == RVT_ERR_TRUNC);
            CHECK(off < len);
            errs++;
        }
    }
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_ERR_EOS);
    rvt_tv_reader_free(r);
    return errs;
}

static void truncations(void)
{
    uint64_t n;
    CHECK_EQ(drain(good, sizeof good, &n), 0);
    CHECK_EQ(n, 11);
    /* every prefix that cuts an item reports TRUNC at that item's offset */
    for (size_t len = 0; len < sizeof good; len++) {
        rvt_tv_reader *r = rvt_tv_reader_new_mem(&C64, good, len, NULL);
        rvt_tv_item it;
        uint64_t off = UINT64_MAX;
        int st;
        while ((st = rvt_tv_reader_next(r, &it, &off)) == RVT_OK) {}
        CHECK(st == RVT_ERR_EOS || (st == RVT_ERR_TRUNC && off < len));
        rvt_tv_reader_free(r);
    }
    /* cut inside the 8-byte gp value (offset 7 is the full_reg opcode) */
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&C64, good, 12, NULL);
    rvt_tv_item it;
    uint64_t off = 0;
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) == RVT_OK) {}
    CHECK_EQ(st, RVT_ERR_TRUNC);
    CHECK_EQ(off, 7);
    rvt_tv_reader_free(r);
}

/* An undefined opcode at offset 3 of the first group: error at 3, then
 * the reader resyncs at the second group's begin byte (offset 19). */
static void resync(void)
{
    uint8_t bad[sizeof good];
    memcpy(bad, good, sizeof good);
    bad[3] = 0x0c;   /* was the first byte of the instruction; 0x0c is no opcode */
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&C64, bad, sizeof bad, NULL);
    rvt_tv_item it;
    uint64_t off = 0;
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);   /* begin */
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);   /* incr_pc */
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);   /* insn32 takes bytes 3..6 */
    /* the misparse shows up later: the stream still decodes, or errs inside it */
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) == RVT_OK) {}
    CHECK(st == RVT_ERR_EOS || off < sizeof bad);
    rvt_tv_reader_free(r);
    bad[2] = 0x0c;   /* the opcode itself */
    r = rvt_tv_reader_new_mem(&C64, bad, sizeof bad, NULL);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_ERR_FORMAT);
    CHECK_EQ(off, 2);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);
    CHECK_EQ(it.op, RVT_TV_BEGIN);
    CHECK_EQ(it.offset, 19);
    CHECK_EQ(rvt_tv_reader_skipped(r), 17);
    rvt_tv_reader_free(r);
    /* a response with no request before it cannot be sized */
    static const uint8_t orphan[] = { 0x01, 0x09, 0x02, 0x02 };
    r = rvt_tv_reader_new_mem(&C64, orphan, sizeof orphan, NULL);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_OK);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_ERR_FORMAT);
    CHECK_EQ(off, 1);
    CHECK_EQ(rvt_tv_reader_next(r, &it, &off), RVT_ERR_EOS);
    rvt_tv_reader_free(r);
}

/* Random damage, through the reader and into a verifier (a reference
 * hart on programs/amo.elf): nothing may crash or hang. */
static void feed_verifier(rvt_tv_verifier *v, const uint8_t *buf, size_t len)
{
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&C64, buf, len, NULL);
    rvt_tv_item it;
    uint64_t off;
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) != RVT_ERR_EOS)
        if (st == RVT_OK)
            rvt_tv_verifier_put(v, &it);
    rvt_tv_verifier_end(v);
    rvt_tv_reader_free(r);
}

static void fuzz(void)
{
    char path[512];
    const char *src = getenv("RVT_SRC");
    snprintf(path, sizeof path, "%s/programs/amo.elf", src ? src : ".");
    rvt_image *img = rvt_image_new();
    bool have = img && rvt_image_load_elf(img, path) >= 0;
    CHECK(have);
    rvt_tv_verify_cfg vc = { .tv = C64 };
    rvt_tv_verifier *v = have ? rvt_tv_verifier_new(&vc, img, NULL) : NULL;
    uint32_t seed = 12345;
    uint8_t buf[256];
    for (int round = 0; round < 3000; round++) {
        size_t len = (size_t)(round % 200) + 1;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (uint8_t)(seed >> 16);
            if ((seed >> 8) % 4 == 0)
                buf[i] = (uint8_t)((seed >> 12) % 18);   /* mostly opcodes */
        }
        uint64_t n;
        drain(buf, len, &n);
        if (v)
            feed_verifier(v, buf, len);
    }
    rvt_tv_verifier_free(v);
    rvt_image_free(img);
}

static void bad_cfg(void)
{
    rvt_tv_cfg c = { .xlen = 48 };
    int st = 0;
    CHECK(rvt_tv_reader_new_mem(&c, good, sizeof good, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    rvt_tv_writer_cfg wc = { 0 };
    CHECK(rvt_tv_writer_new(&wc, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
}

int main(void)
{
    truncations();
    resync();
    fuzz();
    bad_cfg();
    return TH_DONE();
}
