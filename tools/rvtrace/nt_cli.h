/* N-Trace CLI pieces shared by nt_*.c: settings from the sidecar and flags. */
#ifndef RVT_NT_CLI_H
#define RVT_NT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/ntrace.h"

/* Apply one --nt-opt list ("htm,seq-jump,implicit-return=3,...").  Returns
 * false (after printing) on an unknown item. */
bool nt_opt_list(rvt_nt_cfg *c, const char *list);
/* --nt-src BITS:ID */
bool nt_opt_src(rvt_nt_cfg *c, const char *arg);
/* Consume one N-Trace settings option at argv[*i] (--nt-opt, --nt-src,
 * --nt-attr NAME=VALUE).  Returns 1 if consumed, 0 if not an N-Trace
 * option, -1 on a bad value. */
int nt_opt_setting(int argc, char **argv, int *i, rvt_nt_cfg *c);
/* Settings for reading FILE.nt: FILE.nt.attrs if present, then flags. */
int nt_settings_for(const char *path, int argc, char **argv, rvt_nt_cfg *c);

#endif
