/* E-Trace attributes as the library's encoder and decoder take them
 * (attrs.c).
 *
 * Internal header: include as "etrace/attrs_int.h". */
#ifndef RVT_ETRACE_ATTRS_INT_H
#define RVT_ETRACE_ATTRS_INT_H

#include "rvtrace/etrace.h"

/* *out: a copy of a with the sizes its modes need (rvt_te_attrs_fill);
 * returns that copy's rvt_te_attrs_check status.  The encoder and the
 * decoder keep such a copy: the caller's attributes stay as given. */
int rvt_te_attrs_filled(const rvt_te_attrs *a, rvt_te_attrs *out);

#endif
