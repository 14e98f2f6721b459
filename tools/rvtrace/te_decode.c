/* rvtrace decode --elf P.elf F.te: rebuild the retired instructions with
 * the flow decoder and write them through the output writers (out.h). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "te_opts.h"
#include "cli_file_out.h"

typedef struct dec_out {
    rvt_out *pcs, *main;
    cli_file_outs files;        /* --lcov FILE, ... */
    const char *file;
    uint64_t errors;
    bool incomplete;            /* RVT_END_INCOMPLETE */
    cli_decode_progress pr;
} dec_out;

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    dec_out *o = ctx;
    cli_decode_progress_event(&o->pr, ev);
    if (ev->kind == RVT_EV_ERROR) {
        o->errors++;
        cli_diag((void *)o->file, RVT_DIAG_ERROR, ev->offset, ev->msg ? ev->msg : "decode error");
    }
    if (ev->kind == RVT_EV_END && (ev->aux & RVT_END_INCOMPLETE)) {
        o->incomplete = true;
        te_warn_incomplete(o->file, ev->offset);
    }
    if (o->pcs)
        rvt_out_event(o->pcs, ev);
    if (o->main)
        rvt_out_event(o->main, ev);
    cli_file_outs_event(&o->files, ev);
    return 0;
}

/* After errors the decoder emits nothing until the next synchronisation
 * packet: say how much of the trace that cost. */
static void te_decode_loss_summary(const char *in, const rvt_te_dec_stats *st)
{
    char e[32], n[32], k[32];
    cli_err("%s: %s decode error%s: %s instructions decoded; %s packet%s skipped from the "
            "errors to the next synchronisation packets: their instructions are lost "
            "(E-Trace packets carry no instruction count)",
            in, cli_thousands(st->errors, e, sizeof e), st->errors == 1 ? "" : "s",
            cli_thousands(st->instructions, k, sizeof k), cli_thousands(st->skipped, n, sizeof n),
            st->skipped == 1 ? "" : "s");
}

static int load_raw(rvt_image *img, const char *spec)
{
    char path[4096];
    const char *at = strrchr(spec, '@');
    uint64_t base;
    if (!at || (size_t)(at - spec) >= sizeof path || !cli_parse_u64(at + 1, &base)) {
        cli_err("--raw: expected FILE@ADDRESS, got '%s'", spec);
        return -1;
    }
    memcpy(path, spec, (size_t)(at - spec));
    path[at - spec] = 0;
    return rvt_image_load_raw(img, path, base);
}

/* Spike's reset vector at 0x1000 (rvt_image_add_spike_reset_vector), where
 * every Spike trace starts: asked for (--spike-reset-vector, shadowing
 * whatever else is there), or added when nothing covers 0x1000, so a
 * stream taken on Spike decodes with the program's ELF alone. */
static int add_reset_vector(rvt_image *img, const rvt_te_attrs *a, bool asked)
{
    if (!asked && rvt_image_read(img, RVT_SPIKE_RESET_VECTOR, &(uint8_t){ 0 }, 1) == 1)
        return 0;
    unsigned xlen = rvt_image_xlen(img) ? rvt_image_xlen(img) : a->iaddress_width == 32 ? 32 : 64;
    return rvt_image_add_spike_reset_vector(img, xlen);
}

static int te_decode_data_only(const rvt_te_attrs *a, const char *in, const char *out)
{
    size_t len = 0;
    uint8_t *buf = cli_slurp(in, &len);
    if (!buf)
        return CLI_FAIL;
    int rc = te_data_decode(a, buf, len, in, out);
    free(buf);
    return rc;
}

int te_cmd_decode(int argc, char **argv)
{
    const char *elf = NULL, *in = NULL, *pcs = NULL, *raw = NULL, *data = NULL, *v;
    const rvt_out_writer *stdout_w = rvt_out_find("listing");
    bool count = false, strict = false, spike_rv = false;
    int kinds = 0;              /* --listing/--json/--folded given */
    dec_out o = { .file = NULL };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--te-opt") || !strcmp(argv[i], "--te-attr") ||
            !strcmp(argv[i], "--te-profile")) {
            i++;
            continue;
        }
        if (!strncmp(argv[i], "--te-", 5) || !strcmp(argv[i], "--etrace"))
            continue;
        if ((v = cli_opt(argc, argv, &i, "--elf")))
            elf = v;
        else if ((v = cli_opt(argc, argv, &i, "--data-out")) || (v = cli_opt(argc, argv, &i, "--data")))
            data = v;           /* te_data accesses as text (data_text.c) */
        else if ((v = cli_opt(argc, argv, &i, "--raw")))
            raw = v;            /* FILE@ADDR: e.g. a boot ROM outside the ELF */
        else if (!strcmp(argv[i], "--spike-reset-vector"))
            spike_rv = true;
        else if ((v = cli_opt(argc, argv, &i, "--pcs")) || (v = cli_opt(argc, argv, &i, "--pcs-retired")))
            pcs = v;
        else if (!strcmp(argv[i], "--count"))
            count = true;       /* only the number of instructions */
        else if (!strcmp(argv[i], "--strict"))
            strict = true;      /* an incomplete trace fails */
        else if (cli_stdout_writer(argv[i], &stdout_w, &kinds))
            continue;
        else if (cli_file_out_opt(&o.files, argc, argv, &i))
            continue;
        else if (argv[i][0] != '-')
            in = argv[i];
        else {
            cli_err("decode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (kinds > 1)
        return CLI_USAGE;
    /* stdout: as asked, else the listing unless --pcs or --count */
    bool main_out = kinds || (!pcs && !count && !o.files.n);
    if ((!elf && !data) || !in) {
        cli_err("decode: need --elf PROG.elf (or --data OUT) and a trace file");
        return CLI_USAGE;
    }
    rvt_te_attrs a;
    if (te_attrs_for_input(in, argc, argv, &a) < 0)
        return CLI_USAGE;
    if (data) {
        int drc = te_decode_data_only(&a, in, data);
        if (drc != CLI_OK || !elf)
            return drc;
    }
    rvt_image *img = rvt_image_new();
    if (!img)
        return CLI_FAIL;
    rvt_image_set_diag(img, cli_diag, (void *)elf);
    size_t len = 0;
    uint8_t *buf = NULL;
    FILE *pf = NULL;
    int rc = CLI_FAIL;
    bool ran = false;
    o.file = in;
    if (!cli_in(elf) || rvt_image_load_elf(img, elf) < 0 || (raw && load_raw(img, raw) < 0) ||
        add_reset_vector(img, &a, spike_rv) < 0 || !(buf = cli_slurp(in, &len)))
        goto out;
    if (pcs && !(pf = cli_out_fopen(pcs, "w")))
        goto out;
    if (pf)
        o.pcs = rvt_out_open(rvt_out_find("pcs"), pf, img);
    if (main_out)
        o.main = rvt_out_open(stdout_w, stdout, img);
    if (cli_file_outs_open(&o.files, img) != CLI_OK)
        goto out;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(&a, img, on_event, &o, &st);
    if (!d) {
        cli_err("%s: %s", in, rvt_status_str(st));
        goto out;
    }
    if (!o.pcs && !o.main && !o.files.n)
        rvt_te_decoder_set_events(d, false);    /* --count alone */
    cli_decode_progress_init(&o.pr, in, len, !main_out);
    rvt_te_decoder_run(d, buf, len);
    ran = true;
    cli_progress_done(&o.pr.p);
    if (o.errors)
        te_decode_loss_summary(in, rvt_te_decoder_stats(d));
    if (count)
        printf("%llu instructions\n", (unsigned long long)rvt_te_decoder_stats(d)->instructions);
    rc = o.errors || (strict && o.incomplete) ? CLI_FAIL : CLI_OK;
    rvt_te_decoder_free(d);
out:
    if (o.pcs)
        rvt_out_free(o.pcs);
    if (o.main)
        rvt_out_free(o.main);
    if (cli_file_outs_close(&o.files) != CLI_OK)
        rc = CLI_FAIL, ran = false;
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    else if (ran && cli_out_commit() != CLI_OK)
        rc = CLI_FAIL;       /* decode errors are reported; the output is whole */
    free(buf);
    rvt_image_free(img);
    return rc;
}
