/* Values wider than their packet fields (E-Trace table 9.1 widths): the
 * encoder refuses them with RVT_ERR_RANGE and names the field and the
 * value, instead of cutting them (an ecall's cause 11 in a 2-bit ecause
 * field reads back as 3).  The largest value that fits is accepted. */
#include "test_etrace_util.h"

static int sink(void *ctx, const uint8_t *b, size_t n)
{
    (void)ctx;
    (void)b;
    (void)n;
    return 0;
}

/* One block of one 4-byte instruction at iaddr; itype 1 = an exception. */
static rvt_irec rec(uint64_t iaddr, unsigned itype)
{
    return (rvt_irec){ .iaddr = iaddr, .iretire = 2, .ninstr = 1, .ilastsize = 1, .itype = (uint8_t)itype,
                       .priv = 3, .flags = RVT_IREC_F_CYCLE_END };
}

/* Put r into an encoder with attribute kv; the status and why(). */
static int put(const char *kv, const char *kv2, rvt_irec r, char *why, size_t n)
{
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    CHECK_EQ(rvt_te_attrs_set(&a, kv), 0);
    if (kv2)
        CHECK_EQ(rvt_te_attrs_set(&a, kv2), 0);
    int st = 0;
    rvt_te_encoder *e = rvt_te_encoder_new(&a, sink, NULL, &st);
    CHECK(e != NULL);
    if (!e)
        return st;
    st = rvt_te_encoder_put(e, &r, 1);
    snprintf(why, n, "%s", rvt_te_encoder_why(e));
    rvt_te_encoder_free(e);
    return st;
}

static void refused(const char *kv, const char *kv2, rvt_irec r, const char *want)
{
    char why[128];
    int st = put(kv, kv2, r, why, sizeof why);
    if (st != RVT_ERR_RANGE || strcmp(why, want))
        TH_FAIL("%s: status %d \"%s\", want RVT_ERR_RANGE \"%s\"", kv, st, why, want);
    else
        th_passed++;
}

static void accepted(const char *kv, const char *kv2, rvt_irec r)
{
    char why[128];
    int st = put(kv, kv2, r, why, sizeof why);
    if (st != 0 || why[0])
        TH_FAIL("%s: status %d \"%s\", want 0", kv, st, why);
    else
        th_passed++;
}

int main(void)
{
    rvt_irec ecall = rec(TE_BASE, 1);
    ecall.cause = 11;
    refused("ecause_width=2", NULL, ecall, "ecause 11 (0xb) does not fit ecause_width=2");
    accepted("ecause_width=4", NULL, ecall);

    /* the last instruction of the block decides: 0xfffc fits 16 bits */
    accepted("iaddress_width=16", NULL, rec(0xfffc, 0));
    refused("iaddress_width=16", NULL, rec(0x10000, 0), "address 65536 (0x10000) does not fit iaddress_width=16");
    rvt_irec two = rec(0xfffc, 0);
    two.iretire = 4;
    two.ninstr = 2;
    refused("iaddress_width=16", NULL, two, "address 65536 (0x10000) does not fit iaddress_width=16");

    rvt_irec fault = rec(0x1000, 1);
    fault.cause = 5;
    fault.tval = 0x12345;
    refused("iaddress_width=16", NULL, fault, "tval 74565 (0x12345) does not fit iaddress_width=16");

    refused("privilege_width=1", NULL, rec(TE_BASE, 0), "privilege 3 (0x3) does not fit privilege_width=1");

    rvt_irec ctx = rec(TE_BASE, 0);
    ctx.context = 0x100;
    accepted("context_width=8", NULL, ctx);     /* nocontext=1: no field */
    refused("context_width=8", "nocontext=0", ctx, "context 256 (0x100) does not fit context_width=8");

    rvt_irec t = rec(TE_BASE, 0);
    t.time = 16;
    accepted("time_width=4", "version=2.0", t);  /* notime=1: no field */
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    char why[128];
    CHECK_EQ(rvt_te_attrs_set(&a, "notime=0"), 0);
    /* 2.0 with the time field present */
    rvt_irec t15 = t;
    t15.time = 15;
    int st = 0;
    a.version = RVT_TE_V20;
    a.time_width = 4;
    rvt_te_encoder *e = rvt_te_encoder_new(&a, sink, NULL, &st);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ(rvt_te_encoder_put(e, &t15, 1), 0);
        CHECK_EQ(rvt_te_encoder_put(e, &t, 1), RVT_ERR_RANGE);
        snprintf(why, sizeof why, "%s", rvt_te_encoder_why(e));
        CHECK_STR(why, "time 16 (0x10) does not fit time_width=4");
        rvt_te_encoder_free(e);
    }
    return TH_DONE();
}
