/* The protocol registry (rvtrace/proto.h, issue 14 "Protocols"): lookup by
 * name, one set/get/check/defaults style, the dependent defaults, the one
 * sidecar reader and writer (byte-compatible with the .attrs files written
 * so far: docs/format-te.md, docs/format-nt.md), the dump walk and NULL
 * arguments. */
#include <string.h>
#include "tharness.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"
#include "rvtrace/proto.h"

/* Defaults as docs/format-te.md lists them (rvt_te_attrs_default). */
static const char te_default_sidecar[] =
    "# rvtrace E-Trace attributes (docs/format-te.md)\n"
    "version=1.1\niaddress_width=64\niaddress_lsb=1\necause_width=5\ncontext_width=32\n"
    "nocontext=1\nnotime=1\ntime_width=0\nprivilege_width=2\ncall_counter_size=0\n"
    "return_stack_size=0\nbpred_size=0\ncache_size=0\nf0s_width=0\nsijump=0\nretires=1\n"
    "itype_width=4\nencoder_mode_width=1\nresync_max=12\nirdepth_ones=0\ntrap_noupd=0\n"
    "data_trace=0\ndata_width=64\nno_data=0\nno_address=0\ndata_compress=3\ncomparators=8\n"
    "filters=16\necause_choice=5\nfilter_context=1\nfilter_excint=1\nfilter_privilege=1\n"
    "filter_tval=1\nsplit_loads=0\nindex_width=0\nresync_mode=halfwords\nresync_interval=0\n"
    "options=none\n";

/* N-Trace: the fixed ch. 4 controls, then every setting (docs/format-nt.md). */
static const char nt_default_sidecar[] =
    "# rvtrace N-Trace encoder settings (docs/format-nt.md)\n"
    "trTeFormat=1\ntrTeProtocolMajor=1\ntrTeProtocolMinor=0\ntrTeInstEnImplicitReturn=0\n"
    "trTeInstNoTrapAddr=0\ntrTeInstMode=6\ntrTeContext=0\ntrTeInhibitSrc=0\ntrTeSrcBits=0\n"
    "trTeSrcID=0\ntrTeInstSyncMode=0\ntrTeInstSyncMax=0\ntrTeInstNoAddrDiff=0\n"
    "trTeInstEnSequentialJump=0\ntrTeInstImplicitReturnMode=0\ntrTeInstEnRepeatedHistory=0\n"
    "trTeInstEnAllJumps=0\ntrTeInstExtendAddrMSB=0\ntrTsEnable=0\nrvtReturnStackDepth=32\n"
    "rvtReturnAddrBits=16\nrvtRepeatKinds=5\nrvtIcntBits=22\nrvtHistBits=32\nrvtItypeBits=4\n"
    "rvtXlen=64\nrvtPortBytes=1\nrvtStartDisabled=0\n";

static char *sidecar_text(const rvt_proto_cfg *c, size_t *n)
{
    static char buf[4096];
    FILE *f = tmpfile();
    CHECK_EQ(rvt_proto_sidecar_write(c, f), 0);
    rewind(f);
    *n = fread(buf, 1, sizeof buf - 1, f);
    buf[*n] = 0;
    fclose(f);
    return buf;
}

static FILE *text_file(const char *text)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    return f;
}

static void test_find(void)
{
    static const char *const names[] = { "etrace", "etrace-data", "ntrace", "tv" };
    for (size_t i = 0; i < 4; i++) {
        const rvt_proto *p = rvt_proto_find(names[i]);
        CHECK(p != NULL);
        CHECK_STR(rvt_proto_name(p), names[i]);
        CHECK(rvt_proto_at(i) == p);
    }
    CHECK(rvt_proto_at(4) == NULL);
    CHECK(rvt_proto_find("xtrace") == NULL);
    CHECK(rvt_proto_find("") == NULL);
    CHECK(rvt_proto_find(NULL) == NULL);
    CHECK_STR(rvt_proto_title(rvt_proto_find("ntrace")), "N-Trace");
    CHECK(rvt_proto_caps(rvt_proto_find("ntrace")) & RVT_PROTO_SIDECAR);
    CHECK(!(rvt_proto_caps(rvt_proto_find("tv")) & RVT_PROTO_SIDECAR));
}

static void test_settings_list(void)
{
    const rvt_proto *te = rvt_proto_find("etrace"), *nt = rvt_proto_find("ntrace");
    const char *help = NULL;
    CHECK_STR(rvt_proto_setting(te, 0, &help), "version");
    CHECK(help && *help);
    size_t n = 0;
    while (rvt_proto_setting(te, n, NULL))
        n++;
    CHECK_EQ(n, 38);                 /* version, 34 numbers, resync_mode/interval, options */
    CHECK_STR(rvt_proto_setting(nt, 0, NULL), "trTeFormat");
    CHECK(rvt_proto_setting(NULL, 0, NULL) == NULL);
}

static void test_set_get(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    char v[64];
    CHECK_EQ(rvt_proto_cfg_get(c, "iaddress_width", v, sizeof v), 0);
    CHECK_STR(v, "64");
    CHECK(!rvt_proto_cfg_stated(c, "iaddress_width"));
    CHECK_EQ(rvt_proto_cfg_set(c, "iaddress_width", "32"), 0);
    CHECK(rvt_proto_cfg_stated(c, "iaddress_width"));
    CHECK_EQ(rvt_proto_cfg_get(c, "iaddress_width", v, sizeof v), 0);
    CHECK_STR(v, "32");
    CHECK_EQ(rvt_proto_cfg_set(c, "version", "2.0"), 0);
    CHECK_EQ(rvt_proto_cfg_get(c, "version", v, sizeof v), 0);
    CHECK_STR(v, "2.0");
    CHECK_EQ(rvt_proto_cfg_set(c, "options", "implicit-return,sijump"), 0);
    CHECK_EQ(rvt_proto_cfg_get(c, "options", v, sizeof v), 0);
    CHECK_STR(v, "sijump,implicit-return");     /* the sidecar's order */
    CHECK_EQ(rvt_proto_cfg_set(c, "no_such", "1"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_set(c, "iaddress_width", "-1"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_get(c, "no_such", v, sizeof v), RVT_ERR_INVAL);
    /* defaults: one call restores them and forgets what was stated */
    CHECK_EQ(rvt_proto_cfg_defaults(c), 0);
    CHECK(!rvt_proto_cfg_stated(c, "iaddress_width"));
    CHECK_EQ(rvt_proto_cfg_get(c, "iaddress_width", v, sizeof v), 0);
    CHECK_STR(v, "64");
    CHECK(((rvt_te_attrs *)rvt_proto_cfg_native(c))->iaddress_width == 64);
    rvt_proto_cfg_free(c);

    c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    CHECK_EQ(rvt_proto_cfg_get(c, "trTeInstMode", v, sizeof v), 0);
    CHECK_STR(v, "6");                          /* HTM */
    CHECK_EQ(rvt_proto_cfg_set(c, "trTeInstMode", "3"), 0);
    CHECK_EQ(((rvt_nt_cfg *)rvt_proto_cfg_native(c))->inst_mode, RVT_NT_MODE_BTM);
    CHECK_EQ(rvt_proto_cfg_set(c, "trTeInstNoTrapAddr", "1"), RVT_ERR_INVAL);   /* table 7 */
    rvt_proto_cfg_free(c);

    c = rvt_proto_cfg_new(rvt_proto_find("etrace-data"));
    CHECK_EQ(rvt_proto_cfg_get(c, "data_trace", v, sizeof v), 0);
    CHECK_STR(v, "1");
    rvt_proto_cfg_free(c);
}

static void test_check_and_fill(void)
{
    const char *why = NULL;
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    CHECK_EQ(rvt_proto_cfg_check(c, &why), 0);
    /* 6.8.1: branch prediction needs a predictor size; fill gives one */
    CHECK_EQ(rvt_proto_cfg_set(c, "options", "branch-prediction"), 0);
    CHECK(rvt_proto_cfg_check(c, &why) < 0);
    CHECK(why && *why);
    CHECK_EQ(rvt_proto_cfg_fill(c), 0);
    CHECK_EQ(rvt_proto_cfg_check(c, &why), 0);
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->bpred_size, 8);
    /* implicit return with no size stated: a 2^5-entry return stack */
    rvt_proto_cfg_defaults(c);
    rvt_proto_cfg_set(c, "options", "implicit-return");
    rvt_proto_cfg_fill(c);
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->return_stack_size, 5);
    CHECK(rvt_proto_cfg_caveat(c) == NULL);
    /* ... unless a size is stated, even as 0 (the reference flow's mode) */
    rvt_proto_cfg_defaults(c);
    rvt_proto_cfg_set(c, "options", "implicit-return");
    rvt_proto_cfg_set(c, "call_counter_size", "0");
    rvt_proto_cfg_fill(c);
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->return_stack_size, 0);
    CHECK(rvt_proto_cfg_caveat(c) != NULL);
    /* the input's XLEN unless stated */
    rvt_proto_cfg_defaults(c);
    CHECK_EQ(rvt_proto_cfg_input_xlen(c, 32), 0);
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->iaddress_width, 32);
    rvt_proto_cfg_set(c, "iaddress_width", "64");
    rvt_proto_cfg_input_xlen(c, 32);
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->iaddress_width, 64);
    rvt_proto_cfg_free(c);

    /* check is const: N-Trace's zero defaults are filled in a copy */
    c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    CHECK_EQ(rvt_proto_cfg_set(c, "rvtIcntBits", "0"), 0);
    CHECK_EQ(rvt_proto_cfg_check(c, &why), 0);
    CHECK_EQ(((rvt_nt_cfg *)rvt_proto_cfg_native(c))->icnt_bits, 0);
    CHECK_EQ(rvt_proto_cfg_fill(c), 0);
    CHECK_EQ(((rvt_nt_cfg *)rvt_proto_cfg_native(c))->icnt_bits, 22);
    CHECK_EQ(rvt_proto_cfg_set(c, "rvtXlen", "65"), RVT_ERR_INVAL);   /* out of 0..64 */
    CHECK_EQ(rvt_proto_cfg_set(c, "trTeInstImplicitReturnMode", "1"), 0);
    CHECK_EQ(rvt_proto_cfg_set(c, "rvtItypeBits", "3"), 0);   /* 9.2 needs 4 bits */
    CHECK_EQ(rvt_proto_cfg_check(c, &why), RVT_ERR_INVAL);
    CHECK_STR(why, "inconsistent N-Trace settings");
    rvt_proto_cfg_free(c);

    c = rvt_proto_cfg_new(rvt_proto_find("tv"));
    CHECK_EQ(rvt_proto_cfg_check(c, NULL), 0);
    CHECK_EQ(rvt_proto_cfg_set(c, "xlen", "48"), 0);
    CHECK(rvt_proto_cfg_check(c, &why) < 0);
    rvt_proto_cfg_free(c);
}

/* write -> read -> write gives the same bytes, for every sidecar protocol;
 * the defaults' text is the one written so far. */
static void test_sidecar_round_trip(void)
{
    static const char *const names[] = { "etrace", "etrace-data", "ntrace" };
    for (size_t i = 0; i < 3; i++) {
        rvt_proto_cfg *a = rvt_proto_cfg_new(rvt_proto_find(names[i]));
        rvt_proto_cfg *b = rvt_proto_cfg_new(rvt_proto_find(names[i]));
        if (i < 2) {
            rvt_proto_cfg_set(a, "options", "branch-prediction,jump-target-cache");
            rvt_proto_cfg_set(a, "resync_mode", "packets");
            rvt_proto_cfg_set(a, "resync_interval", "1000");
        } else {
            rvt_proto_cfg_set(a, "trTeSrcBits", "4");
            rvt_proto_cfg_set(a, "trTeSrcID", "9");
            rvt_proto_cfg_set(a, "trTeInstImplicitReturnMode", "2");
        }
        rvt_proto_cfg_fill(a);
        size_t n1, n2;
        char first[4096];
        char *t = sidecar_text(a, &n1);
        memcpy(first, t, n1 + 1);
        FILE *f = text_file(first);
        CHECK_EQ(rvt_proto_sidecar_read(b, f, NULL, NULL), 0);
        fclose(f);
        t = sidecar_text(b, &n2);
        CHECK_EQ(n1, n2);
        CHECK_STR(t, first);
        rvt_proto_cfg_free(a);
        rvt_proto_cfg_free(b);
    }
    size_t n;
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    CHECK_STR(sidecar_text(c, &n), te_default_sidecar);
    rvt_proto_cfg_free(c);
    c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    CHECK_STR(sidecar_text(c, &n), nt_default_sidecar);
    rvt_proto_cfg_free(c);
}

static unsigned diag_lines;
static void count_diag(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)ctx; (void)off;
    CHECK_EQ(level, RVT_DIAG_ERROR);
    CHECK(strstr(msg, "line ") == msg);
    diag_lines++;
}

static void test_sidecar_errors_and_kind(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    FILE *f = text_file("# comment\n\nversion=2.0\nbogus=1\n  retires=2\nnot a setting\n");
    diag_lines = 0;
    CHECK_EQ(rvt_proto_sidecar_read(c, f, count_diag, NULL), RVT_ERR_INVAL);
    CHECK_EQ(diag_lines, 2);             /* every bad line, not only the first */
    CHECK_EQ(((rvt_te_attrs *)rvt_proto_cfg_native(c))->retires, 2);
    fclose(f);
    rvt_proto_cfg_free(c);

    f = text_file(te_default_sidecar);
    CHECK(rvt_proto_of_sidecar(f) == rvt_proto_find("etrace"));
    fclose(f);
    f = text_file(nt_default_sidecar);
    CHECK(rvt_proto_of_sidecar(f) == rvt_proto_find("ntrace"));
    fclose(f);
    f = text_file("# nothing\n\n");
    CHECK(rvt_proto_of_sidecar(f) == NULL);
    fclose(f);
    f = text_file("42=1\n");
    CHECK(rvt_proto_of_sidecar(f) == NULL);
    fclose(f);

    c = rvt_proto_cfg_new(rvt_proto_find("tv"));
    f = tmpfile();
    CHECK_EQ(rvt_proto_sidecar_write(c, f), RVT_ERR_STATE);   /* tv has none */
    fclose(f);
    rvt_proto_cfg_free(c);
}

typedef struct seen { unsigned items, errors; char first[64]; } seen;
static int on_item(void *ctx, const rvt_proto_item *it)
{
    seen *s = ctx;
    if (it->status < 0)
        s->errors++;
    else if (!s->items++)
        snprintf(s->first, sizeof s->first, "%s", it->name);
    return 0;
}

/* The dump walk's contract (the walk itself: tests/e2e dump_*.sh and the
 * corpus dumps): an empty stream has no items; bad arguments; a protocol
 * without a dump. */
static void test_dump(void)
{
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("ntrace"));
    seen s = { 0 };
    rvt_proto_dump_end end;
    CHECK_EQ(rvt_proto_dump(c, NULL, 0, 0, on_item, &s, &end), 0);
    CHECK_EQ(end.items, 0);
    CHECK_EQ(rvt_proto_dump(NULL, NULL, 0, 0, on_item, &s, &end), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_dump(c, NULL, 0, 0, NULL, &s, &end), RVT_ERR_INVAL);
    rvt_proto_cfg_free(c);
    c = rvt_proto_cfg_new(rvt_proto_find("tv"));
    CHECK_EQ(rvt_proto_dump(c, NULL, 0, 0, on_item, &s, &end), RVT_ERR_STATE);
    rvt_proto_cfg_free(c);
}

static void test_null_args(void)
{
    char v[8];
    CHECK(rvt_proto_cfg_new(NULL) == NULL);
    rvt_proto_cfg_free(NULL);
    CHECK(rvt_proto_cfg_proto(NULL) == NULL);
    CHECK_EQ(rvt_proto_cfg_defaults(NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_set(NULL, "version", "1.1"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_get(NULL, "version", v, sizeof v), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_check(NULL, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_fill(NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_input_xlen(NULL, 32), RVT_ERR_INVAL);
    CHECK(rvt_proto_cfg_native(NULL) == NULL);
    CHECK_EQ(rvt_proto_sidecar_read(NULL, stdin, NULL, NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_sidecar_write(NULL, stdout), RVT_ERR_INVAL);
    CHECK(rvt_proto_of_sidecar(NULL) == NULL);
    rvt_proto_cfg *c = rvt_proto_cfg_new(rvt_proto_find("etrace"));
    CHECK_EQ(rvt_proto_cfg_set(c, NULL, "1"), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_set(c, "version", NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_get(c, "version", NULL, 4), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_cfg_get(c, NULL, v, sizeof v), RVT_ERR_INVAL);
    CHECK_EQ(rvt_proto_sidecar_read(c, NULL, NULL, NULL), RVT_ERR_INVAL);
    CHECK(!rvt_proto_cfg_stated(c, NULL));
    /* the native setters take the same style and reject NULL too */
    CHECK_EQ(rvt_te_attrs_set_value(rvt_proto_cfg_native(c), "retires", NULL), RVT_ERR_INVAL);
    CHECK_EQ(rvt_nt_cfg_set(NULL, "trTeInstMode", "3"), RVT_ERR_INVAL);
    rvt_proto_cfg_free(c);
}

/* rvt_proto_detect on bytes built by hand from the framings' rules. */
static void test_detect(void)
{
    uint8_t b[64];
    /* N-Trace 5.1: MSEO bits 00 00 11 per 3-byte message (a TCODE byte, a
     * field byte, the last byte ending the message), 63 bytes */
    for (size_t i = 0; i < 63; i++)
        b[i] = (uint8_t)(i % 3 == 2 ? 0x07 : 0x04);
    CHECK_STR(rvt_proto_name(rvt_proto_detect(b, 63)), "ntrace");
    CHECK(rvt_proto_detect(b, 31) == NULL);                 /* too short to tell */
    memset(b + 33, 0xFF, 30);                               /* idle (N-Trace 3.1) */
    CHECK_STR(rvt_proto_name(rvt_proto_detect(b, 63)), "ntrace");   /* 33 content bytes... */
    memset(b + 30, 0xFF, 3);
    CHECK(rvt_proto_detect(b, 63) == NULL);                 /* ...30: too few to tell */
    b[10] = 0x06;                                           /* MSEO 10: reserved */
    CHECK(rvt_proto_detect(b, 63) == NULL);                 /* and no frame tiling */
    /* reference flow: header 2<<5 | 3 = 0x43 (te_inst, 3 bytes), payload
     * 0x02 (MSEO 10, so not N-Trace): 16 frames of 4 bytes */
    for (size_t i = 0; i < 64; i++)
        b[i] = i % 4 ? 0x02 : 0x43;
    CHECK_STR(rvt_proto_name(rvt_proto_detect(b, 64)), "etrace");
    CHECK(rvt_proto_detect(b, 62) == NULL);                 /* the last frame cut short */
    b[4] = 0x63;                                            /* te_data, 3 bytes: still E-Trace */
    CHECK_STR(rvt_proto_name(rvt_proto_detect(b, 64)), "etrace");
    b[4] = 0x23;                                            /* msg_type 1: not a trace frame */
    CHECK(rvt_proto_detect(b, 64) == NULL);
    /* Encapsulation 2.3: 31 nulls and a null.alignment, then a packet */
    memset(b, 0, 31);
    b[31] = 0x80;
    b[32] = 0x06;
    CHECK_STR(rvt_proto_name(rvt_proto_detect(b, 40)), "etrace");
    memcpy(b, "\177ELF", 4);
    CHECK(rvt_proto_detect(b, 64) == NULL);
    memcpy(b, "RVTI", 4);
    CHECK(rvt_proto_detect(b, 64) == NULL);
    CHECK(rvt_proto_detect(NULL, 64) == NULL);
}

int main(void)
{
    test_detect();
    test_find();
    test_settings_list();
    test_set_get();
    test_check_and_fill();
    test_sidecar_round_trip();
    test_sidecar_errors_and_kind();
    test_dump();
    test_null_args();
    return TH_DONE();
}
