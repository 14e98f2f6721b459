/* Fuzz target: the LSB-first bit codec under every packet/message layer
 * (src/util/bitio.h).  Input: byte 0 = fill bit, then pairs of bytes
 * "width, count" drive reads of arbitrary widths over the rest; every value
 * read is written back through rvt_bitw and must round-trip.
 * FUZZ_ARGS: -max_len=512 */
#include "../fuzz.h"
#include "util/bitio.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned fill = data[0] & 1u;
    size_t nctl = (data[1] % 32u) * 2u;
    if (nctl > size - 2)
        nctl = (size - 2) & ~(size_t)1;
    const uint8_t *ctl = data + 2, *payload = data + 2 + nctl;
    size_t plen = size - 2 - nctl;

    rvt_bitr r;
    rvt_bitr_init(&r, payload, plen, fill);
    uint8_t out[1024];
    rvt_bitw w;
    rvt_bitw_init(&w, out, sizeof out);
    for (size_t i = 0; i + 1 < nctl; i += 2) {
        unsigned width = ctl[i] % 65u, count = ctl[i + 1] % 16u;
        for (unsigned k = 0; k < count; k++) {
            size_t before = r.pos;
            uint64_t v = rvt_bitr_get(&r, width);
            RVT_FUZZ_ASSERT(r.pos == before + width);
            RVT_FUZZ_ASSERT((v & ~rvt_mask(width)) == 0);
            rvt_bitw_put(&w, v, width);
        }
    }
    RVT_FUZZ_ASSERT(!w.overflow || w.pos > sizeof out * 8 || rvt_bitw_bytes(&w) <= sizeof out);
    /* What was read from real data must come back bit for bit. */
    size_t real = w.pos < plen * 8 ? w.pos : plen * 8;
    if (!w.overflow && real) {
        rvt_bitr a, b;
        rvt_bitr_init(&a, payload, plen, fill);
        rvt_bitr_init(&b, out, rvt_bitw_bytes(&w), 0);
        for (size_t bit = 0; bit < real; bit++)
            RVT_FUZZ_ASSERT(rvt_bitr_get(&a, 1) == rvt_bitr_get(&b, 1));
    }
    return 0;
}
