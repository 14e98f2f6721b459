/* The trace kind of a command's file and its settings (cli_kind.c,
 * cli_settings.c): one place for the kind, the sidecar and the options. */
#ifndef RVT_CLI_KIND_H
#define RVT_CLI_KIND_H

#include "cli_opts.h"
#include "rvtrace/proto.h"

/* The kind of a->files[0] (see cli_kind.c); a wrong file (an ELF as the
 * trace, the other protocol's sidecar, two traces) is printed in one line
 * and its status returned.  CLI_OK otherwise, *k possibly KIND_NONE. */
int cli_kind_of(const cli_args *a, cli_kind *k);
void cli_kind_unknown(const cli_args *a);
/* The command line of a command that reads one E-Trace or N-Trace stream
 * (decode, index): parsed for cmd, the kind found and able to honour
 * every option given.  CLI_OK, or the status after printing why. */
int cli_flow_args(cli_args *a, unsigned cmd, const char *name, int argc, char **argv, cli_kind *k);
/* The second half of cli_flow_args, for a command that looks at the file
 * first (decode: a perf.data). */
int cli_flow_kind(cli_args *a, cli_kind *k);
cli_kind cli_kind_of_proto(const rvt_proto *p);
const rvt_proto *cli_kind_proto(cli_kind k);
/* Settings for reading TRACE: TRACE.attrs when present (inconsistent:
 * CLI_FAIL), then the options (cli_settings_apply), then
 * rvt_proto_cfg_fill and the check (CLI_USAGE).  Printed. */
int cli_settings_load(const cli_args *a, const char *trace, rvt_proto_cfg *c);
/* The settings options (--te-*, --nt-*, --xlen/--flen/--mlen) in command
 * order through rvt_proto_cfg_set.  CLI_OK or CLI_USAGE (printed). */
int cli_settings_apply(const cli_args *a, rvt_proto_cfg *c);
/* rvt_proto_cfg_check, printed as "WHAT: WHY" (CLI_USAGE). */
int cli_settings_check(const rvt_proto_cfg *c, const char *what);
/* Warn that FILE ends without the encoder's end marker, its last complete
 * packet/message ending at offset (out.h RVT_END_INCOMPLETE). */
void cli_warn_incomplete(const char *file, const rvt_proto *p, uint64_t offset);
/* Write TRACE.attrs (claimed as an output).  CLI_OK or CLI_FAIL. */
int cli_settings_save(const char *trace, const rvt_proto_cfg *c);

#endif
