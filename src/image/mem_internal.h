/* Internal layout of rvt_mem (include/rvtrace/mem.h), shared by mem.c and
 * the per-decoder view, mem_view.c. */
#ifndef RVT_MEM_INTERNAL_H
#define RVT_MEM_INTERNAL_H

#include "rvtrace/mem.h"

typedef struct mem_ent {
    rvt_space key;
    const rvt_image *img;    /* borrowed */
    unsigned specific;       /* non-wildcard fields of key: 0..3 */
} mem_ent;

struct rvt_mem {
    mem_ent *ent;
    size_t n, cap;
    rvt_mem_read_fn read;
    void *read_ctx;
    unsigned read_flags;     /* RVT_MEM_READ_* */
};

/* The entries matching space, in lookup order (mem.h: most specific
 * first, the latest added first among equals), into out[0..m->n);
 * returns how many. */
size_t mem_match(const rvt_mem *m, const rvt_space *space, size_t *out);
/* Ask the callback for the instruction bytes at addr (up to 4); returns
 * the encoding in *raw and true when it gave a whole instruction. */
bool mem_read_insn_word(const rvt_mem *m, const rvt_space *space, uint64_t addr, uint32_t *raw);

#endif
