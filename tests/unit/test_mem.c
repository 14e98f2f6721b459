/* Memory keyed by address space (include/rvtrace/mem.h) and a decoder's
 * view over it (src/image/mem_view.h): space selection, wildcards, the
 * read callback (on a miss, and first for self-modifying code), flush,
 * NULL arguments, hostile layouts (overlap, zero size, the top of the
 * address space), and both decoders choosing their space from the trace.
 * Encodings (binutils 2.40 riscv64-unknown-elf-as, checked by hand against
 * the unprivileged spec's formats):
 *   addi a0,a0,1     = 0x00150513 (I-type)     c.li a0,5  = 0x4515 (CI)
 *   jal  x0,.+8      = 0x0080006f (J-type)     fence.i    = 0x0000100f
 *   bne  a1,x0,.-20  = 0xfe0596e3 (B-type: imm -20 = 1 111111 ... 0110 1) */
#include <unistd.h>
#include "test_etrace_util.h"
#include "test_ntrace_util.h"
#include "image/mem_view.h"
#include "rvtrace/mem.h"

#define NB(a) (sizeof(a) / sizeof((a)[0]))

#define ADDI 0x00150513u
#define CLI5 0x4515u
#define JAL8 0x0080006fu
#define FENCEI 0x0000100fu
#define BNE_M20 0xfe0596e3u

static rvt_image *img_words(uint64_t base, const uint32_t *w, size_t n)
{
    rvt_image *img = rvt_image_new();
    CHECK(img != NULL);
    if (img)
        CHECK_EQ(rvt_image_add_bytes(img, base, w, n * 4, "t"), 0);
    return img;
}

static rvt_space sp(uint64_t ctx, uint32_t priv, uint32_t src)
{
    return (rvt_space){ .context = ctx, .priv = priv, .source = src };
}

/* ---- the read callback: one word at 0x2000 (version A or B), counted ---- */
typedef struct cbm {
    unsigned calls;
    rvt_space space;          /* of the last call */
    uint64_t addr;
    size_t size;
    uint64_t at;              /* where it serves code */
    uint32_t word[2];         /* version A, B */
    unsigned version;
    size_t give;              /* bytes it claims to copy (0: 4) */
} cbm;

static size_t cb_read(void *ctx, const rvt_space *space, uint64_t addr, void *buf, size_t size)
{
    cbm *c = ctx;
    c->calls++;
    c->space = *space;
    c->addr = addr;
    c->size = size;
    if (addr != c->at)
        return 0;
    uint32_t w = c->word[c->version];
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    size_t n = size < 4 ? size : 4;
    memcpy(buf, b, n);
    return c->give ? c->give : n;
}

/* Two images at one address in two contexts: each space sees its own. */
static void space_select(void)
{
    uint32_t a[] = { ADDI }, b[] = { CLI5 | CLI5 << 16 };
    rvt_image *ia = img_words(0x1000, a, 1), *ib = img_words(0x1000, b, 1);
    rvt_mem *m = rvt_mem_new();
    rvt_space k1 = { 1, RVT_SPACE_ANY_PRIV, RVT_SPACE_ANY_SOURCE };
    rvt_space k2 = { 2, RVT_SPACE_ANY_PRIV, RVT_SPACE_ANY_SOURCE };
    CHECK_EQ(rvt_mem_add_image(m, &k1, ia), 0);
    CHECK_EQ(rvt_mem_add_image(m, &k2, ib), 0);
    CHECK_EQ(rvt_mem_image_count(m), 2);
    rvt_space s1 = sp(1, 3, 0), s2 = sp(2, 0, 7), s3 = sp(3, 3, 0);
    CHECK(rvt_mem_image_at(m, &s1, 0x1000) == ia);
    CHECK(rvt_mem_image_at(m, &s2, 0x1002) == ib);
    CHECK(rvt_mem_image_at(m, &s3, 0x1000) == NULL);
    uint8_t buf[4];
    CHECK_EQ(rvt_mem_read(m, &s2, 0x1000, buf, 4), 4);
    CHECK_EQ(buf[0] | buf[1] << 8, CLI5);
    CHECK_EQ(rvt_mem_read(m, &s3, 0x1000, buf, 4), 0);

    rvt_memv *v = rvt_memv_new(m);
    CHECK(v != NULL);
    CHECK(rvt_memv_set_space(v, &s1));          /* from {0,3,0}: no image to ia */
    const rvt_insn *i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->len == 4 && i->raw == ADDI);
    CHECK(!rvt_memv_set_space(v, &s1));         /* unchanged */
    CHECK(rvt_memv_set_space(v, &s2));
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->len == 2 && i->raw == CLI5);
    CHECK(rvt_memv_set_space(v, &s3));
    CHECK(rvt_memv_insn(v, 0x1000) == NULL);
    /* the same answer set (ib alone) under another space: no flush needed */
    rvt_space s2b = sp(2, 1, 1);
    CHECK(rvt_memv_set_space(v, &s2));
    CHECK(!rvt_memv_set_space(v, &s2b));
    rvt_memv_free(v);
    rvt_mem_free(m);
    rvt_image_free(ia);
    rvt_image_free(ib);
}

/* A wildcard key matches every space; a more specific key wins over it
 * whatever the order they were added in; among equals the latest wins. */
static void wildcard(void)
{
    uint32_t a[] = { ADDI }, b[] = { CLI5 | CLI5 << 16 }, c[] = { JAL8 };
    rvt_image *ia = img_words(0x1000, a, 1), *ib = img_words(0x1000, b, 1),
              *ic = img_words(0x1000, c, 1);
    rvt_mem *m = rvt_mem_new();
    rvt_space user = { RVT_SPACE_ANY_CONTEXT, 0, RVT_SPACE_ANY_SOURCE };
    rvt_space any = rvt_space_any();
    CHECK_EQ(rvt_mem_add_image(m, &user, ib), 0);
    CHECK_EQ(rvt_mem_add_image(m, NULL, ia), 0);     /* NULL: every space */
    rvt_space got;
    CHECK(rvt_mem_image(m, 1, &got) == ia);
    CHECK_MEM(&got, &any, sizeof got);
    CHECK(rvt_mem_image(m, 2, &got) == NULL);
    rvt_space m3 = sp(5, 3, 0), u0 = sp(5, 0, 0);
    CHECK(rvt_mem_image_at(m, &m3, 0x1000) == ia);
    CHECK(rvt_mem_image_at(m, &u0, 0x1000) == ib);
    CHECK(rvt_space_matches(&any, &m3));
    CHECK(!rvt_space_matches(&user, &m3));
    CHECK_EQ(rvt_mem_add_image(m, &any, ic), 0);     /* a later wildcard shadows ia */
    CHECK(rvt_mem_image_at(m, &m3, 0x1000) == ic);
    CHECK(rvt_mem_image_at(m, &u0, 0x1000) == ib);
    rvt_mem_free(m);
    rvt_image_free(ia);
    rvt_image_free(ib);
    rvt_image_free(ic);
}

/* The callback: asked where no image holds the address (RVT_MEM_READ_MISS)
 * with the view's space, its decodes cached; asked first with
 * RVT_MEM_READ_FIRST, falling back to the images when it has nothing. */
static void callback(void)
{
    uint32_t a[] = { ADDI, ADDI };
    rvt_image *ia = img_words(0x1000, a, 2);
    rvt_mem *m = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(m, NULL, ia), 0);
    cbm c = { .at = 0x2000, .word = { ADDI, CLI5 } };
    CHECK_EQ(rvt_mem_set_read(m, cb_read, &c, RVT_MEM_READ_MISS), 0);
    rvt_memv *v = rvt_memv_new(m);
    rvt_space s = sp(9, 1, 4);
    rvt_memv_set_space(v, &s);
    CHECK(rvt_memv_insn(v, 0x1000) != NULL);
    CHECK_EQ(c.calls, 0);                           /* the image holds it */
    const rvt_insn *i = rvt_memv_insn(v, 0x2000);
    CHECK(i && i->raw == ADDI);
    CHECK_EQ(c.calls, 1);
    CHECK_EQ(c.addr, 0x2000);
    CHECK_EQ(c.size, 4);
    CHECK_MEM(&c.space, &s, sizeof s);
    CHECK(rvt_memv_insn(v, 0x2000) == i);           /* cached */
    CHECK_EQ(c.calls, 1);
    CHECK(rvt_memv_insn(v, 0x3000) == NULL);        /* nobody has code there */
    CHECK(rvt_memv_insn(v, 0x3000) == NULL);
    CHECK_EQ(c.calls, 2);                           /* the miss is cached too */
    uint8_t buf[8];
    CHECK_EQ(rvt_mem_read(m, &s, 0x2000, buf, 4), 4);
    CHECK_EQ(buf[0], 0x13);
    /* A callback that claims more than it was asked for gave what was asked. */
    c.give = 100;
    CHECK_EQ(rvt_mem_read(m, &s, 0x2000, buf, 3), 3);
    c.give = 0;
    rvt_memv_free(v);

    /* FIRST: the callback's 0x1000 wins over the image's; 0x1004 falls back. */
    c.at = 0x1000;
    c.version = 1;
    CHECK_EQ(rvt_mem_set_read(m, cb_read, &c, RVT_MEM_READ_FIRST), 0);
    v = rvt_memv_new(m);
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->len == 2 && i->raw == CLI5);
    i = rvt_memv_insn(v, 0x1004);
    CHECK(i && i->len == 4 && i->raw == ADDI);
    CHECK_EQ(rvt_mem_read(m, &s, 0x1000, buf, 2), 2);
    CHECK_EQ(buf[0] | buf[1] << 8, CLI5);
    rvt_memv_free(v);

    /* Two bytes of a 32-bit encoding are no instruction. */
    c.version = 0;
    c.give = 2;
    CHECK_EQ(rvt_mem_set_read(m, cb_read, &c, RVT_MEM_READ_MISS), 0);
    c.at = 0x2000;
    v = rvt_memv_new(m);
    CHECK(rvt_memv_insn(v, 0x2000) == NULL);
    rvt_memv_free(v);
    /* Cleared: no call at all. */
    c.calls = 0;
    CHECK_EQ(rvt_mem_set_read(m, NULL, NULL, 0), 0);
    v = rvt_memv_new(m);
    CHECK(rvt_memv_insn(v, 0x2000) == NULL);
    CHECK_EQ(c.calls, 0);
    rvt_memv_free(v);
    rvt_mem_free(m);
    rvt_image_free(ia);
}

/* Decodes stay until a flush; after it the callback's new bytes are
 * decoded, and what was handed out before is still readable. */
static void flush(void)
{
    uint32_t a[] = { ADDI };
    rvt_image *ia = img_words(0x1000, a, 1);
    rvt_mem *m = rvt_mem_new();
    CHECK_EQ(rvt_mem_add_image(m, NULL, ia), 0);
    cbm c = { .at = 0x2000, .word = { ADDI, CLI5 } };
    CHECK_EQ(rvt_mem_set_read(m, cb_read, &c, RVT_MEM_READ_MISS), 0);
    rvt_memv *v = rvt_memv_new(m);
    const rvt_insn *old = rvt_memv_insn(v, 0x2000), *img_old = rvt_memv_insn(v, 0x1000);
    CHECK(old && old->raw == ADDI);
    c.version = 1;
    CHECK(rvt_memv_insn(v, 0x2000) == old);         /* not flushed: the cached decode */
    rvt_memv_flush(v);
    const rvt_insn *i = rvt_memv_insn(v, 0x2000);
    CHECK(i && i->raw == CLI5 && i->len == 2);
    CHECK(old->len == 4 && old->raw == ADDI);       /* still readable */
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i == img_old && i->len == 4);             /* re-decoded in place */
    /* A segment added to an image after the view was made (single-threaded
     * patching: the latest segment shadows the earlier) is what the view
     * reads from then on (the decoder's block cache above it keeps the old
     * decode until the decoder is flushed). */
    uint16_t cli = CLI5;
    CHECK_EQ(rvt_image_add_bytes(ia, 0x1000, &cli, 2, "patch"), 0);
    rvt_memv_flush(v);
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->raw == CLI5 && i->len == 2);
    i = rvt_memv_insn(v, 0x1002);
    CHECK(i && i->raw == 0x0015);                   /* the addi's upper half, unshadowed */
    rvt_memv_flush(NULL);
    rvt_memv_free(v);
    rvt_mem_free(m);
    rvt_image_free(ia);
}

/* A space change keeps the other spaces' callback answers (mem_view.c's
 * map is keyed by space): back in a space, its code is found without
 * asking again; only a flush (the code changed) asks anew.  The callback
 * serves ADDI in context 1 and c.li a0,5 in context 2 at 0x2000. */
static size_t cb_by_context(void *ctx, const rvt_space *space, uint64_t addr, void *buf, size_t size)
{
    cbm *c = ctx;
    c->version = space->context == 2;
    return cb_read(ctx, space, addr, buf, size);
}

static void space_change_keeps(void)
{
    rvt_mem *m = rvt_mem_new();
    cbm c = { .at = 0x2000, .word = { ADDI, CLI5 } };
    CHECK_EQ(rvt_mem_set_read(m, cb_by_context, &c, RVT_MEM_READ_MISS), 0);
    rvt_memv *v = rvt_memv_new(m);
    rvt_space s1 = sp(1, 0, 0), s2 = sp(2, 0, 0);
    CHECK(rvt_memv_set_space(v, &s1));          /* callback: the block cache goes */
    const rvt_insn *i1 = rvt_memv_insn(v, 0x2000);
    CHECK(i1 && i1->raw == ADDI);
    CHECK_EQ(c.calls, 1);
    CHECK(rvt_memv_set_space(v, &s2));
    const rvt_insn *i2 = rvt_memv_insn(v, 0x2000);
    CHECK(i2 && i2->raw == CLI5);               /* this space's code, not s1's */
    CHECK_EQ(c.calls, 2);
    CHECK(rvt_memv_set_space(v, &s1));
    CHECK(rvt_memv_insn(v, 0x2000) == i1);      /* s1's entry survived s2 */
    CHECK(rvt_memv_set_space(v, &s2));
    CHECK(rvt_memv_insn(v, 0x2000) == i2);      /* and s2's survived s1 */
    CHECK_EQ(c.calls, 2);                       /* neither asked again */
    rvt_memv_flush(v);
    CHECK(rvt_memv_insn(v, 0x2000) != NULL);
    CHECK_EQ(c.calls, 3);                       /* a flush forgets */
    rvt_memv_free(v);
    rvt_mem_free(m);
}

/* ---- the block cache keyed by address space (mem_view.h, insn_blocks.h) ---- */

/* A decoder's memory and block cache over m, as a flow decoder keeps them;
 * lookups that reach the memory (cache misses) are counted. */
typedef struct dec_cache {
    rvt_dec_mem dm;
    rvt_iblocks *bc;
    unsigned misses;
} dec_cache;

static const rvt_insn *counted_insn(void *ctx, uint64_t pc)
{
    dec_cache *c = ctx;
    c->misses++;
    return rvt_memv_insn(c->dm.view, pc);
}

static bool dec_cache_open(dec_cache *c, const rvt_mem *m)
{
    c->misses = 0;
    c->bc = calloc(1, sizeof *c->bc);
    CHECK(c->bc != NULL);
    CHECK_EQ(rvt_dec_mem_open(&c->dm, m, NULL), 0);
    if (!c->bc || !c->dm.view)
        return false;
    rvt_iblk_init(c->bc, counted_insn, c, UINT64_MAX);
    return true;
}

static void dec_cache_close(dec_cache *c)
{
    rvt_dec_mem_close(&c->dm);
    free(c->bc);
}

/* Contexts 1 and 2 hold different code at 0x1000 (a 4-byte addi / two
 * c.li).  Over 1000 switches between them the block at 0x1000 is each
 * context's own (1 instruction of 4 bytes / 2 of 2 bytes: the block ends
 * where the image ends), the cache is never flushed, and memory is asked
 * only by the first visit of each context (addi: 1 lookup, then 0x1004
 * past the image; c.li, c.li: 2, then 0x1004): 5 misses, not 5 per switch:
 * the two blocks at one address sit in two slots.  The instruction cache
 * answers each context's own, and keeps both too (its slot is also spread
 * by the space: no miss over 10 more switches). */
static void cache_spaces_kept(void)
{
    uint32_t a[] = { ADDI }, b[] = { CLI5 | CLI5 << 16 };
    rvt_image *ia = img_words(0x1000, a, 1), *ib = img_words(0x1000, b, 1);
    rvt_mem *m = rvt_mem_new();
    rvt_space k1 = { 1, RVT_SPACE_ANY_PRIV, RVT_SPACE_ANY_SOURCE };
    rvt_space k2 = { 2, RVT_SPACE_ANY_PRIV, RVT_SPACE_ANY_SOURCE };
    rvt_mem_add_image(m, &k1, ia);
    rvt_mem_add_image(m, &k2, ib);
    dec_cache c;
    if (dec_cache_open(&c, m)) {
        unsigned wrong = 0;
        for (unsigned k = 0; k < 1000; k++) {
            unsigned ctx = 1 + k % 2;
            rvt_dec_mem_space(&c.dm, c.bc, ctx, 3, 0);
            const rvt_iblock *blk = rvt_iblk_block(c.bc, 0x1000);
            wrong += ctx == 1 ? !(blk->n == 1 && blk->last->raw == ADDI)
                              : !(blk->n == 2 && blk->last->raw == CLI5 && blk->hw == 2);
        }
        CHECK_EQ(wrong, 0);
        CHECK_EQ(c.misses, 5);
        CHECK_EQ(c.bc->flushes, 0);
        unsigned cached = c.misses;
        for (unsigned k = 0; k < 10; k++) {
            rvt_dec_mem_space(&c.dm, c.bc, 1 + k % 2, 3, 0);
            const rvt_insn *i = rvt_iblk_insn(c.bc, 0x1000);
            wrong += !i || i->len != (k % 2 ? 2 : 4);
        }
        CHECK_EQ(wrong, 0);
        CHECK_EQ(c.misses, cached);   /* both spaces' instructions stay cached */
        /* a space whose lookups agree with the current one's (context 3
         * holds no image, nor does context 4) shares its number */
        rvt_dec_mem_space(&c.dm, c.bc, 3, 3, 0);
        CHECK(rvt_iblk_block(c.bc, 0x1000)->n == 0);
        unsigned before = c.misses;
        rvt_dec_mem_space(&c.dm, c.bc, 4, 3, 0);
        CHECK_EQ(c.dm.number, c.dm.known[c.dm.nknown - 2].number);
        CHECK(rvt_iblk_insn(c.bc, 0x1000) == NULL);
        CHECK_EQ(c.misses, before + 1);      /* misses are never cached */
        /* self-modifying code still flushes all */
        rvt_dec_mem_flush(&c.dm, c.bc);
        CHECK_EQ(c.bc->flushes, 1);
        dec_cache_close(&c);
    }
    rvt_mem_free(m);
    rvt_image_free(ia);
    rvt_image_free(ib);
}

/* More spaces whose lookups differ (a read callback: every space may
 * answer differently) than the cache tells apart: the numbers start over
 * with one whole flush each time they run out, and every answer is still
 * the space's own (the callback answers addi in context 2, c.li elsewhere). */
static void cache_spaces_recycled(void)
{
    rvt_mem *m = rvt_mem_new();
    cbm cb = { .at = 0x2000, .word = { CLI5, ADDI } };
    CHECK_EQ(rvt_mem_set_read(m, cb_by_context, &cb, RVT_MEM_READ_MISS), 0);
    dec_cache c;
    if (dec_cache_open(&c, m)) {
        unsigned wrong = 0, spaces = 4 * RVT_DEC_SPACES;
        for (unsigned k = 0; k < spaces; k++) {
            unsigned ctx = k % 3 == 0 ? 2 : 10 + k;
            rvt_dec_mem_space(&c.dm, c.bc, ctx, 0, 0);
            const rvt_insn *i = rvt_iblk_insn(c.bc, 0x2000);
            wrong += !i || i->raw != (ctx == 2 ? ADDI : CLI5);
        }
        CHECK_EQ(wrong, 0);
        /* 2/3 of 4 * RVT_DEC_SPACES spaces are new ones: the table of
         * RVT_DEC_SPACES filled at least twice, each time one flush */
        CHECK(c.bc->flushes >= 2);
        CHECK(c.bc->flushes <= spaces / RVT_DEC_SPACES + 1);
        dec_cache_close(&c);
    }
    rvt_mem_free(m);
}

static void null_args(void)
{
    rvt_image *img = rvt_image_new();
    rvt_mem *m = rvt_mem_new();
    rvt_space s = sp(0, 3, 0);
    uint8_t buf[4];
    CHECK_EQ(rvt_mem_add_image(NULL, NULL, img), RVT_ERR_INVAL);
    CHECK_EQ(rvt_mem_add_image(m, NULL, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_mem_set_read(NULL, cb_read, NULL, 0), RVT_ERR_INVAL);
    CHECK_EQ(rvt_mem_set_read(m, cb_read, NULL, 2), RVT_ERR_INVAL);
    CHECK_EQ(rvt_mem_image_count(NULL), 0);
    CHECK(rvt_mem_image(NULL, 0, NULL) == NULL);
    CHECK(rvt_mem_image_at(NULL, &s, 0) == NULL);
    CHECK(rvt_mem_image_at(m, NULL, 0) == NULL);
    CHECK_EQ(rvt_mem_read(NULL, &s, 0, buf, 4), 0);
    CHECK_EQ(rvt_mem_read(m, NULL, 0, buf, 4), 0);
    CHECK_EQ(rvt_mem_read(m, &s, 0, NULL, 4), 0);
    CHECK(!rvt_space_matches(NULL, &s));
    CHECK(!rvt_space_matches(&s, NULL));
    CHECK_EQ(rvt_mem_xlen(NULL), 64);
    CHECK(rvt_memv_new(NULL) == NULL);
    CHECK(!rvt_memv_set_space(NULL, &s));
    rvt_mem_free(NULL);
    rvt_memv_free(NULL);
    int st = 0;
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK(rvt_te_decoder_new_mem(&a, NULL, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    CHECK(rvt_te_decoder_new_mem(NULL, m, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    rvt_te_decoder_flush(NULL);
    rvt_nt_decoder_flush_cache(NULL);
    rvt_nt_cfg cfg;
    rvt_nt_cfg_default(&cfg);
    st = 0;
    CHECK(rvt_nt_decoder_new_mem(&cfg, NULL, -1, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    st = 0;
    CHECK(rvt_nt_decoder_new_mem(NULL, m, -1, NULL, NULL, &st) == NULL);
    CHECK_EQ(st, RVT_ERR_INVAL);
    rvt_mem_free(m);
    rvt_image_free(img);
}

/* Overlapping images in one space (the latest added wins, byte for byte
 * where it covers), a zero-size image, and code at the top of the 64-bit
 * address space (no wrap to 0). */
static void hostile(void)
{
    uint32_t a[] = { ADDI, ADDI, ADDI }, b[] = { CLI5 | CLI5 << 16 };
    rvt_image *ia = img_words(0x1000, a, 3), *ib = img_words(0x1004, b, 1);
    rvt_image *iz = rvt_image_new(), *top = img_words(UINT64_MAX - 3, a, 1);
    CHECK_EQ(rvt_image_add_bytes(iz, 0x5000, NULL, 0, "zero"), 0);
    uint8_t w[4] = { 0 };
    CHECK_EQ(rvt_image_add_bytes(top, UINT64_MAX - 1, w, 4, "wraps"), RVT_ERR_RANGE);
    rvt_mem *m = rvt_mem_new();
    rvt_mem_add_image(m, NULL, ia);
    rvt_mem_add_image(m, NULL, ib);
    rvt_mem_add_image(m, NULL, iz);
    rvt_mem_add_image(m, NULL, top);
    rvt_memv *v = rvt_memv_new(m);
    rvt_space s = sp(0, 3, 0);
    const rvt_insn *i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->raw == ADDI);
    i = rvt_memv_insn(v, 0x1004);
    CHECK(i && i->raw == CLI5);                     /* ib over ia */
    i = rvt_memv_insn(v, 0x1008);
    CHECK(i && i->raw == ADDI);                     /* ia past ib */
    CHECK(rvt_mem_image_at(m, &s, 0x1008) == ia);
    CHECK(rvt_memv_insn(v, 0x5000) == NULL);        /* zero size holds nothing */
    CHECK(rvt_mem_image_at(m, &s, 0x5000) == NULL);
    CHECK(rvt_memv_insn(v, 0x1001) == NULL);        /* odd */
    i = rvt_memv_insn(v, UINT64_MAX - 3);
    CHECK(i && i->raw == ADDI);
    CHECK(rvt_memv_insn(v, 0) == NULL);             /* no wrap */
    uint8_t buf[8];
    CHECK_EQ(rvt_mem_read(m, &s, UINT64_MAX - 3, buf, 8), 4);
    CHECK_EQ(rvt_mem_read(m, &s, UINT64_MAX, buf, 8), 1);
    rvt_memv_free(v);
    rvt_mem_free(m);
    rvt_image_free(ia);
    rvt_image_free(ib);
    rvt_image_free(iz);
    rvt_image_free(top);
}

/* rvt_mem_patches: content k in force after the k-th fence.i, over the
 * image's bytes; a bad line of a patch file is named by its byte offset. */
typedef struct diagrec {
    unsigned n;
    uint64_t off;
} diagrec;

static void rec_diag(void *ctx, int level, uint64_t off, const char *msg)
{
    diagrec *d = ctx;
    (void)level;
    (void)msg;
    d->n++;
    d->off = off;
}

static void patches(void)
{
    uint32_t a[] = { ADDI, ADDI };
    rvt_image *ia = img_words(0x1000, a, 2);
    rvt_mem *m = rvt_mem_new();
    rvt_mem_add_image(m, NULL, ia);
    rvt_mem_patches *p = rvt_mem_patches_new();
    CHECK_EQ(rvt_mem_patches_add(NULL, 1, 0, 4, 0), RVT_ERR_INVAL);
    CHECK_EQ(rvt_mem_patches_add(p, 0, 0x1000, 4, 0), RVT_ERR_INVAL);     /* content 0 */
    CHECK_EQ(rvt_mem_patches_add(p, 1, 0x1000, 5, 0), RVT_ERR_INVAL);     /* size 5 */
    CHECK_EQ(rvt_mem_patches_add(p, 1, UINT64_MAX - 1, 4, 0), RVT_ERR_INVAL);   /* wraps */
    CHECK_EQ(rvt_mem_patches_count(p), 0);

    char path[] = "/tmp/rvt_test_mem_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    /* content 1: c.li a0,5 (2 bytes) at 0x1000; content 2: jal x0,.+8 at 0x1004 */
    const char good[] = "# comment\n\n1 1000 2 4515 c.li a0,5\n2 0x1004 4 0x0080006f\n";
    const char bad[] = "1 1000 2 4515\n1 1000 2 4515x\n";
    CHECK_EQ(write(fd, good, sizeof good - 1), (ssize_t)(sizeof good - 1));
    diagrec dr = { 0 };
    CHECK_EQ(rvt_mem_patches_load(p, path, rec_diag, &dr), 0);
    CHECK_EQ(rvt_mem_patches_count(p), 2);
    CHECK_EQ(dr.n, 0);
    rvt_mem_patches *q = rvt_mem_patches_new();
    CHECK_EQ(ftruncate(fd, 0), 0);
    CHECK_EQ(pwrite(fd, bad, sizeof bad - 1, 0), (ssize_t)(sizeof bad - 1));
    CHECK_EQ(rvt_mem_patches_load(q, path, rec_diag, &dr), RVT_ERR_FORMAT);
    CHECK_EQ(dr.n, 1);
    CHECK_EQ(dr.off, 14);                           /* the second line starts at byte 14 */
    CHECK_EQ(rvt_mem_patches_load(q, "/nonexistent/x", rec_diag, &dr), RVT_ERR_IO);
    CHECK_EQ(rvt_mem_patches_load(q, "/tmp", rec_diag, &dr), RVT_ERR_IO);   /* a directory */
    rvt_mem_patches_free(q);
    close(fd);
    unlink(path);

    CHECK_EQ(rvt_mem_patches_attach(p, m), 0);
    rvt_memv *v = rvt_memv_new(m);
    const rvt_insn *i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->raw == ADDI);                     /* nothing in force yet */
    CHECK(rvt_mem_patches_fence(p));                /* content 1 */
    rvt_memv_flush(v);
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->len == 2 && i->raw == CLI5);
    /* the patch covers 2 bytes; the image's upper half of the addi follows */
    i = rvt_memv_insn(v, 0x1002);
    CHECK(i && i->raw == 0x0015);                   /* c.nop-like: the addi's top half */
    i = rvt_memv_insn(v, 0x1004);
    CHECK(i && i->raw == ADDI);
    CHECK(rvt_mem_patches_fence(p));                /* content 2 */
    rvt_memv_flush(v);
    i = rvt_memv_insn(v, 0x1004);
    CHECK(i && i->raw == JAL8);
    i = rvt_memv_insn(v, 0x1000);
    CHECK(i && i->raw == CLI5);                     /* content 1 stays */
    CHECK(!rvt_mem_patches_fence(p));               /* no content 3 */
    CHECK(!rvt_mem_patches_fence(NULL));
    CHECK_EQ(rvt_mem_patches_attach(NULL, m), RVT_ERR_INVAL);
    rvt_memv_free(v);
    rvt_mem_patches_free(p);
    rvt_mem_free(m);
    rvt_image_free(ia);
}

/* ---- decoders over an rvt_mem ---- */

/* One block of n 4-byte instructions from addr, the last of itype
 * (the 4-bit itype of E-Trace table 4.1: 0 none, 4 branch not taken,
 * 5 taken, 8 uninferable call, 13 return, 15 other inferable jump), and
 * its PCs. */
static size_t te_blk(rvt_irec *r, uint64_t addr, unsigned n, unsigned itype, unsigned priv,
                     uint64_t *pcs, size_t np)
{
    *r = (rvt_irec){ .iaddr = addr, .iretire = 2 * n, .ninstr = n, .itype = (uint8_t)itype,
                     .ilastsize = 1, .priv = (uint8_t)priv, .flags = RVT_IREC_F_CYCLE_END };
    for (unsigned k = 0; k < n; k++)
        pcs[np++] = addr + 4 * k;
    return np;
}


/* The PCs of the RVT_EV_INSN events and the RVT_EV_ERROR count. */
typedef struct got {
    uint64_t pc[64];
    size_t n;
    unsigned errors;
    /* self-modifying code: at the first retirement of fence_at, switch the
     * callback to version B and flush the decoder */
    cbm *smc;
    uint64_t fence_at;
    rvt_te_decoder *te;
    bool flush;
} got;

static int got_ev(void *ctx, const rvt_flow_event *ev)
{
    got *g = ctx;
    if (ev->kind == RVT_EV_ERROR)
        g->errors++;
    if (ev->kind != RVT_EV_INSN)
        return 0;
    if (g->n < 64)
        g->pc[g->n++] = ev->pc;
    if (g->smc && ev->pc == g->fence_at && !g->smc->version) {
        g->smc->version = 1;
        if (g->flush)
            rvt_te_decoder_flush(g->te);
    }
    return 0;
}

static void te_run(const rvt_te_attrs *a, const rvt_mem *m, const te_buf *s, got *g)
{
    int st = -1;
    rvt_te_decoder *d = rvt_te_decoder_new_mem(a, m, got_ev, g, &st);
    CHECK(d != NULL);
    CHECK_EQ(st, 0);
    if (!d)
        return;
    g->te = d;
    CHECK_EQ(rvt_te_decoder_run(d, s->b, s->n), 0);
    rvt_te_decoder_free(d);
}

static bool same_pcs(const got *g, const uint64_t *pcs, size_t np)
{
    return g->n == np && !memcmp(g->pc, pcs, np * sizeof *pcs);
}

/* E-Trace: the format 3 privilege picks the space.  te_prog runs in U
 * mode (privilege 0); at the same address an M-mode image holds other
 * code.  Keyed priv 0 the decode is exact; keyed priv 3 (the wrong space)
 * it is not. */
static void te_space_by_priv(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_te_attrs_fill(&a);
    rvt_irec r[4];
    uint64_t pcs[64];
    /* 00-14: li, li, auipc, addi, andi, beqz taken to 1c; 1c jalr to 50
     * (itype 8, uninferable call); 50 xor, 54 ret to 20 (13, return) */
    size_t np = te_blk(&r[0], TE_BASE, 6, 5, 0, pcs, 0);
    np = te_blk(&r[1], TE_BASE + 0x1c, 1, 8, 0, pcs, np);
    np = te_blk(&r[2], TE_BASE + 0x50, 2, 13, 0, pcs, np);
    np = te_blk(&r[3], TE_BASE + 0x20, 1, 0, 0, pcs, np);
    te_buf s;
    te_encode_recs(&a, r, 4, &s);
    uint32_t nops[NB(te_prog)];
    for (size_t i = 0; i < NB(te_prog); i++)
        nops[i] = ADDI;
    rvt_image *prog = te_image(te_prog, NB(te_prog)), *other = te_image(nops, NB(nops));
    rvt_space user = { RVT_SPACE_ANY_CONTEXT, 0, RVT_SPACE_ANY_SOURCE };
    rvt_space mach = { RVT_SPACE_ANY_CONTEXT, 3, RVT_SPACE_ANY_SOURCE };
    rvt_mem *m = rvt_mem_new();
    rvt_mem_add_image(m, &user, prog);
    rvt_mem_add_image(m, &mach, other);
    got g = { 0 };
    te_run(&a, m, &s, &g);
    CHECK(same_pcs(&g, pcs, np));
    CHECK_EQ(g.errors, 0);
    rvt_mem_free(m);
    m = rvt_mem_new();                 /* the wrong way round */
    rvt_mem_add_image(m, &mach, prog);
    rvt_mem_add_image(m, &user, other);
    memset(&g, 0, sizeof g);
    te_run(&a, m, &s, &g);
    CHECK(!same_pcs(&g, pcs, np));
    rvt_mem_free(m);
    free(s.b);
    rvt_image_free(prog);
    rvt_image_free(other);
}

/* E-Trace follows self-modifying code: the code at 0x80000008 changes
 * from addi (version A) to jal x0,.+8 (B) before the fence.i at 0x10.
 *   00 addi  04 addi  08 A: addi / B: jal x0,.+8  0c addi  10 fence.i
 *   14 bne a1,x0,.-20   18 addi
 * Executed: 00-14 (branch taken), 00 04 08 (the jal) 10 14 (not taken) 18.
 * The callback serves 0x08 (the image holds the rest, RVT_MEM_READ_FIRST:
 * the patched word over the ELF's); the event callback switches it to B
 * and flushes at the first fence.i.  Without the flush the decoder keeps
 * the old addi and walks through 0x0c again. */
static void te_smc_flush(void)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_te_attrs_fill(&a);
    uint32_t code[] = { ADDI, ADDI, ADDI, ADDI, FENCEI, BNE_M20, ADDI };
    rvt_image *img = te_image(code, NB(code));
    rvt_irec r[4];
    uint64_t pcs[64];
    size_t np = te_blk(&r[0], TE_BASE, 6, 5, 3, pcs, 0);
    np = te_blk(&r[1], TE_BASE, 3, 15, 3, pcs, np);   /* 15: other inferable jump */
    np = te_blk(&r[2], TE_BASE + 0x10, 2, 4, 3, pcs, np);
    np = te_blk(&r[3], TE_BASE + 0x18, 1, 0, 3, pcs, np);
    te_buf s;
    te_encode_recs(&a, r, 4, &s);
    cbm c = { .at = TE_BASE + 8, .word = { ADDI, JAL8 } };
    rvt_mem *m = rvt_mem_new();
    rvt_mem_add_image(m, NULL, img);
    rvt_mem_set_read(m, cb_read, &c, RVT_MEM_READ_FIRST);
    got g = { .smc = &c, .fence_at = TE_BASE + 0x10, .flush = true };
    te_run(&a, m, &s, &g);
    CHECK(same_pcs(&g, pcs, np));
    CHECK_EQ(g.errors, 0);
    c.version = 0;                     /* again, without the flush */
    memset(&g, 0, sizeof g);
    g = (got){ .smc = &c, .fence_at = TE_BASE + 0x10, .flush = false };
    te_run(&a, m, &s, &g);
    CHECK(!same_pcs(&g, pcs, np));
    CHECK_EQ(g.n > 9 ? g.pc[9] : 0, TE_BASE + 0x0c);   /* after the stale addi at 08 */
    rvt_mem_free(m);
    free(s.b);
    rvt_image_free(img);
}

/* Sources 1 and 2 running different code at 0x1000 (three addi / six
 * c.li), each traced as one stream of 6 half-words, and an rvt_mem that
 * keys each image by its source. */
typedef struct two_src {
    rvt_nt_cfg cfg;
    cap one, two;
    rvt_image *ia, *ic;
    rvt_mem *m;
} two_src;

static void two_src_open(two_src *t)
{
    rvt_nt_cfg_default(&t->cfg);
    t->cfg.src_bits = 2;
    rvt_nt_msg msgs[16];
    rvt_irec r = rec(0x1000, 6, 0, 1);
    r.ninstr = 3;
    t->cfg.src_id = 1;
    encode(&t->cfg, &r, 1, &t->one, msgs, 16);
    r = rec(0x1000, 6, 0, 0);
    r.ninstr = 6;
    t->cfg.src_id = 2;
    encode(&t->cfg, &r, 1, &t->two, msgs, 16);
    uint32_t a[] = { ADDI, ADDI, ADDI }, c[] = { CLI5 | CLI5 << 16, CLI5 | CLI5 << 16,
                                                 CLI5 | CLI5 << 16 };
    t->ia = img_words(0x1000, a, 3);
    t->ic = img_words(0x1000, c, 3);
    rvt_space k1 = { RVT_SPACE_ANY_CONTEXT, RVT_SPACE_ANY_PRIV, 1 };
    rvt_space k2 = { RVT_SPACE_ANY_CONTEXT, RVT_SPACE_ANY_PRIV, 2 };
    t->m = rvt_mem_new();
    rvt_mem_add_image(t->m, &k1, t->ia);
    rvt_mem_add_image(t->m, &k2, t->ic);
}

static void two_src_close(two_src *t)
{
    rvt_mem_free(t->m);
    rvt_image_free(t->ia);
    rvt_image_free(t->ic);
}

/* The two sources' streams one after the other, rounds times (malloc'd). */
static uint8_t *two_src_stream(const two_src *t, size_t rounds, size_t *n)
{
    uint8_t *b = malloc(rounds * (t->one.n + t->two.n) + 1);
    *n = 0;
    for (size_t k = 0; b && k < rounds; k++) {
        memcpy(b + *n, t->one.b, t->one.n);
        *n += t->one.n;
        memcpy(b + *n, t->two.b, t->two.n);
        *n += t->two.n;
    }
    return b;
}

/* N-Trace: the SRC picks the space (two_src): each stream walks 6
 * half-words of its own source's code. */
static void nt_space_by_src(void)
{
    two_src t;
    two_src_open(&t);
    size_t n;
    uint8_t *both = two_src_stream(&t, 1, &n);
    int st = -1;
    pcs p = { 0 };
    rvt_nt_decoder *d = rvt_nt_decoder_new_mem(&t.cfg, t.m, -1, pcs_ev, &p, &st);
    CHECK(d != NULL);
    if (d && both) {
        CHECK_EQ(rvt_nt_decode(d, both, n), 0);
    }
    rvt_nt_decoder_free(d);
    uint64_t want[] = { 0x1000, 0x1004, 0x1008,
                        0x1000, 0x1002, 0x1004, 0x1006, 0x1008, 0x100a };
    CHECK_EQ(p.errors, 0);
    CHECK_EQ(p.n, NB(want));
    CHECK_MEM(p.pc, want, sizeof want);
    free(both);
    two_src_close(&t);
}

/* The same two sources taking turns 100 times in one stream: every round
 * decodes to each source's own code, and the decoder's cache was never
 * flushed (rvt_nt_dec_stats.cache_flushes). */
typedef struct turns { uint64_t n, wrong, errors; } turns;

static int turns_ev(void *ctx, const rvt_flow_event *ev)
{
    static const uint64_t round[] = { 0x1000, 0x1004, 0x1008,
                                      0x1000, 0x1002, 0x1004, 0x1006, 0x1008, 0x100a };
    turns *t = ctx;
    if (ev->kind == RVT_EV_INSN)
        t->wrong += ev->pc != round[t->n++ % NB(round)];
    t->errors += ev->kind == RVT_EV_ERROR;
    return 0;
}

static void nt_space_turns(void)
{
    two_src t;
    two_src_open(&t);
    size_t n, rounds = 100;
    uint8_t *b = two_src_stream(&t, rounds, &n);
    int st = -1;
    turns tu = { 0 };
    rvt_nt_decoder *d = rvt_nt_decoder_new_mem(&t.cfg, t.m, -1, turns_ev, &tu, &st);
    CHECK(d != NULL);
    if (d && b) {
        CHECK_EQ(rvt_nt_decode(d, b, n), 0);
        rvt_nt_dec_stats ds;
        CHECK_EQ(rvt_nt_decoder_stats(d, &ds), 0);
        CHECK_EQ(ds.cache_flushes, 0);
    }
    rvt_nt_decoder_free(d);
    CHECK_EQ(tu.n, rounds * 9);
    CHECK_EQ(tu.wrong, 0);
    CHECK_EQ(tu.errors, 0);
    free(b);
    two_src_close(&t);
}

int main(void)
{
    space_change_keeps();
    cache_spaces_kept();
    cache_spaces_recycled();
    space_select();
    wildcard();
    callback();
    flush();
    null_args();
    hostile();
    patches();
    te_space_by_priv();
    te_smc_flush();
    nt_space_by_src();
    nt_space_turns();
    return TH_DONE();
}
