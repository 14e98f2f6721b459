/* rvtrace decode --elf P.elf F.nt: the N-Trace flow decoder (ch. 11) with
 * PC list, listing or JSON-lines output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_file_out.h"
#include "nt_cli.h"
#include "rvtrace/image.h"
#include "rvtrace/out.h"

/* The decoder accepted I-CNTs wider than the configured counter (8.4.4;
 * the reference code never reports overflow): say so once. */
static void note_wide_icnt(const char *path, const rvt_nt_cfg *cfg, const rvt_nt_dec_stats *ds)
{
    char msg[256];
    snprintf(msg, sizeof msg,
             "I-CNT wider than rvtIcntBits=%u (8.4.4) in %llu message(s), the first here: "
             "accepted (the encoder did not report I-CNT overflow); --nt-opt icnt-bits=N "
             "states the width", cfg->icnt_bits, (unsigned long long)ds->wide_icnt);
    cli_diag((void *)path, RVT_DIAG_INFO, ds->wide_icnt_offset, msg);
}

/* --src N: a source id, 0..4095 (table 8: SRC is at most 12 bits). */
static bool parse_src(const char *v, int *src)
{
    uint64_t n;
    if (!cli_parse_u64(v, &n) || n > 4095) {
        cli_err("decode: --src %s: want a source id 0..4095", v);
        return false;
    }
    *src = (int)n;
    return true;
}

/* 11.4: self-modifying code.  --smc FILE lists "CONTENT ADDR SIZE WORD"
 * lines (the corpus' amo_smc.smc.txt form); content k is written into the
 * image when the k-th fence.i retires. */
#define SMC_MAX 256
typedef struct smc_word {
    unsigned content;
    uint64_t addr;
    uint32_t word;
    unsigned size;
} smc_word;

typedef struct dec_ctx {
    rvt_out *outs[2];
    size_t nout;
    cli_file_outs files;      /* --lcov FILE, ... */
    const char *path;
    uint64_t errors;
    bool incomplete;          /* RVT_EV_END said RVT_END_INCOMPLETE */
    uint64_t losses, lost_hw; /* RVT_EV_LOST events, the half-words they name */
    rvt_image *img;
    rvt_nt_decoder *dec;
    smc_word smc[SMC_MAX];
    size_t nsmc;
    unsigned fences;
    cli_decode_progress pr;
} dec_ctx;

static bool smc_load(dec_ctx *c, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_err("%s: cannot open", path);
        return false;
    }
    char line[256];
    while (fgets(line, sizeof line, f) && c->nsmc < SMC_MAX) {
        smc_word w;
        unsigned long long a;
        unsigned word;
        if (line[0] == '#' || sscanf(line, "%u %llx %u %x", &w.content, &a, &w.size, &word) != 4)
            continue;
        w.addr = a;
        w.word = word;
        c->smc[c->nsmc++] = w;
    }
    fclose(f);
    return true;
}

static void smc_fence(dec_ctx *c)
{
    unsigned k = ++c->fences;
    bool any = false;
    for (size_t i = 0; i < c->nsmc; i++) {
        if (c->smc[i].content != k)
            continue;
        uint8_t b[4] = { (uint8_t)c->smc[i].word, (uint8_t)(c->smc[i].word >> 8),
                         (uint8_t)(c->smc[i].word >> 16), (uint8_t)(c->smc[i].word >> 24) };
        rvt_image_add_bytes(c->img, c->smc[i].addr, b, c->smc[i].size, "smc");
        rvt_image_invalidate(c->img, c->smc[i].addr, c->smc[i].size);
        any = true;
    }
    if (any)
        rvt_nt_decoder_flush_cache(c->dec);
}

static int on_event(void *ctx, const rvt_flow_event *ev)
{
    dec_ctx *c = ctx;
    cli_decode_progress_event(&c->pr, ev);
    if (ev->kind == RVT_EV_INSN && c->nsmc) {
        const rvt_insn *i = rvt_image_insn(c->img, ev->pc);
        if (i && i->op == RVT_OP_FENCE_I)
            smc_fence(c);
    }
    if (ev->kind == RVT_EV_ERROR || ev->kind == RVT_EV_LOST) {
        if (ev->kind == RVT_EV_ERROR)
            c->errors++;
        else {
            c->losses++;
            c->lost_hw += ev->aux2;
        }
        char msg[256];
        snprintf(msg, sizeof msg, "%s (src %u, pc 0x%llx)", ev->msg ? ev->msg : "error",
                 ev->src, (unsigned long long)ev->pc);
        cli_diag((void *)c->path, ev->kind == RVT_EV_ERROR ? RVT_DIAG_ERROR : RVT_DIAG_WARN,
                 ev->offset, msg);
    }
    if (ev->kind == RVT_EV_END && (ev->aux & RVT_END_INCOMPLETE)) {
        c->incomplete = true;
        cli_diag((void *)c->path, RVT_DIAG_WARN, ev->offset,
                 "incomplete trace: the stream ends without the encoder's end marker "
                 "(ProgTraceCorrelation, 7.12); the last complete message ends here");
    }
    for (size_t i = 0; i < c->nout; i++) {
        int st = rvt_out_event(c->outs[i], ev);
        if (st)
            return st;
    }
    cli_file_outs_event(&c->files, ev);
    return 0;
}

/* After a loss the decoder restarts at the next sync; say once, at the
 * end, what that cost.  N-Trace counts half-words (8.4), so the skipped
 * messages' I-CNT bounds the lost instructions (1 or 2 half-words each);
 * the span where the error struck and HIST-only messages add an unknown
 * part. */
static void summarise_losses(const char *path, const dec_ctx *c, const rvt_nt_dec_stats *ds)
{
    char msg[384], hw[160] = "";
    if (c->lost_hw)
        snprintf(hw, sizeof hw, " (the skipped messages' I-CNT alone covers %llu half-words: "
                 "%llu to %llu instructions)", (unsigned long long)c->lost_hw,
                 (unsigned long long)((c->lost_hw + 1) / 2), (unsigned long long)c->lost_hw);
    snprintf(msg, sizeof msg,
             "%llu instructions decoded; trace lost at %llu point(s), decoding resumed at the "
             "next sync each time; instructions lost: unknown%s",
             (unsigned long long)ds->insns, (unsigned long long)c->losses, hw);
    cli_diag((void *)path, RVT_DIAG_WARN, UINT64_MAX, msg);
}

int nt_cmd_decode(int argc, char **argv)
{
    const char *path = NULL, *elf = NULL, *pcs = NULL, *smc = NULL, *v;
    const rvt_out_writer *stdout_w = rvt_out_find("listing");
    int kinds = 0;              /* --listing/--json/--folded given */
    int src = -1;
    bool count = false, strict = false;
    static dec_ctx c;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt(argc, argv, &i, "--elf")))
            elf = v;
        else if ((v = cli_opt(argc, argv, &i, "--pcs")) || (v = cli_opt(argc, argv, &i, "--pcs-retired")))
            pcs = v;
        else if ((v = cli_opt(argc, argv, &i, "--smc")))
            smc = v;
        else if ((v = cli_opt(argc, argv, &i, "--src"))) {
            if (!parse_src(v, &src))
                return CLI_USAGE;
        } else if (!strcmp(argv[i], "--strict"))
            strict = true;
        else if (cli_stdout_writer(argv[i], &stdout_w, &kinds))
            continue;
        else if (cli_file_out_opt(&c.files, argc, argv, &i))
            continue;
        else if (!strcmp(argv[i], "--count"))
            count = true;
        else if (!strcmp(argv[i], "--ntrace"))
            continue;
        else if (argv[i][0] != '-')
            path = argv[i];
        else if (nt_opt_setting(argc, argv, &i, &(rvt_nt_cfg){0}) == 0) {
            cli_err("decode: unknown option %s", argv[i]);
            return CLI_USAGE;
        }
    }
    if (kinds > 1)
        return CLI_USAGE;
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
    if (!cli_in(elf) || rvt_image_load_elf(img, elf) < 0) {
        rvt_image_free(img);
        return CLI_FAIL;
    }
    if (!cfg.xlen || cfg.xlen == 64) {
        unsigned x = rvt_image_xlen(img);
        if (x)
            cfg.xlen = x;   /* the program's class unless rvtXlen says otherwise */
    }
    size_t len;
    uint8_t *buf = cli_slurp(path, &len);
    FILE *pf = NULL;
    c.path = path;
    c.img = img;
    if (smc && !smc_load(&c, smc)) {
        free(buf);
        rvt_image_free(img);
        return CLI_FAIL;
    }
    if (buf && pcs) {
        pf = cli_out_fopen(pcs, "w");
        if (pf)
            c.outs[c.nout++] = rvt_out_open(rvt_out_find("pcs"), pf, img);
    }
    bool to_stdout = buf && (kinds || (!count && !pcs && !c.files.n));   /* as asked, else the listing */
    if (to_stdout)
        c.outs[c.nout++] = rvt_out_open(stdout_w, stdout, img);
    rvt_nt_decoder *d = buf ? rvt_nt_decoder_new(&cfg, rvt_image_insn_cb, img, src, &st) : NULL;
    bool files_ok = d && cli_file_outs_open(&c.files, img) == CLI_OK;
    if (d && count && !pcs && !c.nsmc && !c.files.n)
        rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_COUNT);   /* --smc needs each fence.i */
    int rc = CLI_FAIL;
    bool ran = false;
    c.dec = d;
    if (files_ok && (!pcs || pf)) {
        cli_decode_progress_init(&c.pr, path, len, !to_stdout);
        st = rvt_nt_decode(d, buf, len, on_event, &c);
        if (st >= 0)
            st = rvt_nt_decode_end(d, on_event, &c);
        cli_progress_done(&c.pr.p);
        ran = true;
        rc = st < 0 || c.errors || (strict && c.incomplete) ? CLI_FAIL : CLI_OK;
        rvt_nt_dec_stats ds;
        rvt_nt_decoder_stats(d, &ds);
        if (count)
            printf("%llu instructions\n", (unsigned long long)ds.insns);
        if (ds.wide_icnt)
            note_wide_icnt(path, &cfg, &ds);
        if (c.losses)
            summarise_losses(path, &c, &ds);
        if (src >= 0 && !ds.messages) {
            cli_err("%s: no message from source %d", path, src);
            rc = CLI_FAIL;
        }
    }
    for (size_t i = 0; i < c.nout; i++)
        rvt_out_free(c.outs[i]);
    if (cli_file_outs_close(&c.files) != CLI_OK)
        rc = CLI_FAIL, ran = false;
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    else if (ran && cli_out_commit() != CLI_OK)
        rc = CLI_FAIL;       /* decode errors are reported; the output is whole */
    rvt_nt_decoder_free(d);
    free(buf);
    rvt_image_free(img);
    return rc;
}
