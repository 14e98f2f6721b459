/* E-Trace CLI: shared option handling (te_opts.c). */
#ifndef RVT_TE_OPTS_H
#define RVT_TE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/etrace.h"

/* Apply --te-opt LIST / --te-attr NAME=VALUE at argv[*i]; returns 1 if
 * consumed (advancing *i), 0 if not an E-Trace option, -1 on a bad value. */
int te_opt_apply(int argc, char **argv, int *i, rvt_te_attrs *a);
/* Attributes for reading TRACE: defaults, then TRACE.attrs if present,
 * then the --te-attr/--te-opt options in argv.  Prints the error. */
int te_attrs_for_input(const char *trace, int argc, char **argv, rvt_te_attrs *a);
/* The encoder's attributes after the options: a 32-entry return stack for
 * implicit return when the options name neither return_stack_size nor
 * call_counter_size (both 0 is the reference flow's mode, in which every
 * return is left out and no decoder can follow them: only on request),
 * then rvt_te_attrs_fill.  0, or -1 (printed) when inconsistent. */
int te_attrs_finish(int argc, char **argv, rvt_te_attrs *a, const char *what);
int te_attrs_save(const char *trace, const rvt_te_attrs *a);
/* Warn that TRACE ends without the encoder's end marker, its last complete
 * packet ending at `offset` (out.h RVT_END_INCOMPLETE). */
void te_warn_incomplete(const char *trace, uint64_t offset);
/* iaddress_width = xlen of the input (as `run` does) unless the options
 * name iaddress_width. */
void te_attrs_input_xlen(int argc, char **argv, rvt_te_attrs *a, unsigned xlen);

#endif
