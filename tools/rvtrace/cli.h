/* rvtrace CLI: shared helpers and the subcommand entry points.  main.c
 * dispatches; one file per subcommand (cmd_*.c); E-Trace and N-Trace keep
 * their CLI pieces in te_*.c and nt_*.c. */
#ifndef RVT_CLI_H
#define RVT_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "rvtrace/ingress.h"
#include "rvtrace/out.h"
#include "rvtrace/status.h"

/* Exit codes: 0 ok, 1 failure in the data (corrupt input, program failed),
 * 2 usage error. */
enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "rvtrace: <msg>" to stderr. */
void cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A diagnostics callback (rvt_diag_fn) that prints "rvtrace: FILE: offset N: msg";
 * ctx is the file name.  Repeats at consecutive offsets fold into one line;
 * at most RVTRACE_MAX_ERRORS lines (default 100) are printed (cli_diag.c). */
void cli_diag(void *ctx, int level, uint64_t offset, const char *msg);
/* Print what cli_diag held back; main() calls it after the command. */
void cli_diag_flush(void);
/* Progress line for long runs (cli_progress.c): shown on a terminal every
 * RVTRACE_PROGRESS seconds (default 2).  Call cli_progress_due() often and
 * cheaply; when it says so, cli_progress_show() the state. */
typedef struct cli_progress {
    bool on, shown;
    double interval, t0, last;
} cli_progress;
double cli_now(void);    /* monotonic seconds */
void cli_progress_init(cli_progress *p, bool enable);
bool cli_progress_due(cli_progress *p);
void cli_progress_show(cli_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_progress_done(cli_progress *p);
/* The decoders' progress: the share of the trace file behind the event
 * being delivered, and the instructions so far.  quiet_out: the command's
 * output does not go to the terminal (--pcs, --count, a redirect), so a
 * progress line cannot mix with it. */
struct rvt_flow_event;
typedef struct cli_decode_progress {
    cli_progress p;
    const char *file;
    uint64_t len, insns;
} cli_decode_progress;
void cli_decode_progress_init(cli_decode_progress *d, const char *file, uint64_t len, bool quiet_out);
void cli_decode_progress_event(cli_decode_progress *d, const struct rvt_flow_event *ev);
/* The same for a block-mode event (aux instructions: rvt_out_run). */
void cli_decode_progress_run(cli_decode_progress *d, const struct rvt_flow_event *ev);
/* n instructions at once, from the packet at byte offset (a pulled block). */
void cli_decode_progress_insns(cli_decode_progress *d, uint64_t n, uint64_t offset);
/* An ingress sink in front of `down` that shows the instructions passed
 * so far (encode: the records of FILE; counted only while the line is
 * shown) and forwards everything, runs of steps whole. */
typedef struct cli_sink_progress {
    cli_progress p;
    rvt_irec_sink down;
    const char *file;
    rvt_irec_steps down_steps;
    uint64_t insns, records, next_check;
} cli_sink_progress;
rvt_irec_sink cli_progress_sink(cli_sink_progress *sp, const char *file, const rvt_irec_sink *down);
/* The same in front of a taker of runs of steps (rvt_rvi_replay_steps);
 * after cli_progress_sink. */
rvt_irec_steps cli_progress_steps(cli_sink_progress *sp, const rvt_irec_steps *down);
/* encode: CLI_OK if records passed, else CLI_FAIL saying FILE had none. */
int cli_sink_nonempty(const cli_sink_progress *sp);
/* Read a whole input file (regular files only; "-" = stdin); prints the
 * error and returns NULL on failure.  free() the result. */
uint8_t *cli_slurp(const char *path, size_t *len);
/* Output safety (cli_out.c): register every input file, claim every
 * output file.  An output that is an input or another output (same device
 * and inode, or the same canonical name) is refused with an error.
 * cli_in: false (printed) on a clash; "-" and non-regular files pass.
 * cli_out_claim: the name to write instead of PATH (a temporary file
 * beside it; PATH itself for "-" or a device), NULL (printed) on a clash.
 * cli_out_fopen: claim and fopen ("-" = stdout).
 * cli_out_commit: rename the claimed outputs into place (CLI_OK/CLI_FAIL);
 * main() commits after a successful command, otherwise cli_out_abort()
 * removes them, so a failed command leaves no partial outputs. */
bool cli_in(const char *path);
const char *cli_out_claim(const char *path);
FILE *cli_out_fopen(const char *path, const char *mode);
int cli_out_commit(void);
void cli_out_abort(void);
/* Strict unsigned numbers: decimal or 0x hex digits only (no sign, no
 * spaces, nothing after).  cli_parse_u64: no suffix.  Counts take decimal
 * suffixes k/K, M, G = 10^3, 10^6, 10^9; sizes binary ones k/K, M, G =
 * KiB, MiB, GiB ("128M" of RAM is 128 MiB). */
bool cli_parse_u64(const char *s, uint64_t *out);
bool cli_parse_count(const char *s, uint64_t *out);
bool cli_parse_size(const char *s, uint64_t *out);
/* One of the above, then lo <= value <= hi; prints "NAME: expected ...
 * from LO to HI, got 'V'" and returns false otherwise. */
/* --ram-size: a size, 4 KiB .. 16 GiB, a whole number of 4 KiB pages. */
bool cli_parse_ram_size(const char *name, const char *v, uint64_t *out);
typedef enum { CLI_NUM_PLAIN, CLI_NUM_COUNT, CLI_NUM_SIZE } cli_num_kind;
bool cli_parse_range(const char *name, const char *v, cli_num_kind kind, uint64_t lo, uint64_t hi,
                     uint64_t *out);
/* "--name=value" or "--name value": returns the value and advances *i, or
 * NULL if argv[*i] is not --name.  "--name" with no value after it is a
 * usage error: printed, then exit status 2 (nothing written is kept). */
const char *cli_opt(int argc, char **argv, int *i, const char *name);
bool cli_has_suffix(const char *s, const char *suffix);
/* decode: --NAME of a registered writer other than pcs (--listing, --json,
 * --folded: what goes to stdout).  True if arg is one, *w set to it;
 * *given counts them, > 1 (printed) when two differ.  The stdout output
 * does not depend on where --pcs stands. */
bool cli_stdout_writer(const char *arg, const rvt_out_writer **w, int *given);
/* A writer of the command's own that cli_stdout_writer also takes as
 * --NAME (report hands decode its fan-out of outputs this way); NULL: none. */
void cli_extra_writer(const rvt_out_writer *w);
/* An ingress sink of the command's own that `run` adds to its outputs
 * (report profiles the hart's run this way): open() gives the sink for
 * the loaded image, close() after the run finishes its outputs.  Both
 * return CLI statuses (errors printed).  NULL: none. */
typedef struct cli_run_hook {
    int (*open)(struct rvt_image *img, rvt_irec_sink *out);
    int (*close)(void);
} cli_run_hook;
extern const cli_run_hook *cli_run_extra;
/* --isa of run/verify: rv64gc = rv64imafdc (the default), rv64g, rv64imac,
 * rv64ima and the rv32 ones; false for another name. */
#define CLI_ISA_NAMES "rv64gc (= rv64imafdc), rv64g, rv64imac, rv64ima and\n" \
    "                       the rv32 ones"
bool cli_parse_isa(const char *isa, unsigned *xlen, bool *no_c, bool *no_fp);
/* Number with thousands separators, into buf. */
const char *cli_thousands(uint64_t v, char *buf, size_t n);

typedef int (*cli_cmd_fn)(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_encode(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_report(int argc, char **argv);     /* cmd_report.c */
int rvi_dump_file(const char *path, bool json);   /* rvi_dump.c */
int cmd_verify(int argc, char **argv);     /* cmd_verify.c */
struct rvt_tv_cfg;
int tv_dump_file(const char *path, bool json, const struct rvt_tv_cfg *cfg);   /* tv_dump.c */
int cmd_script(int argc, char **argv);     /* cmd_script.c */
extern const char cmd_script_help[];
int cmd_index(int argc, char **argv);      /* cmd_index.c */
extern const char cmd_index_help[];
/* Long help text of a subcommand (NULL if unknown).  Each subcommand file
 * defines its own text. */
const char *cli_help_text(const char *cmd);
extern const char cmd_run_help[], cmd_dump_help[], cmd_decode_help[],
    cmd_encode_help[], cmd_import_help[], cmd_disasm_help[], cmd_verify_help[],
    cmd_stat_help[], cmd_bench_help[], cmd_report_help[];
/* dump, decode, encode: the options of their table (cli_opts.c); nothing
 * for another command. */
void cli_options_help(FILE *f, const char *cmd);
/* Option summaries of the two trace paths, shown inside run/encode/decode help. */
extern const char te_options_help[], nt_options_help[];

/* ---- trace filters of `run` (filter_cli.c) ---- */
struct rvt_filter_cfg;
struct rvt_image;
extern const char filter_options_help[];
/* True if argv[i] is a filter/trigger option; *consumed as te_is_run_option. */
bool filter_is_option(int argc, char **argv, int i, int *consumed);
/* The configuration from the collected options (symbols from img); prints
 * the error and returns CLI_USAGE on a bad one. */
int filter_cfg_from_args(int argc, char **argv, struct rvt_image *img, struct rvt_filter_cfg *cfg);
/* encode: the filter stage in front of the encoder's sink (one input). */
struct rvt_filter;
typedef struct encode_filter {
    struct rvt_filter *filter;
    struct rvt_image *img;
    char **args;
} encode_filter;
bool encode_filter_option(int argc, char **argv, int i, int *consumed);
int encode_filter_open(int argc, char **argv, rvt_irec_sink *sink, encode_filter *ef);
void encode_filter_close(encode_filter *ef);
/* --pcs-traced: a sink writing the PCs of traced blocks. */
int traced_pcs_open(const char *path, struct rvt_image *img, rvt_irec_sink *out, void **handle);
/* The hart whose memory gives the lengths of code no image holds. */
struct rvt_hart;
void traced_pcs_hart(void *handle, const struct rvt_hart *h);
int traced_pcs_close(void *handle);

/* ---- PMU / CTR reports (cmd_stat.c, ctr_print.c) ---- */
struct rvt_pmu;
struct rvt_hart;
struct rvt_image;
typedef struct stat_sel {
    unsigned ev;              /* rvt_pmu_ev */
    unsigned modes;           /* bit 0 U, 1 S, 3 M */
    char label[64];
} stat_sel;
/* Parse "-e" (NULL = the default list); prints the error, returns -1. */
int stat_parse_events(const char *list, stat_sel *sel, int max);
void stat_print(FILE *f, const struct rvt_pmu *p, const stat_sel *sel, int n, const char *prog,
                double secs);
void ctr_print(FILE *f, const struct rvt_hart *h, struct rvt_image *img);

/* ---- E-Trace pieces (te_cli.c) ---- */
int te_cmd_encode(int argc, char **argv);
/* True if argv[i] is an E-Trace encoder option of `run` (--etrace, --te-opt,
 * --te-attr ...); *consumed gets how many argv entries it takes. */
bool te_is_run_option(int argc, char **argv, int i, int *consumed);
/* Open the encoder sinks from the options collected by te_is_run_option():
 * one encoder per hart of `run --harts N` into the one stream, out[i] for
 * hart i (E-Trace: with several, encapsulated, srcID = base + i; N-Trace:
 * SRC = base + i).  Both return CLI_OK, CLI_FAIL or CLI_USAGE (printed);
 * close(NULL) is OK. */
int te_sink_close(void *handle);
int te_sink_open_harts(int argc, char **argv, unsigned xlen, unsigned nharts, rvt_irec_sink *out,
                       void **handle);
int nt_sink_open_harts(int argc, char **argv, unsigned xlen, unsigned nharts, rvt_irec_sink *out,
                       void **handle);
/* Data accesses as text (data_text.c): a sink writing the hart's records,
 * and the data-trace decoder writing what it rebuilds from a .te stream. */
int data_text_open(const char *path, rvt_irec_sink *out, void **handle);
int data_text_close(void *handle);
struct rvt_te_attrs;
int te_data_decode(const struct rvt_te_attrs *a, const uint8_t *buf, size_t len, const char *in,
                   const char *out);

/* ---- N-Trace pieces (nt_cli.c) ---- */
int nt_cmd_encode(int argc, char **argv);
bool nt_is_run_option(int argc, char **argv, int i, int *consumed);
/* nt_sink_open_harts (above) and nt_sink_close: as the E-Trace ones. */
/* run --tci --etrace OUT: the E-Trace settings of run's options (the
 * output path in *path) for the TCI model to take over.  CLI status. */
int te_run_attrs(int argc, char **argv, unsigned xlen, const char **path, struct rvt_te_attrs *out);
int nt_sink_close(void *handle);

/* Containers (cli_container.c, issue #16): --container refflow|encap and
 * --encap-* options of encode/dump/decode.  option_args: how many argv
 * entries option i takes (0: not a container option).  option: 1 taken
 * (i moved), 0 not ours, -1 usage error (printed). */
int cli_container_option_args(int argc, char **argv, int i);
int cli_container_option(int argc, char **argv, int *i);
/* encode: check the settings against the stream (CLI status); write one
 * reference-flow frame in the chosen container; the container keys for
 * OUT.attrs (nothing for refflow). */
int cli_container_encode_start(bool data_trace);
int cli_container_write(FILE *f, const uint8_t *frame, size_t n);
/* ... of hart `hart` (srcID = --encap-src-id + hart) */
int cli_container_write_hart(FILE *f, unsigned hart, const uint8_t *frame, size_t n);
/* n harts' encoders write one stream: encapsulated, the srcID wide enough
 * for n (unless --encap-src-bits says otherwise).  CLI status. */
int cli_container_harts(unsigned n);
void cli_container_attrs_write(FILE *f);
/* encode with --encap-ts-bytes: a sink in front of the encoder's that
 * keeps the time of the record being encoded for the packets' timestamps
 * (inner itself otherwise; inner must outlive it). */
rvt_irec_sink cli_container_timed_sink(const rvt_irec_sink *inner);
/* dump/decode, after cli_slurp: the container from --container, FILE.attrs
 * or the bytes (said on stderr when not refflow); an encapsulated stream
 * comes back in the reference-flow framing (buf replaced).  NULL (printed,
 * buf freed) on error; NULL buf passes through. */
uint8_t *cli_container_unwrap(const char *trace, uint8_t *buf, size_t *len);
/* A capture's own metadata (what: where it came from, for the message)
 * says the stream is encapsulated with srcIDs of src_bits: used when no
 * option and no FILE.attrs name the container (options' widths win). */
void cli_container_capture(const char *what, unsigned src_bits);
/* The same over a buffer the caller keeps (a mapped file): buf itself when
 * it is not encapsulated, else a new malloc'd unwrapped stream. */
uint8_t *cli_container_unwrap_borrowed(const char *trace, const uint8_t *buf, size_t *len);
/* Only a RAM sink's buffer (FILE.attrs sink_* keys; N-Trace: tp "mseo")
 * put in stream order, in a copy; buf itself without those keys; NULL
 * (printed) on error. */
uint8_t *cli_container_sink_borrowed(const char *trace, const char *tp, const uint8_t *buf, size_t *len);
/* The stream read is a wrapped sink buffer, read from its first sync
 * point: it starts after packets that were overwritten. */
bool cli_container_mid_stream(void);
/* The file's byte offset for offset off of the stream cli_container_unwrap
 * returned (off itself when nothing was unwrapped): the header of the
 * encapsulated packet for a frame's first byte, else the payload byte. */
uint64_t cli_container_offset(uint64_t off);
/* Whether an unwrapped stream had bad packets (reported): exit 1. */
bool cli_container_damaged(void);
/* Several sources (srcIDs) in one encapsulated stream.  Before unwrap:
 * merge_sources (dump) keeps them all in one stream in stream order;
 * select (decode --src N) keeps srcID src only; otherwise unwrap returns
 * the first source seen and next_source hands over
 * the next one's stream (the caller frees it; offsets and timestamps then
 * refer to it), NULL after the last.  src_at: the srcID of the frame that
 * holds unwrapped offset off, -1 when the stream carries no srcID.
 * nsources: distinct srcIDs unwrapped. */
void cli_container_merge_sources(void);
void cli_container_select(unsigned src);
uint8_t *cli_container_next_source(size_t *len);
long cli_container_src_at(uint64_t off);
size_t cli_container_nsources(void);
/* Encapsulation timestamps (extend = 1): one due before an event at
 * unwrapped offset off of the current source; true with the value and the
 * file offset of its packet.  Call until false. */
bool cli_container_time(uint64_t off, uint64_t *ts, uint64_t *file_off);
/* Whether the current source has any such timestamp (decode then feeds
 * its outputs an instruction at a time: a timestamp may fall inside a
 * block of the pull API). */
bool cli_container_timed(void);

#endif
