/* perf.data reader and writer (rvtrace/perfdata.h): a file built byte by
 * byte from tools/perf/Documentation/perf.data-file-format.txt and
 * linux/perf_event.h reads back field by field; hostile files give the
 * status and the offset of the byte at fault; the writer's file has the
 * layout the format document gives and reads back. */
#include <string.h>
#include "tharness.h"
#include "rvtrace/perfdata.h"

static uint8_t file[1024];
static size_t flen;

static void put(size_t at, uint64_t v, unsigned n)
{
    for (unsigned i = 0; i < n; i++, v >>= 8)
        file[at + i] = (uint8_t)v;
}

/* header (104) | attr VER0 (64) + ids section (16) at 104 | data at 184:
 *   184 COMM      size 24: pid 7 tid 8 "ab\0" padded to 8
 *   208 MMAP2     size 80: pid 7 tid 8 addr 0x10000 len 0x2000 pgoff 0x1000,
 *                 maj..ino_gen 0, prot 5, flags 2, "/x\0" padded to 8
 *   288 AUXTRACE_INFO size 24: type 9, reserved, priv[0] = 0x1234
 *   312 AUXTRACE  size 48: size 3 offset 0x40 ref 1 idx 2 tid 8 cpu 2,
 *                 then the 3 data bytes AA BB CC (not in header.size)
 *   363 end */
static void build(void)
{
    memset(file, 0, sizeof file);
    memcpy(file, "PERFILE2", 8);
    put(8, 104, 8);                 /* header size */
    put(16, 80, 8);                 /* attr_size: 64 + ids section */
    put(24, 104, 8), put(32, 80, 8);        /* attrs */
    put(40, 184, 8), put(48, 363 - 184, 8); /* data */
    file[72 + 2] = 0x04;            /* feature bit 18 (HEADER_AUXTRACE) */
    put(104, 8, 4), put(108, 64, 4), put(112, 0x99, 8);     /* type, size, config */
    put(128, 0x7, 8);               /* sample_type */
    put(144, 1u << 18, 8);          /* flags: sample_id_all */
    put(104 + 64, 0, 8), put(104 + 72, 0, 8);               /* ids: none */
    put(184, 3, 4), put(188, 0, 2), put(190, 24, 2);
    put(192, 7, 4), put(196, 8, 4), memcpy(file + 200, "ab", 3);
    put(208, 10, 4), put(212, 2, 2), put(214, 80, 2);
    put(216, 7, 4), put(220, 8, 4), put(224, 0x10000, 8), put(232, 0x2000, 8);
    put(240, 0x1000, 8), put(272, 5, 4), put(276, 2, 4), memcpy(file + 280, "/x", 3);
    put(288, 70, 4), put(294, 24, 2), put(296, 9, 4), put(304, 0x1234, 8);
    put(312, 71, 4), put(318, 48, 2), put(320, 3, 8), put(328, 0x40, 8), put(336, 1, 8);
    put(344, 2, 4), put(348, 8, 4), put(352, 2, 4);
    file[360] = 0xAA, file[361] = 0xBB, file[362] = 0xCC;
    flen = 363;
}

static void reads_back(void)
{
    build();
    CHECK(rvt_perf_is(file, flen));
    int st;
    uint64_t bad;
    rvt_perf_file *f = rvt_perf_open(file, flen, &st, &bad);
    CHECK(f != NULL);
    CHECK_EQ(rvt_perf_nattrs(f), 1);
    const rvt_perf_attr *a = rvt_perf_attr_at(f, 0);
    CHECK_EQ(a->type, 8);
    CHECK_EQ(a->size, 64);
    CHECK_EQ(a->config, 0x99);
    CHECK_EQ(a->sample_type, 7);
    CHECK_EQ(a->flags, 1u << 18);
    CHECK(rvt_perf_has_feature(f, 18));
    CHECK(!rvt_perf_has_feature(f, 17));
    rvt_perf_record r;
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.type, RVT_PERF_RECORD_COMM);
    CHECK_EQ(r.offset, 184);
    CHECK_EQ(r.pid, 7);
    CHECK_EQ(r.tid, 8);
    CHECK(!strcmp(r.name, "ab"));
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.type, RVT_PERF_RECORD_MMAP2);
    CHECK_EQ(r.misc, 2);
    CHECK_EQ(r.addr, 0x10000);
    CHECK_EQ(r.len, 0x2000);
    CHECK_EQ(r.pgoff, 0x1000);
    CHECK_EQ(r.prot, 5);
    CHECK_EQ(r.flags, 2);
    CHECK(!strcmp(r.name, "/x"));
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.type, RVT_PERF_RECORD_AUXTRACE_INFO);
    CHECK_EQ(r.aux_type, 9);
    CHECK_EQ(r.npriv, 1);
    CHECK_EQ(r.priv[0], 0x34);
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.type, RVT_PERF_RECORD_AUXTRACE);
    CHECK_EQ(r.size, 48);
    CHECK_EQ(r.data_len, 3);
    CHECK_EQ(r.aux_offset, 0x40);
    CHECK_EQ(r.aux_ref, 1);
    CHECK_EQ(r.aux_idx, 2);
    CHECK_EQ(r.tid, 8);
    CHECK_EQ(r.cpu, 2);
    CHECK_EQ(r.data_offset, 360);
    CHECK_EQ(r.data[0], 0xAA);
    CHECK_EQ(r.data[2], 0xCC);
    CHECK_EQ(rvt_perf_next(f, &r), 0);
    CHECK(!strcmp(rvt_perf_record_name(71), "AUXTRACE"));
    rvt_perf_close(f);
}

/* open fails with st at byte bad */
static void open_fails(int want, uint64_t want_bad)
{
    int st;
    uint64_t bad = 0;
    CHECK(rvt_perf_open(file, flen, &st, &bad) == NULL);
    CHECK_EQ(st, want);
    CHECK_EQ(bad, want_bad);
}

/* the n-th record fails with st at byte off */
static void record_fails(unsigned nth, int want, uint64_t off)
{
    rvt_perf_file *f = rvt_perf_open(file, flen, NULL, NULL);
    CHECK(f != NULL);
    rvt_perf_record r;
    for (unsigned i = 0; i < nth; i++)
        CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(rvt_perf_next(f, &r), want);
    CHECK_EQ(r.offset, off);
    CHECK_EQ(rvt_perf_next(f, &r), 0);      /* and it stops there */
    rvt_perf_close(f);
}

static void hostile(void)
{
    build(), flen = 50;
    open_fails(RVT_ERR_TRUNC, 50);              /* header cut */
    build(), memcpy(file, "2ELIFREP", 8);
    open_fails(RVT_ERR_VERSION, 0);             /* big-endian */
    build(), put(8, 100, 8);
    open_fails(RVT_ERR_FORMAT, 8);              /* header.size < 104 */
    build(), put(32, 400, 8);
    open_fails(RVT_ERR_FORMAT, 24);             /* attrs beyond the file */
    build(), put(48, 1000, 8);
    open_fails(RVT_ERR_FORMAT, 40);             /* data beyond the file */
    build(), put(16, 70, 8);
    open_fails(RVT_ERR_FORMAT, 16);             /* attr_size < 64 + 16 */
    build(), put(104 + 72, 1u << 20, 8);
    open_fails(RVT_ERR_FORMAT, 104 + 64);       /* ids section beyond the file */
    build(), put(190, 4, 2);
    record_fails(0, RVT_ERR_FORMAT, 184);       /* record size < 8 */
    build(), put(190, 0x8000, 2);
    record_fails(0, RVT_ERR_TRUNC, 184);        /* record past the data section */
    build(), memcpy(file + 280, "/xyzwvut", 8);
    record_fails(1, RVT_ERR_FORMAT, 208);       /* filename without its NUL */
    build(), put(214, 60, 2), put(208 + 60, 0x7777, 4);
    record_fails(1, RVT_ERR_FORMAT, 208);       /* MMAP2 shorter than its fixed part */
    build(), put(320, 4, 8);
    record_fails(3, RVT_ERR_TRUNC, 312);        /* AUX data past the end */
    build(), put(320, UINT64_MAX, 8);
    record_fails(3, RVT_ERR_TRUNC, 312);        /* ... by a size that wraps */
    build(), put(48, 363 - 184 - 1, 8);
    record_fails(3, RVT_ERR_TRUNC, 312);        /* data section one byte short */
}

/* The writer: header fields at the offsets of the format document, and the
 * records read back. */
static void writer(void)
{
    rvt_perf_writer *w = rvt_perf_writer_new(NULL);
    CHECK(w != NULL);
    CHECK_EQ(rvt_perf_write_comm(w, 1, 1, "prog"), 0);
    CHECK_EQ(rvt_perf_write_mmap2(w, 1, 1, 0x80000000, 0x3000, 0, 5, 2, "/prog.elf"), 0);
    const uint8_t aux[] = { 1, 2, 3, 4, 5 };
    CHECK_EQ(rvt_perf_write_auxtrace(w, 1, 1, aux, sizeof aux), 0);
    CHECK_EQ(rvt_perf_write_auxtrace(w, 1, 1, aux, 2), 0);
    const uint8_t *b;
    size_t n;
    CHECK_EQ(rvt_perf_writer_finish(w, &b, &n), 0);
    /* header 104 + attr 112 + ids 16 = 232: data; COMM 8+8+8 = 24, MMAP2
     * 8+64+16 = 88, AUXTRACE 48 + 8 (5 bytes padded), 48 + 8 */
    CHECK_EQ(n, 232 + 24 + 88 + 56 + 56);
    CHECK(!memcmp(b, "PERFILE2", 8));
    CHECK_EQ(b[8], 104);
    CHECK_EQ(b[16], 128);           /* attr_size */
    CHECK_EQ(b[24], 104);           /* attrs.offset */
    CHECK_EQ(b[40], 232);           /* data.offset */
    CHECK_EQ(b[48], 224);           /* data.size */
    CHECK_EQ(b[104 + 4], 112);      /* attr.size */
    rvt_perf_file *f = rvt_perf_open(b, n, NULL, NULL);
    CHECK(f != NULL);
    rvt_perf_record r;
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK(r.type == RVT_PERF_RECORD_COMM && !strcmp(r.name, "prog"));
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK(r.type == RVT_PERF_RECORD_MMAP2 && !strcmp(r.name, "/prog.elf"));
    CHECK_EQ(r.addr, 0x80000000);
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.data_len, 8);
    CHECK_EQ(r.aux_offset, 0);
    CHECK_EQ(r.cpu, 1);
    CHECK(!memcmp(r.data, aux, 5) && r.data[5] == 0);
    CHECK_EQ(rvt_perf_next(f, &r), 1);
    CHECK_EQ(r.aux_offset, 8);      /* the first record's padded size */
    CHECK_EQ(rvt_perf_next(f, &r), 0);
    rvt_perf_close(f);
    rvt_perf_writer_free(w);
}

/* A RISC-V AUXTRACE_INFO (docs/formats.md) read back from hand-made priv
 * words: priv[0] = PMU type 8 << 32 | 2 blocks; CPU 1's block in the
 * proposed layout's five values (no trTeInstFeatures), CPU 4's with
 * rvtrace's sixth.  A record of another type, a CPU without a block, and
 * blocks that do not fit are told apart. */
static int riscv_info(uint32_t type, const uint64_t *priv, size_t npriv, uint32_t cpu,
                      rvt_perf_riscv_te *te)
{
    rvt_perf_record r = { .type = RVT_PERF_RECORD_AUXTRACE_INFO, .aux_type = type,
                          .priv = (const uint8_t *)priv, .npriv = npriv };
    return rvt_perf_riscv_te_info(&r, cpu, te);
}

static void riscv_te(void)
{
    /* cpu, nparams, format, context, inhibit_src, src_bits, src_id[, features] */
    uint64_t p[] = { 8ull << 32 | 2, 1, 5, 0, 1, 0, 12, 0xABC, 4, 6, 0, 0, 1, 4, 3, 0x25 };
    rvt_perf_riscv_te te;
    CHECK_EQ(riscv_info(8, p, 16, 1, &te), 1);
    CHECK(te.cpu == 1 && te.format == 0 && te.context && !te.inhibit_src);
    CHECK(te.src_bits == 12 && te.src_id == 0xABC && !te.has_features);
    CHECK_EQ(riscv_info(8, p, 16, 4, &te), 1);
    CHECK(te.cpu == 4 && !te.context && te.inhibit_src && te.src_bits == 4 && te.src_id == 3);
    CHECK(te.has_features && te.features == 0x25);
    CHECK_EQ(riscv_info(8, p, 16, 2, &te), 0);      /* no block for CPU 2 */
    CHECK_EQ(riscv_info(3, p, 16, 1, &te), 0);      /* CoreSight's type: not ours */
    CHECK_EQ(riscv_info(8, p, 15, 4, &te), RVT_ERR_FORMAT);   /* CPU 4's block cut */
    p[2] = 4;                                        /* nparams below five */
    CHECK_EQ(riscv_info(8, p, 16, 1, &te), RVT_ERR_FORMAT);
    p[2] = 5;
    p[0] = 8ull << 32 | 3;                           /* a third block past the end */
    CHECK_EQ(riscv_info(8, p, 16, 9, &te), RVT_ERR_FORMAT);
    CHECK_EQ(rvt_perf_riscv_te_info(NULL, 1, &te), RVT_ERR_INVAL);
    /* the writer's words are the same layout */
    rvt_perf_riscv_te in[2] = { { .cpu = 1, .context = true, .src_bits = 12, .src_id = 0xABC },
                                { .cpu = 4, .inhibit_src = true, .src_bits = 4, .src_id = 3,
                                  .features = 0x25 } };
    uint64_t w[1 + 2 * (2 + RVT_PERF_RISCV_PARAMS)];
    CHECK_EQ(rvt_perf_riscv_te_priv(8, in, 2, w), 17);
    uint64_t want[] = { 8ull << 32 | 2, 1, 6, 0, 1, 0, 12, 0xABC, 0, 4, 6, 0, 0, 1, 4, 3, 0x25 };
    CHECK_MEM(w, want, sizeof want);
}

int main(void)
{
    reads_back();
    hostile();
    writer();
    riscv_te();
    return TH_DONE();
}
