/* Library logic that left the CLI (issue 14 "The CLI" list): N-Trace SRC
 * ids for several harts (ch. 3, table 8: SRC at most 12 bits), the merge
 * of several harts' records by time, self-modifying code written into the
 * image at each fence.i (N-Trace 11.4). */
#include <unistd.h>
#include "tharness.h"
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"

static void test_assign_src(void)
{
    rvt_nt_cfg c;
    rvt_nt_cfg_default(&c);
    CHECK_EQ(rvt_nt_cfg_assign_src(&c, 1), 0);
    CHECK_EQ(c.src_bits, 0);                    /* one hart: no SRC field */
    CHECK_EQ(rvt_nt_cfg_assign_src(&c, 3), 0);
    CHECK_EQ(c.src_bits, 2);                    /* ids 0, 1, 2 need 2 bits */
    rvt_nt_cfg_default(&c);
    c.src_bits = 1;
    c.src_id = 1;
    CHECK_EQ(rvt_nt_cfg_assign_src(&c, 2), RVT_ERR_RANGE);   /* ids 1, 2 > 1 bit */
    rvt_nt_cfg_default(&c);
    c.inhibit_src = true;
    CHECK_EQ(rvt_nt_cfg_assign_src(&c, 2), RVT_ERR_RANGE);
    CHECK_EQ(rvt_nt_cfg_assign_src(NULL, 2), RVT_ERR_INVAL);
}

typedef struct order { uint64_t addr[8]; unsigned hart[8], n, ends; } order;
static order seen;
static int put0(void *ctx, const rvt_irec *r, size_t n) { (void)ctx; (void)n; seen.hart[seen.n] = 0; seen.addr[seen.n++] = r->iaddr; return 0; }
static int put1(void *ctx, const rvt_irec *r, size_t n) { (void)ctx; (void)n; seen.hart[seen.n] = 1; seen.addr[seen.n++] = r->iaddr; return 0; }
static int end(void *ctx) { (void)ctx; seen.ends++; return 0; }

/* An .rvi file of blocks at the given (time, address) pairs. */
static void write_rvi(const char *path, const uint64_t (*tv)[2], unsigned n)
{
    int st;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    CHECK(w != NULL);
    rvt_irec_sink s = rvt_rvi_writer_sink(w);
    for (unsigned i = 0; i < n; i++) {
        rvt_irec r = { .iaddr = tv[i][1], .time = tv[i][0], .iretire = 2, .ninstr = 1,
                       .ilastsize = 1, .priv = 3 };
        CHECK_EQ(s.put(s.ctx, &r, 1), 0);
    }
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
}

static void test_merge(void)
{
    char a[] = "/tmp/rvt_merge_aXXXXXX", b[] = "/tmp/rvt_merge_bXXXXXX";
    close(mkstemp(a));
    close(mkstemp(b));
    static const uint64_t ha[][2] = { { 1, 0x100 }, { 5, 0x104 }, { 9, 0x108 } };
    static const uint64_t hb[][2] = { { 2, 0x200 }, { 5, 0x204 } };
    write_rvi(a, ha, 3);
    write_rvi(b, hb, 2);
    rvt_rvi_reader *in[2] = { rvt_rvi_reader_open(a, NULL), rvt_rvi_reader_open(b, NULL) };
    rvt_irec_sink sinks[2] = { { NULL, put0, NULL, end }, { NULL, put1, NULL, end } };
    unsigned bad = 99;
    CHECK_EQ(rvt_merge_harts(in, 2, sinks, &bad), 0);
    /* by time; at time 5 the first reader first */
    static const uint64_t want[] = { 0x100, 0x200, 0x104, 0x204, 0x108 };
    static const unsigned want_hart[] = { 0, 1, 0, 1, 0 };
    CHECK_EQ(seen.n, 5);
    for (unsigned i = 0; i < 5 && i < seen.n; i++) {
        CHECK_EQ(seen.addr[i], want[i]);
        CHECK_EQ(seen.hart[i], want_hart[i]);
    }
    CHECK_EQ(seen.ends, 2);
    CHECK_EQ(rvt_merge_harts(NULL, 2, sinks, &bad), RVT_ERR_INVAL);
    CHECK_EQ(rvt_merge_harts(in, 0, sinks, &bad), RVT_ERR_INVAL);
    rvt_rvi_reader_close(in[0]);
    rvt_rvi_reader_close(in[1]);
    unlink(a);
    unlink(b);
}


int main(void)
{
    test_assign_src();
    test_merge();
    return TH_DONE();
}
