/* rvtrace decode --elf P.elf F.nt: the N-Trace flow decoder (ch. 11) with
 * PC list, listing or JSON-lines output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "nt_cli.h"
#include "rvtrace/image.h"
#include "rvtrace/out.h"

typedef struct dec_ctx {
    rvt_out *outs[2];
    size_t nout;
    const char *path;
    uint64_t errors;
} dec_ctx;

static const rvt_insn *image_insn(void *img, uint64_t pc)
{
    return rvt_image_insn(img, pc);
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    dec_ctx *c = ctx;
    if (ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_LOST) {
        if (ev->kind == RVT_EV_ERROR)
            c->errors++;
        char msg[256];
        snprintf(msg, sizeof msg, "%s (src %u, pc 0x%llx)", ev->msg ? ev->msg : "error",
                 ev->src, (unsigned long long)ev->pc);
        cli_diag((void *)c->path, ev->kind == RVT_EV_ERROR ? RVT_DIAG_ERROR : RVT_DIAG_WARN,
                 ev->offset, msg);
    }
    for (size_t i = 0; i < c->nout; i++) {
        int st = rvt_out_event(c->outs[i], ev);
        if (st)
            return st;
    }
    return 0;
}

int nt_cmd_decode(int argc, char **argv)
{
    const char *path = NULL, *elf = NULL, *pcs = NULL, *v;
    rvt_out_kind kind = RVT_OUT_LISTING;
    int src = -1;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt(argc, argv, &i, "--elf")))
            elf = v;
        else if ((v = cli_opt(argc, argv, &i, "--pcs")))
            pcs = v;
        else if ((v = cli_opt(argc, argv, &i, "--src")))
            src = atoi(v);
        else if (!strcmp(argv[i], "--json"))
            kind = RVT_OUT_JSON;
        else if (!strcmp(argv[i], "--listing"))
            kind = RVT_OUT_LISTING;
        else if (!strcmp(argv[i], "--ntrace"))
            continue;
        else if (argv[i][0] != '-')
            path = argv[i];
        else if (nt_opt_setting(argc, argv, &i, &(rvt_nt_cfg){0}) == 0) {
            cli_err("decode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (!path || !elf) {
        fputs(cmd_decode_help, stderr);
        fputs(nt_options_help, stderr);
        return CLI_USAGE;
    }
    rvt_nt_cfg cfg;
    int st = nt_settings_for(path, argc, argv, &cfg);
    if (st)
        return st;
    rvt_image *img = rvt_image_new();
    if (!img)
        return CLI_FAIL;
    rvt_image_set_diag(img, cli_diag, (void *)elf);
    if (rvt_image_load_elf(img, elf) < 0) {
        rvt_image_free(img);
        return CLI_FAIL;
    }
    if (!cfg.xlen || cfg.xlen == 64) {
        unsigned x = rvt_image_xlen(img);
        if (x)
            cfg.xlen = x;   /* the program's class unless rvtXlen says otherwise */
    }
    size_t len;
    uint8_t *buf = nt_slurp(path, &len);
    FILE *pf = NULL;
    dec_ctx c = { .path = path };
    if (buf && pcs) {
        pf = fopen(pcs, "w");
        if (!pf)
            cli_err("%s: cannot create", pcs);
        else
            c.outs[c.nout++] = rvt_out_new(RVT_OUT_PCS, pf, img);
    }
    if (buf && (!pcs || kind == RVT_OUT_JSON))
        c.outs[c.nout++] = rvt_out_new(kind, stdout, img);
    rvt_nt_decoder *d = buf ? rvt_nt_decoder_new(&cfg, image_insn, img, src, &st) : NULL;
    int rc = CLI_FAIL;
    if (d && (!pcs || pf)) {
        st = rvt_nt_decode(d, buf, len, on_event, &c);
        if (st >= 0)
            st = rvt_nt_decode_end(d, on_event, &c);
        rc = st < 0 || c.errors ? CLI_FAIL : CLI_OK;
    }
    for (size_t i = 0; i < c.nout; i++)
        rvt_out_free(c.outs[i]);
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    rvt_nt_decoder_free(d);
    free(buf);
    rvt_image_free(img);
    return rc;
}
