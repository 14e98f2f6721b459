/* The one option table of dump, decode and encode (cli_opts.c): every
 * option, the commands that take it, the trace kinds that can honour it
 * and its help.  The parser and `rvtrace help CMD` both read the table, so
 * the help cannot drift from what is accepted. */
#ifndef RVT_CLI_OPTS_H
#define RVT_CLI_OPTS_H

#include <stdbool.h>
#include "cli.h"
#include "cli_file_out.h"

enum { CMD_DUMP = 1u, CMD_DECODE = 2u, CMD_ENCODE = 4u, CMD_INDEX = 8u };
/* The trace kinds (cli_kind.c): the protocols of rvtrace/proto.h, ingress
 * records and tandem-verification traces. */
typedef enum { KIND_NONE, KIND_TE, KIND_NT, KIND_RVI, KIND_TVT } cli_kind;
#define K_TE (1u << KIND_TE)
#define K_NT (1u << KIND_NT)
#define K_RVI (1u << KIND_RVI)
#define K_TVT (1u << KIND_TVT)
#define K_ALL (K_TE | K_NT | K_RVI | K_TVT)

typedef enum {
    O_ETRACE, O_NTRACE, O_TV,
    O_TE_OPT, O_TE_ATTR, O_TE_PROFILE, O_TE_DATA, O_NT_OPT, O_NT_SRC, O_NT_ATTR,
    O_JSON, O_SUMMARY, O_ADDRESSES, O_XLEN, O_FLEN, O_MLEN,
    O_ELF, O_NO_MAP, O_PCS, O_WRITER, O_COUNT, O_STRICT, O_DATA_OUT, O_RAW, O_SPIKE_RV, O_SMC, O_SRC,
    O_OUT, O_FILTER, O_CONTAINER, O_FILE_OUT, O_SYMFS, O_JOBS, O_RANGE, O_INDEX_OUT, O_INDEX_LIST,
    O_INDEX_GAP, O_WRITE_THREAD,
} cli_opt_id;

typedef struct cli_option {
    cli_opt_id id;
    const char *name, *alias;   /* "--pcs", "--pcs-retired" (NULL: none) */
    const char *arg;            /* the value's name, NULL for a switch */
    unsigned cmds, kinds;       /* CMD_*, K_*: who takes it, who honours it */
    const char *help;
} cli_option;

/* One given option, in command-line order. */
typedef struct cli_given {
    const cli_option *opt;
    const char *value;          /* NULL for a switch */
    const char *spelt;          /* as given: "--te-attr" */
} cli_given;

#define CLI_MAX_GIVEN 256
#define CLI_MAX_FILES 16
typedef struct cli_args {
    unsigned cmd;
    const char *cmd_name;
    cli_given given[CLI_MAX_GIVEN];
    int ngiven;
    const char *files[CLI_MAX_FILES];
    int nfiles;
    bool too_many_files;
    const rvt_out_writer *writer;   /* decode: --listing/--json/--folded */
    int writers;                    /* how many of those were given */
    cli_file_outs fouts;            /* decode: --lcov FILE, ... (cli_file_out.c) */
} cli_args;

/* Parse argv[1..argc) for command cmd: an option not in the table for cmd
 * is a usage error naming it (printed).  CLI_OK or CLI_USAGE. */
int cli_args_parse(cli_args *a, unsigned cmd, const char *cmd_name, int argc, char **argv);
/* Every given option the kind can honour; the first that it cannot is a
 * usage error naming the option and the kind (printed).  CLI_OK or
 * CLI_USAGE. */
int cli_args_check_kind(const cli_args *a, cli_kind k);
/* The last value of option id, or NULL; whether a switch was given. */
const char *cli_args_value(const cli_args *a, cli_opt_id id);
bool cli_args_has(const cli_args *a, cli_opt_id id);
/* The kind the protocol switches (--etrace, --ntrace, --tv) name, else the
 * kind the given settings options belong to, else KIND_NONE. */
cli_kind cli_args_kind_switch(const cli_args *a);
cli_kind cli_args_kind_settings(const cli_args *a);
/* Print the table's options for cmd (help). */
void cli_args_help(FILE *f, unsigned cmd);
const char *cli_kind_title(cli_kind k);

#endif
