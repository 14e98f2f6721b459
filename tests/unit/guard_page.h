/* Bytes at the very end of readable memory: the page after them is
 * mapped with no access, so a read one byte past them faults in every
 * build, not only under ASan (the word-wise readers' bound). */
#ifndef RVT_GUARD_PAGE_H
#define RVT_GUARD_PAGE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct guard_page {
    uint8_t *map;     /* two pages: data, then no access */
    size_t page;
} guard_page;

static inline int guard_page_open(guard_page *g)
{
    g->map = NULL;
    g->page = (size_t)sysconf(_SC_PAGESIZE);
    void *m = mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    g->map = m;
    return mprotect(g->map + g->page, g->page, PROT_NONE);
}

/* src's n bytes (n <= a page) copied to end where the guard page starts. */
static inline const uint8_t *guard_page_tail(guard_page *g, const void *src, size_t n)
{
    uint8_t *p = g->map + g->page - n;
    memcpy(p, src, n);
    return p;
}

static inline void guard_page_close(guard_page *g)
{
    munmap(g->map, 2 * g->page);
}

#endif
