/* Decode an E-Trace stream with librvtrace and count its instructions.
 * docs/api.md walks through it; tests/e2e/install.sh builds it against an
 * installed library and checks its count.
 *
 *   cc decode_te.c $(pkg-config --cflags --libs rvtrace) -o decode_te
 *   ./decode_te PROG.elf TRACE.te          (settings from TRACE.te.attrs)
 */
#include <stdio.h>
#include <stdlib.h>
#include <rvtrace/etrace.h>
#include <rvtrace/io.h>
#include <rvtrace/version.h>

struct counts {
    unsigned long long insns, errors;
};

/* The decoder calls this for every flow event, in trace order. */
static int on_event(void *ctx, const rvt_flow_event *ev)
{
    struct counts *c = ctx;
    if (ev->kind == RVT_EV_INSN) {
        c->insns++;
    } else if (ev->kind == RVT_EV_ERROR) {
        c->errors++;
        fprintf(stderr, "offset %llu: %s\n", (unsigned long long)ev->offset, ev->msg);
    }
    return 0;   /* nonzero stops the decoder and is returned by rvt_te_decoder_run */
}

/* The library never prints: diagnostics (naming the file) come here. */
static void on_diag(void *ctx, int level, uint64_t offset, const char *msg)
{
    (void)ctx, (void)level, (void)offset;
    fprintf(stderr, "%s\n", msg);
}

/* The encoder's settings, saved beside the trace as TRACE.attrs. */
static int read_attrs(const char *trace, rvt_te_attrs *a)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.attrs", trace);
    rvt_te_attrs_default(a);
    FILE *f = fopen(path, "r");
    if (f) {
        unsigned line = 0;
        int st = rvt_te_attrs_read(a, f, &line);
        fclose(f);
        if (st < 0) {
            fprintf(stderr, "%s: line %u: %s\n", path, line, rvt_status_str(st));
            return st;
        }
    }
    rvt_te_attrs_fill(a);
    return rvt_te_attrs_check(a);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PROG.elf TRACE.te\n", argv[0]);
        return 2;
    }
    const char *elf = argv[1], *trace = argv[2];
    printf("librvtrace %s\n", rvt_version());

    /* 1. The trace bytes and the settings they were written with. */
    size_t len;
    int st;
    const char *why = NULL;
    uint8_t *buf = rvt_read_file(trace, 0, &len, &st, &why);
    if (!buf) {
        fprintf(stderr, "%s: %s\n", trace, why ? why : rvt_status_str(st));
        return 1;
    }
    rvt_te_attrs attrs;
    if (read_attrs(trace, &attrs) < 0) {
        fprintf(stderr, "%s: bad E-Trace attributes\n", trace);
        free(buf);
        return 1;
    }

    /* 2. The program image the trace refers to. */
    rvt_image *img = rvt_image_new();
    if (!img) {
        free(buf);
        return 1;
    }
    rvt_image_set_diag(img, on_diag, NULL);
    if (rvt_image_load_elf(img, elf) < 0) {
        rvt_image_free(img);
        free(buf);
        return 1;
    }

    /* 3. A decoder that sends its events to on_event, and the decode. */
    struct counts c = { 0, 0 };
    rvt_te_decoder *d = rvt_te_decoder_new(&attrs, img, on_event, &c, &st);
    if (!d) {
        fprintf(stderr, "decoder: %s\n", rvt_status_str(st));
        rvt_image_free(img);
        free(buf);
        return 1;
    }
    rvt_te_decoder_run(d, buf, len);

    /* 4. What the decoder counted itself, beside what the callback saw. */
    rvt_te_dec_stats s;
    rvt_te_decoder_stats(d, &s);
    printf("packets %llu\ninstructions %llu\nevents %llu\nerrors %llu\n",
           (unsigned long long)s.packets, (unsigned long long)s.instructions,
           c.insns, c.errors);

    /* 5. Free in reverse order: the decoder uses the image. */
    rvt_te_decoder_free(d);
    rvt_image_free(img);
    free(buf);
    return c.errors ? 1 : 0;
}
