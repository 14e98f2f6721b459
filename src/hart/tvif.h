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

/* The Sdtrig CSRs tselect, tdata1-3, tinfo (Debug spec 1.0, 5.7): read
 * and written through trigger.c, tdata1-3 as views of the selected
 * trigger; commit.c reports a view that changed. */
#define HART_TV_TRIG_LO 0x7A0
#define HART_TV_TRIG_HI 0x7A4
#define HART_TV_NTRIG_CSR (HART_TV_TRIG_HI - HART_TV_TRIG_LO + 1)

#endif
