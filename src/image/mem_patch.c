/* Code patched at run time (mem.h, rvt_mem_patches): the words a program
 * writes into its code, in force content by content as its fence.i
 * retire (N-Trace 11.4: the decoder must know the code it walks), served
 * through an rvt_mem read callback over the images' bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "image/mem_internal.h"
#include "rvtrace/io.h"
#include "util/grow.h"

typedef struct patch {
    uint64_t addr;
    unsigned content, size;
    uint8_t b[4];
} patch;

struct rvt_mem_patches {
    patch *p;
    size_t n, cap;
    unsigned fences;         /* fence.i retired so far: contents 1..fences in force */
    const rvt_mem *mem;      /* attached to */
};

rvt_mem_patches *rvt_mem_patches_new(void)
{
    return calloc(1, sizeof(rvt_mem_patches));
}

void rvt_mem_patches_free(rvt_mem_patches *p)
{
    if (p)
        free(p->p);
    free(p);
}

size_t rvt_mem_patches_count(const rvt_mem_patches *p)
{
    return p ? p->n : 0;
}

int rvt_mem_patches_add(rvt_mem_patches *p, unsigned content, uint64_t addr, unsigned size,
                        uint32_t word)
{
    if (!p || !content || !size || size > 4 || addr + (size - 1) < addr)
        return RVT_ERR_INVAL;
    patch *n = rvt_grow(p->p, &p->cap, p->n + 1, sizeof *n, 16);
    if (!n)
        return RVT_ERR_NOMEM;
    p->p = n;
    patch *q = &p->p[p->n++];
    *q = (patch){ .addr = addr, .content = content, .size = size };
    for (unsigned i = 0; i < 4; i++)
        q->b[i] = (uint8_t)(word >> 8 * i);
    return RVT_OK;
}

static void diag(rvt_diag_fn fn, void *ctx, uint64_t off, const char *fmt, const char *path)
{
    char msg[4200];
    snprintf(msg, sizeof msg, fmt, path);
    if (fn)
        fn(ctx, RVT_DIAG_ERROR, off, msg);
}

/* One line: blank or '#' (nothing added), or CONTENT ADDR SIZE WORD and,
 * after white space, any annotation (the corpus lists the assembly). */
static int parse_line(rvt_mem_patches *p, const char *line)
{
    line += strspn(line, " \t\r\n");
    if (!*line || *line == '#')
        return RVT_OK;
    unsigned content, size, word;
    unsigned long long addr;
    int used = 0;
    if (sscanf(line, "%u %llx %u %x%n", &content, &addr, &size, &word, &used) != 4 ||
        (line[used] && !strchr(" \t\r\n", line[used])))
        return RVT_ERR_FORMAT;
    int st = rvt_mem_patches_add(p, content, addr, size, word);
    return st == RVT_ERR_INVAL ? RVT_ERR_FORMAT : st;
}

int rvt_mem_patches_load(rvt_mem_patches *p, const char *path, rvt_diag_fn fn, void *ctx)
{
    if (!p || !path)
        return RVT_ERR_INVAL;
    const char *why = "";
    int fd = rvt_open_input(path, &why);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        diag(fn, ctx, UINT64_MAX, "%s: cannot open", path);
        return RVT_ERR_IO;
    }
    char line[512];
    uint64_t off = 0;
    int st = RVT_OK;
    while (st == RVT_OK && fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        st = len == sizeof line - 1 && line[len - 1] != '\n' ? RVT_ERR_FORMAT : parse_line(p, line);
        if (st == RVT_ERR_FORMAT)
            diag(fn, ctx, off, "%s: want \"CONTENT ADDR SIZE WORD\" (SIZE 1-4, CONTENT >= 1)",
                 path);
        off += len;
    }
    fclose(f);
    return st;
}

/* The byte at a from the patches in force (the latest content, then the
 * latest added, wins), or -1. */
static int patched_byte(const rvt_mem_patches *p, uint64_t a)
{
    const patch *best = NULL;
    for (size_t i = 0; i < p->n; i++) {
        const patch *q = &p->p[i];
        if (q->content <= p->fences && a - q->addr < q->size &&
            (!best || q->content >= best->content))
            best = q;
    }
    return best ? best->b[a - best->addr] : -1;
}

/* The read callback: nothing where no byte of the request is patched
 * (the images answer); else the images' bytes with the patches over them,
 * up to the first byte neither holds. */
static size_t patches_read(void *ctx, const rvt_space *space, uint64_t addr, void *buf,
                           size_t size)
{
    const rvt_mem_patches *p = ctx;
    uint8_t *out = buf;
    bool any = false;
    size_t n = 0;
    for (; n < size && addr + n >= addr; n++) {
        int b = patched_byte(p, addr + n);
        if (b < 0) {
            const rvt_image *img = rvt_mem_image_at(p->mem, space, addr + n);
            if (!img || rvt_image_read(img, addr + n, &out[n], 1) != 1)
                break;
        } else {
            out[n] = (uint8_t)b;
            any = true;
        }
    }
    return any ? n : 0;
}

int rvt_mem_patches_attach(rvt_mem_patches *p, rvt_mem *m)
{
    if (!p || !m)
        return RVT_ERR_INVAL;
    p->mem = m;
    return rvt_mem_set_read(m, patches_read, p, RVT_MEM_READ_FIRST);
}

bool rvt_mem_patches_fence(rvt_mem_patches *p)
{
    if (!p)
        return false;
    p->fences++;
    for (size_t i = 0; i < p->n; i++)
        if (p->p[i].content == p->fences)
            return true;
    return false;
}
