/* The PC-list writers' block path (src/out/pc_list.c): a block seen
 * before is copied from the bytes it was first written as, straight
 * into the output buffer, the write position kept over a batch and the
 * buffer written out when less than a slot's room is left.  Blocks of
 * known code -- compressed and 4-byte instructions mixed, so a block's
 * pcs depend on every length in it -- are fed to "pcs-bin" (an RV64 and
 * an RV32 image) and "pcs", in batches of 256, 5 and 1 and one at a
 * time (rvt_out_block), after a prefix that moves where the 256 KiB
 * buffer fills up to every byte offset (text) or pc (binary) over more
 * than a slot's length; the bytes must be the pcs the test works out
 * itself from the lengths it chose.  Two sets of blocks: mixed -- the
 * same start with other lengths (a stale copy would repeat the old
 * length's pcs), starts that share a slot, blocks longer than the shapes
 * the writer keeps (32 instructions), longer than the 64 bytes always
 * copied, and of one instruction -- and the longest copies only (32
 * instructions of 16-digit pcs: 544 bytes of text, a slot's most), so
 * that a copy of the most a slot holds meets the end of the buffer at
 * every offset (past its end, under ASan, a write out of bounds).  Each
 * writer twice: as opened, and with the batch loop's baseline copies
 * (pc_list.h `wide` false), the loop a CPU without AVX2 runs, which this
 * one may not choose itself. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "rvtrace/flow.h"
#include "rvtrace/out.h"
#include "rvtrace/pcbin.h"
#include "out/pc_list.h"
#include "test_bytes_util.h"
#include "test_hart_util.h"
#include "out/fmt.h"

#define NCODE 700u                  /* instructions of the test code */
/* blocks after the prefix: past the buffer (RVT_OBUF_SIZE, 256 KiB) for
 * the least of them (RV32 pcs-bin of the mixed blocks, 4 bytes a pc) */
#define NBLOCKS (1400u * (RVT_OBUF_SIZE / 65536u) + 800u)
#define PREFIX_MAX 300u             /* prefix lines: 2 bytes each in text, 600 > a slot (544) */

typedef struct code {
    uint64_t at[NCODE + 1];         /* the pc of each instruction, and the end */
} code;

typedef struct blk {
    unsigned first, n;              /* instructions at[first .. first + n) */
} blk;

/* A fixed sequence (the same every run), so a failure repeats. */
static uint32_t next_rand(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* NCODE nops at base, each c.nop (0x0001, 2 bytes) or addi x0,x0,0
 * (0x00000013, 4 bytes) as the sequence says, added to img. */
static void make_code(code *c, rvt_image *img, uint64_t base)
{
    static uint8_t bytes[4 * NCODE];
    uint32_t s = 7;
    size_t len = 0;
    for (unsigned i = 0; i < NCODE; i++) {
        c->at[i] = base + len;
        if (next_rand(&s) & 1) {
            memcpy(bytes + len, (const uint8_t[]){ 0x01, 0x00 }, 2);
            len += 2;
        } else {
            memcpy(bytes + len, (const uint8_t[]){ 0x13, 0x00, 0x00, 0x00 }, 4);
            len += 4;
        }
    }
    c->at[NCODE] = base + len;
    CHECK_EQ(rvt_image_add_bytes(img, base, bytes, len, "nops"), 0);
}

/* The blocks: 48 starts, each mostly with a length of its own (so most
 * blocks are copies of what their slot holds) and one time in five with
 * any other (the same start, other lengths); lengths 1..40 (most within
 * 8, which the first 64-byte copy holds; over 32 the writer keeps no
 * copy). */
static void make_mixed(blk *b)
{
    static const unsigned lens[] = { 1, 2, 3, 5, 8, 8, 8, 9, 13, 16, 17, 32, 32, 33, 40 };
    const unsigned nlens = sizeof lens / sizeof lens[0];
    uint32_t s = 11;
    for (unsigned i = 0; i < NBLOCKS; i++) {
        unsigned start = next_rand(&s) % 48;
        unsigned n = next_rand(&s) % 5 ? lens[start % nlens] : lens[next_rand(&s) % nlens];
        b[i] = (blk){ start * 13, n };
    }
}

/* The longest copies: 32 instructions (the most the writer keeps) from
 * one of 4 starts, so wherever the buffer fills up, a copy of the most
 * bytes a slot holds is written there. */
static void make_longest(blk *b)
{
    for (unsigned i = 0; i < NBLOCKS; i++)
        b[i] = (blk){ (i % 4) * 13, 32 };
}

/* Pairs of the blocks' starts that share one of the writer's 256 slots
 * (start pc / 2 modulo 256; pc_list.h): each evicts the other. */
static unsigned sharing(const code *c)
{
    unsigned pairs = 0;
    for (unsigned i = 0; i < 48; i++)
        for (unsigned j = i + 1; j < 48; j++)
            pairs += ((c->at[13 * i] ^ c->at[13 * j]) >> 1 & 255) == 0;
    return pairs;
}

/* What a writer is fed: prefix blocks of one instruction at pc 1 (a
 * text line of 2 bytes), one at 0x10 (3 bytes) if odd, then the test
 * blocks. */
typedef struct feed {
    const code *c;
    const blk *b;
    unsigned prefix;
    bool odd;
} feed;

static size_t feed_len(const feed *f)
{
    return f->prefix + f->odd + NBLOCKS;
}

static rvt_block feed_block(const feed *f, size_t i)
{
    if (i < f->prefix + f->odd) {
        uint64_t pc = i < f->prefix ? 1 : 0x10;
        return (rvt_block){ .start_pc = pc, .end_pc = pc, .ninsn = 1, .next_pc = pc };
    }
    const blk *k = &f->b[i - f->prefix - f->odd];
    uint64_t end = f->c->at[k->first + k->n - 1];
    return (rvt_block){ .start_pc = f->c->at[k->first], .end_pc = end, .ninsn = k->n, .next_pc = end };
}

/* Where a writer's bytes go: one buffer for every run (te_buf, a FILE
 * over it by fopencookie), not a stream grown each time. */
typedef te_buf sink;

static ssize_t sink_write(void *cookie, const char *p, size_t n)
{
    return te_buf_put(cookie, (const uint8_t *)p, n) == 0 ? (ssize_t)n : -1;
}

static FILE *sink_open(sink *k)
{
    k->n = 0;
    return fopencookie(k, "w", (cookie_io_functions_t){ .write = sink_write });
}

/* The expected bytes of pc: little-endian xlen/8 bytes, or "%x\n" (xlen 0). */
static void put_pc(FILE *f, uint64_t pc, unsigned xlen)
{
    if (!xlen) {
        fprintf(f, "%" PRIx64 "\n", pc);
        return;
    }
    for (unsigned byte = 0; byte < xlen / 8; byte++)
        fputc((int)(pc >> (8 * byte)) & 0xff, f);
}

/* The expected bytes of the feed's prefix (the header first) into k. */
static void expect_prefix(sink *k, const feed *f, unsigned xlen)
{
    FILE *m = sink_open(k);
    if (xlen) {
        uint8_t hdr[RVT_PCBIN_HEADER];
        rvt_pcbin_header(hdr, xlen);
        fwrite(hdr, 1, sizeof hdr, m);
    }
    for (size_t i = 0; i < f->prefix + f->odd; i++)
        put_pc(m, feed_block(f, i).start_pc, xlen);
    fclose(m);
}

/* The expected bytes of the test blocks, pc by pc from the chosen
 * lengths, into k. */
static void expect_body(sink *k, const code *c, const blk *b, unsigned xlen)
{
    FILE *m = sink_open(k);
    for (size_t i = 0; i < NBLOCKS; i++)
        for (unsigned j = 0; j < b[i].n; j++)
            put_pc(m, c->at[b[i].first + j], xlen);
    fclose(m);
}

/* The writer narrow_open opens (a PC list's), its copies then the
 * baseline's. */
static const rvt_out_writer *narrowed;

static void *narrow_open(FILE *f, rvt_image *img)
{
    rvt_pc_list *l = narrowed->open(f, img);
    if (l)
        l->wide = false;
    return l;
}

/* What writer w makes of the feed into k, in batches of `batch` (0:
 * one rvt_out_block a block). */
static void written(sink *k, const rvt_out_writer *w, rvt_image *img, const feed *f, size_t batch)
{
    FILE *m = sink_open(k);
    rvt_out *o = rvt_out_open(w, m, img);
    CHECK(o != NULL);
    rvt_block b[256];
    size_t total = feed_len(f), insns = 0;
    unsigned refused = 0;
    for (size_t i = 0; i < total;) {
        size_t n = 0;
        for (; n < (batch ? batch : 1) && i < total; n++, i++) {
            b[n] = feed_block(f, i);
            insns += b[n].ninsn;
        }
        refused += (batch ? rvt_out_blocks(o, b, n, NULL) : rvt_out_block(o, b)) != 0;
    }
    CHECK_EQ(refused, 0);
    CHECK_EQ(rvt_out_insns(o), insns);
    rvt_out_free(o);
    fclose(m);
}

/* Every prefix and batch size for one writer (xlen 0: text); the
 * prefixes move the buffer's fill by every byte (text) or pc (binary)
 * over 600 bytes, more than a slot (544). */
static void check_writer_as(const rvt_out_writer *w, unsigned xlen, rvt_image *img, const code *c, const blk *b)
{
    static const size_t batches[] = { 256, 5, 1, 0 };
    static sink body, pre, got;
    const char *writer = w->name;
    expect_body(&body, c, b, xlen);
    unsigned bad = 0, prefixes = 600 / (xlen ? xlen / 8 : 2);
    for (unsigned prefix = 0; prefix <= prefixes; prefix++)
        for (int odd = 0; odd < 2; odd++)
            for (size_t k = 0; k < sizeof batches / sizeof batches[0]; k++) {
                /* the odd line moves text by a byte, binary by a pc (as
                 * the next prefix); the smaller batches at fewer offsets */
                if ((xlen && odd) || (batches[k] != 256 && prefix % 7))
                    continue;
                feed f = { c, b, prefix, odd };
                expect_prefix(&pre, &f, xlen);
                written(&got, w, img, &f, batches[k]);
                if (got.n != pre.n + body.n || memcmp(got.b, pre.b, pre.n) ||
                    memcmp(got.b + pre.n, body.b, body.n)) {
                    if (!bad++)
                        fprintf(stderr, "%s%s xlen %u: prefix %u%s batch %zu differs\n", writer,
                                w->open == narrow_open ? " (baseline copies)" : "", xlen, prefix, odd ? "+1" : "",
                                batches[k]);
                }
            }
    CHECK_EQ(bad, 0);
    CHECK(body.n > RVT_OBUF_SIZE);    /* past the buffer: written out at least once */
}

/* The writer as opened, then with the baseline copies. */
static void check_writer(const char *writer, unsigned xlen, rvt_image *img, const code *c, const blk *b)
{
    narrowed = rvt_out_find(writer);
    CHECK(narrowed != NULL);
    rvt_out_writer narrow = *narrowed;
    narrow.open = narrow_open;
    check_writer_as(narrowed, xlen, img, c, b);
    check_writer_as(&narrow, xlen, img, c, b);
}

int main(void)
{
    static code c64, c32;
    static blk mixed[NBLOCKS], longest[NBLOCKS];
    make_mixed(mixed);
    make_longest(longest);
    rvt_image *img64 = rvt_image_new();
    /* no ELF: 64-bit pcs, 16 digits each (17 bytes a line: a slot's most) */
    make_code(&c64, img64, 0xfff0000012345000ull);
    CHECK(sharing(&c64) > 0);
    for (int k = 0; k < 2; k++) {
        check_writer("pcs-bin", 64, img64, &c64, k ? longest : mixed);
        check_writer("pcs", 0, img64, &c64, k ? longest : mixed);
    }
    rvt_image *img32 = th_program("crc_rv32");      /* an ELF32: 4-byte pcs */
    CHECK(img32 != NULL);
    if (img32) {
        CHECK_EQ(rvt_image_xlen(img32), 32);
        make_code(&c32, img32, 0x40000000u);
        check_writer("pcs-bin", 32, img32, &c32, mixed);
        check_writer("pcs-bin", 32, img32, &c32, longest);
        rvt_image_free(img32);
    }
    rvt_image_free(img64);
    return TH_DONE();
}
