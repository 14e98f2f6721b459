/* Bench: a wrapped sink buffer decoded in bounded memory (wrapped.h).
 * The buffer goes to a temporary file (deleted at once: only the open
 * descriptor keeps it) and is read back 1 MiB at a time; each chunk's
 * encapsulated packets are unwrapped by the transport stage and fed to the
 * E-Trace decoder packet by packet, a packet cut by the chunk's end
 * carried into the next.  Memory: the chunk, the carry, the decoder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "rvtrace/image.h"
#include "rvtrace/transport.h"
#include "encap_cost.h"
#include "wrapped.h"

#define CHUNK (1u << 20)
#define CARRY 64u            /* > the longest packet: 1 + 2 + 8 + 31 bytes */

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long rss_kib(const char *field)
{
    char line[256];
    long v = -1;
    FILE *f = fopen("/proc/self/status", "r");
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, field, strlen(field)))
            v = strtol(line + strlen(field), NULL, 10);
    if (f)
        fclose(f);
    return v;
}

/* Linux >= 4.0: writing 5 to clear_refs resets the peak RSS. */
static int reset_peak(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    int ok = f && fputs("5", f) >= 0;
    if (f && fclose(f))
        ok = 0;
    return ok;
}

/* One byte into the packet that holds the stream's middle byte. */
static size_t cut_point(const uint8_t *enc, size_t n, const rvt_tp_config *c)
{
    rvt_transport *t = rvt_tp_new("encap", c, enc, n, NULL);
    rvt_tp_frame f;
    size_t cut = n / 2;
    while (t && rvt_tp_next(t, &f) > 0)
        if (f.offset + f.size > n / 2) {
            cut = (size_t)f.offset + 1;
            break;
        }
    rvt_tp_free(t);
    return cut;
}

/* The buffer: enc[cut..], then enc again and again, to `bytes`. */
static FILE *make_buffer(const uint8_t *enc, size_t n, size_t cut, uint64_t bytes)
{
    char path[] = "/tmp/rvtrace-wrapped-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);                   /* gone when the descriptor closes */
    FILE *f = fdopen(fd, "w+b");
    uint64_t done = 0;
    size_t from = cut;
    while (f && done < bytes) {
        size_t k = n - from < bytes - done ? n - from : (size_t)(bytes - done);
        if (fwrite(enc + from, 1, k, f) != k) {
            fclose(f);
            return NULL;
        }
        done += k;
        from = 0;
    }
    if (f)
        rewind(f);
    return f;
}

typedef struct feed {
    rvt_te_decoder *d;
    const rvt_te_attrs *a;
    rvt_tp_config c;
    uint64_t base;           /* file offset of the chunk's first byte */
    uint64_t skipped;
    int synced;
} feed;

/* The chunk's whole packets to the decoder; the bytes of a packet the
 * chunk cuts are left at its end: returns where they start. */
static size_t feed_chunk(feed *fd, const uint8_t *b, size_t n, int last)
{
    rvt_transport *t = rvt_tp_new("encap", &fd->c, b, n, NULL);
    rvt_tp_frame f;
    int st;
    size_t keep = n;
    if (t && !fd->synced) {         /* the oldest byte: to the first sync point */
        if (rvt_tp_sync_forward(t) == 0)
            fd->synced = 1;
        fd->skipped += rvt_tp_skipped(t);
    }
    while (t && fd->synced && (st = rvt_tp_next(t, &f)) != 0) {
        if (st == RVT_ERR_TRUNC && !last) {
            keep = (size_t)f.offset;
            break;
        }
        rvt_te_pkt p;
        if (st > 0 && f.type == 0 && rvt_te_unpack(fd->a, f.payload, f.len, &p) >= 0)
            rvt_te_decoder_packet(fd->d, &p, fd->base + f.offset);
    }
    rvt_tp_free(t);
    return fd->synced ? keep : (n > CARRY ? n - CARRY : 0);
}

static int decode_buffer(FILE *in, rvt_te_decoder *d, const rvt_te_attrs *a, wrapped_result *o)
{
    uint8_t *b = malloc(CHUNK + CARRY);
    if (!b)
        return RVT_ERR_NOMEM;
    feed fd = { .d = d, .a = a, .c = encap_cost_config() };
    size_t have = 0, got;
    while ((got = fread(b + have, 1, CHUNK, in)) > 0 || have) {
        size_t n = have + got;
        int last = got == 0;
        size_t keep = feed_chunk(&fd, b, n, last);
        if (last)
            break;
        have = n - keep;            /* a cut packet, or the tail before a sync point */
        memmove(b, b + keep, have);
        fd.base += keep;
    }
    rvt_te_decoder_finish(d);
    o->skipped = fd.skipped;
    free(b);
    return 0;
}

static int count_errors(void *ctx, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_ERROR)
        ++*(uint64_t *)ctx;
    return 0;
}

static rvt_te_decoder *decoder(const rvt_te_attrs *a, rvt_image *img, uint64_t *errors)
{
    rvt_te_decoder *d = rvt_te_decoder_new(a, img, count_errors, errors, NULL);
    rvt_te_decoder_set_events(d, 0);      /* count instructions: the decoder's own speed */
    return d;
}

int wrapped_measure(const char *elf, const rvt_te_attrs *a, const uint8_t *refflow, size_t len,
                    uint64_t bytes, wrapped_result *o)
{
    memset(o, 0, sizeof *o);
    rvt_tp_config c = encap_cost_config();
    uint8_t *enc = NULL;
    size_t n = 0;
    rvt_image *img = rvt_image_new();
    int st = img && rvt_image_load_elf(img, elf) == 0 ? encap_cost_wrap(refflow, len, &c, &enc, &n)
                                                      : RVT_ERR_INVAL;
    FILE *buf = st == 0 ? make_buffer(enc, n, cut_point(enc, n, &c), bytes) : NULL;
    free(enc);
    rvt_te_decoder *d = buf ? decoder(a, img, &o->errors) : NULL;
    if (d) {
        o->buffer_bytes = bytes;
        o->rss_peak_reset = reset_peak();
        o->rss_start_kib = rss_kib("VmRSS:");
        double t0 = cpu_now();
        st = decode_buffer(buf, d, a, o);
        o->cpu = cpu_now() - t0;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        o->rss_peak_kib = ru.ru_maxrss;
        rvt_te_dec_stats ds;
        rvt_te_decoder_stats(d, &ds);
        o->insns = ds.instructions;
        rvt_te_decoder_free(d);
    }
    if (buf)
        fclose(buf);
    uint64_t plain_errors = 0;
    rvt_te_decoder *p = st == 0 ? decoder(a, img, &plain_errors) : NULL;
    if (p) {
        double t0 = cpu_now();
        rvt_te_decoder_run(p, refflow, len);
        o->plain_cpu = cpu_now() - t0;
        rvt_te_dec_stats ds;
        rvt_te_decoder_stats(p, &ds);
        o->plain_insns = ds.instructions;
        rvt_te_decoder_free(p);
    }
    rvt_image_free(img);
    return st < 0 ? st : d && p ? 0 : RVT_ERR_NOMEM;
}
