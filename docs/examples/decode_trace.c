/* Decode any rvtrace trace (E-Trace or N-Trace, its settings in
 * TRACE.attrs, encapsulated or not) with librvtrace and count its
 * instructions.  docs/api.md walks through it; tests/e2e/install.sh builds
 * it against an installed library and checks its counts.
 *
 *   cc decode_trace.c $(pkg-config --cflags --libs rvtrace) -o decode_trace
 *   ./decode_trace PROG.elf TRACE
 */
#include <stdio.h>
#include <rvtrace/image.h>
#include <rvtrace/mem.h>
#include <rvtrace/trace.h>
#include <rvtrace/version.h>

/* Pull blocks in batches and add them up; 0, or a negative status. */
static int count(rvt_proto_decoder *d, unsigned long long *insns, unsigned long long *losses)
{
    rvt_block b[256];
    int n;
    while ((n = rvt_proto_decoder_next_blocks(d, b, 256)) > 0)
        for (int i = 0; i < n; i++) {
            *insns += b[i].ninsn;
            *losses += b[i].end == RVT_BLK_LOSS;   /* a decode error or lost trace */
        }
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PROG.elf TRACE\n", argv[0]);
        return 2;
    }
    const char *elf = argv[1], *path = argv[2];
    printf("librvtrace %s\n", rvt_version());

    /* 1. The trace: its protocol, its settings (TRACE.attrs), its bytes. */
    rvt_trace *t;
    if (rvt_trace_open(path, NULL, &t) < 0) {
        fprintf(stderr, "%s\n", rvt_trace_error(t));   /* "TRACE: why" */
        rvt_trace_free(t);
        return 1;
    }
    printf("protocol %s (from its %s)\n", rvt_proto_name(rvt_trace_proto(t)), rvt_trace_found_by(t));

    /* 2. The program, in every address space of an rvt_mem. */
    rvt_image *img = rvt_image_new();
    rvt_mem *mem = rvt_mem_new();
    if (!img || !mem || rvt_image_load_elf(img, elf) < 0 || rvt_mem_add_image(mem, NULL, img) < 0) {
        fprintf(stderr, "%s\n", img ? rvt_image_error(img, NULL) : "out of memory");
        rvt_mem_free(mem);
        rvt_image_free(img);
        rvt_trace_free(t);
        return 1;
    }

    /* 3. The protocol's decoder, pulled block by block over the bytes. */
    rvt_proto_cfg *cfg = rvt_trace_cfg(t);
    rvt_proto_cfg_input_xlen(cfg, rvt_image_xlen(img));   /* the ELF's class, unless stated */
    int st;
    rvt_proto_decoder *d = rvt_proto_decoder_new(cfg, mem, NULL, NULL, &st);
    size_t len;
    const uint8_t *buf = rvt_trace_bytes(t, &len);
    unsigned long long insns = 0, losses = 0;
    if (d && (st = rvt_proto_decoder_set_input(d, buf, len)) == 0)
        st = count(d, &insns, &losses);
    if (st < 0)
        fprintf(stderr, "%s: %s\n", path, rvt_status_str(st));
    printf("instructions %llu\nlosses %llu\n", insns, losses);

    /* 4. Free the decoder before the memory and image it reads. */
    rvt_proto_decoder_free(d);
    rvt_mem_free(mem);
    rvt_image_free(img);
    rvt_trace_free(t);
    return st < 0 || losses ? 1 : 0;
}
