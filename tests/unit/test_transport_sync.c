/* The transport stage on real streams: sync_forward from every byte offset
 * lands on the first true sync point at or after it (each transport), and
 * every E-Trace stream of ../shared/interop/etrace-refflow re-framed into
 * encapsulation and back is byte-identical.  The corpus parts pass
 * vacuously without ../shared (a built-in stream still runs). */
#include <dirent.h>
#include "tharness.h"
#include "rvtrace/transport.h"
#include "test_bytes_util.h"

/* The true frame boundaries from offset 0 that pred() calls sync points. */
typedef bool (*sync_pred)(const rvt_tp_frame *f, const uint8_t *buf);

/* Walk the sync points from offset 0 (sync_forward, step one byte, again). */
static bool *found_points(rvt_transport *t, size_t len)
{
    bool *is = calloc(len + 1, 1);
    rvt_tp_sync_set(t, 0);
    while (rvt_tp_sync_forward(t) == 0) {
        uint64_t at = rvt_tp_get_offset(t);
        is[at] = true;
        rvt_tp_sync_set(t, at + 1);
    }
    return is;
}

/* sync_forward from every offset o gives the first point >= o of one set
 * (the same points whatever the start); that set holds every true sync
 * point; with `exact`, it holds nothing else (encap, mseo: their framing
 * has a synchronisation rule).  refflow has none: a position inside a
 * payload may look like a sync packet whose headers chain; then its frames
 * must rejoin the true boundaries within `rejoin` frames. */
static void check_every_offset(const char *name, const rvt_tp_config *c, const uint8_t *buf,
                               size_t len, sync_pred pred, const char *what, bool exact)
{
    bool *is = calloc(len + 1, 1), *bound = calloc(len + 1, 1);
    rvt_transport *t = rvt_tp_new(name, c, buf, len, NULL);
    rvt_tp_frame f;
    int st;
    size_t points = 0;
    while ((st = rvt_tp_next(t, &f)) != 0) {
        CHECK(st > 0);
        if (st > 0)
            bound[f.offset] = true;
        if (st > 0 && pred(&f, buf)) {
            is[f.offset] = true;
            points++;
        }
    }
    CHECK(points > 0);
    bool *got_set = found_points(t, len);
    size_t next = len, bad = 0, extra = 0;
    for (size_t o = len; o-- > 0;) {
        if (is[o] && !got_set[o] && bad++ < 3)
            TH_FAIL("%s %s: true sync point %zu missed", name, what, o);
        if (got_set[o] && !is[o]) {
            extra++;
            rvt_tp_sync_set(t, o);      /* a look-alike: it must rejoin */
            int k = 0;
            while (rvt_tp_next(t, &f) > 0 && !bound[f.offset] && ++k < 4)
                ;
            if ((exact || k >= 4) && bad++ < 3)
                TH_FAIL("%s %s: %zu is no sync point", name, what, o);
        }
        if (got_set[o])
            next = o;
        rvt_tp_sync_set(t, o);
        int r = rvt_tp_sync_forward(t);
        uint64_t got = rvt_tp_get_offset(t);
        if ((next == len ? r != RVT_ERR_EOS : r != 0) || got != next) {
            if (bad++ < 3)
                TH_FAIL("%s %s: sync_forward from %zu: %d at %" PRIu64 ", want %zu", name, what, o,
                        r, got, next);
        }
    }
    CHECK_EQ(bad, 0);
    if (extra)
        printf("%s %s: %zu sync points, %zu look-alikes that rejoin\n", name, what, points, extra);
    rvt_tp_free(t);
    free(is);
    free(bound);
    free(got_set);
}

/* refflow: a te_inst (type 2) format-3 packet (E-Trace 6.1) */
static bool refflow_sync(const rvt_tp_frame *f, const uint8_t *buf)
{
    (void)buf;
    return f->type == 2 && (f->payload[0] & 3) == 3;
}

/* encap / mseo: a frame right after a sync sequence or end-of-message */
static bool encap_sync(const rvt_tp_frame *f, const uint8_t *buf)
{
    if (f->offset < 33)
        return false;
    for (size_t i = 1; i <= 33; i++)   /* N + 1 = 32 nulls; 33 covers this test's config */
        if (buf[f->offset - i] & 31)
            return false;
    return true;
}

static bool mseo_sync(const rvt_tp_frame *f, const uint8_t *buf)
{
    return f->offset > 0 && (buf[f->offset - 1] & 3) == 3;
}

/* refflow -> encap (type = msg_type - 2, E-Trace 3.3: 0 te_inst, 1 te_data)
 * -> refflow must give the same bytes. */
static void roundtrip(const char *what, const uint8_t *buf, size_t len, const rvt_tp_config *c)
{
    te_buf enc = { 0 }, back = { 0 };
    rvt_encap_writer *w = rvt_encap_writer_new(c, te_buf_put, &enc, NULL);
    rvt_transport *t = rvt_tp_new("refflow", NULL, buf, len, NULL);
    rvt_tp_frame f;
    int st;
    uint64_t n = 0;
    while ((st = rvt_tp_next(t, &f)) > 0) {
        uint64_t ts = n++;
        CHECK_EQ(rvt_encap_write(w, f.type - 2, c->ts_bytes ? &ts : NULL, f.payload, f.len), 0);
    }
    CHECK_EQ(st, 0);
    rvt_tp_free(t);
    t = rvt_tp_new("encap", c, enc.b, enc.n, NULL);
    n = 0;
    while ((st = rvt_tp_next(t, &f)) > 0) {
        uint8_t h = (uint8_t)((f.type + 2) << 5 | f.len);
        te_buf_put(&back, &h, 1);
        te_buf_put(&back, f.payload, f.len);
        CHECK_EQ(f.src, c->src_id);
        if (c->ts_bytes)
            CHECK_EQ(f.timestamp, n & ((1ull << (8 * c->ts_bytes)) - 1));
        n++;
    }
    CHECK_EQ(st, 0);
    CHECK_EQ(back.n, len);
    if (back.n == len && memcmp(back.b, buf, len))
        TH_FAIL("%s: re-framed stream differs", what);
    if (c->sync_interval && c->src_bits == 8)
        check_every_offset("encap", c, enc.b, enc.n, encap_sync, what, true);
    rvt_tp_free(t);
    rvt_encap_writer_free(w);
    free(enc.b);
    free(back.b);
}

static void corpus_file(const char *path)
{
    size_t len;
    uint8_t *buf = th_slurp(path, &len);
    if (!buf)
        return;
    if (len <= 50000)    /* every offset of the large ones adds minutes, no paths */
        check_every_offset("refflow", NULL, buf, len, refflow_sync, path, false);
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    c.type_bits = 1;                  /* instruction + data trace (3.3) */
    c.src_bits = 8;
    c.src_id = 0x2A;
    c.sync_interval = 512;
    roundtrip(path, buf, len, &c);
    c.src_bits = 6;                   /* folded into the length (2.1.5) */
    c.src_id = 9;
    c.type_bits = 2;
    c.ts_bytes = 3;
    roundtrip(path, buf, len, &c);
    free(buf);
}

static void corpus(void)
{
    const char *src = getenv("RVT_SRC");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/../shared/interop/etrace-refflow", src ? src : ".");
    DIR *d = opendir(dir);
    if (!d) {
        printf("no %s: corpus part skipped\n", dir);
        return;
    }
    struct dirent *e;
    unsigned files = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strncmp(e->d_name, "inputs", 6))
            continue;
        char sub[4352];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *s = opendir(sub);
        struct dirent *g;
        while (s && (g = readdir(s))) {
            size_t n = strlen(g->d_name);
            if (n > 12 && !strcmp(g->d_name + n - 12, ".te_inst_raw")) {
                char p[4608];
                snprintf(p, sizeof p, "%s/%s", sub, g->d_name);
                corpus_file(p);
                files++;
            }
        }
        if (s)
            closedir(s);
    }
    closedir(d);
    CHECK(files >= 36);
}

static void ntrace_corpus(void)
{
    const char *src = getenv("RVT_SRC");
    char p[4096];
    snprintf(p, sizeof p, "%s/../shared/interop/ntrace-refcode/btm/traps.nt", src ? src : ".");
    size_t len;
    uint8_t *buf = th_slurp(p, &len);
    if (!buf)
        return;
    check_every_offset("mseo", NULL, buf, len, mseo_sync, p, true);
    free(buf);
}

/* A built-in mixed stream for the MSEO rule: idles between messages. */
static void mseo_builtin(void)
{
    const uint8_t in[] = { 0x24, 0x07, 0xFF, 0xFF, 0x0C, 0x01, 0x03, 0x24, 0x07, 0xFF };
    check_every_offset("mseo", NULL, in, sizeof in, mseo_sync, "built-in", true);
    rvt_transport *t = rvt_tp_new("mseo", NULL, in, sizeof in, NULL);
    rvt_tp_frame f;
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.type, 9);     /* TCODE = first byte >> 2 = 0x24 >> 2 */
    CHECK_EQ(f.len, 2);
    CHECK_EQ(rvt_tp_next(t, &f), 1);
    CHECK_EQ(f.offset, 4);
    CHECK_EQ(f.type, 3);
    CHECK_EQ(f.len, 3);
    rvt_tp_free(t);
}

int main(void)
{
    mseo_builtin();
    ntrace_corpus();
    corpus();
    return TH_DONE();
}
