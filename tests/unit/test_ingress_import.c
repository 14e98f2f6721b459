/* Importers against small hand-written fixtures; the expected blocks are
 * derived by hand from E-Trace 4.1.1/4.2 and the instruction encodings
 * (comments give the derivation).  Also garbage input and the encoder-input
 * CSV writer round trip. */
#include <unistd.h>
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "tharness.h"

static char tmpdir[] = "/tmp/rvt_test_import_XXXXXX";
static char path[256], path2[256];

#define MAXR 64
static rvt_irec got[MAXR];
static size_t ngot;
static int ends;
static uint64_t diag_off;
static char diag_msg[400];

static int s_put(void *ctx, const rvt_irec *r, size_t n)
{
    (void)ctx;
    for (size_t i = 0; i < n && ngot < MAXR; i++)
        got[ngot++] = r[i];
    return 0;
}
static int s_end(void *ctx) { (void)ctx; ends++; return 0; }
static void diag(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)ctx;
    if (level >= RVT_DIAG_ERROR) {
        diag_off = off;
        snprintf(diag_msg, sizeof diag_msg, "%s", msg);
    }
}

static int run(rvt_import_fmt fmt, const char *text, rvt_import_cfg *cfg, rvt_import_result *res)
{
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
    ngot = 0;
    ends = 0;
    diag_off = UINT64_MAX;
    diag_msg[0] = 0;
    cfg->diag = diag;
    rvt_irec_sink s = { NULL, s_put, NULL, s_end };
    return rvt_import_file(fmt, path, cfg, &s, res);
}

/* expect: iaddr, itype, iretire, ninstr, ilastsize, priv, cause, tval */
static void expect(size_t i, uint64_t iaddr, unsigned itype, unsigned iretire, unsigned ninstr,
                   unsigned ilastsize, unsigned priv, unsigned cause, uint64_t tval)
{
    if (i >= ngot) {
        TH_FAIL("record %zu missing (have %zu)", i, ngot);
        return;
    }
    const rvt_irec *r = &got[i];
    if (r->iaddr != iaddr || r->itype != itype || r->iretire != iretire || r->ninstr != ninstr ||
        r->ilastsize != ilastsize || r->priv != priv || r->cause != cause || r->tval != tval)
        TH_FAIL("record %zu: iaddr=%llx itype=%u iretire=%u ninstr=%u ilastsize=%u priv=%u "
                "cause=%u tval=%llx", i, (unsigned long long)r->iaddr, r->itype, r->iretire,
                r->ninstr, r->ilastsize, r->priv, r->cause, (unsigned long long)r->tval);
    else
        th_passed++;
}

static const char refcsv4[] =
    "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n"
    "0,0,0,3,1000,0,0,1,1\n"
    "13,0,0,3,1010,0,0,1,1\n"
    "1,2,73,3,80000048,0,0,0,1\n"
    "1,3,0,3,800000a0,0,0,1,0\n";

static void test_refcsv(void)
{
    rvt_import_cfg cfg = { 0 };
    rvt_import_result res;
    CHECK_EQ(run(RVT_IMPORT_REFCSV, refcsv4, &cfg, &res), 0);
    CHECK_EQ(ngot, 4);
    CHECK_EQ(ends, 1);
    CHECK_EQ(res.records, 4);
    CHECK_EQ(res.traps, 2);
    CHECK_EQ(res.itype_width, 4);
    /* iretire_0=1 with ilastsize 1 (4 bytes) = 2 half-words (table 4.2/4.3) */
    expect(0, 0x1000, 0, 2, 1, 1, 3, 0, 0);
    expect(1, 0x1010, 13, 2, 1, 1, 3, 0, 0);
    /* the illegal instruction does not retire: iretire 0 */
    expect(2, 0x80000048, 1, 0, 0, 1, 3, 2, 0x73);
    /* c.ebreak retires: 1 half-word */
    expect(3, 0x800000a0, 1, 1, 1, 0, 3, 3, 0);
    /* 4-bit import of a 3-bit file: itype 6 is reserved there */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,"
                 "ilastsize_0\n6,0,0,3,1010,0,0,1,1\n", &cfg, &res), RVT_ERR_RANGE);
    CHECK_EQ(res.err_line, 2);
    CHECK_EQ(diag_off, 68);   /* header: 9 names (59 chars) + 8 commas + newline = 68 */
    cfg.itype3 = true;
    CHECK_EQ(run(RVT_IMPORT_REFCSV, "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,"
                 "ilastsize_0\n6,0,0,3,1010,0,0,1,1\n", &cfg, &res), 0);
    CHECK_EQ(res.itype_width, 3);
    expect(0, 0x1010, 6, 2, 1, 1, 3, 0, 0);
    cfg.itype3 = false;
    /* the sijump/time variant */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, "itype_0,cause,tval,priv,iaddr_0,context,time,ctype,sijump_0,"
                 "iretire_0,ilastsize_0\n9,0,0,3,80000370,5,77,2,1,1,1\n", &cfg, &res), 0);
    CHECK(ngot == 1 && got[0].sijump == 1 && got[0].time == 77 && got[0].context == 5 &&
          got[0].ctype == 2 && got[0].itype == 9);
}

static void test_garbage(void)
{
    rvt_import_cfg cfg = { 0 };
    rvt_import_result res;
    static const char hdr[] = "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n";
    char buf[9000];
    CHECK_EQ(run(RVT_IMPORT_REFCSV, "", &cfg, &res), RVT_ERR_FORMAT);          /* empty */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, "a,b,c\n", &cfg, &res), RVT_ERR_FORMAT);   /* bad header */
    snprintf(buf, sizeof buf, "%s0,0,0,3,1000\n", hdr);                       /* missing columns */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(res.err_line, 2);
    snprintf(buf, sizeof buf, "%s0,0,0,3,10z0,0,0,1,1\n", hdr);               /* non-hex */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(diag_off, sizeof hdr - 1 + 8);   /* the iaddr_0 field */
    CHECK(strstr(diag_msg, "line 2") != NULL);
    snprintf(buf, sizeof buf, "%s0,0,0,3,10000000000000000,0,0,1,1\n", hdr); /* > 64 bits */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_FORMAT);
    snprintf(buf, sizeof buf, "%s0,0,0,3,1000,0,0,2,1\n", hdr);               /* iretire_0 2 */
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_RANGE);
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", hdr);                  /* long line */
    memset(buf + n, '1', 5000);
    buf[n + 5000] = 0;
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(diag_off, n);
    CHECK_EQ(run(RVT_IMPORT_SPIKECSV, "\x01\x02\x00garbage\n", &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(run(RVT_IMPORT_SPIKELOG, "core   0: 3 0xzz (0x13)\n", &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(run(RVT_IMPORT_SPIKELOG, "core   0: exception trap_bogus, epc 0x10\n", &cfg, &res),
             RVT_ERR_FORMAT);
    CHECK_EQ(run(RVT_IMPORT_SPIKELOG, "", &cfg, &res), 0);
    CHECK_EQ(ngot, 0);
}

/* Spike trace CSV.  Words: 0x00000297 auipc t0,0 (4 bytes); 0x00028067
 * jalr x0,0(t0) = jr t0: rs1 = x5, rd = x0 -> a return (4.1.1), itype 13,
 * sequentially inferable after the auipc writing t0; 0x00b50463 beq a0,a1,+8
 * (taken when the next row is +8 -> itype 5); 0x4501 c.li a0,0 (2 bytes);
 * 0x00000073 ecall traps (EXCEPTION=1, cause 11) and retires;
 * 0xc0001073 (csrw cycle: illegal here) traps and does not retire;
 * 0x30200073 mret -> itype 3; an interrupt (cause 7) after c.li. */
static const char spikecsv[] =
    "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n"
    "1,1000,297,3,0,0,0,0\n"
    "1,1004,28067,3,0,0,0,0\n"
    "1,80000000,b50463,3,0,0,0,0\n"
    "1,80000008,4501,3,0,0,0,0\n"
    "1,8000000a,b50463,3,0,0,0,0\n"
    "1,8000000e,73,3,1,b,0,0\n"
    "1,80000100,c0001073,3,1,2,c0001073,0\n"
    "1,80000100,30200073,3,0,0,0,0\n"
    "1,80000012,4501,0,0,8000000000000007,0,1\n"
    "0,0,0,0,0,0,0,0\n"
    "1,80000200,13,3,0,0,0,0\n";

static void test_spikecsv(void)
{
    rvt_import_cfg cfg = { 0 };
    rvt_import_result res;
    CHECK_EQ(run(RVT_IMPORT_SPIKECSV, spikecsv, &cfg, &res), 0);
    CHECK_EQ(ngot, 10);
    CHECK_EQ(res.skipped, 1);
    expect(0, 0x1000, 0, 2, 1, 1, 3, 0, 0);
    expect(1, 0x1004, 13, 2, 1, 1, 3, 0, 0);
    CHECK(ngot > 1 && got[1].sijump == 1);
    expect(2, 0x80000000, 5, 2, 1, 1, 3, 0, 0);       /* taken: next is +8 */
    expect(3, 0x80000008, 0, 1, 1, 0, 3, 0, 0);       /* c.li */
    expect(4, 0x8000000a, 4, 2, 1, 1, 3, 0, 0);       /* not taken: next is +4 */
    expect(5, 0x8000000e, 1, 2, 1, 1, 3, 11, 0);      /* ecall retires */
    expect(6, 0x80000100, 1, 0, 0, 1, 3, 2, 0xc0001073);  /* faulting: not retired */
    expect(7, 0x80000100, 3, 2, 1, 1, 3, 0, 0);       /* mret */
    expect(8, 0x80000012, 2, 1, 1, 0, 0, 7, 0);       /* interrupt after c.li, flag bit dropped */
    expect(9, 0x80000200, 0, 2, 1, 1, 3, 0, 0);       /* last row */
}

/* The same story as a Spike commit log (-l lines give the trapping
 * words; the ecall is not committed, as in Spike). */
static const char spikelog[] =
    "core   0: 0x0000000000001000 (0x00000297) auipc   t0, 0x0\n"
    "core   0: 3 0x0000000000001000 (0x00000297) x5  0x0000000000001000\n"
    "core   0: 3 0x0000000000001004 (0x00028067)\n"
    "core   0: >>>>  main\n"
    "core   0: 3 0x0000000080000000 (0x00b50463)\n"
    "core   0: 3 0x0000000080000008 (0x4501) x10 0x0000000000000000\n"
    "core   0: 0x000000008000000a (0x00000073) ecall\n"
    "core   0: exception trap_machine_ecall, epc 0x000000008000000a\n"
    "core   0: 0x0000000080000100 (0xc0001073) csrw    cycle, zero\n"
    "core   0: exception trap_illegal_instruction, epc 0x0000000080000100\n"
    "core   0:           tval 0x00000000c0001073\n"
    "core   0: 3 0x0000000080000100 (0x30200073)\n"
    "core   0: 0 0x0000000080000012 (0x4501) x10 0x0000000000000000\n"
    "core   0: exception interrupt #7, epc 0x0000000080000014\n"
    "core   0: 3 0x0000000080000200 (0x00000013)\n"
    "some program output\n";

static void test_spikelog(void)
{
    rvt_import_cfg cfg = { 0 };
    rvt_import_result res;
    CHECK_EQ(run(RVT_IMPORT_SPIKELOG, spikelog, &cfg, &res), 0);
    CHECK_EQ(ngot, 9);
    expect(0, 0x1000, 0, 2, 1, 1, 3, 0, 0);
    expect(1, 0x1004, 13, 2, 1, 1, 3, 0, 0);
    CHECK(ngot > 1 && got[1].sijump == 1);
    expect(2, 0x80000000, 5, 2, 1, 1, 3, 0, 0);
    /* c.li, then the ecall at 0x8000000a: sequential, so c.li is itype 0 */
    expect(3, 0x80000008, 0, 1, 1, 0, 3, 0, 0);
    expect(4, 0x8000000a, 1, 2, 1, 1, 3, 11, 0);
    expect(5, 0x80000100, 1, 0, 0, 1, 3, 2, 0xc0001073);
    expect(6, 0x80000100, 3, 2, 1, 1, 3, 0, 0);
    expect(7, 0x80000012, 2, 1, 1, 0, 0, 7, 0);
    expect(8, 0x80000200, 0, 2, 1, 1, 3, 0, 0);
    CHECK_EQ(res.skipped, 2);
}

/* PC list over a tiny image at 0x80000000:
 *   +0 00000297 auipc t0,0   +4 00b50463 beq a0,a1,+8   +8 00000073 ecall
 *   +c 4501 c.li a0,0        +e 0000006f j .  (jal x0,0: inferable tail, 11)
 * 80000000, 80000004, 8000000c (beq taken), 8000000e, 8000000e (j . taken),
 * 80000008 (j cannot go there: a trap after it, cause unknown 0),
 * 80000040 (ecall's successor is a handler: exception, cause 11). */
static void test_pcs(void)
{
    static const uint8_t code[] = { 0x97, 0x02, 0, 0, 0x63, 0x04, 0xb5, 0, 0x73, 0, 0, 0,
                                    0x01, 0x45, 0x6f, 0, 0, 0 };
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000000, code, sizeof code, "code"), 0);
    uint8_t handler[4] = { 0x13, 0, 0, 0 };
    CHECK_EQ(rvt_image_add_bytes(img, 0x80000040, handler, 4, "handler"), 0);
    rvt_import_cfg cfg = { .image = img };
    rvt_import_result res;
    CHECK_EQ(run(RVT_IMPORT_PCS, "# comment\n80000000\n0x80000004\n8000000c\n\n8000000e\n"
                 "8000000e\n80000008\n80000040\n", &cfg, &res), 0);
    CHECK_EQ(ngot, 7);
    expect(0, 0x80000000, 0, 2, 1, 1, 3, 0, 0);
    expect(1, 0x80000004, 5, 2, 1, 1, 3, 0, 0);
    expect(2, 0x8000000c, 0, 1, 1, 0, 3, 0, 0);
    expect(3, 0x8000000e, 11, 2, 1, 1, 3, 0, 0);
    expect(4, 0x8000000e, 1, 2, 1, 1, 3, 0, 0);
    expect(5, 0x80000008, 1, 2, 1, 1, 3, 11, 0);
    expect(6, 0x80000040, 0, 2, 1, 1, 3, 0, 0);
    CHECK_EQ(res.inferred_traps, 2);
    CHECK_EQ(res.skipped, 2);
    CHECK_EQ(run(RVT_IMPORT_PCS, "80000000\n90000000\n", &cfg, &res), RVT_ERR_NOCODE);
    CHECK_EQ(run(RVT_IMPORT_PCS, "80000000\nhello\n", &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(res.err_line, 2);
    CHECK_EQ(diag_off, 9);
    rvt_import_cfg none = { 0 };
    CHECK_EQ(run(RVT_IMPORT_PCS, "80000000\n", &none, &res), RVT_ERR_INVAL);
    rvt_image_free(img);
}

/* refcsv -> records -> refcsv writer: the same bytes, both variants. */
static void roundtrip(const char *text, unsigned flags)
{
    rvt_import_cfg cfg = { 0 };
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
    int st;
    rvt_refcsv_writer *w = rvt_refcsv_writer_open(path2, flags, &st);
    CHECK(w != NULL);
    rvt_irec_sink s = rvt_refcsv_writer_sink(w);
    CHECK_EQ(rvt_import_file(RVT_IMPORT_REFCSV, path, &cfg, &s, NULL), 0);
    CHECK_EQ(rvt_refcsv_writer_close(w), 0);
    char back[2048] = { 0 };
    f = fopen(path2, "rb");
    size_t n = fread(back, 1, sizeof back - 1, f);
    fclose(f);
    CHECK_EQ(n, strlen(text));
    CHECK_STR(back, text);
}

static void test_writer(void)
{
    roundtrip(refcsv4, 0);
    roundtrip("itype_0,cause,tval,priv,iaddr_0,context,time,ctype,sijump_0,iretire_0,ilastsize_0\n"
              "9,0,0,3,80000370,5,77,2,1,1,1\n"
              "1,11,ff,1,80000008,0,78,0,0,1,1\n", RVT_REFCSV_TIME_SIJUMP);
    /* 3-bit output: table 4.1 maps 13 (return) to 6 and 9 (inferable call) to 0 */
    int st;
    rvt_refcsv_writer *w = rvt_refcsv_writer_open(path2, RVT_REFCSV_ITYPE3, &st);
    rvt_irec_sink s = rvt_refcsv_writer_sink(w);
    rvt_irec r[3];
    memset(r, 0, sizeof r);
    r[0].itype = 13; r[0].iaddr = 0x10; r[0].ninstr = 1; r[0].iretire = 2; r[0].ilastsize = 1;
    r[1] = r[0]; r[1].itype = 9;
    r[2] = r[0]; r[2].ninstr = 2; r[2].iretire = 4;
    CHECK_EQ(s.put(s.ctx, r, 2), 0);
    CHECK_EQ(s.put(s.ctx, r + 2, 1), RVT_ERR_RANGE);   /* two instructions: no SR row */
    rvt_refcsv_writer_close(w);
    char back[512] = { 0 };
    FILE *f = fopen(path2, "rb");
    size_t n = fread(back, 1, sizeof back - 1, f);
    fclose(f);
    (void)n;
    CHECK_STR(back, "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n"
                    "6,0,0,0,10,0,0,1,1\n0,0,0,0,10,0,0,1,1\n");
}

/* Streaming semantics: the records of the lines before a bad line are
 * delivered before the error is returned (they used to sit in the batch).
 * One case per importer; each bad line is line 3 (or 4), so two (three)
 * good records precede it, and sink->end is not called on an error. */
static void test_partial_delivery(void)
{
    rvt_import_cfg cfg = { 0 };
    rvt_import_result res;
    static const char hdr[] = "itype_0,cause,tval,priv,iaddr_0,context,ctype,iretire_0,ilastsize_0\n";
    char buf[512];
    snprintf(buf, sizeof buf, "%s0,0,0,3,1000,0,0,1,1\n0,0,0,3,1004,0,0,1,1\nbad\n", hdr);
    CHECK_EQ(run(RVT_IMPORT_REFCSV, buf, &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(ngot, 2);
    CHECK_EQ(ends, 0);
    expect(1, 0x1004, 0, 2, 1, 1, 3, 0, 0);
    /* Spike CSV: row k is finished when row k+1 arrives, so of three good
     * rows before the bad one the first two are complete records. */
    CHECK_EQ(run(RVT_IMPORT_SPIKECSV, "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n"
                 "1,1000,13,3,0,0,0,0\n1,1004,13,3,0,0,0,0\n1,1008,13,3,0,0,0,0\n1,zz,13\n",
                 &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(ngot, 2);
    expect(1, 0x1004, 0, 2, 1, 1, 3, 0, 0);
    /* Spike log: the same (a commit waits for its successor). */
    CHECK_EQ(run(RVT_IMPORT_SPIKELOG, "core   0: 3 0x0000000000001000 (0x00000013)\n"
                 "core   0: 3 0x0000000000001004 (0x00000013)\n"
                 "core   0: 3 0x0000000000001008 (0x00000013)\n"
                 "core   0: 3 0xzz (0x13)\n", &cfg, &res), RVT_ERR_FORMAT);
    CHECK_EQ(ngot, 2);
    expect(0, 0x1000, 0, 2, 1, 1, 3, 0, 0);
    /* PC list over three nops. */
    static const uint8_t nops[] = { 0x13, 0, 0, 0, 0x13, 0, 0, 0, 0x13, 0, 0, 0 };
    rvt_image *img = rvt_image_new();
    CHECK_EQ(rvt_image_add_bytes(img, 0x1000, nops, sizeof nops, "code"), 0);
    rvt_import_cfg pc = { .image = img };
    CHECK_EQ(run(RVT_IMPORT_PCS, "1000\n1004\n1008\nhello\n", &pc, &res), RVT_ERR_FORMAT);
    CHECK_EQ(ngot, 2);
    expect(1, 0x1004, 0, 2, 1, 1, 3, 0, 0);
    rvt_image_free(img);
}

int main(void)
{
    if (!mkdtemp(tmpdir))
        return 1;
    snprintf(path, sizeof path, "%s/in.txt", tmpdir);
    snprintf(path2, sizeof path2, "%s/out.csv", tmpdir);
    test_refcsv();
    test_garbage();
    test_spikecsv();
    test_spikelog();
    test_pcs();
    test_writer();
    test_partial_delivery();
    unlink(path);
    unlink(path2);
    rmdir(tmpdir);
    return TH_DONE();
}
