/* The fixed program images of the flow-decoder fuzz targets: workloads of
 * programs/ loaded once; input byte 0 picks one (modulo the count), so a
 * seed made from program i's trace starts with i (fuzz/tools/mkseed.c). */
#ifndef RVT_FUZZ_IMAGES_H
#define RVT_FUZZ_IMAGES_H

#include "fuzz.h"
#include "rvtrace/image.h"

/* RV64 and RV32, compressed and not, calls, indirect jumps, traps; ilen*:
 * illegal words of every length encoding, the reserved >= 192-bit one
 * (0xffffffff) included, which no I-CNT span may cover (N-Trace 8.4). */
static const char *const rvt_fuzz_image_names[] = {
    "sort", "crc_rv32", "fptr", "switch", "recurse", "coswap", "ecall", "farcall_rv32",
    "ilen", "ilen_rv32",
};
#define RVT_FUZZ_NIMAGES (sizeof rvt_fuzz_image_names / sizeof *rvt_fuzz_image_names)

static rvt_image *rvt_fuzz_images[RVT_FUZZ_NIMAGES];   /* NULL: not loadable */
static size_t rvt_fuzz_nimages;

static inline void rvt_fuzz_load_images(void)
{
    for (size_t i = 0; i < RVT_FUZZ_NIMAGES; i++) {
        char rel[256], path[4096];
        snprintf(rel, sizeof rel, "programs/%s.elf", rvt_fuzz_image_names[i]);
        rvt_image *img = rvt_image_new();
        if (img && rvt_image_load_elf(img, rvt_fuzz_src(rel, path, sizeof path)) >= 0)
            rvt_fuzz_images[i] = img, rvt_fuzz_nimages++;
        else
            rvt_image_free(img);
    }
    if (!rvt_fuzz_nimages)
        fprintf(stderr, "fuzz: no program image in programs/ (decoding without code)\n");
}

/* The image input byte `sel` picks (NULL if none loaded). */
static inline rvt_image *rvt_fuzz_image(uint8_t sel)
{
    for (size_t k = 0; k < RVT_FUZZ_NIMAGES; k++) {
        rvt_image *img = rvt_fuzz_images[(sel + k) % RVT_FUZZ_NIMAGES];
        if (img)
            return img;
    }
    return NULL;
}

/* The image the input's next byte picks and its XLEN (64 when the ELF
 * does not say), as the flow targets read their inputs. */
static inline rvt_image *rvt_fuzz_pick_image(rvt_fuzz_in *in, unsigned *xlen)
{
    rvt_image *img = rvt_fuzz_image(rvt_fuzz_u8(in));
    if (img)
        *xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
    return img;
}

/* Index of a program name in the list, or -1 (for mkseed). */
static inline int rvt_fuzz_image_index(const char *name)
{
    for (size_t i = 0; i < RVT_FUZZ_NIMAGES; i++)
        if (strcmp(name, rvt_fuzz_image_names[i]) == 0)
            return (int)i;
    return -1;
}

#endif
