/* rvtrace decode --elf P.elf FILE: rebuild the retired instructions with
 * the trace's protocol decoder (E-Trace ch. 8 flow, N-Trace ch. 11) and
 * write them through the output writers (out.h). */
#include <stdlib.h>
#include <string.h>
#include "cli_kind.h"
#include "cli_perf.h"
#include "cli_image.h"
#include "decode_jobs.h"
#include "decode_pipe.h"
#include "rvtrace/etrace.h"
#include "rvtrace/image.h"

const char cmd_decode_help[] =
    "usage: rvtrace decode --elf PROG.elf [OPTIONS] FILE.te|FILE.nt\n"
    "\n"
    "Rebuild the executed instruction sequence from a trace and the program\n"
    "image.  Outputs, any together, in any order: --pcs F (the retired PCs,\n"
    "one hex address per line; also spelt --pcs-retired as in run), --pcs-bin\n"
    "F (the same PCs as a binary list, 4 or 8 bytes each: docs/formats.md;\n"
    "rvtrace dump F prints it as text), and on\n"
    "stdout one of --listing (disassembly with symbols and trap/privilege\n"
    "annotations; the default unless --pcs, --count or only --data-out is\n"
    "given), --json (one JSON object per instruction), --folded (call stacks\n"
    "with the number of instructions retired in each, 'main;f;g 1234' lines\n"
    "for flame-graph tools).  E-Trace: --data-out F (old spelling --data F)\n"
    "writes the data accesses of te_data packets as run --data-out does; the\n"
    "ELF is then optional.  Settings come from FILE.attrs, which also tells\n"
    "the trace kind, else the bytes do, else the name (.te .nt: a hint).\n"
    "One trace per command.\n"
    "\n"
    "Coverage files, also in any combination (docs/coverage.md): --lcov F\n"
    "(an lcov tracefile: lines and functions from the ELF's DWARF, branches\n"
    "taken/not taken from the trace; genhtml renders it), --coverage-listing F\n"
    "(every instruction of the code run or not, every branch both-ways,\n"
    "one-way or never; needs no debug info), --lbr F (perf-script branch\n"
    "stacks, as rvtrace script --lbr).  Alone they replace the listing.\n"
    "\n"
    "In decode and dump, --etrace/--ntrace take no file: they name the kind\n"
    "of the trace given; --te-opt/--te-attr/--nt-opt/--nt-src/--nt-attr\n"
    "override what FILE.attrs says (the options listed below).\n"
    "\n"
    "Several images: --elf may be repeated, and --elf FILE@KEY puts a program\n"
    "in one address space only, KEY being ctx=N,priv=U|S|M|0-3,src=N (each\n"
    "optional: a missing one matches every value).  Code is looked up in the\n"
    "trace's space (E-Trace: the last format 3's privilege and context;\n"
    "N-Trace: the source's last Ownership message and its SRC), a keyed\n"
    "image before one given for every space.  --image FILE@ADDR (old spelling\n"
    "--raw) adds a raw binary (a boot ROM, a kernel's Image), repeatable.\n"
    "FILE.images, the image map run writes beside its traces, is read first\n"
    "when there and instructions are asked for, not for --data-out alone\n"
    "(docs/formats.md \"Image map\"; --no-image-map ignores it):\n"
    "after a boot, decode FILE needs no --elf; what the command line gives\n"
    "wins where it overlaps.  Over several image files the listing, --json\n"
    "and --folded name the image of each instruction beside its symbol.\n"
    "\n"
    "E-Trace containers: the reference-flow framing, or the ratified\n"
    "encapsulation (docs/transport.md) when FILE.attrs says so or the file\n"
    "starts with a synchronisation sequence; the choice is said on stderr,\n"
    "and --container/--encap-* options (rvtrace help encode) override it.\n"
    "\n"
    "perf.data (docs/perfdata.md): each CPU's AUX area data is decoded as an\n"
    "E-Trace stream, over the files its MMAP records name, looked up under\n"
    "--symfs DIR (default .); --elf is not needed.\n"
    "\n"
    "E-Trace: Spike's reset vector (auipc t0,0; addi a1,t0,32; csrr a0,mhartid;\n"
    "ld/lw t0,24(t0); jr t0), where Spike traces start, is at 0x1000 unless\n"
    "something else is; --spike-reset-vector puts it there regardless.\n"
    "\n"
    "Parallel decoding (docs/parallel.md): --jobs N cuts the trace at its\n"
    "synchronisation points (FILE.idx, written by rvtrace index, else found in\n"
    "memory) and decodes the pieces on N threads; every output is the same,\n"
    "byte for byte, as with one.  --range A:B decodes index points A..B only.\n"
    "--write-thread writes the outputs on a second thread while the decoder\n"
    "pulls the next blocks, the same bytes (docs/formats.md \"Binary PC\n"
    "lists\"), where every output takes blocks (--pcs, --pcs-bin, --folded,\n"
    "--lcov and the other coverage files; not --listing or --json: there it\n"
    "is ignored, as with --jobs).  It costs CPU for its hand-overs and, with\n"
    "a core free, was not faster than one thread for --pcs-bin (measured).\n"
    "\n"
    "A progress line (share of the file, instructions) is shown every 2 s on a\n"
    "terminal when the output goes elsewhere (--pcs, --count, a redirect).\n";

static int on_event(void *ctx, const rvt_flow_event *ev);
static int on_blocks(void *ctx, const rvt_block *b, size_t n);

typedef struct dec_ctx {
    cli_kind kind;
    const char *path;
    rvt_out *outs[2];
    const rvt_out_writer *out_w[2];   /* outs[i]'s writer and file */
    FILE *out_f[2];
    size_t nout;
    cli_file_outs *files;     /* --lcov FILE, ... (cli_file_out.c) */
    uint64_t errors;
    bool incomplete;          /* RVT_EV_END said RVT_END_INCOMPLETE */
    uint64_t losses, lost_hw; /* N-Trace RVT_EV_LOST events, the half-words they name */
    /* errors, losses and lost_hw when the source being decoded began: a
     * stream of several sources is summed above, summarised per source */
    uint64_t errors_at, losses_at, lost_hw_at;
    rvt_image *img;
    rvt_mem *mem;             /* the images by address space (cli_image.c) */
    rvt_proto_decoder *dec;   /* for --smc: its caches go after a write */
    rvt_mem_patches *smc;
    const rvt_proto *proto;
    cli_decode_progress pr;
    bool keyed;               /* some --elf FILE@KEY: img lacks code the decoder has */
    bool runs;                /* N-Trace block-mode events (on_run) */
    bool batches;             /* every output has a block entry (on_blocks) */
    bool write_thread;        /* --write-thread: on_blocks on a thread of its own (decode_pipe.c) */
    jobs_opts jo;             /* --jobs/--range (decode_jobs.h) */
    const rvt_proto_cfg *cfg;
    const trace_in *in;
} dec_ctx;

static bool pull_blocks(const dec_ctx *c);

/* The progress line when the pieces write the PC lists. */
static void pieces_written(void *ctx, uint64_t insns, uint64_t end)
{
    dec_ctx *c = ctx;
    cli_decode_progress_insns(&c->pr, insns, end);
}

/* Whether every output is a PC list (position-free: open_part), which
 * the pieces of --jobs then write themselves (jobs_pcl.h): l names them. */
static bool pc_lists(const dec_ctx *c, jobs_pcl *l)
{
    const cli_file_outs *fo = c->files;
    *l = (jobs_pcl){ .img = c->img, .written = pieces_written };
    if (c->nout + fo->n > JOBS_PCL_MAX)
        return false;
    for (size_t i = 0; i < c->nout; i++, l->n++) {
        l->w[l->n] = c->out_w[i];
        l->f[l->n] = c->out_f[i];
    }
    for (size_t k = 0; k < fo->n; k++, l->n++) {
        l->w[l->n] = fo->w[k];
        l->f[l->n] = fo->f[k];
    }
    for (size_t k = 0; k < l->n; k++)
        if (!l->w[k]->open_part || !l->w[k]->blocks)
            return false;
    return l->n > 0;
}

/* --jobs/--range: the pieces' events through on_event, in order; runs
 * of instructions, or blocks to on_blocks, where one decoder would send
 * them (run_decoder), or, when every output is a PC list, the pieces'
 * own bytes of them. */
static int run_jobs(dec_ctx *c, int src, bool count, jobs_result *r)
{
    bool events = c->nout || c->files->n || !count;
    c->runs = !c->keyed && jobs_runs(&c->jo, events);   /* runs need img's lengths */
    bool blocks = c->runs && pull_blocks(c);
    jobs_pcl l;
    bool lists = blocks && pc_lists(c, &l);
    return jobs_decode_trace(&c->jo, c->path, c->cfg, c->in, c->mem, src, events, c->runs,
                             on_event, blocks ? on_blocks : NULL, lists ? &l : NULL, c, r);
}

/* A stream problem: E-Trace reports the error (its LOST repeats it);
 * N-Trace names the source and PC, and LOST is where decoding resumed. */
static void report(dec_ctx *c, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_ERROR)
        c->errors++;
    if (c->kind == KIND_TE) {
        if (ev->kind == RVT_EV_ERROR)
            cli_diag((void *)c->path, RVT_DIAG_ERROR, cli_container_offset(ev->offset),
                     ev->msg ? ev->msg : "decode error");
        return;
    }
    if (ev->kind == RVT_EV_LOST) {
        c->losses++;
        c->lost_hw += ev->aux2;
    }
    char msg[256];
    snprintf(msg, sizeof msg, "%s (src %u, pc 0x%llx)", ev->msg ? ev->msg : "error", ev->src,
             (unsigned long long)ev->pc);
    cli_diag((void *)c->path, ev->kind == RVT_EV_ERROR ? RVT_DIAG_ERROR : RVT_DIAG_WARN, ev->offset, msg);
}

/* A decoded block the outputs' image cannot walk: an error, decoding
 * stops. */
static int block_lacks_code(dec_ctx *c, uint64_t offset)
{
    cli_diag((void *)c->path, RVT_DIAG_ERROR, offset, "the program image lacks the code of a decoded block");
    c->errors++;
    return 1;
}

/* A block-mode instruction event (N-Trace RVT_NT_EVENTS_BLOCK: aux
 * instructions from pc): to every output as one block (rvt_out_run),
 * which their block entries count at once (issue 17). */
static int on_run(dec_ctx *c, const rvt_flow_event *ev)
{
    cli_decode_progress_run(&c->pr, ev);
    for (size_t i = 0; i < c->nout; i++)
        if (rvt_out_run(c->outs[i], ev) < 0)
            return block_lacks_code(c, ev->offset);
    return cli_file_outs_run(c->files, ev) == CLI_OK ? 0 : block_lacks_code(c, ev->offset);
}

/* A block of the pull API (E-Trace, rvt_proto_decoder_pump): to every
 * output at once (rvt_out_block), as on_run does (issue 18). */
static int on_block(void *ctx, const rvt_block *b)
{
    dec_ctx *c = ctx;
    cli_decode_progress_insns(&c->pr, b->ninsn, b->offset);
    for (size_t i = 0; i < c->nout; i++)
        if (rvt_out_block(c->outs[i], b) < 0)
            return block_lacks_code(c, b->offset);
    return cli_file_outs_block(c->files, b) == CLI_OK ? 0 : block_lacks_code(c, b->offset);
}

/* The instructions the outputs have taken: the first output's count
 * (rvt_out_insns), which its writer's batch loop keeps.  In batches every
 * output takes every block (none can refuse one), so one output's count
 * is all of theirs, and the progress line need not walk a batch again
 * (issue #18: a second walk was 4 % of decode --pcs-bin's samples). */
static uint64_t outs_insns(const dec_ctx *c)
{
    if (c->nout)
        return rvt_out_insns(c->outs[0]);
    return cli_file_outs_insns(c->files);
}

/* A batch of blocks of the pull API (rvt_proto_decoder_pump_blocks):
 * when every output has a block entry (none can refuse a block), the
 * whole batch to each output at once (rvt_out_blocks, issue 17: no call
 * chain per block), the same bytes as block by block; else on_block for
 * each, so that a block the image lacks stops every output there. */
static int on_blocks(void *ctx, const rvt_block *b, size_t n)
{
    dec_ctx *c = ctx;
    if (!c->batches) {
        for (size_t k = 0; k < n; k++) {
            int st = on_block(c, &b[k]);
            if (st)
                return st;
        }
        return 0;
    }
    uint64_t before = outs_insns(c);
    for (size_t i = 0; i < c->nout; i++)
        rvt_out_blocks(c->outs[i], b, n, NULL);
    cli_file_outs_blocks(c->files, b, n);
    cli_decode_progress_insns(&c->pr, outs_insns(c) - before, b[n - 1].offset);
    return 0;
}

static int deliver(dec_ctx *c, const rvt_flow_event *ev)
{
    if (c->runs && ev->kind == RVT_EV_INSN)
        return on_run(c, ev);
    cli_decode_progress_event(&c->pr, ev);
    if (ev->kind == RVT_EV_INSN && c->smc) {
        const rvt_insn *i = rvt_image_insn(c->img, ev->pc);
        if (i && i->op == RVT_OP_FENCE_I && rvt_mem_patches_fence(c->smc)) {
            rvt_proto_decoder_flush(c->dec);
        }
    }
    if (ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_LOST)
        report(c, ev);
    if (ev->kind == RVT_EV_END && (ev->aux & RVT_END_INCOMPLETE)) {
        c->incomplete = true;
        cli_warn_incomplete(c->path, c->proto, ev->offset);
    }
    for (size_t i = 0; i < c->nout; i++) {
        int st = rvt_out_event(c->outs[i], ev);
        if (st)
            return st;
    }
    cli_file_outs_event(c->files, ev);
    return 0;
}

/* An encapsulated stream's packets' timestamps (2.1.1) come before the
 * events those packets produced (cli_container.c). */
static int on_event(void *ctx, const rvt_flow_event *ev)
{
    dec_ctx *c = ctx;
    rvt_flow_event t = { .kind = RVT_EV_TIME, .src = ev->src };
    int st = 0;
    while (!st && ev->offset != UINT64_MAX && cli_container_time(ev->offset, &t.aux, &t.offset))
        st = deliver(c, &t);
    return st ? st : deliver(c, ev);
}

/* ---- the decoder (the protocol registry's, proto.h) ---- */

/* E-Trace: after errors the decoder emits nothing until the next
 * synchronisation packet: say how much of the trace that cost. */
static void te_loss_summary(const char *in, const char *source, const rvt_proto_dec_stats *st)
{
    char e[32], n[32], k[32];
    cli_err("%s: %s%s decode error%s: %s instructions decoded; %s packet%s skipped from the "
            "errors to the next synchronisation packets: their instructions are lost "
            "(E-Trace packets carry no instruction count)",
            in, source, cli_thousands(st->errors, e, sizeof e), st->errors == 1 ? "" : "s",
            cli_thousands(st->instructions, k, sizeof k), cli_thousands(st->skipped, n, sizeof n),
            st->skipped == 1 ? "" : "s");
}

/* N-Trace: the decoder accepted I-CNTs wider than the configured counter
 * (8.4.4; the reference code never reports overflow): say so once. */
static void note_wide_icnt(const char *path, const rvt_proto_cfg *cfg, const rvt_proto_dec_stats *ds)
{
    char msg[256], bits[16] = "?";
    rvt_proto_cfg_get(cfg, "rvtIcntBits", bits, sizeof bits);
    snprintf(msg, sizeof msg,
             "I-CNT wider than rvtIcntBits=%s (8.4.4) in %llu message(s), the first here: "
             "accepted (the encoder did not report I-CNT overflow); --nt-opt icnt-bits=N "
             "states the width", bits, (unsigned long long)ds->wide_icnt);
    cli_diag((void *)path, RVT_DIAG_INFO, ds->wide_icnt_offset, msg);
}

/* N-Trace: after a loss the decoder restarts at the next sync; say once,
 * at the end, what that cost.  N-Trace counts half-words (8.4), so the
 * skipped messages' I-CNT bounds the lost instructions (1 or 2 half-words
 * each); the span where the error struck and HIST-only messages add an
 * unknown part. */
static void nt_loss_summary(const dec_ctx *c, const char *source, const rvt_proto_dec_stats *ds)
{
    char msg[384], hw[160] = "";
    uint64_t lost_hw = c->lost_hw - c->lost_hw_at;
    if (lost_hw)
        snprintf(hw, sizeof hw, " (the skipped messages' I-CNT alone covers %llu half-words: "
                 "%llu to %llu instructions)", (unsigned long long)lost_hw,
                 (unsigned long long)((lost_hw + 1) / 2), (unsigned long long)lost_hw);
    snprintf(msg, sizeof msg,
             "%s%llu instructions decoded; trace lost at %llu point(s), decoding resumed at the "
             "next sync each time; instructions lost: unknown%s", source,
             (unsigned long long)ds->instructions, (unsigned long long)(c->losses - c->losses_at), hw);
    cli_diag((void *)c->path, RVT_DIAG_WARN, UINT64_MAX, msg);
}

/* What the decoding cost and found, after it: the count, the I-CNT width
 * note, the loss summary, a --src that matched nothing. */
static int decode_summary(const dec_ctx *c, const rvt_proto_cfg *cfg, const rvt_proto_dec_stats *ds,
                          int src, bool count)
{
    long esrc = c->kind == KIND_TE ? src : -1;
    char source[32] = "";       /* which source of several the summaries are of */
    if (esrc >= 0 && cli_container_nsources() > 1)
        snprintf(source, sizeof source, "srcID %ld: ", esrc);
    if (count)
        printf("%s%llu instructions\n", source, (unsigned long long)ds->instructions);
    if (ds->wide_icnt)
        note_wide_icnt(c->path, cfg, ds);
    if (c->kind == KIND_TE && c->errors > c->errors_at)
        te_loss_summary(c->path, source, ds);
    if (c->kind == KIND_NT && c->losses > c->losses_at)
        nt_loss_summary(c, source, ds);
    if (c->kind == KIND_NT && src >= 0 && !ds->units) {
        cli_err("%s: no message from source %d", c->path, src);
        return CLI_FAIL;
    }
    return CLI_OK;
}

/* --src N: a source id, 0..4095 (N-Trace table 8: SRC is at most 12
 * bits), 0..65535 for E-Trace (Encapsulation 2.1.2: srcID up to 16). */
static bool parse_src(const char *v, uint64_t max, int *src)
{
    uint64_t n;
    if (v && (!cli_parse_u64(v, &n) || n > max)) {
        cli_err("decode: --src %s: want a source id 0..%llu", v, (unsigned long long)max);
        return false;
    }
    *src = v ? (int)n : -1;
    return true;
}

/* One decode path for every protocol: the registry's decoder, pushed the
 * whole stream, then ended. */
/* --jobs/--range (decode_jobs.c): the pieces' events through on_event in
 * order, their counters summed. */
static int run_pieces(dec_ctx *c, const rvt_proto_cfg *cfg, int src, bool count)
{
    jobs_result r;
    int rc = run_jobs(c, src, count, &r);
    cli_progress_done(&c->pr.p);
    if (rc != CLI_OK)
        return rc;
    rvt_proto_dec_stats ds = { .units = r.messages, .instructions = r.insns,
                               .errors = c->errors - c->errors_at,
                               .skipped = r.skipped, .wide_icnt = r.wide_icnt,
                               .wide_icnt_offset = r.wide_icnt_offset };
    return decode_summary(c, cfg, &ds, src, count);
}

/* Whether the outputs can take the decoder's blocks (the pull API, every
 * protocol: batches of blocks, faster than N-Trace's run events through
 * rvt_out_run, issue 18): not under --smc (each fence.i is looked at),
 * keyed images (the outputs' image lacks their code) or encapsulation
 * timestamps (one may fall between a block's instructions); else run
 * events where the protocol has them, or one event per instruction. */
static bool pull_blocks(const dec_ctx *c)
{
    return !c->smc && !c->keyed && !cli_container_timed();
}

/* The decoder pulled to the end, its blocks and events to the outputs
 * (on_block, on_event): the same output as the push decoder's one event
 * per instruction, a call per block (issue 18). */
static int pump(dec_ctx *c, rvt_proto_decoder *d, const uint8_t *buf, size_t len)
{
    int st = rvt_proto_decoder_set_input(d, buf, len);
    if (st < 0)
        return st;
    /* --write-thread where no output can refuse a block (batches): a
     * refusal found on the writer's thread would stop the decoder late */
    if (c->write_thread && c->batches)
        return decode_pipe_pump(d, on_event, on_blocks, c);
    return rvt_proto_decoder_pump_blocks(d, on_event, on_blocks, c);
}

static int run_decoder(dec_ctx *c, const rvt_proto_cfg *cfg, int src, const uint8_t *buf,
                       size_t len, bool count)
{
    c->errors_at = c->errors;
    c->losses_at = c->losses;
    c->lost_hw_at = c->lost_hw;
    if (c->jo.active)
        return run_pieces(c, cfg, src, count);
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(cfg, c->mem, on_event, c, &st);
    if (d)
        st = rvt_proto_decoder_set_source(d, src);
    if (st < 0) {
        cli_err("%s: %s", c->path, rvt_status_str(st));
        rvt_proto_decoder_free(d);
        return CLI_FAIL;
    }
    c->dec = d;
    bool counting = count && !c->nout && !c->smc && !c->files->n;
    bool pulled = !counting && pull_blocks(c);
    if (counting)
        rvt_proto_decoder_set_events(d, RVT_PROTO_EVENTS_COUNT);   /* --smc needs each fence.i */
    else if (!pulled && !c->smc && !c->keyed)       /* runs need img's lengths */
        c->runs = rvt_proto_decoder_set_events(d, RVT_PROTO_EVENTS_RUNS) == 0;
    if (pulled)
        st = pump(c, d, buf, len);
    else if ((st = rvt_proto_decoder_run(d, buf, len)) >= 0)
        st = rvt_proto_decoder_finish(d);
    cli_progress_done(&c->pr.p);
    rvt_proto_dec_stats ds;
    rvt_proto_decoder_stats(d, &ds);
    int rc = decode_summary(c, cfg, &ds, src, count);
    rvt_proto_decoder_free(d);
    c->dec = NULL;
    return st < 0 ? CLI_FAIL : rc;
}

/* E-Trace: several sources in one encapsulated stream, one decoder per
 * srcID (Encapsulation 2.1.2), one source after the other in the order
 * they first appear (cli_container.c); a plain stream is one source.
 * With --jobs each source's stream (unwrapped, in memory) is cut at its
 * own index points; --range numbers one stream's points, so it needs one
 * source. */
static int run_sources(dec_ctx *c, const rvt_proto_cfg *cfg, const uint8_t *buf, size_t len,
                       bool count)
{
    if (c->jo.range && cli_container_nsources() > 1) {
        cli_err("%s: --range: a stream of several sources numbers its index points per "
                "source (--src N picks one)", c->path);
        return CLI_USAGE;
    }
    int rc = run_decoder(c, cfg, (int)cli_container_src_at(0), buf, len, count);
    const trace_in *whole = c->in;
    uint8_t *next;
    while (rc == CLI_OK && (next = cli_container_next_source(&len))) {
        trace_in lane = { .buf = next, .len = len, .unwrapped = true };
        c->in = &lane;
        rc = run_decoder(c, cfg, (int)cli_container_src_at(0), next, len, count);
        free(next);
    }
    c->in = whole;
    return rc;
}

/* ---- the image ---- */

/* Spike's reset vector at 0x1000 (rvt_image_add_spike_reset_vector), where
 * every Spike trace starts: asked for (--spike-reset-vector, shadowing
 * whatever else is there), or, for E-Trace, added when nothing covers
 * 0x1000, so a stream taken on Spike decodes with the program's ELF alone. */
static int add_reset_vector(rvt_image *img, unsigned trace_xlen, bool asked)
{
    if (!asked && rvt_image_read(img, RVT_SPIKE_RESET_VECTOR, &(uint8_t){ 0 }, 1) == 1)
        return 0;
    unsigned xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : trace_xlen == 32 ? 32 : 64;
    return rvt_image_add_spike_reset_vector(img, xlen);
}

/* FILE.images (run's image map), every --elf FILE[@KEY] and --image
 * FILE@ADDR (cli_image.c) and the reset vector: img holds the unkeyed
 * ones (listings and symbols), *mem all of them by address space.  NULL
 * after printing why (*usage: a bad --elf key or --image address). */
static rvt_image *image_open(const cli_args *a, cli_kind k, const rvt_proto_cfg *cfg, int argc,
                             char **argv, cli_mem **mem, bool *usage)
{
    const char *elf = cli_args_value(a, O_ELF), *trace = a->files[0];
    rvt_image *img = rvt_image_new();
    if (!img)
        return NULL;
    rvt_image_set_diag(img, cli_diag, (void *)(elf ? elf : trace));
    bool ok = (*mem = cli_image_load(img, cli_args_has(a, O_NO_MAP) ? NULL : trace, argc, argv, usage));
    if (ok && (k == KIND_TE || cli_image_reset_vector(*mem))) {
        const rvt_te_attrs *ta = k == KIND_TE ? rvt_proto_cfg_native_const(cfg) : NULL;
        bool asked = cli_args_has(a, O_SPIKE_RV) || cli_image_reset_vector(*mem);
        rvt_image *view = cli_image_view(*mem, img);
        ok = add_reset_vector(img, ta ? ta->iaddress_width : 64, asked) >= 0 &&
             (view == img || add_reset_vector(view, ta ? ta->iaddress_width : 64, asked) >= 0);
    }
    if (!ok) {
        cli_image_free(*mem);
        *mem = NULL;
        rvt_image_free(img);
        return NULL;
    }
    return img;
}

/* E-Trace --data-out: the te_data accesses as text (data_text.c). */
static int data_out(const rvt_te_attrs *ta, const char *in, const char *out)
{
    trace_in t;
    if (!trace_in_open(&t, in, KIND_TE))
        return CLI_FAIL;
    if (cli_container_nsources() > 1)
        cli_err("%s: --data-out: srcID %ld only (--src N picks another)", in, cli_container_src_at(0));
    int rc = te_data_decode(ta, t.buf, t.len, in, out);
    trace_in_close(&t);
    return rc;
}

/* --smc FILE: "CONTENT ADDR SIZE WORD" lines (the corpus' *.smc.txt form);
 * content k is in force once the k-th fence.i retires (E-Trace 3.2.3 /
 * N-Trace 11.4), served through the rvt_mem read callback (mem.h). */
static int smc_open(dec_ctx *c, const char *path)
{
    if (!(c->smc = rvt_mem_patches_new()) || rvt_mem_patches_load(c->smc, path, cli_diag, (void *)path) < 0 ||
        rvt_mem_patches_attach(c->smc, c->mem) < 0)
        return CLI_FAIL;
    return CLI_OK;
}

static void open_out(dec_ctx *c, const rvt_out_writer *w, FILE *f)
{
    c->out_w[c->nout] = w;
    c->out_f[c->nout] = f;
    c->outs[c->nout++] = rvt_out_open(w, f, c->img);
}

static int decode_trace(cli_args *a, cli_kind k, rvt_proto_cfg *cfg, rvt_image *img, rvt_mem *mem, bool keyed)
{
    const char *in = a->files[0], *pcs = cli_args_value(a, O_PCS), *smc = cli_args_value(a, O_SMC);
    bool count = cli_args_has(a, O_COUNT);
    int src;
    if (!parse_src(cli_args_value(a, O_SRC), k == KIND_TE ? 0xFFFF : 4095, &src))
        return CLI_USAGE;
    if (k == KIND_TE && src >= 0)
        cli_container_select((unsigned)src);
    /* the program's class unless the settings state the width */
    rvt_proto_cfg_input_xlen(cfg, rvt_image_xlen(img));
    static dec_ctx c;
    c = (dec_ctx){ .kind = k, .path = in, .img = img, .mem = mem, .files = &a->fouts, .proto = rvt_proto_cfg_proto(cfg),
               .keyed = keyed, .cfg = cfg };
    if (jobs_opts_parse(a, &c.jo) != CLI_OK)
        return CLI_USAGE;
    trace_in t;     /* mapped; an encapsulated stream unwrapped (trace_in.c) */
    if (!trace_in_open(&t, in, k))
        return CLI_FAIL;
    c.in = &t;
    const uint8_t *buf = t.buf;
    size_t len = t.len;
    FILE *pf = NULL;
    int rc = CLI_FAIL;
    bool ran = false;          /* the decoder ran: what it wrote is kept */
    if ((smc && smc_open(&c, smc) != CLI_OK) || (pcs && !(pf = cli_out_fopen(pcs, "w"))))
        goto out;
    if (pf)
        open_out(&c, rvt_out_find("pcs"), pf);
    bool to_stdout = a->writers || (!count && !pcs && !a->fouts.n);   /* as asked, else the listing */
    if (to_stdout)
        open_out(&c, a->writer, stdout);
    c.batches = (!pf || rvt_out_find("pcs")->block) && (!to_stdout || a->writer->block) &&
                cli_file_outs_take_blocks(&a->fouts);
    c.write_thread = cli_args_has(a, O_WRITE_THREAD);
    if (cli_file_outs_open(&a->fouts, img) != CLI_OK) {
        cli_file_outs_close(&a->fouts);
        goto close;
    }
    cli_decode_progress_init(&c.pr, in, len, !to_stdout);
    rc = k == KIND_TE ? run_sources(&c, cfg, buf, len, count)
                      : run_decoder(&c, cfg, src, buf, len, count);
    ran = rc == CLI_OK;
    if (cli_file_outs_close(&a->fouts) != CLI_OK)
        rc = CLI_FAIL, ran = false;
    if (rc == CLI_OK && (c.errors || (cli_args_has(a, O_STRICT) && c.incomplete) || cli_container_damaged()))
        rc = CLI_FAIL;
close:
    for (size_t i = 0; i < c.nout; i++)
        rvt_out_free(c.outs[i]);
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    else if (ran && cli_out_commit() != CLI_OK)
        rc = CLI_FAIL;       /* decode errors are reported; the output is whole */
    pf = NULL;
out:
    if (pf)
        fclose(pf);
    rvt_mem_patches_free(c.smc);
    trace_in_close(&t);
    return rc;
}

int cmd_decode(int argc, char **argv)
{
    cli_args a;
    cli_kind k;
    int rc = cli_args_parse(&a, CMD_DECODE, "decode", argc, argv);
    if (rc == CLI_OK && a.nfiles && cli_perf_file(a.files[0]))
        return cli_perf_decode(&a, a.files[0]);   /* perf.data (cli_perf.c) */
    if (rc == CLI_OK && cli_args_has(&a, O_SYMFS)) {
        /* an option the input cannot honour is an error (issue 14 "The CLI") */
        cli_err("decode: option --symfs is for perf.data input; %s is not one",
                a.nfiles ? a.files[0] : "(no file)");
        return CLI_USAGE;
    }
    if (rc == CLI_OK)
        rc = cli_flow_kind(&a, &k);
    if (rc != CLI_OK)
        return rc;
    const char *data = cli_args_value(&a, O_DATA_OUT);
    /* images: --elf/--image, else FILE.images (a perf.data names its own)
     * unless only --data-out is asked for (te_data needs no program) */
    bool insn_out = !data || cli_args_value(&a, O_PCS) || a.writers || cli_args_has(&a, O_COUNT) ||
                    a.fouts.n;
    bool images = cli_args_value(&a, O_ELF) || cli_args_value(&a, O_RAW) ||
                  (insn_out && a.nfiles && !cli_args_has(&a, O_NO_MAP) && cli_image_map_exists(a.files[0]));
    if ((!images && !data) || !a.nfiles) {
        cli_err("decode: need --elf PROG.elf or --image FILE@ADDR, or FILE.images beside the trace "
                "(E-Trace: or --data-out OUT), and a trace file");
        return CLI_USAGE;
    }
    rvt_proto_cfg *cfg = rvt_proto_cfg_new(cli_kind_proto(k));
    if (!cfg)
        return CLI_FAIL;
    rc = cli_settings_load(&a, a.files[0], cfg);
    if (rc == CLI_OK && data)
        rc = data_out(rvt_proto_cfg_native(cfg), a.files[0], data);
    if (rc == CLI_OK && images) {
        cli_mem *mem = NULL;
        bool usage = false;
        rvt_image *img = image_open(&a, k, cfg, argc, argv, &mem, &usage);
        /* the outputs read every image, keyed ones too (cli_image_view) */
        rc = img ? decode_trace(&a, k, cfg, cli_image_view(mem, img), cli_image_mem(mem), cli_image_keyed(mem))
                 : usage ? CLI_USAGE : CLI_FAIL;
        cli_image_free(mem);
        rvt_image_free(img);
    }
    rvt_proto_cfg_free(cfg);
    return rc;
}
