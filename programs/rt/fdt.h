/* rvtrace workloads: finding a device in the flattened device tree the
 * firmware passed in a1 (Devicetree spec 0.4 ch. 5). */
#ifndef RT_FDT_H
#define RT_FDT_H

#include "rt.h"

/* The address (first `reg` entry, two address cells as QEMU virt's /soc
 * has) of the first node whose `compatible` list holds `compat`; 0 when
 * dtb is 0, not a device tree, or has no such node. */
uint64_t rt_fdt_reg_by_compatible(const void *dtb, const char *compat);

#endif
