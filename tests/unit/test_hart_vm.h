/* Shared helpers of the paging and PMP unit tests: a hart that is never
 * run, whose RAM (at 0x80000000) the test fills by hand, and the
 * internal translation entry point (src/hart/hart_int.h). */
#ifndef TEST_HART_VM_H
#define TEST_HART_VM_H

#include "test_hart_util.h"
#include "hart/hart_int.h"

typedef struct tvm {
    rvt_image *img;
    rvt_hart *h;
} tvm;

static inline rvt_hart *tvm_new(tvm *t, unsigned xlen)
{
    static const tinsn nop[] = { I4(0x00000013) };   /* addi x0,x0,0 */
    rvt_hart_cfg cfg = { 0 };
    cfg.xlen = xlen;
    int st = -1;
    t->img = timage(nop, 1);
    t->h = t->img ? rvt_hart_new(&cfg, t->img, &st) : NULL;
    CHECK(t->h != NULL);
    return t->h;
}

static inline void tvm_free(tvm *t)
{
    rvt_hart_free(t->h);
    rvt_image_free(t->img);
}

/* Physical RAM words, as the page walk reads them. */
static inline void tvm_put(rvt_hart *h, uint64_t pa, uint64_t v, unsigned size)
{
    memcpy(h->ram + (pa - h->ram_base), &v, size);
}

static inline uint64_t tvm_get(rvt_hart *h, uint64_t pa, unsigned size)
{
    uint64_t v = 0;
    memcpy(&v, h->ram + (pa - h->ram_base), size);
    return v;
}

/* A CSR write with M-mode rights, as csrrw would do it. */
static inline uint64_t tvm_csr(rvt_hart *h, unsigned csr, uint64_t v)
{
    hart_csr_access(h, csr, true, &v);
    uint64_t r = 0;
    hart_csr_access(h, csr, false, &r);
    return r;
}

static inline void tvm_mode(rvt_hart *h, unsigned priv, uint64_t mstatus_bits)
{
    h->priv = priv;
    h->mstatus = (h->mstatus & ~(MSTATUS_SUM | MSTATUS_MXR | MSTATUS_MPRV | MSTATUS_MPP)) |
                 mstatus_bits;
    hart_vm_update(h);
}

/* Translate: the exception cause + 1 or 0, and the physical address. */
static inline int tvm_xl(rvt_hart *h, uint64_t va, unsigned acc, uint64_t *pa)
{
    *pa = 0xdead;
    return hart_xlate(h, va, 1, acc, pa);
}

#endif
