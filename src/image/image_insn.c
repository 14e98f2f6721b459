/* The decoded-instruction cache: every pc is decoded once.  Decoders call
 * rvt_image_insn for every retired instruction, so the hit path is a
 * one-entry segment hint, a chunk pointer and an array index. */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"

/* Decode the instruction at pc from the image bytes; an instruction that
 * runs past the end of its segment is decoded from the bytes there are
 * (the rest read as zero). */
static void decode_at(const rvt_image *img, uint64_t pc, rvt_insn *out)
{
    uint8_t b[4] = { 0, 0, 0, 0 };
    rvt_image_read(img, pc, b, sizeof b);
    uint32_t raw = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                   (uint32_t)b[3] << 24;
    rvt_isa_decode(raw, img->xlen ? img->xlen : 64, out);
}

static rvt_insn *cache_slot(img_seg *s, uint64_t off)
{
    if (!s->chunks) {
        s->chunks = calloc(s->nchunks, sizeof *s->chunks);
        if (!s->chunks)
            return NULL;
    }
    size_t ci = (size_t)(off >> IMG_CHUNK_SHIFT);
    if (!s->chunks[ci]) {
        /* calloc: len == 0 marks "not decoded yet" */
        s->chunks[ci] = calloc(IMG_CHUNK_INSNS, sizeof(rvt_insn));
        if (!s->chunks[ci])
            return NULL;
    }
    return &s->chunks[ci][(off & (IMG_CHUNK_BYTES - 1)) >> 1];
}

static const rvt_insn *insn_slow(rvt_image *img, uint64_t pc)
{
    if (pc & 1)                      /* no RISC-V pc is odd */
        return NULL;
    img_seg *s = img_find(img, pc);
    if (!s)
        return NULL;
    uint64_t off = pc - s->pub.vaddr;
    if (off >= s->pub.filesz) {
        /* Zero fill: every pc there holds the same all-zero word. */
        if (!img->zero_insn.len)
            decode_at(img, pc, &img->zero_insn);
        return &img->zero_insn;
    }
    rvt_insn *slot = cache_slot(s, off);
    if (!slot)
        return NULL;
    if (!slot->len)
        decode_at(img, pc, slot);
    if (!s->shadowed)
        img->hint = s;
    return slot;
}

const rvt_insn *rvt_image_insn(rvt_image *img, uint64_t pc)
{
    img_seg *s = img->hint;
    if (s) {
        uint64_t off = pc - s->pub.vaddr;
        if (off < s->pub.filesz && !(pc & 1)) {
            rvt_insn *c = s->chunks[off >> IMG_CHUNK_SHIFT];
            if (c) {
                rvt_insn *e = &c[(off & (IMG_CHUNK_BYTES - 1)) >> 1];
                if (e->len)
                    return e;
            }
        }
    }
    return insn_slow(img, pc);
}

void rvt_image_invalidate(rvt_image *img, uint64_t addr, uint64_t len)
{
    /* An instruction starting up to 6 bytes before addr may cover it. */
    uint64_t lo = addr >= 6 ? addr - 6 : 0;
    uint64_t hi = addr + len < addr ? UINT64_MAX : addr + len;
    for (size_t i = 0; i < img->nsegs; i++) {
        img_seg *s = &img->segs[i];
        if (!s->chunks)
            continue;
        uint64_t a = lo > s->pub.vaddr ? lo - s->pub.vaddr : 0;
        uint64_t b = hi - s->pub.vaddr < s->cache_span && hi > s->pub.vaddr
                         ? hi - s->pub.vaddr : s->cache_span;
        if (hi <= s->pub.vaddr)
            continue;
        for (uint64_t off = a & ~(uint64_t)1; off < b; off += 2) {
            rvt_insn *c = s->chunks[off >> IMG_CHUNK_SHIFT];
            if (c)
                c[(off & (IMG_CHUNK_BYTES - 1)) >> 1].len = 0;
        }
    }
    memset(&img->zero_insn, 0, sizeof img->zero_insn);
}

const rvt_insn *rvt_image_insn_cb(void *img, uint64_t pc)
{
    return rvt_image_insn(img, pc);
}
