/* .rvi files: random round trip, replay, and truncated/corrupt files with
 * the byte offsets docs/format-rvi.md implies.  Record sizes used below
 * (kind byte included): header 16, full block 49, short block 12, data 37,
 * end 9; version 2 (test_v2_*): step 1 (+ varint), run 2 + a bit a step.
 * The version-1 tests write version 1 on purpose: old files still read. */
#include <fcntl.h>
#include <unistd.h>
#include "rvtrace/ingress.h"
#include "ingress/steps.h"
#include "tharness.h"

static char tmpdir[] = "/tmp/rvt_test_rvi_XXXXXX";
static char path[256], path2[256];
static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    return th_xorshift64(&rng);
}

static rvt_irec rand_irec(const rvt_irec *prev)
{
    rvt_irec r;
    memset(&r, 0, sizeof r);
    bool near = prev && (rnd() & 3);
    r.ninstr = rnd() % 4;
    r.iretire = r.ninstr * 2 + (uint32_t)(rnd() % 3);
    r.itype = rnd() % 16;
    r.ilastsize = rnd() % 2;
    r.sijump = rnd() % 2;
    r.flags = rnd() & RVT_IREC_F_CYCLE_END;
    if (near) {          /* a block the short form can carry */
        r.iaddr = prev->iaddr + (rnd() % 4096) - 2048;
        r.time = prev->time + rnd() % 1000;
        r.priv = prev->priv;
        r.context = prev->context;
    } else {
        r.iaddr = rnd();
        r.time = rnd();
        r.priv = rnd() % 4;
        r.context = rnd();
        r.tval = rnd();
        r.cause = (uint16_t)rnd();
        r.ctype = rnd() % 4;
        r.flags = rnd() & 0x7f;
        r.iretire = (uint32_t)rnd();
        r.ninstr = r.iretire / 3;
    }
    return r;
}

static rvt_drec rand_drec(void)
{
    static const uint8_t types[] = { 0, 1, 4, 5, 6, 8, 9, 10, 11, 12, 13, 14 };
    rvt_drec d = { rnd(), rnd(), rnd(), rnd(), types[rnd() % 12], rnd() % 5, rnd() % 4, rnd() % 2, 0, 0 };
    return d;
}

#define NREC 5000
static rvt_irec irecs[NREC];
static rvt_drec drecs[NREC];
static bool isdata[NREC];

/* Field by field: rvt_drec has tail padding, so memcmp would compare
 * indeterminate bytes. */
static bool drec_eq(const rvt_drec *a, const rvt_drec *b)
{
    return a->iaddr == b->iaddr && a->addr == b->addr && a->data == b->data &&
           a->data2 == b->data2 && a->dtype == b->dtype && a->dsize == b->dsize &&
           a->dblock == b->dblock && a->flags == b->flags;
}

static rvt_irec rand_step(const rvt_irec *prev);

/* NREC random records into s, one in data_1_in a data record; with
 * steps, 15 blocks in 16 are version-2 steps. */
static void put_random(const rvt_irec_sink *s, unsigned data_1_in, bool steps)
{
    const rvt_irec *prev = NULL;
    for (int i = 0; i < NREC; i++) {
        isdata[i] = i > 0 && rnd() % data_1_in == 0;
        if (isdata[i]) {
            drecs[i] = rand_drec();
            CHECK_EQ(s->data(s->ctx, &drecs[i], 1), 0);
            continue;
        }
        irecs[i] = steps && prev && rnd() % 16 ? rand_step(prev) : rand_irec(prev);
        prev = &irecs[i];
        CHECK_EQ(s->put(s->ctx, &irecs[i], 1), 0);
    }
}

/* Records of r that differ from what put_random wrote (reading stops at
 * the first missing one). */
static int mismatches(rvt_rvi_reader *r)
{
    int bad = 0;
    for (int i = 0; i < NREC; i++) {
        rvt_irec a; rvt_drec d; bool isd;
        memset(&a, 0xcc, sizeof a);
        if (rvt_rvi_reader_next(r, &a, &d, &isd) != 1 || isd != isdata[i]) { bad++; break; }
        if (isd ? !drec_eq(&d, &drecs[i]) : memcmp(&a, &irecs[i], sizeof a))
            bad++;
    }
    return bad;
}

static void test_roundtrip(void)
{
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    CHECK(w != NULL && st == 0);
    CHECK_EQ(rvt_rvi_writer_set_version(w, 3), RVT_ERR_INVAL);
    CHECK_EQ(rvt_rvi_writer_set_version(w, RVT_RVI_VERSION_1), 0);
    CHECK_EQ(rvt_rvi_writer_set_flags(w, RVT_RVI_F_ITYPE3), 0);
    CHECK_EQ(rvt_rvi_writer_set_flags(w, 0x80), RVT_ERR_INVAL);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    put_random(&s, 5, false);
    CHECK_EQ(rvt_rvi_writer_set_flags(w, 0), RVT_ERR_STATE);
    CHECK_EQ(rvt_rvi_writer_set_version(w, RVT_RVI_VERSION_2), RVT_ERR_STATE);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);

    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    CHECK(r != NULL && st == 0);
    CHECK_EQ(rvt_rvi_reader_version(r), 1);
    CHECK_EQ(rvt_rvi_reader_xlen(r), 64);
    CHECK_EQ(rvt_rvi_reader_flags(r), RVT_RVI_F_ITYPE3);
    CHECK_EQ(mismatches(r), 0);
    rvt_irec a; rvt_drec d; bool isd;
    CHECK_EQ(rvt_rvi_reader_next(r, &a, &d, &isd), 0);
    CHECK_EQ(rvt_rvi_reader_next(r, &a, &d, &isd), 0);
    rvt_rvi_reader_close(r);
}

/* A sink counting what replay delivers, checking order. */
typedef struct { size_t i, puts, ends; int bad; } cnt;
static int c_put(void *ctx, const rvt_irec *r, size_t n)
{
    cnt *c = ctx;
    c->puts++;
    for (size_t k = 0; k < n; k++, c->i++)
        if (isdata[c->i] || memcmp(&r[k], &irecs[c->i], sizeof *r)) c->bad++;
    return 0;
}
static int c_data(void *ctx, const rvt_drec *d, size_t n)
{
    cnt *c = ctx;
    for (size_t k = 0; k < n; k++, c->i++)
        if (!isdata[c->i] || !drec_eq(&d[k], &drecs[c->i])) c->bad++;
    return 0;
}
static int c_end(void *ctx) { ((cnt *)ctx)->ends++; return 0; }

static void test_replay(void)
{
    cnt c = { 0, 0, 0, 0 };
    rvt_irec_sink s = { &c, c_put, c_data, c_end };
    CHECK_EQ(rvt_rvi_replay(path, &s, NULL, NULL), 0);
    CHECK_EQ(c.i, NREC);
    CHECK_EQ(c.bad, 0);
    CHECK_EQ(c.ends, 1);
}

/* Small file: full block @16 (49), short block @65 (12), data @77 (37),
 * end @114 (9); 123 bytes in all. */
static uint8_t small[256];
static size_t small_len;
static uint64_t diag_off;

static void write_small(void)
{
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 32, &st);
    rvt_rvi_writer_set_version(w, RVT_RVI_VERSION_1);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    rvt_irec b[2];
    memset(b, 0, sizeof b);
    b[0].iaddr = 0x80000000; b[0].iretire = 2; b[0].ninstr = 1; b[0].ilastsize = 1; b[0].priv = 3;
    b[1] = b[0];
    b[1].iaddr = 0x80000004; b[1].itype = 5; b[1].time = 1;
    s.put(s.ctx, b, 2);
    rvt_drec d = { 0x80000004, 0x1000, 42, 0, RVT_DTYPE_STORE, 2, 0, 0, 0, 0 };
    s.data(s.ctx, &d, 1);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    FILE *f = fopen(path, "rb");
    small_len = fread(small, 1, sizeof small, f);
    fclose(f);
}

static void diag(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)ctx; (void)level; (void)msg;
    diag_off = off;
}

/* Replay (the batch reader) of path2 must end as the record-by-record
 * read did: same status, same offset, same records before it. */
static int tally_put(void *ctx, const rvt_irec *r, size_t n)
{
    (void)r;
    *(int *)ctx += (int)n;
    return 0;
}
static int tally_data(void *ctx, const rvt_drec *d, size_t n)
{
    (void)d;
    *(int *)ctx += (int)n;
    return 0;
}

static void replay_agrees(int st, uint64_t off, int nrec)
{
    int n = 0;
    rvt_irec_sink s = { &n, tally_put, tally_data, NULL };
    diag_off = UINT64_MAX;
    int rst = rvt_rvi_replay(path2, &s, diag, NULL);
    if (rst != st || n != nrec || (st < 0 && diag_off != off))
        TH_FAIL("replay: status %d offset %llu after %d records; next(): %d %llu %d", rst,
                (unsigned long long)diag_off, n, st, (unsigned long long)off, nrec);
}

static int read_all(const uint8_t *buf, size_t len, uint64_t *off, int *nrec)
{
    FILE *f = fopen(path2, "wb");
    fwrite(buf, 1, len, f);
    fclose(f);
    int st;
    *nrec = 0;
    *off = UINT64_MAX;
    diag_off = UINT64_MAX;
    rvt_rvi_reader *r = rvt_rvi_reader_open_diag(path2, diag, NULL, &st);
    if (!r) {
        *off = diag_off;   /* header errors: offset via the diagnostic */
        return st;
    }
    rvt_irec a; rvt_drec d; bool isd;
    while ((st = rvt_rvi_reader_next(r, &a, &d, &isd)) > 0)
        (*nrec)++;
    if (st < 0)
        *off = rvt_rvi_reader_offset(r);
    rvt_rvi_reader_close(r);
    replay_agrees(st, *off, *nrec);
    return st;
}

/* A file of instruction records only, cut short: every record before the
 * cut reaches the sink (the batch replay holds back is flushed), then the
 * reader's status comes back and the sink's end is not called. */
static rvt_irec only[100];
typedef struct { size_t i, ends; int bad; } cut_cnt;
static int cut_put(void *ctx, const rvt_irec *r, size_t n)
{
    cut_cnt *c = ctx;
    for (size_t k = 0; k < n; k++, c->i++)
        if (c->i >= 100 || memcmp(&r[k], &only[c->i], sizeof *r)) c->bad++;
    return 0;
}
static int cut_end(void *ctx) { ((cut_cnt *)ctx)->ends++; return 0; }

static void test_replay_truncated(void)
{
    size_t k = 0;
    for (size_t i = 0; i < NREC && k < 100; i++)
        if (!isdata[i])
            only[k++] = irecs[i];
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path2, 64, &st);
    rvt_rvi_writer_set_version(w, RVT_RVI_VERSION_1);
    rvt_irec_sink ws = rvt_rvi_writer_sink(w);
    ws.put(ws.ctx, only, k);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    static uint8_t buf[100 * 64];
    FILE *f = fopen(path2, "rb");
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(len > 64 && len < sizeof buf);
    uint64_t off;
    int n;
    CHECK_EQ(read_all(buf, len - 20, &off, &n), RVT_ERR_TRUNC);   /* rewrites path2 */
    CHECK(n > 0);
    cut_cnt c = { 0, 0, 0 };
    rvt_irec_sink s = { &c, cut_put, NULL, cut_end };
    CHECK_EQ(rvt_rvi_replay(path2, &s, NULL, NULL), RVT_ERR_TRUNC);
    CHECK_EQ(c.i, (size_t)n);
    CHECK_EQ(c.bad, 0);
    CHECK_EQ(c.ends, 0);
}

static void test_truncated(void)
{
    write_small();
    CHECK_EQ(small_len, 123);
    /* layout check, by hand from the format: */
    CHECK_MEM(small, "RVTI\x01\x00\x20\x00\x10\x00\x00\x00\x00\x00\x00\x00", 16);
    CHECK_EQ(small[16], 0x01);
    CHECK_EQ(small[65], 0x02);
    /* short block: itype 5 | ilastsize 1<<4 = 0x15, iretire 2, ninstr 1,
     * daddr +4, dtime +1 */
    uint8_t sh[12] = { 0x02, 0x15, 2, 1, 4, 0, 0, 0, 1, 0, 0, 0 };
    CHECK_MEM(small + 65, sh, 12);
    CHECK_EQ(small[77], 0x03);
    CHECK_EQ(small[114], 0x00);
    CHECK_EQ(small[115], 3);   /* end marker: 3 records */
    uint64_t off; int n;
    CHECK_EQ(read_all(small, small_len, &off, &n), 0);
    CHECK_EQ(n, 3);
    static const size_t starts[] = { 16, 65, 77, 114, 123 };
    for (size_t len = 0; len < small_len; len++) {
        int st = read_all(small, len, &off, &n);
        CHECK_EQ(st, RVT_ERR_TRUNC);
        size_t want = 0;    /* a cut header is reported at offset 0 */
        for (size_t k = 0; k < 4; k++)
            if (len >= starts[k])
                want = starts[k];   /* record cut short: its start */
        for (size_t k = 0; k < 4; k++)
            if (len == starts[k])
                want = len;         /* cut between records: end marker missing there */
        if (st != RVT_ERR_TRUNC || off != want) {
            TH_FAIL("len %zu: status %d offset %llu, want offset %zu", len, st,
                    (unsigned long long)off, want);
            break;
        }
    }
}

static void corrupt(size_t at, uint8_t v, int want_st, uint64_t want_off)
{
    uint8_t b[256];
    memcpy(b, small, small_len);
    b[at] = v;
    uint64_t off; int n;
    int st = read_all(b, small_len, &off, &n);
    if (st != want_st || off != want_off)
        TH_FAIL("byte %zu = 0x%02x: status %d offset %llu, want %d at %llu", at, v, st,
                (unsigned long long)off, want_st, (unsigned long long)want_off);
    else
        th_passed++;
}

static void test_corrupt(void)
{
    corrupt(0, 'X', RVT_ERR_FORMAT, 0);           /* magic */
    corrupt(4, 3, RVT_ERR_VERSION, 4);            /* version 3 (2 exists now) */
    corrupt(4, 0, RVT_ERR_VERSION, 4);            /* version 0 */
    corrupt(6, 16, RVT_ERR_FORMAT, 6);            /* xlen */
    corrupt(7, 0x80, RVT_ERR_FORMAT, 7);          /* unknown header flag */
    corrupt(16, 0x7f, RVT_ERR_FORMAT, 16);        /* unknown kind */
    corrupt(16 + 1 + 42, 16, RVT_ERR_FORMAT, 59); /* itype 16 */
    corrupt(16 + 1 + 43, 4, RVT_ERR_FORMAT, 60);  /* ilastsize 4 */
    corrupt(16 + 1 + 46, 2, RVT_ERR_FORMAT, 63);  /* sijump 2 */
    corrupt(16 + 1 + 36, 9, RVT_ERR_FORMAT, 53);  /* ninstr 9 > iretire 2 */
    /* table 4.3: ilastsize 2 makes the last instruction 4 half-words, more
     * than iretire 2; reported at iretire (payload offset 32, or 1 in the
     * short block whose bits byte says ilastsize 2: 0x25) */
    corrupt(16 + 1 + 43, 2, RVT_ERR_FORMAT, 49);
    corrupt(65 + 1, 0x25, RVT_ERR_FORMAT, 67);
    corrupt(16, 0x02, RVT_ERR_FORMAT, 16);        /* short block first */
    corrupt(77 + 1 + 32, 2, RVT_ERR_FORMAT, 110); /* reserved dtype 2 */
    corrupt(77 + 1 + 33, 5, RVT_ERR_FORMAT, 111); /* dsize 5 */
    corrupt(115, 4, RVT_ERR_FORMAT, 115);         /* end count wrong */
    /* trailing garbage after the end marker */
    uint8_t b[256];
    memcpy(b, small, small_len);
    b[small_len] = 0;
    uint64_t off; int n;
    CHECK_EQ(read_all(b, small_len + 1, &off, &n), RVT_ERR_FORMAT);
    CHECK_EQ(off, 123);
    /* every single-byte corruption: an error or a clean read, never a crash */
    for (size_t i = 0; i < small_len; i++)
        for (unsigned v = 0; v < 256; v += 17) {
            memcpy(b, small, small_len);
            b[i] ^= (uint8_t)v;
            read_all(b, small_len, &off, &n);
        }
}

/* Record 0x04 (docs/format-rvi.md "split data"): 1 kind byte + the 36
 * bytes of 0x03 + lrid (u16 LE) at payload 36 + lresp at 38 = 40 bytes.
 * File: header 16, request at 16, response at 56, end at 96. */
static void test_split(void)
{
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    rvt_rvi_writer_set_version(w, RVT_RVI_VERSION_1);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    rvt_drec d[2] = {
        { .iaddr = 0x80000010, .addr = 0x2000, .dtype = RVT_DTYPE_LOAD, .dsize = 3,
          .flags = RVT_DREC_F_SPLIT_REQ, .lrid = 0x0102 },
        { .iaddr = 0x80000010, .addr = 0x2000, .data = 0x55, .dtype = RVT_DTYPE_LOAD, .dsize = 3,
          .flags = RVT_DREC_F_RESPONSE, .lrid = 0x0102, .lresp = RVT_LRESP_OKAY },
    };
    s.data(s.ctx, d, 2);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    uint8_t b[128];
    FILE *f = fopen(path, "rb");
    size_t len = fread(b, 1, sizeof b, f);
    fclose(f);
    CHECK_EQ(len, 16 + 40 + 40 + 9);
    CHECK_EQ(b[16], 0x04);
    CHECK_EQ(b[16 + 1 + 35], RVT_DREC_F_SPLIT_REQ);
    CHECK_EQ(b[16 + 1 + 36], 0x02);
    CHECK_EQ(b[16 + 1 + 37], 0x01);
    CHECK_EQ(b[16 + 1 + 38], 0);
    CHECK_EQ(b[56], 0x04);
    CHECK_EQ(b[56 + 1 + 38], RVT_LRESP_OKAY);
    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    CHECK(r != NULL);
    if (r) {
        rvt_irec a; rvt_drec g; bool isd;
        CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 1);
        CHECK(isd);
        CHECK_EQ(g.lrid, 0x0102);
        CHECK_EQ(g.flags, RVT_DREC_F_SPLIT_REQ);
        CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 1);
        CHECK_EQ(g.lresp, RVT_LRESP_OKAY);
        CHECK_EQ(g.data, 0x55);
        CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 0);
        rvt_rvi_reader_close(r);
    }
    /* Bad values, each at its field's byte. */
    static const struct { size_t at; uint8_t v; uint64_t off; } bad[] = {
        { 16 + 1 + 38, 2, 16 + 1 + 38 },                  /* lresp in a request */
        { 56 + 1 + 38, 1, 56 + 1 + 38 },                  /* reserved lresp */
        { 56 + 1 + 35, RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE, 56 + 1 + 35 },
        { 16 + 1 + 35, 0, 16 + 1 + 35 },                  /* no phase */
        { 16 + 1 + 32, RVT_DTYPE_STORE, 16 + 1 + 32 },    /* stores do not split */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t c[128];
        memcpy(c, b, len);
        c[bad[i].at] = bad[i].v;
        uint64_t off; int n;
        CHECK_EQ(read_all(c, len, &off, &n), RVT_ERR_FORMAT);
        CHECK_EQ(off, bad[i].off);
    }
    /* A 0x03 record may not carry the split flags. */
    write_small();
    uint8_t c[256];
    memcpy(c, small, small_len);
    c[77 + 1 + 35] = RVT_DREC_F_RESPONSE;
    uint64_t off; int n;
    CHECK_EQ(read_all(c, small_len, &off, &n), RVT_ERR_FORMAT);
    CHECK_EQ(off, 77 + 1 + 35);
}


/* ---- version 2 ----
 * A hand-made file (docs/format-rvi.md "Version 2"), offsets by hand:
 *   @16  full block 0x80000000, 4 bytes (iretire 2, ilastsize 1), time 0,
 *        priv 3, CYCLE_END                                   49 bytes
 *   @65  run of 5 plain steps, sizes 4 2 2 4 2: 05 04 09       3
 *        (0x80000004 0x80000008 0x8000000a 0x8000000c 0x80000010)
 *   @68  step 0x80000012, 4 bytes, itype 5: 0x80|0x10|5 = 95   1
 *   @69  step 0x80000000 (a jump back from 0x80000016: -22, zigzag 43 =
 *        0x2b), 4 bytes: 0x80|0x40|0x10 = d0 2b                2
 *   @71  two plain 2-byte steps (too few for a run): 80 80     2
 *        (0x80000004, 0x80000006)
 *   @73  data record                                           37
 *   @110 end, 11 records                                       9
 * 119 bytes. */
#define V2_LEN 119
static const size_t v2_starts[] = { 16, 65, 68, 69, 71, 72, 73, 110, 119 };
static rvt_irec v2_blk[10];
static uint8_t v2[256];

static void v2_records(void)
{
    static const uint64_t at[10] = { 0x80000000, 0x80000004, 0x80000008, 0x8000000a, 0x8000000c,
                                     0x80000010, 0x80000012, 0x80000000, 0x80000004, 0x80000006 };
    static const uint8_t last[10] = { 1, 1, 0, 0, 1, 0, 1, 1, 0, 0 };
    memset(v2_blk, 0, sizeof v2_blk);
    for (int i = 0; i < 10; i++) {
        v2_blk[i].iaddr = at[i];
        v2_blk[i].ilastsize = last[i];
        v2_blk[i].iretire = 1u << last[i];
        v2_blk[i].ninstr = 1;
        v2_blk[i].time = (uint64_t)i;
        v2_blk[i].priv = 3;
        v2_blk[i].flags = RVT_IREC_F_CYCLE_END;
    }
    v2_blk[6].itype = 5;
}

static void test_v2_layout(void)
{
    v2_records();
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    CHECK_EQ(s.put(s.ctx, v2_blk, 10), 0);
    rvt_drec d = { 0x80000006, 0x1000, 42, 0, RVT_DTYPE_STORE, 2, 0, 0, 0, 0 };
    CHECK_EQ(s.data(s.ctx, &d, 1), 0);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    FILE *f = fopen(path, "rb");
    size_t len = fread(v2, 1, sizeof v2, f);
    fclose(f);
    CHECK_EQ(len, V2_LEN);
    CHECK_MEM(v2, "RVTI\x02\x00\x40\x00\x10\x00\x00\x00\x00\x00\x00\x00", 16);
    CHECK_EQ(v2[16], 0x01);
    static const uint8_t steps[] = { 0x05, 0x04, 0x09, 0x95, 0xd0, 0x2b, 0x80, 0x80, 0x03 };
    CHECK_MEM(v2 + 65, steps, sizeof steps);
    CHECK_EQ(v2[110], 0x00);
    CHECK_EQ(v2[111], 11);
    /* every field back, through _next */
    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_EQ(rvt_rvi_reader_version(r), 2);
    rvt_irec a;
    rvt_drec g;
    bool isd;
    for (int i = 0; i < 10; i++) {
        memset(&a, 0xcc, sizeof a);
        CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 1);
        CHECK(!isd);
        if (memcmp(&a, &v2_blk[i], sizeof a))
            TH_FAIL("block %d: iaddr %llx, want %llx", i, (unsigned long long)a.iaddr,
                    (unsigned long long)v2_blk[i].iaddr);
    }
    CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 1);
    CHECK(isd && drec_eq(&g, &d));
    CHECK_EQ(rvt_rvi_reader_next(r, &a, &g, &isd), 0);
    rvt_rvi_reader_close(r);
}

/* The batch call, max 3: splits the run, stops before the data record,
 * 0 after the end marker. */
static void test_v2_batch(void)
{
    int st;
    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    CHECK(r != NULL);
    if (!r)
        return;
    rvt_irec b[3];
    size_t n, got = 0;
    static const size_t want[] = { 3, 3, 3, 1 };
    for (size_t k = 0; k < 4; k++) {
        CHECK_EQ(rvt_rvi_reader_blocks(r, b, 3, &n), 1);
        CHECK_EQ(n, want[k]);
        for (size_t i = 0; i < n && got + i < 10; i++)
            CHECK(!memcmp(&b[i], &v2_blk[got + i], sizeof b[i]));
        got += n;
    }
    CHECK_EQ(rvt_rvi_reader_blocks(r, b, 3, &n), 1);   /* the data record is next */
    CHECK_EQ(n, 0);
    rvt_drec g;
    bool isd;
    CHECK_EQ(rvt_rvi_reader_next(r, b, &g, &isd), 1);
    CHECK(isd);
    CHECK_EQ(rvt_rvi_reader_blocks(r, b, 3, &n), 0);
    CHECK_EQ(n, 0);
    rvt_rvi_reader_close(r);
}

/* Cut at every length: TRUNC at the record cut short (or at the cut,
 * between records), as for version 1. */
static void test_v2_truncated(void)
{
    for (size_t len = 16; len < V2_LEN; len++) {
        uint64_t off;
        int n;
        int st = read_all(v2, len, &off, &n);
        size_t want = 0;
        for (size_t k = 0; v2_starts[k] <= len; k++)
            want = v2_starts[k];
        if (st != RVT_ERR_TRUNC || off != want) {
            TH_FAIL("v2 len %zu: status %d offset %llu, want offset %zu", len, st,
                    (unsigned long long)off, want);
            return;
        }
    }
    th_passed++;
}

static void v2_corrupt(const uint8_t *b, size_t len, int want_st, uint64_t want_off, const char *what)
{
    uint64_t off;
    int n;
    int st = read_all(b, len, &off, &n);
    if (st != want_st || off != want_off)
        TH_FAIL("%s: status %d offset %llu, want %d at %llu", what, st, (unsigned long long)off,
                want_st, (unsigned long long)want_off);
    else
        th_passed++;
}

static void test_v2_corrupt(void)
{
    uint8_t b[256];
#define V2_AT(at, v) (memcpy(b, v2, V2_LEN), b[at] = (v), b)
    v2_corrupt(V2_AT(16, 0x80), V2_LEN, RVT_ERR_FORMAT, 16, "step first");
    v2_corrupt(V2_AT(16, 0x05), V2_LEN, RVT_ERR_FORMAT, 16, "run first");
    v2_corrupt(V2_AT(67, 0x09 | 0x20), V2_LEN, RVT_ERR_FORMAT, 67, "bit past the run");
    v2_corrupt(V2_AT(4, 1), V2_LEN, RVT_ERR_FORMAT, 65, "run in a version-1 file");
    v2_corrupt(V2_AT(111, 10), V2_LEN, RVT_ERR_FORMAT, 111, "end count");
    v2_corrupt(V2_AT(73 + 1 + 33, 5), V2_LEN, RVT_ERR_FORMAT, 107, "dsize 5 after the steps");
    /* a varint longer than 64 bits: step d0 then ten 0xff at @69 */
    memcpy(b, v2, 70);
    memset(b + 70, 0xff, 10);
    memcpy(b + 80, v2 + 70, V2_LEN - 70);
    v2_corrupt(b, V2_LEN + 10, RVT_ERR_FORMAT, 70, "varint of 11 bytes");
    /* ... and one whose 10th byte has more than the 64th bit */
    memset(b + 70, 0x80, 9);
    b[79] = 0x02;
    v2_corrupt(b, V2_LEN + 10, RVT_ERR_FORMAT, 70, "varint past 64 bits");
#undef V2_AT
}

/* Random version-2 round trip: mostly steps (plain, with an itype, or a
 * jump of any size), then the version-1 kinds between them, read back
 * both record by record and through replay's batches. */
static rvt_irec rand_step(const rvt_irec *prev)
{
    rvt_irec r;
    memset(&r, 0, sizeof r);
    r.ilastsize = rnd() % 2;
    r.iretire = 1u << r.ilastsize;
    r.ninstr = 1;
    r.time = prev->time + 1;
    r.priv = prev->priv;
    r.context = prev->context;
    r.flags = RVT_IREC_F_CYCLE_END;
    r.iaddr = prev->iaddr + 2 * (uint64_t)prev->iretire;
    unsigned k = rnd() % 8;
    if (k == 0)
        r.iaddr += rnd() >> (rnd() % 64);    /* a jump, any size */
    if (k == 1)
        r.iaddr -= rnd() % 4096;
    if (k == 2) {
        r.itype = rnd() % 16;
        r.sijump = rnd() % 2;
    }
    return r;
}

static void test_v2_roundtrip(void)
{
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    put_random(&s, 50, true);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    rvt_rvi_reader *r = rvt_rvi_reader_open(path, &st);
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_EQ(mismatches(r), 0);
    rvt_rvi_reader_close(r);
    test_replay();
}

/* A run's half-words from its size bits (docs/format-rvi.md 0x05: bit i,
 * LSB first, set for a 4-byte step): every third step of 256 is 4 bytes
 * (steps 0, 3, ..., 255: 86 of them); counted by hand over ranges that
 * start and end inside bytes and 64-bit words. */
static void test_steps_halfwords(void)
{
    uint8_t sizes[32] = { 0 };        /* 256 steps, the most in a run */
    for (unsigned i = 0; i < 256; i += 3)
        sizes[i / 8] |= (uint8_t)(1u << (i % 8));
    CHECK_EQ(rvt_steps_halfwords(sizes, 0, 256), 256 + 86);
    CHECK_EQ(rvt_steps_halfwords(sizes, 0, 1), 2);
    CHECK_EQ(rvt_steps_halfwords(sizes, 1, 3), 2);          /* steps 1, 2 */
    CHECK_EQ(rvt_steps_halfwords(sizes, 1, 4), 4);          /* and 3 */
    CHECK_EQ(rvt_steps_halfwords(sizes, 5, 5), 0);
    CHECK_EQ(rvt_steps_halfwords(sizes, 60, 70), 10 + 4);   /* 60, 63, 66, 69 */
    CHECK_EQ(rvt_steps_halfwords(sizes, 62, 130), 68 + 23); /* 63 + 3k, k = 0..22 */
    CHECK_EQ(rvt_steps_halfwords(sizes, 255, 256), 2);
    /* a run of 9 steps: bytes past the second are not part of it */
    uint8_t short_run[2] = { 0xff, 0x01 };
    CHECK_EQ(rvt_steps_halfwords(short_run, 0, 9), 18);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    snprintf(path, sizeof path, "%s/a.rvi", tmpdir);
    snprintf(path2, sizeof path2, "%s/b.rvi", tmpdir);
    test_roundtrip();
    test_replay();
    test_replay_truncated();
    test_truncated();
    test_corrupt();
    test_split();
    test_v2_layout();
    test_v2_batch();
    test_v2_truncated();
    test_v2_corrupt();
    test_v2_roundtrip();
    test_steps_halfwords();
    unlink(path);
    unlink(path2);
    rmdir(tmpdir);
    return TH_DONE();
}
