/* `--NAME FILE` for every registered writer that writes a file of its own
 * (rvt_out_writer.file_option: lcov, coverage-listing, ...): the options,
 * the outputs and feeding them, for any command that decodes a flow; the
 * one file-writer mechanism (report's --NAME FILE / --write NAME=FILE for
 * any writer add theirs with cli_file_outs_add). */
#ifndef RVT_CLI_FILE_OUT_H
#define RVT_CLI_FILE_OUT_H

#include <stdbool.h>
#include <stdio.h>
#include "rvtrace/out.h"

#define CLI_FILE_OUTS_MAX 16

typedef struct cli_file_outs {
    size_t n;
    const rvt_out_writer *w[CLI_FILE_OUTS_MAX];
    const char *path[CLI_FILE_OUTS_MAX];
    FILE *f[CLI_FILE_OUTS_MAX];
    rvt_out *out[CLI_FILE_OUTS_MAX];
} cli_file_outs;

/* True if argv[*i] is `--NAME FILE` / `--NAME=FILE` of a file writer: it
 * is kept in fo and *i advanced. */
bool cli_file_out_opt(cli_file_outs *fo, int argc, char **argv, int *i);
/* Writer w into path (opened by cli_file_outs_open): CLI_OK, or CLI_USAGE
 * (printed, naming opt) past CLI_FILE_OUTS_MAX. */
int cli_file_outs_add(cli_file_outs *fo, const rvt_out_writer *w, const char *path, const char *opt);
/* A command's own configured writer in place of the registered one of
 * the same name (script --lbr: its period and depth) for the options
 * parsed after this call. */
void cli_file_out_override(const rvt_out_writer *w);
/* True if arg is exactly `--NAME` of a file writer (its value follows). */
bool cli_file_out_valued(const char *arg);
/* Claim and open every output (cli_out_fopen) on img: CLI_OK or CLI_FAIL
 * (printed). */
int cli_file_outs_open(cli_file_outs *fo, rvt_image *img);
void cli_file_outs_event(cli_file_outs *fo, const rvt_flow_event *ev);
/* A block-mode instruction event to each (rvt_out_run): CLI_OK, or
 * CLI_FAIL when an output's image cannot walk it. */
int cli_file_outs_run(cli_file_outs *fo, const rvt_flow_event *ev);
/* A block (rvtrace/flow.h) to every output (rvt_out_block): CLI_OK, or
 * CLI_FAIL when an output's image cannot walk it. */
int cli_file_outs_block(cli_file_outs *fo, const struct rvt_block *b);
/* True when every output has a block entry (rvt_out_writer.block): none
 * can refuse a block, so cli_file_outs_blocks may take a whole batch. */
bool cli_file_outs_take_blocks(const cli_file_outs *fo);
/* b[0..n) to every output at once (rvt_out_blocks); a block an output
 * refuses (cli_file_outs_take_blocks false) is passed over for it. */
void cli_file_outs_blocks(cli_file_outs *fo, const struct rvt_block *b, size_t n);
/* The instructions the first output has taken (rvt_out_insns), 0 with
 * none: in batches (cli_file_outs_take_blocks) every output's count. */
uint64_t cli_file_outs_insns(const cli_file_outs *fo);
/* Finish every writer and close its file: CLI_OK, or CLI_FAIL (printed)
 * when one could not be written. */
int cli_file_outs_close(cli_file_outs *fo);

#endif
