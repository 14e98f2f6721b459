/* rvtrace benchmark harness (make bench): hart speed, bits per retired
 * instruction of every E-Trace and N-Trace mode on every workload, and
 * encoder/decoder throughput on the long workload.  Prints a table and
 * writes bench/RESULTS.md.  Rates use process CPU time, so a busy machine
 * slows them less than wall time would; both are reported for the hart. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "rvtrace/etrace.h"
#include "rvtrace/hart.h"
#include "rvtrace/ntrace.h"
#include "encap_cost.h"
#include "wrapped.h"
#include "rvtrace/out.h"
#include "rvtrace/proto.h"
#include "floors.h"
#include "sampling.h"
#include "interop.h"
#include "rvi_rows.h"

#define MAX_PROGS 64
#define MAX_PATH 512

/* ---- timing ---- */
typedef struct { double wall, cpu; } stamp;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static stamp now(void)
{
    stamp s = { clock_s(CLOCK_MONOTONIC), clock_s(CLOCK_PROCESS_CPUTIME_ID) };
    return s;
}

static stamp since(stamp a)
{
    stamp b = now();
    stamp d = { b.wall - a.wall, b.cpu - a.cpu };
    return d;
}

/* ---- byte sinks ---- */
typedef struct {
    uint8_t *buf;       /* NULL: count only */
    size_t len, cap;
    uint64_t bytes;
    bool keep;
} bytes_out;

static int bytes_put(void *ctx, const uint8_t *b, size_t n)
{
    bytes_out *o = ctx;
    o->bytes += n;
    if (!o->keep)
        return 0;
    if (o->len + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1 << 20;
        while (cap < o->len + n)
            cap *= 2;
        uint8_t *nb = realloc(o->buf, cap);
        if (!nb)
            return RVT_ERR_NOMEM;
        o->buf = nb;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, b, n);
    o->len += n;
    return 0;
}

/* ---- trace modes measured ---- */
typedef struct {
    const char *name;
    const char *opts;       /* E-Trace: --te-opt list; N-Trace: unused */
    int nt_mode;            /* 0 = E-Trace; else RVT_NT_MODE_* */
    unsigned nt_ir;         /* N-Trace implicit-return mode */
    bool nt_rpt;            /* N-Trace repeated history */
    bool nt_sj;             /* N-Trace sequential jumps (9.1) */
} mode;

static const mode modes[] = {
    { "te:delta", "", 0, 0, false, false },
    { "te:full-address", "full-address", 0, 0, false, false },
    { "te:implicit-except", "implicit-except", 0, 0, false, false },
    { "te:sijump", "sijump", 0, 0, false, false },
    { "te:implicit-return", "implicit-return", 0, 0, false, false },
    { "te:branch-prediction", "branch-prediction", 0, 0, false, false },
    { "te:jump-target-cache", "jump-target-cache", 0, 0, false, false },
    /* Every mode that compresses, as --te-opt all: full-address (3.2.2)
     * only widens the addresses (docs/etrace.md). */
    { "te:all", "all", 0, 0,
      false, false },
    /* N-Trace: each mode plain, and with every ch. 9 optimisation a user
     * wanting a small trace would enable (9.1 sequential jumps, 9.2
     * implicit return with the full-address stack, 9.3/7.11 repeats) --
     * the goals are measured on the latter. */
    { "nt:btm", NULL, RVT_NT_MODE_BTM, 0, false, false },
    { "nt:btm+sj+ir+rpt", NULL, RVT_NT_MODE_BTM, 3, true, true },
    { "nt:htm", NULL, RVT_NT_MODE_HTM, 0, false, false },
    { "nt:htm+ir+rpt", NULL, RVT_NT_MODE_HTM, 3, true, false },
    { "nt:htm+sj+ir+rpt", NULL, RVT_NT_MODE_HTM, 3, true, true },
};
#define NMODES (sizeof modes / sizeof modes[0])
#define NFLOORS 2u
#define NCOLS (NMODES + NFLOORS)
enum { MODE_TE_ALL = 7, MODE_NT_BEST = 12 };

static int te_attrs_for(const mode *m, unsigned xlen, rvt_te_attrs *a)
{
    rvt_te_attrs_default(a);
    a->iaddress_width = xlen;
    if (m->opts[0] && rvt_te_opts_parse(m->opts, &a->options) < 0)
        return RVT_ERR_INVAL;
    if (a->options & RVT_TE_OPT_SIJUMP)
        a->sijump = 1;
    if ((a->options & RVT_TE_OPT_IMPLICIT_RETURN) && !a->return_stack_size && !a->call_counter_size)
        a->return_stack_size = 5;   /* 32 entries */
    rvt_te_attrs_fill(a);
    return rvt_te_attrs_check(a);
}

static void nt_cfg_for(const mode *m, unsigned xlen, rvt_nt_cfg *c)
{
    rvt_nt_cfg_default(c);
    c->inst_mode = (unsigned)m->nt_mode;
    c->implicit_return = m->nt_ir;
    c->return_depth = m->nt_ir ? 32 : 0;
    c->repeat_history = m->nt_rpt;
    c->seq_jump = m->nt_sj;
    c->xlen = xlen;
    rvt_nt_cfg_check(c);
}

/* One encoder of either kind behind an rvt_irec_sink. */
typedef struct {
    rvt_te_encoder *te;
    rvt_nt_encoder *nt;
    bytes_out out;
} encoder;

static int encoder_open(encoder *e, const mode *m, unsigned xlen, bool keep, rvt_irec_sink *sink)
{
    int st = 0;
    memset(e, 0, sizeof *e);
    e->out.keep = keep;
    if (!m->nt_mode) {
        rvt_te_attrs a;
        if ((st = te_attrs_for(m, xlen, &a)) < 0)
            return st;
        if (!(e->te = rvt_te_encoder_new(&a, bytes_put, &e->out, &st)))
            return st ? st : RVT_ERR_NOMEM;
        *sink = rvt_te_encoder_sink(e->te);
    } else {
        rvt_nt_cfg c;
        nt_cfg_for(m, xlen, &c);
        if (!(e->nt = rvt_nt_encoder_new(&c, bytes_put, &e->out, &st)))
            return st ? st : RVT_ERR_NOMEM;
        *sink = rvt_nt_encoder_sink(e->nt);
    }
    return 0;
}

static void encoder_close(encoder *e)
{
    if (e->te)
        rvt_te_encoder_free(e->te);
    if (e->nt)
        rvt_nt_encoder_free(e->nt);
    free(e->out.buf);
}

/* ---- hart runs ---- */
static int null_put(void *ctx, const rvt_irec *r, size_t n)
{
    (void)r;
    *(uint64_t *)ctx += n;
    return 0;
}

typedef struct {
    uint64_t instret;
    stamp t;
    int exit_code;
} run_result;

static int run_hart(const char *elf, const rvt_irec_sink *sink, run_result *res)
{
    int st = 0;
    rvt_image *img = rvt_image_new();
    if (!img || rvt_image_load_elf(img, elf) < 0) {
        fprintf(stderr, "bench: %s: cannot load\n", elf);
        rvt_image_free(img);
        return -1;
    }
    rvt_hart_cfg cfg = { .sink = sink, .sbi_pmu = rvt_hart_wants_sbi(img) };
    rvt_hart *h = rvt_hart_new(&cfg, img, &st);
    if (!h) {
        fprintf(stderr, "bench: %s: %s\n", elf, rvt_status_str(st));
        rvt_image_free(img);
        return -1;
    }
    stamp t0 = now();
    int why = rvt_hart_run(h, 0);
    if (why > 0)
        st = rvt_hart_finish(h);
    res->t = since(t0);
    rvt_hart_stats s;
    rvt_hart_get_stats(h, &s);
    res->instret = s.instret;
    res->exit_code = why == RVT_HART_EXITED ? rvt_hart_exit_code(h) : -1;
    rvt_hart_free(h);
    rvt_image_free(img);
    if (why < 0 || st < 0 || res->exit_code != 0) {
        fprintf(stderr, "bench: %s: run failed (%d, %s, exit %d)\n", elf, why,
                rvt_status_str(why < 0 ? why : st), res->exit_code);
        return -1;
    }
    return 0;
}

static unsigned elf_xlen(const char *elf)
{
    rvt_image *img = rvt_image_new();
    unsigned x = img && rvt_image_load_elf(img, elf) >= 0 ? rvt_image_xlen(img) : 64;
    rvt_image_free(img);
    return x ? x : 64;
}

/* ---- hooks for the .rvi rows (rvi_rows.h) ---- */
static int hook_run(const char *elf, const rvt_irec_sink *s, uint64_t *instret, double *cpu)
{
    run_result r;
    int rc = run_hart(elf, s, &r);
    *instret = r.instret;
    *cpu = r.t.cpu;
    return rc;
}

static int hook_enc_open(int k, unsigned xlen, void **enc, rvt_irec_sink *s, rvt_irec_steps *steps)
{
    encoder *e = malloc(sizeof *e);
    int rc = e ? encoder_open(e, &modes[k ? MODE_NT_BEST : MODE_TE_ALL], xlen, false, s) : -1;
    *steps = rc < 0 ? (rvt_irec_steps){ NULL, NULL }
             : e->te ? rvt_te_encoder_steps(e->te) : rvt_nt_encoder_steps(e->nt);
    if (rc < 0 && e) {
        encoder_close(e);
        free(e);
        e = NULL;
    }
    *enc = e;
    return rc;
}

static void hook_enc_close(void *enc)
{
    encoder_close(enc);
    free(enc);
}

static const bench_rvi_hooks rvi_hooks = { hook_run, hook_enc_open, hook_enc_close };

/* ---- per-workload bits/instruction ---- */
typedef struct {
    char name[64];
    char path[MAX_PATH];
    uint64_t instret;
    uint64_t bytes[NMODES];
    /* [0] te_floor.h: no E-Trace of the run is smaller;
     * [1] nt_floor.h: no N-Trace HTM of the run is smaller */
    uint64_t floor_bits[NFLOORS];
} workload;

static int measure_workload(workload *w)
{
    unsigned xlen = elf_xlen(w->path);
    encoder enc[NMODES];
    rvt_irec_tee tee;
    rvt_irec_tee_init(&tee);
    int rc = 0;
    size_t opened = 0;
    for (; opened < NMODES; opened++) {
        rvt_irec_sink s;
        if ((rc = encoder_open(&enc[opened], &modes[opened], xlen, false, &s)) < 0) {
            fprintf(stderr, "bench: %s: %s: %s\n", w->name, modes[opened].name, rvt_status_str(rc));
            break;
        }
        rvt_irec_tee_add(&tee, &s);
    }
    floors *fl = floors_new();
    if (!fl && rc == 0)
        rc = RVT_ERR_NOMEM;
    rvt_irec_sink fs;
    if (rc == 0) {
        fs = floors_sink(fl);
        rc = rvt_irec_tee_add(&tee, &fs);
    }
    run_result r;
    if (rc == 0) {
        rvt_irec_sink all = rvt_irec_tee_sink(&tee);
        rc = run_hart(w->path, &all, &r);
    }
    for (size_t i = 0; i < opened; i++) {
        w->bytes[i] = enc[i].out.bytes;
        encoder_close(&enc[i]);
    }
    w->instret = rc == 0 ? r.instret : 0;
    w->floor_bits[0] = fl ? te_floor_bits(&fl->te) : 0;
    w->floor_bits[1] = fl ? nt_floor_bits(&fl->nt) : 0;
    floors_free(fl);
    return rc;
}

/* ---- the long workload: throughput ---- */

/* Output paths (issues #17 "Speed", #18 "Output at the decoder's speed"):
 * the decoder feeding each writer (to /dev/null, what it holds back
 * written at the end) as `rvtrace decode` does -- through its pull API
 * (rvt_proto_decoder_pump_blocks: batches of blocks to rvt_out_blocks),
 * both protocols -- beside the plain decoder (events off), which the goals
 * are judged against, the block decoder (next_blocks, no output: what a
 * writer fed blocks cannot go past) and the decoder feeding a counter one
 * event per instruction. */
static const char *const pass_names[] = { NULL /* the counter */, "pcs", "pcs-bin", "listing", "json",
                                          "folded", "report", "timeline", "lcov", "coverage-listing",
                                          "lbr" };
#define NPASSES (sizeof pass_names / sizeof pass_names[0])
#define PASS_COUNT 0

typedef struct pass_ctx {
    uint64_t n;
    rvt_out *out;
    FILE *null;
} pass_ctx;

static int pass_event(void *ctx, const rvt_flow_event *ev)
{
    pass_ctx *c = ctx;
    if (!c->out)
        c->n += ev->kind == RVT_EV_INSN;
    else
        rvt_out_event(c->out, ev);
    return 0;
}

static bool pass_open(pass_ctx *c, size_t which, rvt_image *img)
{
    *c = (pass_ctx){ 0 };
    if (which == PASS_COUNT)
        return true;
    if (!(c->null = fopen("/dev/null", "w")))
        return false;
    return (c->out = rvt_out_open(rvt_out_find(pass_names[which]), c->null, img)) != NULL;
}

/* Ends the pass (writes what it holds back: part of its cost). */
static void pass_close(pass_ctx *c)
{
    if (c->out)
        rvt_out_free(c->out);
    if (c->null)
        fclose(c->null);
}

typedef struct {
    uint64_t instret;
    double hart_none_mips, hart_none_wall_mips;
    double hart_null_mips, hart_null_wall_mips;
    double hart_rvi_mips;
    uint64_t vm_instret;                /* programs/bench/vmheavy.elf */
    double hart_vm_mips, hart_vm_wall_mips;
    double enc_mips[2], dec_mips[2];    /* [0] te:all, [1] nt best */
    double blk_mips[2];                 /* the same decoders pulling blocks */
    double bits[2];
    double enc_cpu, dec_cpu;            /* te:all encoder and decoder CPU seconds */
    encap_cost encap;                   /* te:all stream re-framed (encap_cost.h) */
    wrapped_result wrapped;             /* a wrapped sink buffer of it (wrapped.h) */
    double pass_mips[2][NPASSES];       /* decoder feeding each pass (passes[]) */
    bench_sampling smp;         /* issue 17 rows (sampling.c) */
    bench_rvi rvi;              /* issue 18 .rvi rows (rvi_rows.c) */
} long_result;

static double mips(uint64_t n, double s) { return s > 0 ? (double)n / s / 1e6 : 0; }

static int count_ev(void *ctx, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        ++*(uint64_t *)ctx;
    return 0;
}

/* decode_mips without a pass: the decoder with events off, or pulling
 * blocks (rvtrace/flow.h, issue #18: the batch call next_blocks). */
enum { DECODE_EVENTS_OFF = -1, DECODE_BLOCKS = -2 };

/* Blocks the last pull_blocks got (the mean block length goes to stderr:
 * what the block rate depends on). */
static uint64_t blocks_pulled;

/* Instructions of the blocks a pulling decoder hands out, 256 a call. */
static uint64_t pull_blocks(void *d, int (*next)(void *, rvt_block *, size_t))
{
    uint64_t n = 0;
    rvt_block blk[256];
    int got;
    blocks_pulled = 0;
    while ((got = next(d, blk, 256)) > 0) {
        blocks_pulled += (uint64_t)got;
        for (int i = 0; i < got; i++)
            n += blk[i].ninsn;
    }
    return n;
}

static int te_next_blocks(void *d, rvt_block *b, size_t max) { return rvt_te_decoder_next_blocks(d, b, max); }
static int nt_next_blocks(void *d, rvt_block *b, size_t max) { return rvt_nt_decoder_next_blocks(d, b, max); }

static int pass_blocks(void *ctx, const rvt_block *b, size_t n)
{
    return rvt_out_blocks(((pass_ctx *)ctx)->out, b, n, NULL) < 0;
}

/* A pass fed as `rvtrace decode` feeds its outputs: the protocol's
 * decoder (settings: its native configuration, size bytes) pulled to the
 * end (rvt_proto_decoder_pump_blocks), its batches of blocks to
 * rvt_out_blocks, its events to rvt_out_event; the pass closed (what it
 * holds back written) inside the time *t.  The instructions decoded (0:
 * the decoder could not be made). */
static uint64_t pump_pass(const char *proto, const void *native, size_t size, rvt_image *img, const bytes_out *b,
                          pass_ctx *pc, stamp *t)
{
    rvt_proto_cfg *cfg = rvt_proto_cfg_new(rvt_proto_find(proto));
    rvt_mem *mem = rvt_mem_new();
    rvt_proto_decoder *d = NULL;
    if (cfg && mem && rvt_mem_add_image(mem, NULL, img) == 0) {
        memcpy(rvt_proto_cfg_native(cfg), native, size);
        d = rvt_proto_decoder_new(cfg, mem, NULL, NULL, NULL);
    }
    stamp t0 = now();
    if (d && rvt_proto_decoder_set_input(d, b->buf, b->len) == 0)
        rvt_proto_decoder_pump_blocks(d, pass_event, pass_blocks, pc);
    pass_close(pc);
    *t = since(t0);
    rvt_proto_dec_stats ds = { 0 };
    if (d)
        rvt_proto_decoder_stats(d, &ds);
    rvt_proto_decoder_free(d);
    rvt_mem_free(mem);
    rvt_proto_cfg_free(cfg);
    return ds.instructions;
}

/* The decoder's speed: events off, blocks pulled, or delivered to a pass. */
static double decode_mips(const mode *m, unsigned xlen, const char *elf, const bytes_out *b, uint64_t *insns,
                          int pass)    /* pass_names[] index */
{
    rvt_image *img = rvt_image_new();
    if (!img || rvt_image_load_elf(img, elf) < 0)
        return 0;
    int st = 0;
    uint64_t n = 0;
    stamp t0;
    stamp t;
    pass_ctx pc;
    if (pass >= 0 && !pass_open(&pc, pass, img))
        goto fail;
    rvt_flow_fn fn = pass >= 0 ? pass_event : count_ev;
    void *ctx = pass >= 0 ? (void *)&pc : (void *)&n;
    if (!m->nt_mode && pass > PASS_COUNT) {
        rvt_te_attrs a;
        te_attrs_for(m, xlen, &a);
        n = pump_pass("etrace", &a, sizeof a, img, b, &pc, &t);
    } else if (pass > PASS_COUNT) {
        rvt_nt_cfg c;
        nt_cfg_for(m, xlen, &c);
        n = pump_pass("ntrace", &c, sizeof c, img, b, &pc, &t);
    } else if (!m->nt_mode) {
        rvt_te_attrs a;
        te_attrs_for(m, xlen, &a);
        rvt_te_decoder *d = rvt_te_decoder_new(&a, img, fn, ctx, &st);
        if (!d)
            goto fail_pass;
        rvt_te_decoder_set_events(d, pass >= 0);
        t0 = now();
        if (pass == DECODE_BLOCKS && rvt_te_decoder_set_input(d, b->buf, b->len) == 0)
            pull_blocks(d, te_next_blocks);
        else
            rvt_te_decoder_run(d, b->buf, b->len);      /* ends the trace too */
        if (pass >= 0)
            pass_close(&pc);
        t = since(t0);
        rvt_te_dec_stats ds;
        rvt_te_decoder_stats(d, &ds);
        n = ds.instructions;
        rvt_te_decoder_free(d);
    } else {
        rvt_nt_cfg c;
        nt_cfg_for(m, xlen, &c);
        rvt_nt_decoder *d = rvt_nt_decoder_new(&c, rvt_image_insn_cb, img, -1, fn, ctx, &st);
        if (!d)
            goto fail_pass;
        t0 = now();
        if (pass == DECODE_BLOCKS && rvt_nt_decoder_set_input(d, b->buf, b->len) == 0) {
            pull_blocks(d, nt_next_blocks);
        } else {
            rvt_nt_decode(d, b->buf, b->len);
            rvt_nt_decode_end(d);
        }
        if (pass >= 0)
            pass_close(&pc);
        t = since(t0);
        rvt_nt_dec_stats s;
        rvt_nt_decoder_stats(d, &s);
        n = s.insns;
        rvt_nt_decoder_free(d);
    }
    rvt_image_free(img);
    *insns = n;
    return mips(n, t.cpu);
fail_pass:
    if (pass >= 0)
        pass_close(&pc);
fail:
    rvt_image_free(img);
    return 0;
}

/* The hart with Sv39 on (issue 15: >= 60 MIPS), no records. */
static void measure_paging(const char *elf, long_result *L)
{
    run_result r;
    if (access(elf, R_OK) != 0 || run_hart(elf, NULL, &r) < 0)
        return;
    L->vm_instret = r.instret;
    L->hart_vm_mips = mips(r.instret, r.t.cpu);
    L->hart_vm_wall_mips = mips(r.instret, r.t.wall);
}

static uint64_t wrapped_bytes = 1ull << 30;   /* --wrapped-mib */

/* The wrapped-buffer row alone (--wrapped-only): the te:all stream of elf,
 * then wrapped_measure. */
static int measure_wrapped(const char *elf, long_result *L)
{
    unsigned xlen = elf_xlen(elf);
    const mode *m = &modes[MODE_TE_ALL];
    encoder e;
    rvt_irec_sink s;
    run_result r = { 0 };
    rvt_te_attrs a;
    int st = -1;
    if (encoder_open(&e, m, xlen, true, &s) == 0 && run_hart(elf, &s, &r) == 0 &&
        te_attrs_for(m, xlen, &a) == 0)
        st = wrapped_measure(elf, &a, e.out.buf, e.out.len, wrapped_bytes, &L->wrapped);
    L->instret = r.instret;
    encoder_close(&e);
    return st;
}

static void report_wrapped(FILE *f, const wrapped_result *w)
{
    double mips_w = w->cpu > 0 ? (double)w->insns / w->cpu / 1e6 : 0;
    double mips_p = w->plain_cpu > 0 ? (double)w->plain_insns / w->plain_cpu / 1e6 : 0;
    fprintf(f, "Wrapped sink buffer (bench/wrapped.c): %" PRIu64 " MiB of the all-modes stream in "
               "encapsulation, starting one byte into a packet; %" PRIu64 " bytes skipped to the first "
               "sync point, %" PRIu64 " instructions decoded (%" PRIu64 " errors) at %.0f M instr/s "
               "(CPU), %.0f %% of the plain decoder's %.0f (goal >= 90 %%); RSS %ld KiB at the start, "
               "peak %ld KiB%s (getrusage).\n\n",
            w->buffer_bytes >> 20, w->skipped, w->insns, w->errors, mips_w,
            mips_p > 0 ? 100 * mips_w / mips_p : 0, mips_p, w->rss_start_kib, w->rss_peak_kib,
            w->rss_peak_reset ? "" : " (the process's peak so far: clear_refs failed)");
}

/* The instruction-level decoder (events off) and the block decoder on one
 * stream: the decoder rows of the long workload.  Returns the instructions
 * decoded. */
static uint64_t measure_decoders(const mode *m, unsigned xlen, const char *elf, const bytes_out *b,
                                 long_result *L, int k)
{
    uint64_t n = 0, bn = 0;
    L->dec_mips[k] = decode_mips(m, xlen, elf, b, &n, DECODE_EVENTS_OFF);
    L->blk_mips[k] = decode_mips(m, xlen, elf, b, &bn, DECODE_BLOCKS);
    if (bn != n)
        fprintf(stderr, "bench: %s blocks hold %" PRIu64 " of %" PRIu64 " instructions\n",
                m->name, bn, n);
    fprintf(stderr, "bench: %s: %" PRIu64 " blocks, %.2f instructions per block\n", m->name,
            blocks_pulled, blocks_pulled ? (double)bn / (double)blocks_pulled : 0);
    return n;
}

/* --decoders-only: encode the long workload in both modes and measure the
 * decoder rows alone (each decoder `repeat` times, the best run kept:
 * the machine is shared). */
static int measure_decoders_only(const char *elf, long_result *L, int repeat)
{
    unsigned xlen = elf_xlen(elf);
    const int which[2] = { MODE_TE_ALL, MODE_NT_BEST };
    for (int k = 0; k < 2; k++) {
        encoder e;
        rvt_irec_sink s;
        run_result r;
        if (encoder_open(&e, &modes[which[k]], xlen, true, &s) < 0 || run_hart(elf, &s, &r) < 0) {
            encoder_close(&e);
            return -1;
        }
        L->instret = r.instret;
        long_result best = { 0 };
        for (int i = 0; i < repeat; i++) {
            measure_decoders(&modes[which[k]], xlen, elf, &e.out, L, k);
            best.dec_mips[k] = L->dec_mips[k] > best.dec_mips[k] ? L->dec_mips[k] : best.dec_mips[k];
            best.blk_mips[k] = L->blk_mips[k] > best.blk_mips[k] ? L->blk_mips[k] : best.blk_mips[k];
        }
        L->dec_mips[k] = best.dec_mips[k];
        L->blk_mips[k] = best.blk_mips[k];
        encoder_close(&e);
    }
    return 0;
}

/* --pass NAME: the one output path --passes-only measures (a row filter
 * for comparing builds; the results file is then left alone), or NULL. */
static const char *only_pass;

static bool pass_wanted(size_t p)
{
    const char *name = pass_names[p] ? pass_names[p] : "counter";
    return !only_pass || !strcmp(only_pass, name);
}

/* Each output path over the stream b of mode m. */
static void measure_passes(const mode *m, unsigned xlen, const char *elf, const bytes_out *b,
                           double mips_out[NPASSES])
{
    for (size_t p = 0; p < NPASSES; p++) {
        uint64_t pn = 0;
        if (!pass_wanted(p))
            continue;
        fprintf(stderr, "bench: %s -> %s\n", m->name, pass_names[p] ? pass_names[p] : "counter");
        mips_out[p] = decode_mips(m, xlen, elf, b, &pn, (int)p);
    }
}

/* The output-paths table alone (--passes-only): the two streams, the
 * plain decoders, the passes. */
static int measure_outputs(const char *elf, long_result *L)
{
    unsigned xlen = elf_xlen(elf);
    const int which[2] = { MODE_TE_ALL, MODE_NT_BEST };
    for (int k = 0; k < 2; k++) {
        const mode *m = &modes[which[k]];
        encoder e;
        rvt_irec_sink s;
        run_result r;
        if (encoder_open(&e, m, xlen, true, &s) < 0 || run_hart(elf, &s, &r) < 0) {
            encoder_close(&e);
            return -1;
        }
        uint64_t n = 0;
        L->instret = r.instret;
        L->dec_mips[k] = decode_mips(m, xlen, elf, &e.out, &n, DECODE_EVENTS_OFF);
        L->blk_mips[k] = decode_mips(m, xlen, elf, &e.out, &n, DECODE_BLOCKS);
        measure_passes(m, xlen, elf, &e.out, L->pass_mips[k]);
        encoder_close(&e);
    }
    return 0;
}

/* The hart feeding the encoder of mode m (its stream in e, to close):
 * the encoder's CPU seconds are (hart + encoder) - hart alone with
 * records on (null_cpu). */
static int measure_encoder(const mode *m, unsigned xlen, const char *elf, double null_cpu, encoder *e,
                           run_result *r, double *enc_cpu)
{
    rvt_irec_sink s;
    if (encoder_open(e, m, xlen, true, &s) < 0 || run_hart(elf, &s, r) < 0) {
        encoder_close(e);
        return -1;
    }
    *enc_cpu = r->t.cpu - null_cpu;
    return 0;
}

/* --encoders-only: the two encoder rows, each the best of `repeat`
 * interleaved pairs (hart to a null sink, hart to the encoder): the
 * machine is shared. */
static int measure_encoders_only(const char *elf, long_result *L, int repeat)
{
    unsigned xlen = elf_xlen(elf);
    const int which[2] = { MODE_TE_ALL, MODE_NT_BEST };
    for (int i = 0; i < repeat; i++) {
        for (int k = 0; k < 2; k++) {
            uint64_t count = 0;
            rvt_irec_sink null = { &count, null_put, NULL, NULL };
            run_result r;
            encoder e;
            double enc_cpu;
            if (run_hart(elf, &null, &r) < 0)
                return -1;
            if (measure_encoder(&modes[which[k]], xlen, elf, r.t.cpu, &e, &r, &enc_cpu) < 0)
                return -1;
            encoder_close(&e);
            double v = enc_cpu > 0 ? mips(r.instret, enc_cpu) : 0;
            L->instret = r.instret;
            L->enc_mips[k] = v > L->enc_mips[k] ? v : L->enc_mips[k];
        }
    }
    return 0;
}

static int measure_long(const char *elf, long_result *L)
{
    unsigned xlen = elf_xlen(elf);
    run_result r;
    if (run_hart(elf, NULL, &r) < 0)
        return -1;
    L->instret = r.instret;
    L->hart_none_mips = mips(r.instret, r.t.cpu);
    L->hart_none_wall_mips = mips(r.instret, r.t.wall);

    uint64_t count = 0;
    rvt_irec_sink null = { &count, null_put, NULL, NULL };
    if (run_hart(elf, &null, &r) < 0)
        return -1;
    L->hart_null_mips = mips(r.instret, r.t.cpu);
    L->hart_null_wall_mips = mips(r.instret, r.t.wall);
    double null_cpu = r.t.cpu;

    char rvi[] = "/tmp/rvtrace-bench-XXXXXX";
    int fd = mkstemp(rvi);
    if (fd >= 0) {
        fclose(fdopen(fd, "w"));
        int st = 0;
        rvt_rvi_writer *w = rvt_rvi_writer_open(rvi, xlen, &st);
        if (w) {
            rvt_irec_sink s = rvt_rvi_writer_sink(w);
            stamp t0 = now();
            if (run_hart(elf, &s, &r) == 0) {
                rvt_rvi_writer_close(w);
                L->hart_rvi_mips = mips(r.instret, since(t0).cpu);
            } else {
                rvt_rvi_writer_close(w);
            }
        }
        remove(rvi);
    }

    bench_rvi_measure(elf, xlen, &rvi_hooks, 1, &L->rvi);

    const int which[2] = { MODE_TE_ALL, MODE_NT_BEST };
    for (int k = 0; k < 2; k++) {
        const mode *m = &modes[which[k]];
        encoder e;
        double enc_cpu;
        if (measure_encoder(m, xlen, elf, null_cpu, &e, &r, &enc_cpu) < 0)
            continue;
        L->enc_mips[k] = enc_cpu > 0 ? mips(r.instret, enc_cpu) : 0;
        L->bits[k] = r.instret ? (double)e.out.bytes * 8 / (double)r.instret : 0;
        uint64_t n = measure_decoders(m, xlen, elf, &e.out, L, k);
        if (k == 0) {
            L->enc_cpu = enc_cpu;
            L->dec_cpu = L->dec_mips[0] > 0 ? (double)n / (L->dec_mips[0] * 1e6) : 0;
            encap_cost_measure(e.out.buf, e.out.len, &L->encap);
            rvt_te_attrs wa;
            if (te_attrs_for(m, xlen, &wa) == 0)
                wrapped_measure(elf, &wa, e.out.buf, e.out.len, wrapped_bytes, &L->wrapped);
        }
        measure_passes(m, xlen, elf, &e.out, L->pass_mips[k]);
        if (which[k] == MODE_TE_ALL)
            bench_sampling_measure(elf, e.out.len, &L->smp);
        if (n != r.instret)
            fprintf(stderr, "bench: %s decoded %" PRIu64 " of %" PRIu64 " instructions\n",
                    m->name, n, r.instret);
        encoder_close(&e);
    }
    return 0;
}

/* ---- report ---- */
static int cmp_workload(const void *a, const void *b)
{
    return strcmp(((const workload *)a)->name, ((const workload *)b)->name);
}

static size_t find_programs(const char *dir, const char *long_name, workload *w, size_t max)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 5 || len >= sizeof w->name || strcmp(e->d_name + len - 4, ".elf"))
            continue;
        if (!strcmp(e->d_name, long_name))
            continue;
        /* trigger*.elf switch their own trace off through the hart's
         * trigger unit (docs/hart.md): their bits per instruction would
         * count untraced instructions and skew the mean */
        if (!strncmp(e->d_name, "trigger", 7))
            continue;
        memset(&w[n], 0, sizeof w[n]);
        snprintf(w[n].name, sizeof w[n].name, "%.*s", (int)(len - 4), e->d_name);
        snprintf(w[n].path, sizeof w[n].path, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    qsort(w, n, sizeof *w, cmp_workload);
    return n;
}

static void machine_info(FILE *f)
{
    char model[256] = "unknown";
    FILE *c = fopen("/proc/cpuinfo", "r");
    if (c) {
        char line[512];
        while (fgets(line, sizeof line, c)) {
            char *p = strstr(line, "model name");
            if (p && (p = strchr(p, ':'))) {
                snprintf(model, sizeof model, "%s", p + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        }
        fclose(c);
    }
    struct utsname u;
    uname(&u);
    time_t t = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&t));
    fprintf(f, "Measured %s on %s (%ld online CPUs), %s %s, compiler %s.\n"
               "Rates are per second of process CPU time (single-threaded);\n"
               "the machine is shared, so wall-clock rates are lower and noisier.\n\n",
            date, model, sysconf(_SC_NPROCESSORS_ONLN), u.sysname, u.release, __VERSION__);
}

static const char *const floor_names[NFLOORS] = { "te:floor", "nt:floor" };

/* Bits of column c: the encoded modes, then the floors. */
static uint64_t column_bits(const workload *w, size_t c)
{
    return c < NMODES ? w->bytes[c] * 8 : w->floor_bits[c - NMODES];
}

/* The decoder rows of the long workload's table, by protocol (k: 0
 * E-Trace, 1 N-Trace) and level; --decoders-only rewrites these rows of
 * RESULTS.md in place, found by their name (the text up to the figure). */
enum { DEC_ROW_INSN, DEC_ROW_BLOCK, NDEC_ROWS };
static const char *const dec_row_names[2][NDEC_ROWS] = {
    { "| E-Trace decoder (all modes) |", "| E-Trace block decoder (same, next_blocks) |" },
    { "| N-Trace decoder (same) |", "| N-Trace block decoder (same, next_blocks) |" },
};

static const char *const enc_row_names[2] = {
    "| E-Trace encoder (all modes) |",
    "| N-Trace encoder (HTM, sequential jumps, implicit return, repeated history) |",
};

static void encoder_row(FILE *f, const long_result *L, int k)
{
    fprintf(f, "%s %.0f | | >= 100 |\n", enc_row_names[k], L->enc_mips[k]);
}

static void decoder_row(FILE *f, const long_result *L, int k, int level)
{
    fprintf(f, "%s %.0f | | %s |\n", dec_row_names[k][level],
            level == DEC_ROW_INSN ? L->dec_mips[k] : L->blk_mips[k],
            level == DEC_ROW_INSN ? ">= 200" : ">= 1000");
}

/* The results file `path` rewritten line by line: each(ctx, line, out)
 * writes what stands for a line it takes (true), else the line stays;
 * the new file replaces the old unless done(ctx) (may be NULL) says the
 * rewrite did not find what it looked for.  0, or -1. */
typedef bool (*line_fn)(void *ctx, const char *line, FILE *out);
static int rewrite_results(const char *path, line_fn each, void *ctx, bool (*done)(void *ctx))
{
    FILE *in = fopen(path, "r");
    if (!in)
        return -1;
    char tmp[MAX_PATH + 8];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        fclose(in);
        return -1;
    }
    char line[4096];
    while (fgets(line, sizeof line, in))
        if (!each(ctx, line, out))
            fputs(line, out);
    fclose(in);
    if (fclose(out) == 0 && (!done || done(ctx)))
        return rename(tmp, path);
    remove(tmp);
    return -1;
}

/* A decoder row replaced by its new measurement. */
static bool decoder_line(void *ctx, const char *line, FILE *out)
{
    for (int k = 0; k < 2; k++)
        for (int level = 0; level < NDEC_ROWS; level++)
            if (!strncmp(line, dec_row_names[k][level], strlen(dec_row_names[k][level]))) {
                decoder_row(out, ctx, k, level);
                return true;
            }
    return false;
}

static bool encoder_line(void *ctx, const char *line, FILE *out)
{
    for (int k = 0; k < 2; k++)
        if (!strncmp(line, enc_row_names[k], strlen(enc_row_names[k]))) {
            encoder_row(out, ctx, k);
            return true;
        }
    return false;
}

static void print_decoder_rows(FILE *f, const long_result *L)
{
    for (int k = 0; k < 2; k++)
        for (int level = 0; level < NDEC_ROWS; level++)
            decoder_row(f, L, k, level);
}

static void print_encoder_rows(FILE *f, const long_result *L)
{
    for (int k = 0; k < 2; k++)
        encoder_row(f, L, k);
}

/* --decoders-only, --encoders-only: the long workload's `what` rows,
 * measured (best of 3 runs each), printed, and replaced by their names in
 * the results file `out` (rows not there are left out: run the full
 * bench once).  The exit status. */
/* A results file that is not there yet gets the rows as printed (the
 * row filters otherwise replace their lines in an existing one): NULL when
 * path exists, else path opened for writing (errno set when it cannot be:
 * the caller tells them apart by *fresh). */
static FILE *new_results(const char *path, bool *fresh)
{
    *fresh = access(path, F_OK) != 0 && errno == ENOENT;
    return *fresh ? fopen(path, "w") : NULL;
}

static int rows_alone(const char *dir, const char *long_name, const char *out, const char *what,
                      int (*measure)(const char *elf, long_result *L, int repeat),
                      void (*print)(FILE *f, const long_result *L), line_fn line)
{
    char path[MAX_PATH];
    static long_result L;
    snprintf(path, sizeof path, "%s/%s", dir, long_name);
    fprintf(stderr, "bench: %s %s rows (best of 3 runs each)\n", long_name, what);
    if (measure(path, &L, 3) < 0)
        return 1;
    print(stdout, &L);
    bool fresh;
    FILE *f = new_results(out, &fresh);
    if (f)
        print(f, &L);
    if (fresh ? !f || fclose(f) != 0 : rewrite_results(out, line, &L, NULL) < 0) {
        perror(out);
        return 1;
    }
    return 0;
}

/* The .rvi paragraph (its first line to the blank line after its table)
 * by a new measurement; without one, it goes before the output paths. */
typedef struct {
    const bench_rvi *R;
    const char *long_name;
    bool done, skipping, in_table;
} rvi_edit;

static bool rvi_line(void *ctx, const char *line, FILE *out)
{
    static const char first[] = ".rvi ingress files", before[] = "Output paths";
    rvi_edit *e = ctx;
    if (e->skipping) {      /* the old paragraph: its text, a blank, the table, a blank */
        e->in_table |= line[0] == '|';
        e->skipping = !(e->in_table && line[0] == '\n');
        return true;
    }
    bool old = !strncmp(line, first, strlen(first));
    if (!e->done && (old || !strncmp(line, before, strlen(before)))) {
        bench_rvi_report(out, e->R, e->long_name);
        e->done = true;
        e->skipping = old;
        return old;         /* the new paragraph stands for the old one */
    }
    return false;
}

/* What each output path's goal is judged by (issues #17 "Speed", #18
 * "Output at the decoder's speed"). */
#define OUTPUTS_HEAD "Output paths (issues #17, #18"

static const char *const pass_goals[NPASSES] = {
    "", ">= 100 M lines/s", "the plain decoder's speed", ">= 20 M instr/s", ">= 10 M instr/s", "",
    ">= 50 % of the plain decoder", ">= 50 % of the plain decoder", ">= 50 % of the plain decoder",
    ">= 50 % of the plain decoder", "",
};

/* The output-paths table; measured: when (--passes-only), or NULL (with
 * the rest of the file). */
static void report_outputs(FILE *f, const long_result *L, const char *measured)
{
    fprintf(f, "%s%s%s%s", OUTPUTS_HEAD, measured ? "; measured " : "", measured ? measured : "",
            measured ? " with `rvtrace_bench --passes-only`" : "");
    fprintf(f, "):\nthe decoder feeding each writer batches of blocks as `rvtrace decode` does, its\n"
               "output to /dev/null (both protocols: the pull API driven by\n"
               "rvt_proto_decoder_pump_blocks, each batch to rvt_out_blocks).\n"
               "\"of plain\": of the plain decoder (events off), what the goals are judged by; \"of\n"
               "blocks\": of the block decoder alone (next_blocks, no output), the most a writer fed\n"
               "blocks can reach.\n\n"
               "| output | E-Trace M instr/s | of plain | of blocks | N-Trace M instr/s | of plain | "
               "of blocks | goal |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
    fprintf(f, "| plain decoder (events off) | %.0f | 100 %% | | %.0f | 100 %% | | |\n", L->dec_mips[0],
            L->dec_mips[1]);
    fprintf(f, "| block decoder (next_blocks) | %.0f | %.0f %% | 100 %% | %.0f | %.0f %% | 100 %% | |\n",
            L->blk_mips[0], L->dec_mips[0] > 0 ? 100 * L->blk_mips[0] / L->dec_mips[0] : 0, L->blk_mips[1],
            L->dec_mips[1] > 0 ? 100 * L->blk_mips[1] / L->dec_mips[1] : 0);
    for (size_t p = 0; p < NPASSES; p++) {
        fprintf(f, "| %s |", pass_names[p] ? pass_names[p] : "events to a counter (one per instruction)");
        for (int k = 0; k < 2; k++) {
            double blk = L->blk_mips[k], off = L->dec_mips[k];
            fprintf(f, " %.0f | %.0f %% | %.0f %% |", L->pass_mips[k][p],
                    off > 0 ? 100 * L->pass_mips[k][p] / off : 0, blk > 0 ? 100 * L->pass_mips[k][p] / blk : 0);
        }
        fprintf(f, " %s |\n", pass_goals[p]);
    }
    fputc('\n', f);
}

/* --passes-only: the output-paths paragraph and table of the results
 * file (from its first line to the blank line after the table) replaced
 * by the new measurement. */
typedef struct outputs_edit {
    const long_result *L;
    const char *measured;
    int state;          /* 0 before, 1 in the paragraph, 2 in the table, 3 after */
} outputs_edit;

static bool outputs_line(void *ctx, const char *line, FILE *out)
{
    outputs_edit *e = ctx;
    if (e->state == 0 && !strncmp(line, OUTPUTS_HEAD, strlen(OUTPUTS_HEAD))) {
        report_outputs(out, e->L, e->measured);
        e->state = 1;
    } else if (e->state == 1 || e->state == 2) {
        if (line[0] == '|')
            e->state = 2;
        else if (e->state == 2)
            e->state = 3;   /* the blank line after the table: report_outputs wrote one */
    } else {
        return false;
    }
    return true;
}

static bool outputs_done(void *ctx)
{
    return ((outputs_edit *)ctx)->state == 3;
}

static int update_outputs(const char *path, const long_result *L, const char *measured)
{
    outputs_edit e = { L, measured, 0 };
    return rewrite_results(path, outputs_line, &e, outputs_done);
}

static void report(FILE *f, workload *w, size_t n, const long_result *L, const char *long_name,
                   const interop_result *ir)
{
    fprintf(f, "# rvtrace benchmark results\n\n");
    machine_info(f);
    interop_report(f, ir);
    if (L && L->instret) {
        fprintf(f, "## Long workload (%s, %" PRIu64 " instructions)\n\n", long_name, L->instret);
        fprintf(f, "| what | M instr/s (CPU) | M instr/s (wall) | goal |\n|---|---:|---:|---|\n");
        fprintf(f, "| hart, no records | %.0f | %.0f | |\n", L->hart_none_mips, L->hart_none_wall_mips);
        fprintf(f, "| hart, records to a null sink | %.0f | %.0f | >= 100 |\n", L->hart_null_mips, L->hart_null_wall_mips);
        fprintf(f, "| hart, records to a .rvi file | %.0f | | |\n", L->hart_rvi_mips);
        if (L->vm_instret)
            fprintf(f, "| hart, Sv39 page-table-heavy (bench/vmheavy.elf, %.1f M instructions), no records "
                       "| %.0f | %.0f | >= 60 |\n", (double)L->vm_instret / 1e6, L->hart_vm_mips,
                    L->hart_vm_wall_mips);
        encoder_row(f, L, 0);
        decoder_row(f, L, 0, DEC_ROW_INSN);
        decoder_row(f, L, 0, DEC_ROW_BLOCK);
        encoder_row(f, L, 1);
        decoder_row(f, L, 1, DEC_ROW_INSN);
        decoder_row(f, L, 1, DEC_ROW_BLOCK);
        fputc('\n', f);
        fprintf(f, "E-Trace encapsulation (srcID 8 bits, a sync sequence every 4 KiB; bench/encap_cost.c) "
                   "on the all-modes stream: %" PRIu64 " -> %" PRIu64 " bytes; re-framing costs %.2f %% of "
                   "the encoder's CPU time, unwrapping %.2f %% of the decoder's (goal <= 5 %%)%s.\n\n",
                L->encap.plain_bytes, L->encap.encap_bytes,
                L->enc_cpu > 0 ? 100 * L->encap.write_cpu / L->enc_cpu : 0,
                L->dec_cpu > 0 ? 100 * L->encap.unwrap_cpu / L->dec_cpu : 0,
                L->encap.identical ? "" : " (UNWRAPPED STREAM DIFFERS)");
        report_wrapped(f, &L->wrapped);
        bench_rvi_report(f, &L->rvi, long_name);
        report_outputs(f, L, NULL);
        fprintf(f, "Bits per instruction on the long workload: E-Trace all modes %.4f, "
                   "N-Trace HTM+sj+ir+rpt %.4f.\n\n", L->bits[0], L->bits[1]);
        bench_sampling_report(f, &L->smp, long_name);
    }
    fprintf(f, "## Bits per retired instruction\n\n| workload | instructions |");
    for (size_t m = 0; m < NMODES; m++)
        fprintf(f, " %s |", modes[m].name);
    for (size_t c = NMODES; c < NCOLS; c++)
        fprintf(f, " %s |", floor_names[c - NMODES]);
    fprintf(f, "\n|---|---:|");
    for (size_t c = 0; c < NCOLS; c++)
        fprintf(f, "---:|");
    fputc('\n', f);
    double mean[NCOLS] = { 0 };
    uint64_t tot_bits[NCOLS] = { 0 }, tot_instr = 0;
    size_t counted = 0;
    for (size_t i = 0; i < n; i++) {
        if (!w[i].instret)
            continue;
        counted++;
        tot_instr += w[i].instret;
        fprintf(f, "| %s | %" PRIu64 " |", w[i].name, w[i].instret);
        for (size_t c = 0; c < NCOLS; c++) {
            double b = (double)column_bits(&w[i], c) / (double)w[i].instret;
            mean[c] += b;
            tot_bits[c] += column_bits(&w[i], c);
            fprintf(f, " %.3f |", b);
        }
        fputc('\n', f);
    }
    if (counted) {
        fprintf(f, "| **mean of workloads** | |");
        for (size_t c = 0; c < NCOLS; c++)
            fprintf(f, " **%.3f** |", mean[c] / (double)counted);
        fprintf(f, "\n| **all bits / all instructions** | %" PRIu64 " |", tot_instr);
        for (size_t c = 0; c < NCOLS; c++)
            fprintf(f, " **%.3f** |", (double)tot_bits[c] / (double)tot_instr);
        fputc('\n', f);
    }
    fprintf(f, "\nThe mean-of-workloads goals of the first work (E-Trace all modes <= 0.15, N-Trace\n"
               "HTM+sj+ir+rpt <= 0.19, BTM <= 1.6) are withdrawn (issue #18): size is judged against\n"
               "the reference implementations, the section above (docs/compression.md).\n"
               "te:* modes are E-Trace te_inst streams in the reference-flow container "
               "(header bytes counted); nt:* are N-Trace MSEO streams.\n"
               "te:floor is a lower bound on any E-Trace of the run, whatever the options\n"
               "(bench/te_floor.h): 16 bits for each packet the spec forces -- every trap,\n"
               "every uninferable discontinuity no mode can infer, every return whose call\n"
               "preceded the last sync -- plus the first sync; branches cost nothing in it.\n"
               "nt:floor is the same for any N-Trace HTM stream of the run (bench/nt_floor.h):\n"
               "24 bits for each message the spec forces (trap, xRET, uninferable jump,\n"
               "return no 9.2 stack predicts; a message equal to the one before is free),\n"
               "8 more if it follows a conditional branch, 16 per run of repeats, 64 for\n"
               "the first sync.\n");
}

#ifdef RVT_BENCH_IN_CLI
int bench_main(int argc, char **argv)      /* rvtrace bench (tools/rvtrace/cmd_bench.c) */
#else
int main(int argc, char **argv)
#endif
{
    const char *dir = "programs", *out = "bench/RESULTS.md", *long_name = "long.elf";
    const char *interop_dir = "../shared/interop";
    bool quick = false, wrapped_only = false, interop_only = false, decoders_only = false,
         passes_only = false, out_given = false, rvi_only = false, encoders_only = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--programs") && i + 1 < argc) dir = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i], out_given = true;
        else if (!strcmp(argv[i], "--long") && i + 1 < argc) long_name = argv[++i];
        else if (!strcmp(argv[i], "--quick")) quick = true;
        else if (!strcmp(argv[i], "--wrapped-only")) wrapped_only = true;
        else if (!strcmp(argv[i], "--interop") && i + 1 < argc) interop_dir = argv[++i];
        else if (!strcmp(argv[i], "--interop-only")) interop_only = true;
        else if (!strcmp(argv[i], "--decoders-only")) decoders_only = true;
        else if (!strcmp(argv[i], "--encoders-only")) encoders_only = true;
        else if (!strcmp(argv[i], "--passes-only")) passes_only = true;
        else if (!strcmp(argv[i], "--rvi-only")) rvi_only = true;
        else if (!strcmp(argv[i], "--pass") && i + 1 < argc) only_pass = argv[++i];
        else if (!strcmp(argv[i], "--wrapped-mib") && i + 1 < argc)
            wrapped_bytes = strtoull(argv[++i], NULL, 0) << 20;
        else {
            fprintf(stderr, "usage: rvtrace bench [--programs DIR] [--out FILE] [--long NAME.elf] [--quick]\n"
                            "       [--wrapped-mib N] [--wrapped-only] [--interop DIR] [--interop-only]\n"
                            "       [--decoders-only] [--encoders-only] [--passes-only [--pass NAME]]\n"
                            "       [--rvi-only]\n");
            return 2;
        }
    }
    /* the results go to OUT.new, renamed over OUT: never over a device or
     * a directory (`--out /dev/null` once replaced the machine's null
     * device with a file) */
    struct stat sb;
    bool writes = !wrapped_only && !(passes_only && only_pass) && (!interop_only || out_given);
    if (writes && stat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "bench: %s: not a regular file (the results are written beside it and renamed "
                        "over it)\n", out);
        return 2;
    }
    if (wrapped_only) {     /* the wrapped-buffer row alone, on stdout */
        char path[MAX_PATH];
        long_result L = { 0 };
        snprintf(path, sizeof path, "%s/%s", dir, long_name);
        fprintf(stderr, "bench: %s wrapped sink buffer of %llu MiB\n", long_name,
                (unsigned long long)(wrapped_bytes >> 20));
        if (measure_wrapped(path, &L) < 0)
            return 1;
        report_wrapped(stdout, &L.wrapped);
        return 0;
    }
    static interop_result ir;
    if (interop_only) {     /* the reference comparison alone: on stdout, and in --out when given */
        int st = interop_measure(interop_dir, &ir);
        interop_report(stdout, &ir);
        if (st >= 0 && out_given && ir.present) {
            bool fresh;
            FILE *f = new_results(out, &fresh);
            if (f)
                interop_report(f, &ir);
            if (fresh ? !f || fclose(f) != 0 : interop_update(out, &ir) < 0) {
                perror(out);
                return 1;
            }
        }
        return st < 0 ? 1 : 0;
    }
    if (decoders_only)      /* the decoder rows alone: on stdout and in --out */
        return rows_alone(dir, long_name, out, "decoder", measure_decoders_only, print_decoder_rows,
                          decoder_line);
    if (encoders_only)      /* the encoder rows alone: on stdout and in --out */
        return rows_alone(dir, long_name, out, "encoder", measure_encoders_only, print_encoder_rows,
                          encoder_line);
    if (rvi_only) {         /* the .rvi rows alone: on stdout and in --out */
        char path[MAX_PATH];
        static bench_rvi R;
        snprintf(path, sizeof path, "%s/%s", dir, long_name);
        if (bench_rvi_measure(path, elf_xlen(path), &rvi_hooks, 3, &R) < 0)
            return 1;
        bench_rvi_report(stdout, &R, long_name);
        bool fresh;
        FILE *f = new_results(out, &fresh);
        if (f)
            bench_rvi_report(f, &R, long_name);
        if (fresh ? !f || fclose(f) != 0
                  : rewrite_results(out, rvi_line, &(rvi_edit){ .R = &R, .long_name = long_name }, NULL) < 0) {
            perror(out);
            return 1;
        }
        return 0;
    }
    if (passes_only) {      /* the output-paths table alone, on stdout */
        char path[MAX_PATH];
        static long_result L;
        snprintf(path, sizeof path, "%s/%s", dir, long_name);
        if (measure_outputs(path, &L) < 0)
            return 1;
        char when[64];
        time_t now_t = time(NULL);
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now_t));
        report_outputs(stdout, &L, when);
        if (only_pass)          /* one row measured: the file keeps the full table */
            return 0;
        bool fresh;
        FILE *f = new_results(out, &fresh);
        if (f)
            report_outputs(f, &L, when);
        if (fresh ? !f || fclose(f) != 0 : update_outputs(out, &L, when) < 0) {
            fprintf(stderr, "bench: %s: no output-paths table to update (run the full bench once)\n", out);
            return 1;
        }
        return 0;
    }
    static workload w[MAX_PROGS];
    size_t n = find_programs(dir, long_name, w, MAX_PROGS);
    if (!n) {
        fprintf(stderr, "bench: no programs in %s\n", dir);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        fprintf(stderr, "bench: %-14s bits per instruction, %zu modes\n", w[i].name, NMODES);
        measure_workload(&w[i]);
    }
    int interop_st = interop_measure(interop_dir, &ir);
    long_result L = { 0 };
    char long_path[MAX_PATH];
    snprintf(long_path, sizeof long_path, "%s/%s", dir, long_name);
    if (!quick) {
        fprintf(stderr, "bench: %s throughput (several runs of ~360M instructions)\n", long_name);
        measure_long(long_path, &L);
        char vm_path[MAX_PATH];
        snprintf(vm_path, sizeof vm_path, "%s/bench/vmheavy.elf", dir);
        measure_paging(vm_path, &L);
    }
    report(stdout, w, n, quick ? NULL : &L, long_name, &ir);
    FILE *f = fopen(out, "w");
    if (!f) {
        perror(out);
        return 1;
    }
    report(f, w, n, quick ? NULL : &L, long_name, &ir);
    fclose(f);
    fprintf(stderr, "bench: wrote %s\n", out);
    return interop_st < 0 ? 1 : 0;
}
