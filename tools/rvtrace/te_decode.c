/* rvtrace decode --elf P.elf F.te: rebuild the retired instructions with
 * the flow decoder and write them through the output writers (out.h). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "te_opts.h"

typedef struct dec_out {
    rvt_out *pcs, *main;
    const char *file;
    uint64_t errors;
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
    if (o->pcs)
        rvt_out_event(o->pcs, ev);
    if (o->main)
        rvt_out_event(o->main, ev);
    return 0;
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
    rvt_out_kind kind = RVT_OUT_LISTING;
    int kinds = 0;              /* --listing/--json/--folded given */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--te-opt") || !strcmp(argv[i], "--te-attr")) {
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
        else if ((v = cli_opt(argc, argv, &i, "--pcs")) || (v = cli_opt(argc, argv, &i, "--pcs-retired")))
            pcs = v;
        else if (cli_stdout_kind(argv[i], &kind, &kinds))
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
    bool main_out = kinds || !pcs;   /* stdout: as asked, else the listing unless --pcs */
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
    dec_out o = { .file = in };
    if (!cli_in(elf) || rvt_image_load_elf(img, elf) < 0 || (raw && load_raw(img, raw) < 0) ||
        !(buf = cli_slurp(in, &len)))
        goto out;
    if (pcs && !(pf = cli_out_fopen(pcs, "w")))
        goto out;
    if (pf)
        o.pcs = rvt_out_new(RVT_OUT_PCS, pf, img);
    if (main_out)
        o.main = rvt_out_new(kind, stdout, img);
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(&a, img, on_event, &o, &st);
    if (!d) {
        cli_err("%s: %s", in, rvt_status_str(st));
        goto out;
    }
    cli_decode_progress_init(&o.pr, in, len, !main_out);
    rvt_te_decoder_run(d, buf, len);
    ran = true;
    cli_progress_done(&o.pr.p);
    rc = o.errors ? CLI_FAIL : CLI_OK;
    rvt_te_decoder_free(d);
out:
    if (o.pcs)
        rvt_out_free(o.pcs);
    if (o.main)
        rvt_out_free(o.main);
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    else if (ran && cli_out_commit() != CLI_OK)
        rc = CLI_FAIL;       /* decode errors are reported; the output is whole */
    free(buf);
    rvt_image_free(img);
    return rc;
}
