/* The "pcs-bin" writer (`decode --pcs-bin FILE`): the retired PCs as a
 * binary PC list (rvtrace/pcbin.h, docs/formats.md): the header, then each
 * PC little-endian in xlen/8 bytes, through the PC-list writers' buffer
 * and block walk (pc_list.h).  Fixed width rather than delta-coded: a
 * store per instruction to write, random access to read. */
#include <string.h>
#include "rvtrace/pcbin.h"
#include "out/pc_list.h"
#include "out/writers.h"

/* Little-endian whatever the host: a little-endian host stores each pc
 * as it is (one store, issue #18 "at the decoder's own speed"). */
static inline void put_le(rvt_pc_list *l, const uint64_t *pcs, size_t n, unsigned bytes)
{
    rvt_obuf *b = &l->b;
    unsigned char *p = (unsigned char *)rvt_obuf_reserve(b, 8 * n);
    for (size_t k = 0; k < n; k++, p += bytes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(p, &pcs[k], 8);          /* the bytes past `bytes` are overwritten next */
#else
        uint64_t pc = pcs[k];
        for (unsigned i = 0; i < bytes; i++, pc >>= 8)
            p[i] = (unsigned char)pc;
#endif
    }
    rvt_obuf_commit(b, (char *)p);
}

static void put_32(rvt_pc_list *l, const uint64_t *pcs, size_t n) { put_le(l, pcs, n, 4); }
static void put_64(rvt_pc_list *l, const uint64_t *pcs, size_t n) { put_le(l, pcs, n, 8); }

/* The list's XLEN: 32 for an ELF32 program, else 64 (docs/formats.md). */
static unsigned xlen_of(const rvt_image *img)
{
    return img && rvt_image_xlen(img) == 32 ? 32 : 64;
}

static rvt_pc_put put_of(const rvt_image *img)
{
    return xlen_of(img) == 32 ? put_32 : put_64;
}

/* The header goes to f at once (open_part's rule: parts may follow it in
 * f before this list writes anything more). */
static void *pcb_open(FILE *f, rvt_image *img)
{
    rvt_pc_list *l = rvt_pc_list_new(f, img, put_of(img));
    if (l) {
        uint8_t hdr[RVT_PCBIN_HEADER];
        rvt_pcbin_header(hdr, xlen_of(img));
        rvt_obuf_write(&l->b, hdr, sizeof hdr);
        rvt_obuf_flush(&l->b);
    }
    return l;
}

static void *pcb_open_part(FILE *f, const rvt_out_bufs *to, rvt_image *img)
{
    return rvt_pc_list_new_part(f, to, img, put_of(img));
}

const rvt_out_writer rvt_out_pcs_bin_writer = {
    .name = "pcs-bin", .needs_image = false, .file_option = true,
    .open = pcb_open, .event = rvt_pc_list_event, .finish = rvt_pc_list_finish,
    .block = rvt_pc_list_block, .blocks = rvt_pc_list_blocks, .open_part = pcb_open_part,
};
