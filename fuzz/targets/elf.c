/* Fuzz target: the ELF loader (rvt_image_load_elf, src/image) and what the
 * decoders then ask of the image.  The input is the ELF file itself; on
 * success every segment must lie inside the file's bytes (no allocation or
 * copy proportional to p_memsz), reads and decodes over each segment must
 * stay in bounds, and symbol look-ups must terminate.
 * FUZZ_ARGS: -max_len=16384 */
#include "../fuzz.h"
#include "rvtrace/image.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void probe_segment(rvt_image *img, const rvt_segment *s, size_t size)
{
    RVT_FUZZ_ASSERT(s->filesz <= s->memsz);
    RVT_FUZZ_ASSERT(s->filesz <= size);
    RVT_FUZZ_ASSERT(s->filesz == 0 || s->data != NULL);
    if (s->filesz) {
        volatile uint8_t sink = s->data[0];
        sink = s->data[s->filesz - 1];
        (void)sink;
    }
    uint8_t buf[64];
    uint64_t ends[3] = { s->vaddr, s->vaddr + s->memsz - 1, s->vaddr + s->filesz };
    for (unsigned i = 0; i < 3; i++) {
        size_t got = rvt_image_read(img, ends[i], buf, sizeof buf);
        RVT_FUZZ_ASSERT(got <= sizeof buf);
        uint64_t off = 0;
        (void)rvt_image_insn(img, ends[i] & ~1ull);
        (void)rvt_image_symbol(img, ends[i], &off);
    }
    rvt_image_invalidate(img, s->vaddr, 16);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_image *img = rvt_image_new();
    RVT_FUZZ_ASSERT(img != NULL);
    rvt_fuzz_diag_ctx d = { 0 };
    rvt_image_set_diag(img, rvt_fuzz_diag, &d);
    int st = rvt_image_load_elf(img, rvt_fuzz_file(data, size));
    rvt_fuzz_check_status(st);
    if (st < 0) {
        RVT_FUZZ_ASSERT(d.count > 0);   /* an error always says why */
    } else {
        size_t n = rvt_image_segment_count(img);
        RVT_FUZZ_ASSERT(n <= size);
        for (size_t i = 0; i < n; i++) {
            const rvt_segment *s = rvt_image_segment(img, i);
            RVT_FUZZ_ASSERT(s != NULL);
            probe_segment(img, s, size);
        }
        uint64_t entry = rvt_image_entry(img), addr = 0, off = 0;
        (void)rvt_image_insn(img, entry);
        (void)rvt_image_symbol(img, entry, &off);
        (void)rvt_image_lookup(img, "_start", &addr);
        unsigned xlen = rvt_image_xlen(img);
        RVT_FUZZ_ASSERT(xlen == 0 || xlen == 32 || xlen == 64);
    }
    rvt_image_free(img);
    return 0;
}
