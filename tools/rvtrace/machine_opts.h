/* run's machine options: --machine virt|spike, --mem BASE:SIZE. */
#ifndef RVTRACE_MACHINE_OPTS_H
#define RVTRACE_MACHINE_OPTS_H
#include <stdbool.h>
#include "rvtrace/hart.h"

#define MACHINE_OPTS_HELP \
    "  --machine virt|spike QEMU's virt board (default) or Spike's: a boot ROM at\n" \
    "                       0x1000 with Spike's reset vector, where the hart starts\n" \
    "  --mem BASE:SIZE      extra RAM at BASE (both 4K-aligned; k/M/G sizes);\n" \
    "                       repeatable, up to 8 regions\n" \
    "                       An ELF defining `tohost` talks to Spike's HTIF (console\n" \
    "                       and exit) on either machine\n"

/* True if argv[*i] is one of them (parsed into cfg; *err on a bad value). */
bool machine_opt(int argc, char **argv, int *i, rvt_hart_cfg *cfg, bool *err);
#endif
