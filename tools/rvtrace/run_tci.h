/* rvtrace run with the Trace Control Interface on the board (docs/tci.md):
 * --tci, --dump-sink F, --pib F. */
#ifndef RVT_RUN_TCI_H
#define RVT_RUN_TCI_H

#include <stdio.h>
#include "rvtrace/hart.h"
#include "rvtrace/tci.h"
#include "rvtrace/smp.h"

typedef struct run_tci {
    bool on;                 /* --tci, or implied by the others */
    const char *dump, *pib;  /* --dump-sink F, --pib F */
    rvt_tci *t;
    rvt_tci_te *te[RVT_SMP_MAX_HARTS];   /* hart i's encoder (the attrs: hart 0's) */
    unsigned nharts;
    rvt_hart *h;             /* SMEM writes go to its RAM */
    FILE *pibf;
    bool pib_err;
    const char *etrace;      /* --etrace OUT with --tci: the CLI drives the registers */
    struct rvt_te_attrs *attrs;   /* run's E-Trace settings (NULL: defaults) */
} run_tci;

#define RUN_TCI_HELP \
    "  --tci                the Trace Control Interface on the board (docs/tci.md):\n" \
    "                       registers at 0x18000000, in the device tree; each\n" \
    "                       hart's encoder traces while the program has its\n" \
    "                       trTeControl say so: E-Trace (data trace with\n" \
    "                       trTeDataControl, timestamps with trTsEnable), its\n" \
    "                       packets encapsulated (srcID from trTeInstFeatures),\n" \
    "                       or N-Trace (trTeFormat 1), its messages as they are,\n" \
    "                       through the funnel to the RAM (64 KiB SRAM, or SMEM in\n" \
    "                       RAM) and PIB sinks\n" \
    "  --dump-sink F        (implies --tci) save the RAM sink's buffer at exit to F,\n" \
    "                       its state (trRamStart/Limit/WP, wrap, stop-on-wrap) and\n" \
    "                       the stream's settings to F.attrs: decode F --elf P\n" \
    "  --pib F              (implies --tci) the PIB sink's byte stream to F\n" \
    "                       --tci with --etrace OUT: rvtrace programs the registers\n" \
    "                       as a driver would (the --te-* settings become trTeControl\n" \
    "                       and trTeInstFeatures values; with --harts N each\n" \
    "                       encoder's srcID is its hartid), and OUT is the PIB\n" \
    "                       sink's encapsulated stream (OUT.attrs as usual)\n"

/* 1 taken (i moved), 0 not ours. */
int run_tci_option(int argc, char **argv, int *i, run_tci *rt);
/* The model with one Trace Encoder per hart (nharts of them, the funnel's
 * inputs) and the E-Trace encoder behind each (hart i's sink in out[i]).
 * CLI status. */
int run_tci_open(run_tci *rt, const rvt_hart_cfg *cfg, unsigned xlen, unsigned nharts,
                 rvt_irec_sink *out);
/* After the hart exists and finished: save the sink (--dump-sink), close
 * the PIB file.  CLI status. */
int run_tci_close(run_tci *rt);
void run_tci_free(run_tci *rt);

#endif
