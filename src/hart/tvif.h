/* The CSRs the tandem-verification view of the hart exposes (tvif.c),
 * shared with the commit hook (commit.c). */
#ifndef RVT_HART_TVIF_H
#define RVT_HART_TVIF_H

#include <stddef.h>
#include <stdint.h>

typedef struct hart_tv_csr {
    uint16_t addr;      /* CSR number */
    size_t off;         /* offsetof(struct rvt_hart, field) */
} hart_tv_csr;

extern const hart_tv_csr hart_tv_csrs[];
extern const size_t hart_tv_ncsrs;

#endif
