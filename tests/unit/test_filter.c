/* Trace filters and triggers (src/filter): each case applies one rule of
 * E-Trace tables 2.3-2.6 or 4.7 to hand-made blocks, with the expected
 * decision written beside it. */
#include <string.h>
#include "rvtrace/filter.h"
#include "tharness.h"

#define U RVT_IREC_F_UNQUAL

/* A one-instruction block of 4 bytes at addr. */
static rvt_irec blk(uint64_t addr)
{
    rvt_irec r = { .iaddr = addr, .iretire = 2, .ninstr = 1, .ilastsize = 1, .priv = 3 };
    return r;
}

static int nop_put(void *ctx, const rvt_irec *r, size_t n)
{
    (void)ctx, (void)r, (void)n;
    return 0;
}

/* A stage driven through rvt_filter_block/_data (its sink is not used). */
static rvt_filter *mk(const rvt_filter_cfg *cfg)
{
    rvt_irec_sink s = { NULL, nop_put, NULL, NULL };
    int st;
    rvt_filter *f = rvt_filter_new(cfg, &s, &st);
    CHECK(f != NULL);
    return f;
}

static void parse_ok(rvt_filter_cfg *cfg, const char *cmp, const char *filt)
{
    char err[200] = "";
    if (cmp && rvt_filter_parse_cmp(cfg, cmp, NULL, NULL, err, sizeof err) < 0)
        TH_FAIL("%s: %s", cmp, err);
    if (filt && rvt_filter_parse_filter(cfg, filt, err, sizeof err) < 0)
        TH_FAIL("%s: %s", filt, err);
}

/* Table 2.3: iFilters all 0 traces everything. */
static void test_default(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x1000);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    rvt_drec d = { .iaddr = 0x1000, .addr = 0x8000 };
    CHECK(rvt_filter_data(f, &d));
    rvt_filter_free(f);
}

/* An address range: P (iaddr >= 0x100) && S (iaddr < 0x200), matchMode 1. */
static void test_range(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "0:p=iaddr:ge:0x100,s=iaddr:lt:0x200,mode=and", "0:comp=0");
    CHECK_EQ(cfg.ifilters, 1);
    CHECK_EQ(cfg.dfilters, 0);
    rvt_filter *f = mk(&cfg);
    static const struct { uint64_t a; unsigned want; } t[] = {
        { 0xfc, U }, { 0x100, 0 }, { 0x1fc, 0 }, { 0x200, U }, { 0x0, U },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rvt_irec r = blk(t[i].a);
        CHECK_EQ(rvt_filter_block(f, &r), t[i].want);
    }
    /* 4.3: a block is traced if any of its instructions match: 0xf8..0x100
     * (iretire 6 half-words, last one 4 bytes at 0xf8 + 2*(6-2) = 0x100). */
    rvt_irec r = blk(0xf8);
    r.iretire = 6;
    r.ninstr = 2;
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    rvt_filter_free(f);
}

/* matchMode 3: on from the block where P matches through the block where S
 * matches. */
static void test_latch(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "3:p=iaddr:eq:0x110,s=iaddr:eq:0x120,mode=latch", "5:comp=3");
    CHECK_EQ(cfg.ifilters, 1u << 5);
    rvt_filter *f = mk(&cfg);
    static const struct { uint64_t a; unsigned want; } t[] = {
        { 0x100, U }, { 0x110, 0 }, { 0x114, 0 }, { 0x120, 0 }, { 0x124, U }, { 0x114, U },
        { 0x110, 0 }, { 0x100, 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rvt_irec r = blk(t[i].a);
        CHECK_EQ(rvt_filter_block(f, &r), t[i].want);
    }
    rvt_filter_free(f);
}

/* matchMode 2 !(P&&S) (outside a range) and sFunction 6 (sMatch masks
 * pMatch). */
static void test_nand_mask(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "0:p=iaddr:ge:0x100,s=iaddr:lt:0x200,mode=nand", "0:comp=0");
    parse_ok(&cfg, "1:p=iaddr:eq:0x1000,s=iaddr:mask:0xf000", "1:comp=1");
    rvt_filter *f = mk(&cfg);
    /* 0x150: filter 0 no (inside), filter 1 no (0x0000 != 0x1000) */
    static const struct { uint64_t a; unsigned want; } t[] = {
        { 0x150, U }, { 0x250, 0 }, { 0x1234, 0 }, { 0x1ffc, 0 }, { 0x2000, 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rvt_irec r = blk(t[i].a);
        CHECK_EQ(rvt_filter_block(f, &r), t[i].want);
    }
    rvt_filter_free(f);
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "1:p=iaddr:eq:0x1000,s=iaddr:mask:0xf000", "1:comp=1");
    f = mk(&cfg);
    rvt_irec r = blk(0x1234);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x2234);
    CHECK_EQ(rvt_filter_block(f, &r), U);
    rvt_filter_free(f);
}

/* Table 2.5 matchChoicePrivilege: bit N matches privilege N. */
static void test_priv(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, NULL, "2:priv=u+s");
    CHECK_EQ(cfg.filt[2].choice_privilege, 0x3);
    rvt_filter *f = mk(&cfg);
    for (unsigned p = 0; p < 4; p++) {
        rvt_irec r = blk(0x100);
        r.priv = (uint8_t)p;
        CHECK_EQ(rvt_filter_block(f, &r), p < 2 ? 0 : U);
    }
    rvt_filter_free(f);
}

/* Table 2.4 matchEcause: from a trap with a chosen cause until the return
 * from it; a trap nested in the handler does not end it. */
static void test_ecause(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, NULL, "0:ecause=8+9");
    CHECK_EQ(cfg.filt[0].choice_ecause, 0x300);
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x100);
    r.itype = 1, r.cause = 2;                 /* illegal instruction: not chosen */
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x800);                           /* its handler */
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r.itype = 3;                              /* mret */
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x104);
    r.itype = 1, r.cause = 8;                 /* ecall: ends the block, not in it */
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x800);                           /* handler: matching */
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x804);
    r.itype = 2, r.cause = 7;                 /* an interrupt inside the handler */
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x900);
    r.itype = 3;                              /* the interrupt's mret: still inside */
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x808);
    r.itype = 3;                              /* the ecall's mret: the last matching */
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x108);
    CHECK_EQ(rvt_filter_block(f, &r), U);
    rvt_filter_free(f);

    /* matchInterrupt with matchValueInterrupt 1: itype 2 traps only. */
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, NULL, "0:interrupt");
    CHECK(cfg.filt[0].match_interrupt && cfg.filt[0].value_interrupt);
    f = mk(&cfg);
    r = blk(0x100);
    r.itype = 1, r.cause = 8;
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x800);
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r.itype = 3;
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x104);
    r.itype = 2, r.cause = 7;
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x800);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    rvt_filter_free(f);
}

/* tval is valid with its trap and held after it (docs/filter.md), so a
 * handler can be chosen by the trap value. */
static void test_tval(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "0:p=tval:eq:0xdead", "0:comp=0,exception");
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x100);
    r.itype = 1, r.cause = 5, r.tval = 0xbeef;
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x800);
    CHECK_EQ(rvt_filter_block(f, &r), U);    /* in the region, tval differs */
    r.itype = 3;
    CHECK_EQ(rvt_filter_block(f, &r), U);
    r = blk(0x104);
    r.itype = 1, r.cause = 5, r.tval = 0xdead;
    CHECK_EQ(rvt_filter_block(f, &r), U);    /* region starts after this block */
    r = blk(0x800);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    rvt_filter_free(f);
}

/* Table 4.7 triggers: trace starts off when a trace-on trigger exists; the
 * trace-on block is traced, so is the trace-off block. */
static void test_triggers(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    char err[200];
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_ON, "0x110", NULL, NULL, err, sizeof err), 0);
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_OFF, "0x120", NULL, NULL, err, sizeof err), 0);
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_NOTIFY, "0x118", NULL, NULL, err, sizeof err), 0);
    rvt_filter *f = mk(&cfg);
    static const struct { uint64_t a; unsigned want; } t[] = {
        { 0x100, U }, { 0x110, RVT_IREC_F_TRIG_START }, { 0x114, 0 },
        { 0x118, RVT_IREC_F_TRIG_NOTIFY }, { 0x120, RVT_IREC_F_TRIG_STOP }, { 0x124, U },
        { 0x118, U | RVT_IREC_F_TRIG_NOTIFY }, { 0x110, RVT_IREC_F_TRIG_START },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rvt_irec r = blk(t[i].a);
        CHECK_EQ(rvt_filter_block(f, &r), t[i].want);
    }
    const rvt_filter_stats *s = rvt_filter_get_stats(f);
    CHECK_EQ(s->trace_on, 2);
    CHECK_EQ(s->trace_off, 1);
    CHECK_EQ(s->notify, 2);
    CHECK_EQ(s->unqualified, 3);
    rvt_filter_free(f);
}

/* Pulses the source raised itself (the hart's trigger unit) turn trace off
 * and on as configured triggers do; with none configured trace starts on. */
static void test_source_pulses(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    rvt_filter *f = mk(&cfg);
    static const struct { uint64_t a; unsigned in, want; } t[] = {
        { 0x100, 0, 0 }, { 0x104, RVT_IREC_F_TRIG_STOP, 0 }, { 0x108, 0, U },
        { 0x10c, RVT_IREC_F_TRIG_NOTIFY, U }, { 0x110, RVT_IREC_F_TRIG_START, 0 }, { 0x114, 0, 0 },
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        rvt_irec r = blk(t[i].a);
        r.flags = (uint8_t)t[i].in;
        CHECK_EQ(rvt_filter_block(f, &r), t[i].want);
    }
    rvt_filter_free(f);
}

/* Table 2.6 pNotify: a watchpoint on the block with the primary match. */
static void test_watchpoint(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "4:p=iaddr:eq:0x114,notify=p", NULL);
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x110);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    r = blk(0x114);
    CHECK_EQ(rvt_filter_block(f, &r), RVT_IREC_F_TRIG_NOTIFY);
    rvt_filter_free(f);
    char err[200] = "";
    rvt_filter_cfg_init(&cfg);
    CHECK(rvt_filter_parse_cmp(&cfg, "0:p=context:eq:1,notify=p", NULL, NULL, err, sizeof err) < 0);
    CHECK(strstr(err, "iaddr") != NULL);
}

/* dFilters: dtype/dsize choices and a daddr comparator; data of a block
 * outside trace-on/off is never traced. */
static void test_data(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, "2:p=daddr:ge:0x8000", "1:comp=2,dtype=store+amo-swap,dsize=4+8,data");
    CHECK_EQ(cfg.ifilters, 0);
    CHECK_EQ(cfg.dfilters, 2);
    CHECK_EQ(cfg.filt[1].choice_dtype, (1u << 1) | (1u << 8));
    CHECK_EQ(cfg.filt[1].choice_dsize, 0xc);
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x100);
    CHECK_EQ(rvt_filter_block(f, &r), 0);    /* comparator 2 is a data comparator */
    rvt_drec d = { .iaddr = 0x100, .addr = 0x8000, .dtype = RVT_DTYPE_STORE, .dsize = 2 };
    CHECK(rvt_filter_data(f, &d));
    d.dtype = RVT_DTYPE_LOAD;
    CHECK(!rvt_filter_data(f, &d));
    d.dtype = RVT_DTYPE_AMO_SWAP, d.dsize = 3;
    CHECK(rvt_filter_data(f, &d));
    d.dsize = 1;
    CHECK(!rvt_filter_data(f, &d));
    d.dsize = 2, d.addr = 0x7ffc;
    CHECK(!rvt_filter_data(f, &d));
    rvt_filter_free(f);

    rvt_filter_cfg_init(&cfg);
    char err[200];
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_ON, "0x200", NULL, NULL, err, sizeof err), 0);
    f = mk(&cfg);
    r = blk(0x100);
    CHECK_EQ(rvt_filter_block(f, &r), U);
    CHECK(!rvt_filter_data(f, &d));
    rvt_filter_free(f);
}

/* Split loads (4.3): the response follows its request's fate, though
 * the block it arrives in is outside trace-on/off or dFilters. */
static void test_split(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    char err[200];
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_OFF, "0x104", NULL, NULL, err, sizeof err), 0);
    parse_ok(&cfg, NULL, "0:dtype=load,data");
    rvt_filter *f = mk(&cfg);
    rvt_irec r = blk(0x100);
    CHECK_EQ(rvt_filter_block(f, &r), 0);
    rvt_drec req = { .iaddr = 0x100, .dtype = RVT_DTYPE_LOAD, .flags = RVT_DREC_F_SPLIT_REQ, .lrid = 7 };
    rvt_drec req2 = { .iaddr = 0x100, .dtype = RVT_DTYPE_AMO_ADD, .flags = RVT_DREC_F_SPLIT_REQ, .lrid = 300 };
    CHECK(rvt_filter_data(f, &req));          /* a load: dFilter 0 passes it */
    CHECK(!rvt_filter_data(f, &req2));        /* an atomic: not chosen */
    r = blk(0x104);
    CHECK_EQ(rvt_filter_block(f, &r), RVT_IREC_F_TRIG_STOP);
    r = blk(0x108);
    CHECK_EQ(rvt_filter_block(f, &r), U);     /* trace is off now */
    rvt_drec resp = { .flags = RVT_DREC_F_RESPONSE, .lrid = 7, .lresp = RVT_LRESP_OKAY };
    rvt_drec resp2 = { .flags = RVT_DREC_F_RESPONSE, .lrid = 300, .lresp = RVT_LRESP_OKAY };
    CHECK(rvt_filter_data(f, &resp));
    CHECK(!rvt_filter_data(f, &resp2));
    CHECK(!rvt_filter_data(f, &resp));        /* the ID is free again */
    rvt_filter_free(f);
}

static bool lookup(void *ctx, const char *name, uint64_t *addr)
{
    (void)ctx;
    if (strcmp(name, "main"))
        return false;
    *addr = 0x80001000;
    return true;
}

static void test_parse_errors(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    char err[200];
    static const char *const bad_cmp[] = {
        "8:p=iaddr:eq:1", "0:p=pc:eq:1", "0:p=iaddr:approx:1", "0:p=iaddr:eq", "0:p=iaddr:eq:zz",
        "0:p=iaddr:mask:1", "0:mode=xor", "0:frob=1", "0", "0:", "0:p=iaddr:always:3",
        "0:p=iaddr:eq:nosuch",
    };
    for (size_t i = 0; i < sizeof bad_cmp / sizeof bad_cmp[0]; i++) {
        err[0] = 0;
        if (rvt_filter_parse_cmp(&cfg, bad_cmp[i], lookup, NULL, err, sizeof err) >= 0)
            TH_FAIL("'%s' accepted", bad_cmp[i]);
        else
            CHECK(err[0] != 0);
    }
    static const char *const bad_filt[] = {
        "16:priv=m", "0:comp=8", "0:comp=1,comp=2,comp=3,comp=4", "0:priv=x", "0:ecause=32",
        "0:dsize=3", "0:impdef=1", "0:inst=1", "0:priv=m+", "0:colour=red",
    };
    for (size_t i = 0; i < sizeof bad_filt / sizeof bad_filt[0]; i++) {
        err[0] = 0;
        if (rvt_filter_parse_filter(&cfg, bad_filt[i], err, sizeof err) >= 0)
            TH_FAIL("'%s' accepted", bad_filt[i]);
        else
            CHECK(err[0] != 0);
    }
    CHECK_EQ(rvt_filter_parse_cmp(&cfg, "1:p=iaddr:ge:main+0x10,s=iaddr:lt:main-4,mode=and",
                                  lookup, NULL, err, sizeof err), 0);
    CHECK_EQ(cfg.cmp[1].p_match, 0x80001010);
    CHECK_EQ(cfg.cmp[1].s_match, 0x80000ffc);
    CHECK_EQ(rvt_filter_add_trigger(&cfg, RVT_FILTER_TRACE_ON, "main", lookup, NULL, err, sizeof err), 0);
    CHECK_EQ(cfg.trig[0].addr, 0x80001000);
    CHECK(rvt_filter_add_trigger(&cfg, 5, "main", lookup, NULL, err, sizeof err) < 0);
    CHECK_EQ(rvt_filter_parse_filter(&cfg, "3:impdef=0x2/0x3,priv=m+d,inst,data", err, sizeof err), 0);
    CHECK_EQ(cfg.filt[3].value_impdef, 2);
    CHECK_EQ(cfg.filt[3].mask_impdef, 3);
    CHECK_EQ(cfg.filt[3].choice_privilege, 0x18);
    CHECK_EQ(cfg.ifilters & 8, 8);
    CHECK_EQ(cfg.dfilters & 8, 8);
}

/* The stage as a sink: flags added, untraced data dropped, order kept. */
typedef struct rec_sink {
    rvt_irec r[16];
    rvt_drec d[16];
    size_t nr, nd;
    int ended;
} rec_sink;

static int rec_put(void *ctx, const rvt_irec *r, size_t n)
{
    rec_sink *s = ctx;
    for (size_t i = 0; i < n && s->nr < 16; i++)
        s->r[s->nr++] = r[i];
    return 0;
}

static int rec_data(void *ctx, const rvt_drec *d, size_t n)
{
    rec_sink *s = ctx;
    for (size_t i = 0; i < n && s->nd < 16; i++)
        s->d[s->nd++] = d[i];
    return 0;
}

static int rec_end(void *ctx)
{
    ((rec_sink *)ctx)->ended++;
    return 0;
}

static void test_stage(void)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    parse_ok(&cfg, NULL, "0:priv=u");
    parse_ok(&cfg, NULL, "1:dtype=load,data");
    rec_sink out = { 0 };
    rvt_irec_sink down = { &out, rec_put, rec_data, rec_end };
    int st;
    rvt_filter *f = rvt_filter_new(&cfg, &down, &st);
    CHECK(f != NULL);
    rvt_irec_sink s = rvt_filter_sink(f);
    rvt_irec r[3] = { blk(0x100), blk(0x104), blk(0x108) };
    r[1].priv = 0;
    r[2].flags = RVT_IREC_F_CYCLE_END;
    CHECK_EQ(s.put(s.ctx, r, 3), 0);
    rvt_drec d[2] = { { .iaddr = 0x108, .dtype = RVT_DTYPE_STORE }, { .iaddr = 0x108, .dtype = RVT_DTYPE_LOAD } };
    CHECK_EQ(s.data(s.ctx, d, 2), 0);
    CHECK_EQ(s.end(s.ctx), 0);
    CHECK_EQ(out.nr, 3);
    CHECK_EQ(out.r[0].flags, U);
    CHECK_EQ(out.r[1].flags, 0);
    CHECK_EQ(out.r[2].flags, U | RVT_IREC_F_CYCLE_END);
    CHECK_EQ(out.nd, 1);
    CHECK_EQ(out.d[0].dtype, RVT_DTYPE_LOAD);
    CHECK_EQ(out.ended, 1);
    CHECK_EQ(rvt_filter_get_stats(f)->data_dropped, 1);
    rvt_filter_free(f);
}

int main(void)
{
    test_default();
    test_range();
    test_latch();
    test_nand_mask();
    test_priv();
    test_ecause();
    test_tval();
    test_triggers();
    test_watchpoint();
    test_source_pulses();
    test_data();
    test_parse_errors();
    test_stage();
    test_split();
    return TH_DONE();
}
