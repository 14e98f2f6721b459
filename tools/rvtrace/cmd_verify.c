/* `rvtrace verify --elf PROG.elf F.tvt`: tandem verification (TV 3.1)
 * of a trace against a second reference hart running the same program. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/image.h"
#include "run_boot.h"
#include "tv_cli.h"

const char cmd_verify_help[] =
    "usage: rvtrace verify --elf PROG.elf [OPTIONS] FILE.tvt\n"
    "       rvtrace verify --bios FW [--kernel P] [BOOT OPTIONS] [OPTIONS] FILE.tvt\n"
    "\n"
    "Tandem verification (TV trace spec 3.1): apply the trace's state changes\n"
    "to a shadow state, run a second reference hart one instruction per group,\n"
    "and compare.  Reports the first divergence: item number, byte offset, the\n"
    "value the hart expected and the traced one.\n"
    "\n"
    "options:\n"
    "  --elf PROG.elf       the program the trace was taken from (or the boot:)\n"
    "  --bios FW --kernel P --initrd F --append ARGS --dtb F --stdin F\n"
    "                       a boot's trace (run --bios ... --tv F.tvt): the\n"
    "                       reference hart boots the same images with the same\n"
    "                       device tree and UART input (rvtrace help run)\n"
    "  --isa ISA            " CLI_ISA_NAMES "\n"
    "                       (default: from the ELF, with F, D and C)\n"
    "  --ram-size N         RAM of the reference hart, 4K..16G in whole 4K pages\n"
    "                       (k/M/G = KiB/MiB/GiB; default 128M)\n"
    "  --dut rvtrace|qemu   who wrote the trace: rvtrace run --tv (default), or\n"
    "                       rvtrace import qemu (QEMU's state log): then only the\n"
    "                       CSRs QEMU logs are compared and the hart performs\n"
    "                       misaligned accesses as QEMU does (docs/tv.md)\n"
    "  --max-report N       report up to N divergences (default 1; all are\n"
    "                       counted, the shadow state is copied after each)\n"
    "  --xlen N --flen N --mlen N   trace parameters (default: XLEN of the ELF,\n"
    "                       FLEN 64, MLEN = XLEN)\n"
    "\n"
    "Exit status: 0 when trace and hart agree up to the program's end (its\n"
    "test-finisher write), 1 on a divergence, a corrupt trace or one that\n"
    "ends before the program did (an empty or cut trace), 2 on a usage error.\n";

typedef struct verify_opts {
    const char *elf, *isa, *path;
    uint64_t ram_size, max_report;
    rvt_tv_cfg tv;
    bool dut_qemu;
    run_boot boot;          /* --bios, --kernel, ... as run takes them (run_boot.c) */
} verify_opts;

static int parse(int argc, char **argv, verify_opts *o)
{
    bool err = false;
    const char *v;
    for (int i = 1; i < argc && !err; i++) {
        if (tv_cfg_option(argc, argv, &i, &o->tv, &err)) {}
        else if ((v = cli_opt(argc, argv, &i, "--elf"))) o->elf = v;
        else if ((v = cli_opt(argc, argv, &i, "--dut"))) {
            o->dut_qemu = !strcmp(v, "qemu");
            if (!o->dut_qemu && strcmp(v, "rvtrace")) {
                cli_err("verify: --dut must be rvtrace or qemu, not '%s'", v);
                err = true;
            }
        }
        else if ((v = cli_opt(argc, argv, &i, "--isa"))) o->isa = v;
        else if (run_boot_option(argc, argv, &i, &o->boot)) {}
        else if ((v = cli_opt(argc, argv, &i, "--ram-size"))) err = !cli_parse_ram_size("--ram-size", v, &o->ram_size);
        else if ((v = cli_opt(argc, argv, &i, "--max-report")))
            err = !cli_parse_range("--max-report", v, CLI_NUM_COUNT, 1, UINT64_MAX, &o->max_report);
        else if (argv[i][0] == '-' && argv[i][1]) { cli_err("verify: unknown option '%s'", argv[i]); err = true; }
        else if (o->path) { cli_err("verify: more than one trace given"); err = true; }
        else o->path = argv[i];
    }
    if (!err && run_boot_check(&o->boot, o->elf) != CLI_OK)
        err = true;
    if (!err && o->boot.bios)
        o->elf = o->boot.bios;   /* names the run in messages */
    if (!err && (!o->elf || !o->path)) {
        cli_err("verify: usage: rvtrace verify --elf PROG.elf FILE.tvt (or --bios FW ...)");
        err = true;
    }
    return err ? CLI_USAGE : 0;
}

static bool isa_opts(const verify_opts *o, unsigned *xlen, bool *no_c, bool *no_fp)
{
    if (!o->isa || cli_parse_isa(o->isa, xlen, no_c, no_fp))
        return true;
    cli_err("verify: unknown --isa '%s'", o->isa);
    return false;
}

/* Feed the whole trace; returns the number of format errors or < 0. */
static int64_t feed(rvt_tv_reader *r, rvt_tv_verifier *v, const char *path)
{
    rvt_tv_item it;
    uint64_t off;
    int64_t bad = 0;
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) != RVT_ERR_EOS) {
        if (st == RVT_OK)
            st = rvt_tv_verifier_put(v, &it);
        else {
            bad++;
            cli_diag((void *)path, RVT_DIAG_ERROR, off, rvt_status_str(st));
            if (st != RVT_ERR_FORMAT && st != RVT_ERR_TRUNC)
                return st;
            continue;
        }
        if (st < 0 && st != RVT_ERR_MISMATCH)
            return st;
    }
    st = rvt_tv_verifier_end(v);
    return st < 0 && st != RVT_ERR_MISMATCH ? st : bad;
}

static int report(const verify_opts *o, rvt_tv_verifier *v, int64_t bad)
{
    rvt_tv_verify_stats s;
    rvt_tv_verifier_stats(v, &s);
    rvt_tv_divergence d;
    char a[32], b[32], c[32];
    fprintf(stderr, "rvtrace: %s items, %s groups, %s instructions/traps verified, %"
            PRIu64 " divergence(s)\n", cli_thousands(s.items, a, sizeof a),
            cli_thousands(s.groups, b, sizeof b), cli_thousands(s.steps, c, sizeof c),
            s.divergences);
    if (rvt_tv_verifier_first(v, &d)) {
        char line[256];
        printf("first divergence: %s\n", rvt_tv_divergence_str(&d, line, sizeof line));
        return CLI_FAIL;
    }
    if (bad) {
        cli_err("%s: %" PRId64 " corrupt item(s)", o->path, bad);
        return CLI_FAIL;
    }
    if (!rvt_tv_verifier_complete(v)) {
        cli_err("%s: the trace ends after %s instructions/traps, before the program did "
                "(no test-finisher write): only that prefix was verified", o->path, c);
        return CLI_FAIL;
    }
    printf("trace matches the reference hart\n");
    return CLI_OK;
}

static int verify_loaded(verify_opts *o, rvt_image *img)
{
    unsigned xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
    bool no_c = false, no_fp = false;
    if (!isa_opts(o, &xlen, &no_c, &no_fp))
        return CLI_USAGE;
    rvt_tv_verify_cfg cfg = {
        .tv = o->tv, .max_report = o->max_report, .diag = cli_diag, .diag_ctx = (void *)o->path,
        .hart = { .xlen = xlen, .no_compressed = no_c, .no_fp = no_fp, .ram_size = o->ram_size,
                  .sbi_pmu = rvt_hart_wants_sbi(img) },
    };
    if (!cfg.tv.xlen)
        cfg.tv.xlen = xlen;
    if (run_boot_cfg(&o->boot, &cfg.hart, xlen) != CLI_OK)
        return CLI_FAIL;
    static uint16_t qemu_csrs[32];
    if (o->dut_qemu) {
        /* docs/tv.md "QEMU as the DUT": QEMU 7.2 performs misaligned
         * accesses; its log shows only some CSRs */
        cfg.hart.misaligned_emulate = true;
        cfg.no_insn = true;
        cfg.ncsr_scope = rvt_tv_qemu_csrs(qemu_csrs, 32);
        cfg.csr_scope = qemu_csrs;
    }
    int st, fd;
    rvt_tv_verifier *v = rvt_tv_verifier_new(&cfg, img, &st);
    if (!v) {
        cli_err("%s: cannot start the reference hart: %s", o->elf, rvt_status_str(st));
        return CLI_FAIL;
    }
    rvt_tv_reader *r = tv_reader_open(o->path, &cfg.tv, &fd);
    int rc = CLI_FAIL;
    if (r) {
        int64_t bad = feed(r, v, o->path);
        if (bad < 0)
            cli_err("%s: %s", o->path, rvt_status_str((int)bad));
        else
            rc = report(o, v, bad);
    }
    tv_reader_close(r, fd);
    rvt_tv_verifier_free(v);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    verify_opts o = { 0 };
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc;
    rvt_image *img = rvt_image_new();
    if (!img)
        return CLI_FAIL;
    rvt_image_set_diag(img, cli_diag, (void *)o.elf);
    int st = 0;
    if (!cli_in(o.path)) {
        rc = CLI_FAIL;
    } else if (o.boot.bios) {
        rc = run_boot_load(&o.boot, img, o.ram_size, o.isa && !strncmp(o.isa, "rv32", 4) ? 32 : 0);
        if (!rc)
            rc = verify_loaded(&o, img);
    } else if (!cli_in(o.elf)) {
        rc = CLI_FAIL;
    } else if ((st = rvt_image_load_elf(img, o.elf)) < 0) {
        cli_err("%s: %s", o.elf, rvt_status_str(st));
        rc = CLI_FAIL;
    } else {
        rc = verify_loaded(&o, img);
    }
    rvt_image_free(img);
    run_boot_free(&o.boot);
    return rc;
}
