/* rvtrace run: execute an ELF on the reference hart (src/hart), print its
 * console output, and optionally write PC lists, ingress records and
 * E-Trace / N-Trace streams.  docs/hart.md describes the hart. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "ctr_sample.h"
#include "rvtrace/etrace.h"
#include "rvtrace/filter.h"
#include "rvtrace/hart.h"
#include "rvtrace/smp.h"
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "run_boot.h"
#include "cli_image.h"
#include "tv_cli.h"
#include "machine_opts.h"
#include "rvtrace/pmu.h"
#include "run_tci.h"
#include "run_harts.h"

const char cmd_run_help[] =
    "usage: rvtrace run PROG.elf [OPTIONS] [TRACE OPTIONS]\n"
    "       rvtrace run --bios FW [--kernel P] [BOOT OPTIONS] [OPTIONS] [TRACE OPTIONS]\n"
    "\n"
    "Run a bare-metal RISC-V ELF (linked for QEMU's virt board, entry in M-mode)\n"
    "on the reference hart, or boot firmware and a payload as QEMU's virt board\n"
    "does.  The program's UART output goes to stdout; it ends when it writes the\n"
    "test finisher (0x100000, also the syscon poweroff/reboot).\n"
    "\n"
    "boot options (docs/hart.md \"Booting\"):\n"
    "  --bios FW            firmware in M-mode, started at 0x80000000 with a0 =\n"
    "                       hartid and a1 = the device tree's address, as\n"
    "                       qemu-system-riscv64 -machine virt -bios FW (ELF, or\n"
    "                       raw at 0x80000000)\n"
    "  --kernel P           payload at the firmware's end rounded up to 2 MiB\n"
    "                       (RV32: 4 MiB), i.e. 0x80200000 (ELF, or raw there)\n"
    "  --initrd F           initrd at the kernel's entry + min(RAM/2, 128M), named\n"
    "                       in /chosen\n"
    "  --append ARGS        kernel command line (/chosen/bootargs)\n"
    "  --dtb F              boot with this device tree instead of the generated one\n"
    "  --dump-dtb F         write the device tree (the generated one unless --dtb)\n"
    "  --stdin F            the UART's receive line: F's bytes (\"-\" = stdin), one\n"
    "                       at a time when the program waits for input\n"
    "  --elf F[@KEY]        not loaded: named in the image map (TRACE.images,\n"
    "                       docs/formats.md) for decode, e.g. vmlinux, or a user\n"
    "                       program the kernel loads (KEY ctx=N: its ASID);\n"
    "                       repeatable\n"
    "  --image F@ADDR       the same for a raw binary that runs at ADDR (U-Boot's\n"
    "                       relocated copy of itself); repeatable\n"
    "\n"
    "options:\n"
    "  --isa ISA            " CLI_ISA_NAMES "\n"
    "                       (default: from the ELF class, with F, D and C)\n"
    "  --misaligned trap|emulate  misaligned loads/stores: trap (default, like\n"
    "                       Spike) or perform them in RAM (like QEMU 7.2)\n"
    "  --max-instr N        stop after N >= 1 retired instructions (exit status 1;\n"
    "                       k/M/G = 10^3/10^6/10^9)\n"
    "  --retire-width N     instructions retired per cycle, 1..8 (E-Trace 4.2.2)\n"
    "  --ram-size N         RAM at 0x80000000 in bytes, 4K..16G in whole 4K pages\n"
    "                       (k/M/G = KiB/MiB/GiB; default 128M)\n"
    MACHINE_OPTS_HELP
    "  --pcs-executed F     write every executed PC, including instructions that\n"
    "                       trap without retiring (QEMU's -d exec view); old\n"
    "                       spelling --pcs (decode --pcs is the retired PCs)\n"
    "  --pcs-retired F      write every retired PC (what an unfiltered trace's\n"
    "                       decoders rebuild; see --pcs-traced for a filtered one)\n"
    "                       PC lists: lowercase hex without 0x, one per line\n"
    "  --ingress F.rvi      write the ingress records (docs/formats.md)\n"
    "  --ingress-version N  .rvi format version: 2 (default, ~1 byte an\n"
    "                       instruction) or 1 (12 bytes, for older readers)\n"
    "  --export-spike-csv F write the E-Trace reference flow's Spike-style trace\n"
    "                       CSV (VALID,ADDRESS,INSN,...; docs/format-import.md)\n"
    "  --export-spike-data-csv F  ... and its data-trace input (DRETIRE,DTYPE,DADDR,\n"
    "                       DSIZE,DATA; implies --data-records)\n"
    "  --data-records       also produce data-access records (E-Trace 4.4); old\n"
    "                       spelling --data (decode --data FILE is --data-out)\n"
    "  --data-out F         write the data-access records as text, one per line\n"
    "                       (TYPE BYTES ADDR DATA [DATA2], hex; implies\n"
    "                       --data-records)\n"
    "  --data-split N       split data interface (E-Trace 4.3): loads and atomics\n"
    "                       as a request and a later, out-of-order response with\n"
    "                       N IDs (1..32); implies --data-records; --te-data writes\n"
    "                       the split packets (split_loads=1, index_width=log2 N);\n"
    "                       --data-out lists each access at its response\n"
    "  --null-trace         build ingress records and discard them (speed checks)\n"
    RUN_TCI_HELP
    RUN_HARTS_HELP
    "  --tv F.tvt           write the tandem-verification trace (docs/tv.md)\n"
    "  --tv-eaddr           ... with effective addresses too (identifier 3)\n"
    "  --tv-mem             ... with memory request/response items (opcodes 8, 9)\n"
    "  --quiet              no summary\n"
    "  --verbose            a longer summary (cycles, records, executed); old\n"
    "                       spelling --stats (not --stat, the PMU counts below)\n"
    "  --ctr                print the final CTR buffer (Smctr), newest first\n"
    "  --ctr-control N      mctrcontrol at reset, e.g. 0x7 records M, S and U\n"
    "                       (default 0: only what the program configures)\n"
    "  --ctr-sample N --lbr FILE  a branch-stack sample of the CTR buffer every N\n"
    "                       instructions, as perf record -b takes one (script --lbr's\n"
    "                       format, for llvm-profgen; docs/coverage.md); without\n"
    "                       --ctr-control, mctrcontrol is 0x10007 (M, S, U, 32 entries)\n"
    "  --stat               PMU event counts at exit, perf-stat style (rvtrace stat)\n"
    "  -e, --events LIST    the events --stat shows (see 'rvtrace stat --list')\n"
    "  --sbi                serve S-mode SBI PMU ecalls (a7 = 0x504D55) in rvtrace's\n"
    "                       M-mode firmware model (docs/pmu.md); also on when the\n"
    "                       ELF defines the symbol rvtrace_sbi_firmware\n"
    "\n"
    "The summary goes to stderr; a progress line is shown every 2 s on a terminal.\n"
    "Exit status: 0 when the program exits with code 0; 1 when it exits with\n"
    "another code (printed), on a fatal hart error, when --max-instr stops the\n"
    "run or an output cannot be written; 2 on a usage error.\n";

const cli_run_hook *cli_run_extra;     /* cli.h: set by report */

/* ---- buffered PC list writer ---- */
typedef struct pc_file {
    FILE *f;
    const char *path;
    size_t n;
    bool retired_only;
    bool err;
    char buf[1 << 16];
} pc_file;

static void pc_flush(pc_file *p)
{
    if (p->n && fwrite(p->buf, 1, p->n, p->f) != p->n)
        p->err = true;
    p->n = 0;
}

static void pc_put(pc_file *p, uint64_t pc)
{
    static const char hex[] = "0123456789abcdef";
    if (p->n > sizeof p->buf - 20)
        pc_flush(p);
    char tmp[16];
    int k = 0;
    do {
        tmp[k++] = hex[pc & 15];
        pc >>= 4;
    } while (pc);
    while (k)
        p->buf[p->n++] = tmp[--k];
    p->buf[p->n++] = '\n';
}

typedef struct run_opts {
    const char *elf, *isa, *pcs, *pcs_retired, *ingress, *tv, *data_out, *spike_csv, *spike_data;
    const char *misaligned;
    uint64_t max_instr, width, ram_size, ctr_control, rvi_version;
    rvt_hart_cfg machine;   /* --machine, --mem (machine_opts.c) */
    bool data, quiet, stats, null_trace, tv_eaddr, tv_mem, ctr, stat, sbi;
    const char *events;
    stat_sel sel[RVT_PMU_EV_COUNT * 4];
    int nsel;
    char **te_args, **nt_args;   /* E-Trace / N-Trace options, in order */
    char **flt_args;             /* filter and trigger options */
    const char *pcs_traced;
    int n_te, n_nt, n_flt;
    uint64_t data_split;         /* --data-split N: IDs, 0 = unified */
    uint64_t ctr_sample;         /* --ctr-sample N, with --lbr FILE (ctr_sample.c) */
    const char *lbr;
    char split_attr[2][32];      /* the te attributes it implies */
    run_boot boot;               /* --bios, --kernel, ... (run_boot.c) */
    cli_map_extra extra;         /* --elf FILE[@KEY], --image FILE@ADDR: for the image map only */
    run_tci tci;                 /* --tci, --dump-sink, --pib (run_tci.c) */
    rvt_te_attrs tci_attrs;      /* --tci --etrace: the settings the CLI programs */
    run_harts harts;             /* --harts, --quantum (run_harts.c) */
    rvt_irec_sink te_out[RVT_SMP_MAX_HARTS], nt_out[RVT_SMP_MAX_HARTS];   /* per hart */
    rvt_irec_sink tci_out[RVT_SMP_MAX_HARTS];
} run_opts;

typedef struct run_ctx {
    pc_file *all, *retired;
} run_ctx;

static void on_pc(void *ctx, uint64_t pc, bool retired)
{
    run_ctx *c = ctx;
    if (c->all)
        pc_put(c->all, pc);
    if (c->retired && retired)
        pc_put(c->retired, pc);
}

static void on_console(void *ctx, const char *buf, size_t n)
{
    (void)ctx;
    fwrite(buf, 1, n, stdout);
}

static int null_put(void *ctx, const rvt_irec *r, size_t n) { (void)ctx; (void)r; (void)n; return 0; }

/* A numeric option of `kind` within lo..hi (*err on a bad value). */
static bool num_opt(int argc, char **argv, int *i, const char *name, cli_num_kind kind, uint64_t lo,
                    uint64_t hi, uint64_t *out, bool *err)
{
    const char *v = cli_opt(argc, argv, i, name);
    if (!v)
        return false;
    if (!cli_parse_range(name, v, kind, lo, hi, out))
        *err = true;
    return true;
}

/* Append argv[i..i+used) to a trace option list; returns the extra count. */
static int collect(int argc, char **argv, int i, int used, char **list, int *n)
{
    if (used < 1)
        used = 1;
    for (int k = 0; k < used && i + k < argc; k++)
        list[(*n)++] = argv[i + k];
    return used - 1;
}

/* --data-split N: the E-Trace encoder takes the split interface with an
 * index wide enough for N IDs (7.1.1 discoverable parameter); put first,
 * so an explicit --te-attr still wins. */
static void split_te_attrs(run_opts *o)
{
    unsigned w = 0;
    while ((1ull << w) < o->data_split)
        w++;
    snprintf(o->split_attr[0], sizeof o->split_attr[0], "split_loads=1");
    snprintf(o->split_attr[1], sizeof o->split_attr[1], "index_width=%u", w);
    if (o->n_te == 0)
        return;     /* no E-Trace output */
    memmove(o->te_args + 4, o->te_args, (size_t)o->n_te * sizeof *o->te_args);
    o->te_args[0] = o->te_args[2] = "--te-attr";
    o->te_args[1] = o->split_attr[0];
    o->te_args[3] = o->split_attr[1];
    o->n_te += 4;
}

/* An option given that needs a single hart (NULL: none). */
static const char *one_hart_option(const run_opts *o)
{
    const struct { bool on; const char *name; } one[] = {
        { o->ingress, "--ingress" }, { o->tv, "--tv" }, { o->spike_csv || o->spike_data, "--export-spike-*" },
        { o->data_out, "--data-out" }, { o->data_split, "--data-split" }, { o->pcs_traced, "--pcs-traced" },
        { o->n_flt, "a filter or trigger option" }, { o->ctr || o->ctr_sample, "--ctr/--ctr-sample" },
        { o->stat, "--stat" }, { cli_run_extra, "report" },
    };
    for (size_t k = 0; k < sizeof one / sizeof one[0]; k++)
        if (one[k].on)
            return one[k].name;
    return NULL;
}

/* Returns 0 or CLI_USAGE. */
static int parse_args(int argc, char **argv, run_opts *o)
{
    bool err = false;
    o->te_args = calloc((size_t)argc + 5, sizeof *o->te_args);
    o->nt_args = calloc((size_t)argc + 1, sizeof *o->nt_args);
    o->flt_args = calloc((size_t)argc + 1, sizeof *o->flt_args);
    o->extra.kind = calloc((size_t)argc + 1, sizeof *o->extra.kind);
    o->extra.spec = calloc((size_t)argc + 1, sizeof *o->extra.spec);
    if (!o->te_args || !o->nt_args || !o->flt_args || !o->extra.kind || !o->extra.spec)
        return CLI_FAIL;
    for (int i = 1; i < argc && !err; i++) {
        const char *a = argv[i], *v;
        int used = 0;
        if (te_is_run_option(argc, argv, i, &used)) {
            if (!strcmp(a, "--te-data"))
                o->data = true;         /* te_data packets need the records */
            i += collect(argc, argv, i, used, o->te_args, &o->n_te);
        } else if (nt_is_run_option(argc, argv, i, &used)) {
            i += collect(argc, argv, i, used, o->nt_args, &o->n_nt);
        } else if (filter_is_option(argc, argv, i, &used)) {
            i += collect(argc, argv, i, used, o->flt_args, &o->n_flt);
        } else if ((v = cli_opt(argc, argv, &i, "--pcs-traced"))) {
            o->pcs_traced = v;
        } else if ((v = cli_opt(argc, argv, &i, "--isa"))) o->isa = v;
        else if ((v = cli_opt(argc, argv, &i, "--misaligned"))) o->misaligned = v;
        else if ((v = cli_opt(argc, argv, &i, "--pcs-retired"))) o->pcs_retired = v;
        else if ((v = cli_opt(argc, argv, &i, "--pcs-executed")) || (v = cli_opt(argc, argv, &i, "--pcs")))
            o->pcs = v;
        else if ((v = cli_opt(argc, argv, &i, "--ingress"))) o->ingress = v;
        else if ((v = cli_opt(argc, argv, &i, "--export-spike-csv"))) o->spike_csv = v;
        else if ((v = cli_opt(argc, argv, &i, "--export-spike-data-csv"))) o->spike_data = v, o->data = true;
        else if ((v = cli_opt(argc, argv, &i, "--tv"))) o->tv = v;
        else if ((v = cli_opt(argc, argv, &i, "--data-out"))) o->data_out = v, o->data = true;
        else if (!strcmp(a, "--tv-eaddr")) o->tv_eaddr = true;
        else if (!strcmp(a, "--tv-mem")) o->tv_mem = true;
        else if (num_opt(argc, argv, &i, "--max-instr", CLI_NUM_COUNT, 1, UINT64_MAX, &o->max_instr, &err)) {}
        else if (num_opt(argc, argv, &i, "--retire-width", CLI_NUM_PLAIN, 1, 8, &o->width, &err)) {}
        else if (num_opt(argc, argv, &i, "--ingress-version", CLI_NUM_PLAIN, RVT_RVI_VERSION_1,
                         RVT_RVI_VERSION_2, &o->rvi_version, &err)) {}
        else if (num_opt(argc, argv, &i, "--data-split", CLI_NUM_PLAIN, 1, RVT_HART_SPLIT_MAX, &o->data_split,
                         &err))
            o->data = true;
        else if ((v = cli_opt(argc, argv, &i, "--ram-size")))
            err = !cli_parse_ram_size("--ram-size", v, &o->ram_size);
        else if (machine_opt(argc, argv, &i, &o->machine, &err)) {}
        else if (!strcmp(a, "--data-records") || !strcmp(a, "--data")) o->data = true;
        else if (!strcmp(a, "--quiet")) o->quiet = true;
        else if (!strcmp(a, "--verbose") || !strcmp(a, "--stats")) o->stats = true;
        else if (!strcmp(a, "--null-trace")) o->null_trace = true;
        else if (!strcmp(a, "--ctr")) o->ctr = true;
        else if (!strcmp(a, "--stat")) o->stat = true;
        else if (!strcmp(a, "--sbi")) o->sbi = true;
        else if (num_opt(argc, argv, &i, "--ctr-control", CLI_NUM_PLAIN, 0, UINT64_MAX, &o->ctr_control, &err)) {}
        else if (num_opt(argc, argv, &i, "--ctr-sample", CLI_NUM_COUNT, 1, UINT64_MAX, &o->ctr_sample, &err)) {}
        else if ((v = cli_opt(argc, argv, &i, "--lbr"))) o->lbr = v;
        else if ((v = cli_opt(argc, argv, &i, "--events")) || (v = cli_opt(argc, argv, &i, "-e")))
            o->events = v;
        else if (run_boot_option(argc, argv, &i, &o->boot)) {}
        else if ((v = cli_opt(argc, argv, &i, "--elf"))) {
            o->extra.kind[o->extra.n] = "elf";
            o->extra.spec[o->extra.n++] = v;
            err = !cli_image_spec_ok(v);
        } else if ((v = cli_opt(argc, argv, &i, "--image"))) {
            o->extra.kind[o->extra.n] = "image";
            o->extra.spec[o->extra.n++] = v;
            err = !cli_image_addr_ok(v);
        }
        else if (run_tci_option(argc, argv, &i, &o->tci)) {}
        else if ((used = run_harts_option(argc, argv, &i, &o->harts)) != 0)
            err = used < 0;
        else if (a[0] == '-' && a[1]) {
            cli_err("run: unknown option '%s' (see 'rvtrace help run')", a);
            err = true;
        } else if (o->elf) {
            cli_err("run: more than one program given ('%s', '%s')", o->elf, a);
            err = true;
        } else {
            o->elf = a;
        }
    }
    if (!err && run_boot_check(&o->boot, o->elf) != CLI_OK)
        err = true;
    if (!err && o->boot.bios)
        o->elf = o->boot.bios;   /* names the run in messages */
    if (!err && !o->elf) {
        cli_err("run: no program given (usage: rvtrace run PROG.elf [OPTIONS])");
        err = true;
    }
    if (!err && o->stat) {
        o->nsel = stat_parse_events(o->events, o->sel, (int)(sizeof o->sel / sizeof o->sel[0]));
        err = o->nsel < 0;
    }
    if (!err && o->data_split)
        split_te_attrs(o);
    if (!err && ctr_sample_check(o->ctr_sample, o->lbr) != CLI_OK)
        err = true;
    if (!err && o->ctr_sample && !o->ctr_control)
        o->ctr_control = CTR_SAMPLE_CONTROL;
    if (!err && run_harts_allows(&o->harts, one_hart_option(o)) != CLI_OK)
        err = true;
    return err ? CLI_USAGE : 0;
}

static int open_pc_file(pc_file **out, const char *path)
{
    if (!path)
        return 0;
    pc_file *p = calloc(1, sizeof *p);
    if (!p)
        return CLI_FAIL;
    p->path = path;
    p->f = cli_out_fopen(path, "w");
    if (!p->f) {
        free(p);
        return CLI_FAIL;
    }
    *out = p;
    return 0;
}

static int close_pc_file(pc_file *p)
{
    if (!p)
        return 0;
    pc_flush(p);
    bool bad = p->err || fclose(p->f) != 0;
    if (bad)
        cli_err("%s: write error", p->path);
    free(p);
    return bad ? CLI_FAIL : 0;
}

/* The sinks: .rvi writer, E-Trace / N-Trace encoders, or a null sink. */
typedef struct sinks {
    rvt_irec_tee tee;
    rvt_irec_sink tee_sink;
    rvt_rvi_writer *rvi;
    rvt_spikecsv_writer *spike;
    rvt_spikedata_writer *spike_data;
    void *te, *nt, *dtext, *traced;
    rvt_filter *filter;          /* in front of the tee, with filter options */
    rvt_irec_sink filter_sink;
    bool any;
} sinks;

/* The filter stage in front of the tee (docs/filter.md). */
static int open_filter(const run_opts *o, rvt_image *img, sinks *s)
{
    rvt_filter_cfg cfg;
    int rc = filter_cfg_from_args(o->n_flt, o->flt_args, img, &cfg);
    if (rc != CLI_OK)
        return rc;
    int st;
    s->filter = rvt_filter_new(&cfg, &s->tee_sink, &st);
    if (!s->filter) {
        cli_err("trace filter: %s", rvt_status_str(st));
        return CLI_FAIL;
    }
    s->filter_sink = rvt_filter_sink(s->filter);
    return 0;
}

/* Hart `hart` of n: the encoders are opened with hart 0's sinks, one
 * per hart into the one stream (o->te_out, o->nt_out). */
static int open_sinks(run_opts *o, unsigned xlen, rvt_image *img, sinks *s, unsigned hart, unsigned n)
{
    rvt_irec_tee_init(&s->tee);
    int st = 0;
    if (o->ingress) {
        const char *name = cli_out_claim(o->ingress);
        if (!name)
            return CLI_FAIL;
        s->rvi = rvt_rvi_writer_open(name, xlen, &st);
        if (s->rvi && o->rvi_version)
            st = rvt_rvi_writer_set_version(s->rvi, (unsigned)o->rvi_version);
        if (!s->rvi || st < 0) {
            cli_err("%s: cannot write: %s", o->ingress, rvt_status_str(st));
            return CLI_FAIL;
        }
        rvt_irec_sink k = rvt_rvi_writer_sink(s->rvi);
        rvt_irec_tee_add(&s->tee, &k);
    }
    if (o->spike_csv) {
        const char *name = cli_out_claim(o->spike_csv);
        if (!name)
            return CLI_FAIL;
        s->spike = rvt_spikecsv_writer_open(name, img, xlen, &st);
        if (!s->spike) {
            cli_err("%s: cannot write: %s", o->spike_csv, rvt_status_str(st));
            return CLI_FAIL;
        }
        rvt_irec_sink k = rvt_spikecsv_writer_sink(s->spike);
        rvt_irec_tee_add(&s->tee, &k);
    }
    if (o->spike_data) {
        const char *name = cli_out_claim(o->spike_data);
        if (!name)
            return CLI_FAIL;
        s->spike_data = rvt_spikedata_writer_open(name, &st);
        if (!s->spike_data) {
            cli_err("%s: cannot write: %s", o->spike_data, rvt_status_str(st));
            return CLI_FAIL;
        }
        rvt_irec_sink k = rvt_spikedata_writer_sink(s->spike_data);
        rvt_irec_tee_add(&s->tee, &k);
    }
    rvt_irec_sink k;
    if (o->n_te && o->tci.on) {     /* --tci --etrace OUT: the TCI model takes the settings */
        int rc = hart ? CLI_OK : te_run_attrs(o->n_te, o->te_args, xlen, &o->tci.etrace, &o->tci_attrs);
        if (rc != CLI_OK)
            return rc;
        o->tci.attrs = &o->tci_attrs;
    } else if (o->n_te) {
        int rc = hart ? CLI_OK : te_sink_open_harts(o->n_te, o->te_args, xlen, n, o->te_out, &s->te);
        if (rc != CLI_OK)
            return rc;
        rvt_irec_tee_add(&s->tee, &o->te_out[hart]);
    }
    if (o->n_nt) {
        int rc = hart ? CLI_OK : nt_sink_open_harts(o->n_nt, o->nt_args, xlen, n, o->nt_out, &s->nt);
        if (rc != CLI_OK)
            return rc;
        rvt_irec_tee_add(&s->tee, &o->nt_out[hart]);
    }
    if (o->data_out) {
        if (data_text_open(o->data_out, &k, &s->dtext) != CLI_OK)
            return CLI_FAIL;
        rvt_irec_tee_add(&s->tee, &k);
    }
    if (o->pcs_traced) {
        if (traced_pcs_open(o->pcs_traced, img, &k, &s->traced) != CLI_OK)
            return CLI_FAIL;
        rvt_irec_tee_add(&s->tee, &k);
    }
    if (cli_run_extra) {            /* report's profile of this run */
        int rc = cli_run_extra->open(img, &k);
        if (rc != CLI_OK)
            return rc;
        rvt_irec_tee_add(&s->tee, &k);
    }
    if (o->tci.on) {            /* each hart's Trace Encoder (run_tci.c) */
        rvt_hart_cfg ram = { .ram_size = o->ram_size };
        int rc = hart ? CLI_OK : run_tci_open(&o->tci, &ram, xlen, n, o->tci_out);
        if (rc != CLI_OK)
            return rc;
        rvt_irec_tee_add(&s->tee, &o->tci_out[hart]);
    }
    if (o->null_trace) {
        rvt_irec_sink null = { NULL, null_put, NULL, NULL };
        rvt_irec_tee_add(&s->tee, &null);
    }
    s->any = s->tee.n > 0;
    s->tee_sink = rvt_irec_tee_sink(&s->tee);
    /* --pcs-traced needs the stage's verdict even without filter options
     * (trigger pulses of the hart itself turn trace off and on). */
    return o->n_flt || o->pcs_traced ? open_filter(o, img, s) : 0;
}

/* What the hart feeds: the filter stage, else the tee, else nothing. */
static rvt_irec_sink *hart_sink(sinks *s)
{
    if (s->filter)
        return &s->filter_sink;
    return s->any ? &s->tee_sink : NULL;
}

static int close_sinks(sinks *s)
{
    int rc = 0;
    if (s->rvi && rvt_rvi_writer_close(s->rvi) < 0) {
        cli_err("ingress file: write error");
        rc = CLI_FAIL;
    }
    if (s->spike && rvt_spikecsv_writer_close(s->spike) < 0) {
        cli_err("Spike CSV file: write error");
        rc = CLI_FAIL;
    }
    if (s->spike_data && rvt_spikedata_writer_close(s->spike_data) < 0) {
        cli_err("Spike data CSV file: write error");
        rc = CLI_FAIL;
    }
    if (te_sink_close(s->te) != CLI_OK)
        rc = CLI_FAIL;
    if (cli_run_extra && cli_run_extra->close() != CLI_OK)
        rc = CLI_FAIL;
    if (nt_sink_close(s->nt) != CLI_OK)
        rc = CLI_FAIL;
    if (data_text_close(s->dtext) != CLI_OK)
        rc = CLI_FAIL;
    if (traced_pcs_close(s->traced) != CLI_OK)
        rc = CLI_FAIL;
    rvt_filter_free(s->filter);
    return rc;
}

static void print_filter_summary(const rvt_filter *f)
{
    const rvt_filter_stats *fs = rvt_filter_get_stats(f);
    char a[32], b[32], c[32];
    fprintf(stderr, "rvtrace: filter: %s of %s blocks traced", cli_thousands(fs->blocks - fs->unqualified, a, sizeof a),
            cli_thousands(fs->blocks, b, sizeof b));
    if (fs->data)
        fprintf(stderr, ", %s of %s data accesses", cli_thousands(fs->data - fs->data_dropped, c, sizeof c),
                cli_thousands(fs->data, a, sizeof a));
    fprintf(stderr, "; triggers: %llu on, %llu off, %llu notify\n", (unsigned long long)fs->trace_on,
            (unsigned long long)fs->trace_off, (unsigned long long)fs->notify);
}

/* Instructions retired by every hart. */
static uint64_t instret_all(const rvt_smp *m)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < rvt_smp_count(m); i++) {
        rvt_hart_stats st;
        rvt_hart_get_stats(rvt_smp_hart(m, i), &st);
        n += st.instret;
    }
    return n;
}

/* One line per hart ("hart I: " with several); MIPS of all together. */
static void print_summary(const run_opts *o, const rvt_smp *m, unsigned i, int why, double secs)
{
    rvt_hart *h = rvt_smp_hart(m, i);
    rvt_hart_stats st;
    rvt_hart_get_stats(h, &st);
    char a[32], b[32], c[32], d[32], who[24] = "";
    if (rvt_smp_count(m) > 1)
        snprintf(who, sizeof who, "hart %u: ", i);
    double mips = secs > 0 ? (double)instret_all(m) / secs / 1e6 : 0;
    fprintf(stderr, "rvtrace: %s%s instructions retired, %s exceptions, %s interrupts", who,
            cli_thousands(st.instret, a, sizeof a), cli_thousands(st.exceptions, b, sizeof b),
            cli_thousands(st.interrupts, c, sizeof c));
    if (why == RVT_HART_EXITED && h == rvt_smp_last(m))
        fprintf(stderr, ", exit code %d", rvt_hart_exit_code(h));
    fprintf(stderr, ", %.3f s, %s MIPS\n", secs,
            cli_thousands((uint64_t)(mips + 0.5), d, sizeof d));
    if (o->stats) {
        fprintf(stderr, "rvtrace: %s%s executed, %s cycles, %s ingress blocks, %s data records\n", who,
                cli_thousands(st.executed, a, sizeof a), cli_thousands(st.cycles, b, sizeof b),
                cli_thousands(st.records, c, sizeof c), cli_thousands(st.data_records, d, sizeof d));
    }
}

/* The program's finisher code is reported, not passed on: rvtrace's own
 * exit statuses are 0, 1 (input/output or the program failed), 2 (usage). */
static int program_status(const run_opts *o, int code)
{
    if (code == 0)
        return CLI_OK;
    cli_err("%s: the program exited with code %d", o->elf, code);
    return CLI_FAIL;
}

#define RUN_CHUNK 20000000ull

/* cs: --ctr-sample's sampler (NULL without): the hart runs N
 * instructions at a time and a sample is taken after each. */
static int execute(const run_opts *o, rvt_smp *m, ctr_sampler *cs, double *secs)
{
    cli_progress pr;
    cli_progress_init(&pr, !o->quiet);
    double t0 = cli_now();
    int why;
    while ((why = rvt_smp_run(m, cs ? o->ctr_sample : RUN_CHUNK)) == RVT_HART_STEP_LIMIT) {
        if (cs)
            ctr_sampler_take(cs, rvt_smp_hart(m, 0));
        if (cli_progress_due(&pr)) {
            char a[32];
            cli_progress_show(&pr, "%s instructions", cli_thousands(instret_all(m), a, sizeof a));
        }
    }
    cli_progress_done(&pr);
    *secs = cli_now() - t0;
    return why;
}


/* The value of OPT among a collected trace option list (--etrace OUT). */
static const char *list_value(char **list, int n, const char *opt)
{
    const char *v = NULL;
    for (int i = 0; i < n; i++) {
        const char *got = cli_opt(n, list, &i, opt);
        v = got ? got : v;
    }
    return v;
}

/* TRACE.images beside each E-Trace and N-Trace stream (docs/formats.md
 * "Image map"): decode reads it by default, so a boot's trace decodes
 * without --elf for what the hart loaded. */
static int write_image_maps(const run_opts *o, const rvt_image *img)
{
    const char *te = list_value(o->te_args, o->n_te, "--etrace");
    const char *nt = list_value(o->nt_args, o->n_nt, "--ntrace");
    bool rom = o->machine.spike_machine;
    if (te && cli_image_map_write(te, img, &o->extra, rom) != CLI_OK)
        return CLI_FAIL;
    if (nt && cli_image_map_write(nt, img, &o->extra, rom) != CLI_OK)
        return CLI_FAIL;
    return CLI_OK;
}

static int run_loaded(run_opts *o, rvt_image *img)
{
    unsigned xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
    bool no_c = false, no_fp = false;
    if (o->isa) {
        unsigned want;
        if (!cli_parse_isa(o->isa, &want, &no_c, &no_fp)) {
            cli_err("run: --isa must be rv64gc, rv64imafdc, rv64g, rv64imac, rv64ima or an rv32 one, not '%s'", o->isa);
            return CLI_USAGE;
        }
        if (rvt_image_xlen(img) && want != xlen) {
            cli_err("run: %s is a %u-bit ELF but --isa is %s", o->elf, xlen, o->isa);
            return CLI_USAGE;
        }
        xlen = want;
    }
    if (o->misaligned && strcmp(o->misaligned, "trap") && strcmp(o->misaligned, "emulate")) {
        cli_err("run: --misaligned must be trap or emulate, not '%s'", o->misaligned);
        return CLI_USAGE;
    }
    unsigned n = o->harts.n ? (unsigned)o->harts.n : 1;
    pc_file *all[RVT_SMP_MAX_HARTS] = { 0 }, *ret[RVT_SMP_MAX_HARTS] = { 0 };
    sinks sk[RVT_SMP_MAX_HARTS] = { 0 };
    run_ctx ctx[RVT_SMP_MAX_HARTS];
    tv_out *tv = NULL;
    int rc = 0;
    for (unsigned i = 0; i < n && !rc; i++) {
        rc = open_pc_file(&all[i], run_harts_path(&o->harts, 0, i, o->pcs));
        if (!rc)
            rc = open_pc_file(&ret[i], run_harts_path(&o->harts, 1, i, o->pcs_retired));
        ctx[i] = (run_ctx){ all[i], ret[i] };
    }
    if (!rc && o->tv && !(tv = tv_out_open(o->tv, xlen, o->tv_eaddr, o->tv_mem)))
        rc = CLI_FAIL;
    for (unsigned i = 0; i < n && !rc; i++)
        rc = open_sinks(o, xlen, img, &sk[i], i, n);
    if (!rc)
        rc = write_image_maps(o, img);
    ctr_sampler cs = { 0 };
    if (!rc && o->ctr_sample)
        rc = ctr_sampler_open(&cs, o->lbr, img);
    rvt_smp *m = NULL;
    rvt_hart *h = NULL;
    if (!rc) {
        rvt_hart_cfg cfg[RVT_SMP_MAX_HARTS];
        cfg[0] = (rvt_hart_cfg){
            .xlen = xlen, .no_compressed = no_c, .no_fp = no_fp, .ram_size = o->ram_size,
            .misaligned_emulate = o->misaligned && !strcmp(o->misaligned, "emulate"),
            .max_instr = o->max_instr, .retire_width = (unsigned)o->width,
            .data_records = o->data || o->tci.on,   /* trTeDataControl */
            .split_loads = (unsigned)o->data_split,
            .console = on_console, .on_pc = (o->pcs || o->pcs_retired) ? on_pc : NULL,
            .diag = cli_diag, .diag_ctx = (void *)o->elf,
            .sbi_pmu = o->sbi || rvt_hart_wants_sbi(img), .pmu_tally = o->stat, .ctr_control = o->ctr_control,
            .tci = o->tci.t,
        };
        cfg[0].spike_machine = o->machine.spike_machine;
        cfg[0].nmem = o->machine.nmem;
        memcpy(cfg[0].mem, o->machine.mem, sizeof cfg[0].mem);
        tv_out_hook(tv, &cfg[0]);
        int st = 0;
        cfg[0].nharts = n;     /* the device tree's /cpus */
        rc = run_boot_cfg(&o->boot, &cfg[0], xlen);
        for (unsigned i = 0; i < n; i++) {
            cfg[i] = cfg[0];
            cfg[i].sink = hart_sink(&sk[i]);
            cfg[i].pc_ctx = &ctx[i];
        }
        if (!rc)
            m = rvt_smp_new(cfg, n, o->harts.quantum, img, &st);
        h = m ? rvt_smp_hart(m, 0) : NULL;
        if (rc) {
            /* run_boot_cfg said why */
        } else if (h && tv_out_start(tv, h)) {
            rc = CLI_FAIL;
        } else if (!h) {
            cli_err("%s: cannot start the hart: %s", o->elf, rvt_status_str(st));
            rc = CLI_FAIL;
        } else {
            double secs;
            o->tci.h = h;
            traced_pcs_hart(sk[0].traced, h);   /* --pcs-traced: one hart only */
            int why = execute(o, m, cs.f ? &cs : NULL, &secs);
            int fin = rvt_smp_finish(m);
            if (o->tci.on && run_tci_close(&o->tci) != CLI_OK)
                fin = fin < 0 ? fin : RVT_ERR_IO;
            fflush(stdout);
            for (unsigned i = 0; i < n && !o->quiet; i++)
                print_summary(o, m, i, why, secs);
            if (!o->quiet && sk[0].filter)
                print_filter_summary(sk[0].filter);
            if (o->ctr)
                ctr_print(stderr, h, img);
            if (o->stat)
                stat_print(stderr, rvt_hart_pmu(h), o->sel, o->nsel, o->elf, secs);
            rvt_hart *last = rvt_smp_last(m);
            if (why == RVT_HART_EXITED) {
                rc = program_status(o, rvt_hart_exit_code(last));
            } else if (why == RVT_HART_MAX_INSTR) {
                cli_err("%s: stopped after --max-instr %" PRIu64 " instructions", o->elf, o->max_instr);
                rc = CLI_FAIL;
            } else {
                const char *msg = rvt_hart_fatal_msg(last);
                cli_err("%s: %s", o->elf, msg ? msg : rvt_status_str(why));
                rc = CLI_FAIL;
            }
            if (fin < 0) {
                cli_err("trace output: %s", rvt_status_str(fin));
                rc = CLI_FAIL;
            }
        }
    }
    int io = CLI_OK;
    for (unsigned i = 0; i < n; i++)
        if (close_sinks(&sk[i]))
            io = CLI_FAIL;
    if (ctr_sampler_close(&cs))
        io = CLI_FAIL;
    if (tv_out_close(tv))
        io = CLI_FAIL;
    for (unsigned i = 0; i < n; i++)
        if (close_pc_file(all[i]) || close_pc_file(ret[i]))
            io = CLI_FAIL;
    /* The outputs of a run that went (a failing program, --max-instr) are
     * complete: they are kept; main() removes them on any other failure. */
    if (io == CLI_OK && h)
        io = cli_out_commit();
    if (io != CLI_OK && !rc)
        rc = CLI_FAIL;
    rvt_smp_free(m);
    return rc;
}

static void free_opts(run_opts *o)
{
    free(o->extra.kind);
    free(o->extra.spec);
    run_boot_free(&o->boot);
    free(o->te_args);
    free(o->nt_args);
    free(o->flt_args);
    run_tci_free(&o->tci);
    run_harts_free(&o->harts);
}

int cmd_run(int argc, char **argv)
{
    run_opts o = { 0 };
    int rc = parse_args(argc, argv, &o);
    if (rc) {
        free_opts(&o);
        return rc;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    rvt_image *img = rvt_image_new();
    if (!img) {
        free_opts(&o);
        return CLI_FAIL;
    }
    rvt_image_set_diag(img, cli_diag, (void *)o.elf);
    int st = 0;
    if (o.boot.bios) {
        unsigned xlen_hint = o.isa && !strncmp(o.isa, "rv32", 4) ? 32 : 0;
        rc = run_boot_load(&o.boot, img, o.ram_size, xlen_hint);
        if (!rc)
            rc = run_loaded(&o, img);
    } else if (!cli_in(o.elf)) {
        rc = CLI_FAIL;
    } else if ((st = rvt_image_load_elf(img, o.elf)) < 0) {
        cli_err("%s: cannot load: %s", o.elf, rvt_status_str(st));
        rc = CLI_FAIL;
    } else {
        rc = run_loaded(&o, img);
    }
    rvt_image_free(img);
    free_opts(&o);
    return rc;
}
