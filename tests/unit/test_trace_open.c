/* rvt_trace_open (include/rvtrace/trace.h, issue 18): a trace found by
 * sidecar, bytes or name (issue 14's order), the sidecar's settings loaded, an encapsulated
 * stream unwrapped with its offsets mapped back, and every failure said by
 * rvt_trace_error; rvt_image_error without a diag hook.  The files are
 * built here by hand from the framings' rules. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rvtrace/image.h"
#include "rvtrace/trace.h"
#include "tharness.h"

static char dir[] = "/tmp/rvt_trace_open_XXXXXX";

static const char *at(const char *name)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(p[k], sizeof p[k], "%s/%s", dir, name);
    return p[k];
}

static void put(const char *name, const void *b, size_t n)
{
    FILE *f = fopen(at(name), "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

static void put_text(const char *name, const char *s)
{
    put(name, s, strlen(s));
}

/* N-Trace 5.1: MSEO bits 00 00 11 per 3-byte message, 63 bytes */
static uint8_t nt[63];

static int notes;
static void count_note(void *ctx, int level, uint64_t off, const char *msg)
{
    (void)ctx, (void)off, (void)msg;
    notes += level == RVT_DIAG_INFO;
}

static void test_found_by(void)
{
    rvt_trace *t;
    rvt_trace_opts o = { .diag = count_note };
    CHECK_EQ(rvt_trace_open(at("a.bin"), &o, &t), 0);
    CHECK_STR(rvt_proto_name(rvt_trace_proto(t)), "ntrace");
    CHECK_STR(rvt_trace_found_by(t), "bytes");
    CHECK_EQ(notes, 1);                       /* "read as N-Trace (from its bytes)" */
    CHECK(rvt_trace_container(t) == NULL);    /* N-Trace has no container */
    size_t n;
    const uint8_t *b = rvt_trace_bytes(t, &n);
    CHECK_EQ(n, sizeof nt);
    CHECK_MEM(b, nt, sizeof nt);
    CHECK_EQ(rvt_trace_file_offset(t, 5), 5);
    CHECK_STR(rvt_trace_error(t), "");
    rvt_trace_free(t);

    /* issue 14: the bytes before the name, which only hints */
    CHECK_EQ(rvt_trace_open(at("a.nt"), NULL, &t), 0);
    CHECK_STR(rvt_trace_found_by(t), "bytes");
    rvt_trace_free(t);
    notes = 0;
    CHECK_EQ(rvt_trace_open(at("n.te"), &o, &t), 0);   /* N-Trace bytes named .te */
    CHECK_STR(rvt_proto_name(rvt_trace_proto(t)), "ntrace");
    CHECK_EQ(notes, 1);                       /* "..., though its name says otherwise" */
    rvt_trace_free(t);
    /* a name the bytes do not contradict: junk named .nt */
    CHECK_EQ(rvt_trace_open(at("junk.nt"), NULL, &t), 0);
    CHECK_STR(rvt_trace_found_by(t), "name");
    rvt_trace_free(t);

    /* the sidecar names the protocol and its settings are loaded */
    CHECK_EQ(rvt_trace_open(at("s.bin"), NULL, &t), 0);
    CHECK_STR(rvt_trace_found_by(t), "sidecar");
    char v[16];
    CHECK_EQ(rvt_proto_cfg_get(rvt_trace_cfg(t), "trTeInstMode", v, sizeof v), 0);
    CHECK_STR(v, "3");
    CHECK(rvt_proto_cfg_stated(rvt_trace_cfg(t), "trTeInstMode"));
    rvt_trace_free(t);

    rvt_trace_opts named = { .protocol = "ntrace" };
    CHECK_EQ(rvt_trace_open(at("junk.bin"), &named, &t), 0);
    CHECK_STR(rvt_trace_found_by(t), "option");
    rvt_trace_free(t);
}

static void check_fails(const char *name, const rvt_trace_opts *o, int status, const char *says)
{
    rvt_trace *t;
    CHECK_EQ(rvt_trace_open(at(name), o, &t), status);
    CHECK(t != NULL);
    const char *e = rvt_trace_error(t);
    /* the message names the file, then says why */
    if (strncmp(e, at(name), strlen(at(name))) || !strstr(e, says))
        TH_FAIL("%s: error '%s' does not name the file and say '%s'", name, e, says);
    else
        th_passed++;
    CHECK(rvt_trace_proto(t) == NULL && rvt_trace_cfg(t) == NULL);   /* only the message */
    rvt_trace_free(t);
}

static void test_failures(void)
{
    check_fails("nope.te", NULL, RVT_ERR_IO, ": ");
    check_fails("prog.bin", NULL, RVT_ERR_FORMAT, "is an ELF program");
    check_fails("in.bin", NULL, RVT_ERR_FORMAT, "ingress records");
    check_fails("junk.bin", NULL, RVT_ERR_FORMAT, "cannot tell the protocol");
    check_fails("c.te", NULL, RVT_ERR_FORMAT, "holds N-Trace settings");
    check_fails("bad.nt", NULL, RVT_ERR_FORMAT, "bad setting");
    rvt_trace_opts o = { .protocol = "xtrace" };
    check_fails("a.nt", &o, RVT_ERR_INVAL, "no protocol called 'xtrace'");
    rvt_trace_opts c = { .container = "zip" };
    check_fails("e.te", &c, RVT_ERR_INVAL, "container 'zip'");
    CHECK_EQ(rvt_trace_open(at("a.nt"), NULL, NULL), RVT_ERR_INVAL);
}

/* Encapsulation 2.3: 31 nulls and a null.alignment (0x80), then one packet:
 * header length 3, flow 0, extend 0 (2.1.1); no srcID, no timestamp, type
 * width 0 (te_inst); payload 11 22 33.  Unwrapped: the reference-flow
 * header (2 << 5 | 3) = 0x43, then the payload. */
static void test_encap(void)
{
    uint8_t e[36] = { 0 };
    e[31] = 0x80;
    e[32] = 0x03;
    e[33] = 0x11, e[34] = 0x22, e[35] = 0x33;
    put("e.te", e, sizeof e);
    rvt_trace *t;
    CHECK_EQ(rvt_trace_open(at("e.te"), NULL, &t), 0);
    CHECK_STR(rvt_trace_container(t), "encap");
    size_t n;
    const uint8_t *b = rvt_trace_bytes(t, &n);
    static const uint8_t want[] = { 0x43, 0x11, 0x22, 0x33 };
    CHECK_EQ(n, sizeof want);
    if (n == sizeof want)
        CHECK_MEM(b, want, n);
    CHECK_EQ(rvt_trace_file_offset(t, 0), 32);   /* the frame's header: the packet's */
    CHECK_EQ(rvt_trace_file_offset(t, 2), 34);   /* payload bytes: the same bytes */
    CHECK(rvt_trace_unwrapped(t) != NULL);
    rvt_trace_free(t);

    /* the sidecar says refflow: taken as it is */
    put_text("e.te.attrs", "container=refflow\n");
    CHECK_EQ(rvt_trace_open(at("e.te"), NULL, &t), 0);
    CHECK_STR(rvt_trace_container(t), "refflow");
    rvt_trace_bytes(t, &n);
    CHECK_EQ(n, sizeof e);
    rvt_trace_free(t);
    unlink(at("e.te.attrs"));
}

/* A wrapped RAM sink buffer of N-Trace (TCI 1.0 "Trace RAM Sink"):
 * sink_start 0x1000, sink_limit 0x100C (16 bytes), trRamWP 0x1004 with the
 * wrap bit.  In stream order (from the byte at wp, the oldest) it is
 *   O[0..2)   04 0B        the tail of a message overwritten in part
 *   O[2..14)  4 messages of MSEO 00 00 11 (N-Trace 3.1)
 *   O[14..16) FF FF        idle
 * so reading starts at O[2], the first MSEO-00 byte after an MSEO-11 one
 * (3.4), 2 bytes lost; file byte f holds O[(f - 4) mod 16], so stream
 * offset k (O[k + 2]) is file byte (k + 2 + 4) mod 16. */
static void test_sink(void)
{
    uint8_t o[16] = { 0x04, 0x0B }, f[16];
    for (size_t i = 2; i < 14; i++)
        o[i] = nt[i - 2];
    o[14] = o[15] = 0xFF;
    for (size_t i = 0; i < 16; i++)
        f[i] = o[(i + 12) % 16];
    put("w.nt", f, sizeof f);
    put_text("w.nt.attrs", "trTeInstMode=3\nsink_start=0x1000\nsink_limit=0x100c\n"
                           "sink_wp=0x1004\nsink_wrap=1\n");
    rvt_trace *t;
    notes = 0;
    rvt_trace_opts opts = { .diag = count_note };
    CHECK_EQ(rvt_trace_open(at("w.nt"), &opts, &t), 0);
    CHECK_EQ(notes, 1);                        /* "... 2 bytes ... lost" */
    const rvt_sink_view *v = rvt_trace_sink_view(t);
    CHECK(v != NULL);
    CHECK_EQ(v ? v->begin : 0, 2);
    size_t n;
    const uint8_t *b = rvt_trace_bytes(t, &n);
    CHECK_EQ(n, 14);
    if (n == 14)
        CHECK_MEM(b, o + 2, 14);
    CHECK_EQ(rvt_trace_file_offset(t, 0), 6);
    CHECK_EQ(rvt_trace_file_offset(t, 11), 1);
    CHECK_EQ(rvt_trace_file_offset(t, UINT64_MAX), UINT64_MAX);
    rvt_trace_free(t);
    /* sink keys that do not fit the file: an error naming it */
    put_text("w.nt.attrs", "trTeInstMode=3\nsink_start=0x1000\nsink_limit=0x101c\n"
                           "sink_wp=0x1004\nsink_wrap=1\n");
    CHECK_EQ(rvt_trace_open(at("w.nt"), NULL, &t), RVT_ERR_FORMAT);
    CHECK(strstr(rvt_trace_error(t), "sink buffer of 16 bytes") != NULL);
    rvt_trace_free(t);
    /* wrapped with no sync point in it */
    memset(f, 0x04, sizeof f);
    put("w.nt", f, sizeof f);
    put_text("w.nt.attrs", "trTeInstMode=3\nsink_start=0x1000\nsink_limit=0x100c\n"
                           "sink_wp=0x1004\nsink_wrap=1\n");
    CHECK_EQ(rvt_trace_open(at("w.nt"), NULL, &t), RVT_ERR_NOSYNC);
    CHECK(strstr(rvt_trace_error(t), "no synchronisation point") != NULL);
    rvt_trace_free(t);
    CHECK(rvt_trace_sink_view(NULL) == NULL);
}

static void test_image_error(void)
{
    rvt_image *img = rvt_image_new();
    uint64_t off = 0;
    CHECK_STR(rvt_image_error(img, &off), "");
    CHECK_EQ(off, UINT64_MAX);
    CHECK(rvt_image_load_elf(img, at("nope.elf")) < 0);      /* no diag hook set */
    const char *e = rvt_image_error(img, NULL);
    CHECK(!strncmp(e, at("nope.elf"), strlen(at("nope.elf"))) && strstr(e, "cannot open"));
    CHECK(rvt_image_load_elf(img, at("a.nt")) < 0);          /* not an ELF */
    e = rvt_image_error(img, &off);
    CHECK(!strncmp(e, at("a.nt"), strlen(at("a.nt"))));
    rvt_image_free(img);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    for (size_t i = 0; i < sizeof nt; i++)
        nt[i] = (uint8_t)(i % 3 == 2 ? 0x07 : 0x04);
    put("a.bin", nt, sizeof nt);
    put("a.nt", nt, sizeof nt);
    put("s.bin", nt, sizeof nt);
    put_text("s.bin.attrs", "trTeInstMode=3\n");
    put("n.te", nt, sizeof nt);
    /* encapsulated E-Trace bytes (2.3: 31 nulls, null.alignment, a packet)
     * beside an N-Trace sidecar */
    static const uint8_t enc[36] = { [31] = 0x80, [32] = 0x03, [33] = 0x11, [34] = 0x22, [35] = 0x33 };
    put("c.te", enc, sizeof enc);
    put_text("c.te.attrs", "trTeInstMode=3\n");
    put("bad.nt", nt, sizeof nt);
    put_text("bad.nt.attrs", "trTeInstMode=3\ntrNoSuchSetting=1\n");
    put("junk.nt", "\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06"
                   "\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06", 33);
    put("junk.bin", "\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06"
                    "\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06\x06", 33);
    put("prog.bin", "\177ELF\2\1\1", 7);
    put("in.bin", "RVTI\1\0\0\0", 8);
    test_found_by();
    test_failures();
    test_encap();
    test_sink();
    test_image_error();
    int rc = TH_DONE();
    if (rc == 0) {
        char cmd[600];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            return 1;
    }
    return rc;
}
