/* The decoded-instruction cache: every pc is decoded once.  The image's
 * own cache (rvt_image_insn) serves single-threaded callers (listings,
 * the verifier); decoders over an rvt_mem keep their own caches of the
 * same shape (mem_view.c), so a shared image is never written.  The hit
 * path is a one-entry segment hint, a chunk pointer and an array index. */
#include <stdlib.h>
#include <string.h>
#include "image/image_internal.h"
#include "image/image_change.h"

void img_decode_at(const rvt_image *img, uint64_t pc, rvt_insn *out)
{
    uint8_t b[4] = { 0, 0, 0, 0 };
    rvt_image_read(img, pc, b, sizeof b);
    uint32_t raw = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                   (uint32_t)b[3] << 24;
    rvt_isa_decode(raw, img->xlen ? img->xlen : 64, out);
}

rvt_insn *img_icache_slot(img_icache *c, const img_seg *s, uint64_t off, uint32_t **gen)
{
    if (!c->chunks) {
        size_t n = (size_t)(s->cache_span >> IMG_CHUNK_SHIFT);
        c->chunks = calloc(n, sizeof *c->chunks);
        if (!c->chunks)
            return NULL;
        c->nchunks = n;
    }
    size_t ci = (size_t)(off >> IMG_CHUNK_SHIFT);
    if (!c->chunks[ci]) {
        /* calloc: len == 0 and generation 0 mark "not decoded yet" */
        c->chunks[ci] = calloc(1, sizeof(img_chunk));
        if (!c->chunks[ci])
            return NULL;
    }
    size_t k = (off & (IMG_CHUNK_BYTES - 1)) >> 1;
    if (gen)
        *gen = &c->chunks[ci]->gen[k];
    return &c->chunks[ci]->insn[k];
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
            img_decode_at(img, pc, &img->zero_insn);
        return &img->zero_insn;
    }
    rvt_insn *slot = img_icache_slot(&s->cache, s, off, NULL);
    if (!slot)
        return NULL;
    if (!slot->len)
        img_decode_at(img, pc, slot);
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
            img_chunk *c = s->cache.chunks[off >> IMG_CHUNK_SHIFT];
            if (c) {
                rvt_insn *e = &c->insn[(off & (IMG_CHUNK_BYTES - 1)) >> 1];
                if (e->len)
                    return e;
            }
        }
    }
    return insn_slow(img, pc);
}

void img_icache_forget(rvt_image *img, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < img->nsegs; i++) {
        img_seg *s = &img->segs[i];
        if (!s->cache.chunks || hi <= s->pub.vaddr)
            continue;
        uint64_t a = lo > s->pub.vaddr ? lo - s->pub.vaddr : 0;
        uint64_t b = hi - s->pub.vaddr < s->cache_span ? hi - s->pub.vaddr : s->cache_span;
        for (uint64_t off = a & ~(uint64_t)1; off < b; off += 2) {
            img_chunk *c = s->cache.chunks[off >> IMG_CHUNK_SHIFT];
            if (c)
                c->insn[(off & (IMG_CHUNK_BYTES - 1)) >> 1].len = 0;
        }
    }
    memset(&img->zero_insn, 0, sizeof img->zero_insn);
}

void rvt_image_invalidate(rvt_image *img, uint64_t addr, uint64_t len)
{
    /* An instruction starting up to 6 bytes before addr may cover it. */
    uint64_t hi = img_end(addr, len);
    img_icache_forget(img, addr >= 6 ? addr - 6 : 0, hi);
    img_changed(img, addr, hi);
}

const rvt_insn *rvt_image_insn_cb(void *img, uint64_t pc)
{
    return rvt_image_insn(img, pc);
}
