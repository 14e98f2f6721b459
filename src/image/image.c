/* Program image: segments, reads, diagnostics.  ELF loading is in
 * image_elf.c, symbols in image_sym.c, the decoded-instruction cache in
 * image_insn.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "image/image_internal.h"
#include "image/image_gen.h"
#include "image/image_change.h"
#include "util/grow.h"
#include "rvtrace/io.h"

rvt_image *rvt_image_new(void)
{
    return calloc(1, sizeof(rvt_image));
}

void img_icache_free(img_icache *c)
{
    if (!c->chunks)
        return;
    for (size_t i = 0; i < c->nchunks; i++)
        free(c->chunks[i]);
    free(c->chunks);
    c->chunks = NULL;
    c->nchunks = 0;
}

/* The hull of segments [from, img->nsegs): what dropping them changes. */
static img_span segs_hull(const rvt_image *img, size_t from)
{
    img_span h = { UINT64_MAX, 0 };
    for (size_t i = from; i < img->nsegs; i++) {
        const rvt_segment *g = &img->segs[i].pub;
        uint64_t end = img_end(g->vaddr, g->memsz);
        h = (img_span){ g->vaddr < h.lo ? g->vaddr : h.lo, end > h.hi ? end : h.hi };
    }
    return h.lo < h.hi ? h : (img_span){ 0, 0 };
}

void img_truncate(rvt_image *img, size_t nsegs, size_t nsyms)
{
    img_span dropped = segs_hull(img, nsegs);
    for (size_t i = nsegs; i < img->nsegs; i++) {
        img_icache_free(&img->segs[i].cache);
        free(img->segs[i].own);
        free(img->segs[i].name);
    }
    if (nsegs < img->nsegs)
        img->nsegs = nsegs;
    if (nsyms < img->nsyms)
        img->nsyms = nsyms;
    img->hint = NULL;
    /* Instructions below the dropped ones may have been read partly from them. */
    img_icache_forget(img, dropped.lo >= 6 ? dropped.lo - 6 : 0, dropped.hi);
    img_changed(img, dropped.lo, dropped.hi);
}

uint64_t rvt_image_generation(const rvt_image *img)
{
    return *img_generation_at(img);
}

const uint64_t *img_generation_at(const rvt_image *img)
{
    static const uint64_t none = 0;     /* constant: no state */
    return img ? &img->gen : &none;
}

void rvt_image_free(rvt_image *img)
{
    if (!img)
        return;
    img_truncate(img, 0, 0);
    img_files_free(img);
    free(img->segs);
    img_syms_free(img);
    free(img);
}

void rvt_image_set_diag(rvt_image *img, rvt_diag_fn fn, void *ctx)
{
    img->diag = fn;
    img->diag_ctx = ctx;
}

void img_diag(rvt_image *img, int level, uint64_t offset, const char *fmt, ...)
{
    char msg[sizeof img->error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (level >= RVT_DIAG_ERROR) {
        memcpy(img->error, msg, sizeof msg);
        img->error_offset = offset;
    }
    if (img->diag)
        img->diag(img->diag_ctx, level, offset, msg);
}

const char *rvt_image_error(const rvt_image *img, uint64_t *offset)
{
    if (offset)
        *offset = img && img->error[0] ? img->error_offset : UINT64_MAX;
    return img ? img->error : "no image";
}

static bool ranges_overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    if (!alen || !blen)
        return false;
    return a - b < blen || b - a < alen;   /* unsigned: also right near 2^64 */
}

int img_add_segment(rvt_image *img, uint64_t vaddr, uint64_t memsz, uint8_t *data,
                    uint64_t filesz, uint32_t flags, const char *name)
{
    if (img->nsegs == img->capsegs) {
        img_seg *n = rvt_grow(img->segs, &img->capsegs, img->nsegs + 1, sizeof *n, 8);
        if (!n)
            return RVT_ERR_NOMEM;
        img->segs = n;
        img->hint = NULL;        /* the array moved */
    }
    char *nm = strdup(name ? name : "");
    if (!nm)
        return RVT_ERR_NOMEM;
    for (size_t i = 0; i < img->nsegs; i++) {
        img_seg *o = &img->segs[i];
        if (ranges_overlap(o->pub.vaddr, o->pub.memsz, vaddr, memsz))
            o->shadowed = true;
    }
    img->hint = NULL;
    /* It may shadow code served before, and the end of an instruction that
     * starts up to 6 bytes below it: those were cached with the old bytes. */
    img_icache_forget(img, vaddr >= 6 ? vaddr - 6 : 0, vaddr);
    img_changed(img, vaddr, img_end(vaddr, memsz));
    img_seg *s = &img->segs[img->nsegs++];
    memset(s, 0, sizeof *s);
    s->own = data;
    s->name = nm;
    s->pub.vaddr = vaddr;
    s->pub.memsz = memsz;
    s->pub.filesz = filesz;
    s->pub.data = data;
    s->pub.flags = flags;
    s->pub.name = nm;
    /* The cache covers the file-backed bytes; the zero fill past them all
     * decodes to the same (illegal) instruction, img->zero_insn. */
    s->cache_span = (filesz + IMG_CHUNK_BYTES - 1) & ~(uint64_t)(IMG_CHUNK_BYTES - 1);
    return RVT_OK;
}

int rvt_image_add_bytes(rvt_image *img, uint64_t base, const void *data, size_t len,
                        const char *name)
{
    if (!img || (len && !data))
        return RVT_ERR_INVAL;
    if (len && base + len - 1 < base) {
        img_diag(img, RVT_DIAG_ERROR, UINT64_MAX,
                 "%s: %zu bytes at 0x%llx wrap the address space", name ? name : "bytes",
                 len, (unsigned long long)base);
        return RVT_ERR_RANGE;
    }
    uint8_t *copy = NULL;
    if (len) {
        copy = malloc(len);
        if (!copy)
            return RVT_ERR_NOMEM;
        memcpy(copy, data, len);
    }
    int rc = img_add_segment(img, base, len, copy, len, 7, name);
    if (rc < 0)
        free(copy);
    return rc;
}

int img_open_regular(rvt_image *img, const char *path, uint64_t *size)
{
    const char *why = "";
    int fd = strcmp(path, "-") ? rvt_open_input(path, &why) : RVT_ERR_INVAL;
    if (fd < 0) {
        img_diag(img, RVT_DIAG_ERROR, UINT64_MAX, "%s: cannot open: %s", path,
                 fd == RVT_ERR_INVAL ? "standard input is not a program image" : why);
        return RVT_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) < 0) {
        img_diag(img, RVT_DIAG_ERROR, UINT64_MAX, "%s: cannot stat", path);
        close(fd);
        return RVT_ERR_IO;
    }
    if (st.st_size == 0) {
        img_diag(img, RVT_DIAG_ERROR, 0, "%s: empty file", path);
        close(fd);
        return RVT_ERR_ELF;
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

bool img_pread_all(int fd, void *buf, uint64_t len, uint64_t off)
{
    uint8_t *p = buf;
    while (len) {
        ssize_t n = pread(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    return true;
}

/* A raw binary is one RWX segment; cap it like an ELF segment (4 GiB). */
int rvt_image_load_raw(rvt_image *img, const char *path, uint64_t base)
{
    uint64_t size;
    int fd = img_open_regular(img, path, &size);
    if (fd < 0)
        return fd;
    int rc = RVT_OK;
    uint8_t *buf = NULL;
    if (size > (UINT64_C(1) << 32) || base + size - 1 < base) {
        img_diag(img, RVT_DIAG_ERROR, UINT64_MAX, "%s: %llu bytes do not fit at 0x%llx", path,
                 (unsigned long long)size, (unsigned long long)base);
        rc = RVT_ERR_RANGE;
    } else if (!(buf = malloc((size_t)size))) {
        rc = RVT_ERR_NOMEM;
    } else if (!img_pread_all(fd, buf, size, 0)) {
        img_diag(img, RVT_DIAG_ERROR, UINT64_MAX, "%s: read error", path);
        rc = RVT_ERR_IO;
    } else {
        rc = img_add_segment(img, base, size, buf, size, 7, path);
        if (rc == RVT_OK) {
            buf = NULL;         /* the segment owns it */
            size_t end = img_names_end(&img->names);
            rc = img_file_add(img, path, end, end);
            if (rc < 0)
                img_truncate(img, img->nsegs - 1, img->nsyms);
        }
    }
    free(buf);
    close(fd);
    return rc;
}

img_seg *img_find(const rvt_image *img, uint64_t addr)
{
    for (size_t i = img->nsegs; i-- > 0;) {
        img_seg *s = &img->segs[i];
        if (addr - s->pub.vaddr < s->pub.memsz)
            return s;
    }
    return NULL;
}

uint64_t rvt_image_entry(const rvt_image *img)
{
    return img->entry;
}

unsigned rvt_image_xlen(const rvt_image *img)
{
    return img->xlen;
}

size_t rvt_image_segment_count(const rvt_image *img)
{
    return img->nsegs;
}

const rvt_segment *rvt_image_segment(const rvt_image *img, size_t i)
{
    return i < img->nsegs ? &img->segs[i].pub : NULL;
}

/* How many of the n bytes at addr segment s serves: up to where a later
 * segment, which shadows s (img_add_segment), starts. */
static size_t unshadowed_run(const rvt_image *img, const img_seg *s, uint64_t addr, size_t n)
{
    if (!s->shadowed)
        return n;
    for (size_t j = (size_t)(s - img->segs) + 1; j < img->nsegs; j++) {
        uint64_t d = img->segs[j].pub.vaddr - addr;
        if (d && d < n)
            n = (size_t)d;
    }
    return n;
}

/* The bytes at each address come from the latest segment holding it, so a
 * region added over part of an instruction is read whole (the first half
 * from the older region, the rest from the newer), and a read goes on
 * into an adjacent segment. */
size_t rvt_image_read(const rvt_image *img, uint64_t addr, void *buf, size_t len)
{
    uint8_t *out = buf;
    size_t done = 0;
    while (done < len) {
        uint64_t a = addr + done;
        const img_seg *s = img_find(img, a);
        if (!s || a < addr)          /* unmapped, or past 2^64 */
            break;
        uint64_t off = a - s->pub.vaddr;
        uint64_t avail = s->pub.memsz - off;
        size_t n = avail < len - done ? (size_t)avail : len - done;
        n = unshadowed_run(img, s, a, n);
        size_t from_file = off < s->pub.filesz ? (size_t)(s->pub.filesz - off) : 0;
        if (from_file > n)
            from_file = n;
        if (from_file)
            memcpy(out + done, s->pub.data + off, from_file);
        memset(out + done + from_file, 0, n - from_file);
        done += n;
    }
    return done;
}
