/* rvtrace run --tci / --dump-sink / --pib (docs/tci.md): the Trace Control
 * Interface model on the board, the encoder behind each hart's
 * registers, and the RAM sink's buffer saved at exit in the form decode
 * takes (F, F.attrs with the sink_* keys, rvt_sink_order). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run_tci.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"

#define TCI_SRAM (64u << 10)
#define RAM_BASE 0x80000000ull

int run_tci_option(int argc, char **argv, int *i, run_tci *rt)
{
    const char *v;
    if (!strcmp(argv[*i], "--tci"))
        rt->on = true;
    else if ((v = cli_opt(argc, argv, i, "--dump-sink")))
        rt->dump = v, rt->on = true;
    else if ((v = cli_opt(argc, argv, i, "--pib")))
        rt->pib = v, rt->on = true;
    else
        return 0;
    return 1;
}

static bool to_ram(void *ctx, uint64_t addr, const uint8_t w[4])
{
    run_tci *rt = ctx;
    return rt->h && rvt_hart_tv_mem_write(rt->h, addr, w, 4) == 0;
}

static int to_pib(void *ctx, const uint8_t *b, size_t n)
{
    run_tci *rt = ctx;
    if (rt->pibf && fwrite(b, 1, n, rt->pibf) != n)
        rt->pib_err = true;
    return 0;
}

static void wr(run_tci *rt, uint64_t off, uint32_t v)
{
    rvt_tci_write(rt->t, off, v);
}

/* Bits a srcID of n harts needs (trTeInstFeatures.trTeSrcBits). */
static unsigned src_bits(unsigned n)
{
    unsigned b = 0;
    while ((n - 1) >> b)
        b++;
    return b;
}

/* trTeControl and trTeInstFeatures of hart h's encoder for run's E-Trace
 * settings: optimized mode, trTeInstSyncMode = resync_mode,
 * trTeInstSyncMax = resync_max (the same encodings), the full-address,
 * sijump and implicit-return modes; with several harts srcID = h
 * (trTeSrcID, bits 27:16; trTeSrcBits, 31:28). */
static void program_encoder(run_tci *rt, const rvt_te_attrs *a, unsigned h)
{
    uint64_t te = RVT_TCI_TE(h);
    unsigned max = a->resync_max > 15 ? 15 : a->resync_max;
    uint32_t ctl = RVT_TCI_ACTIVE | 6u << 4 | (a->resync_mode & 3u) << 16 | max << 20;
    uint32_t feat = (a->options & RVT_TE_OPT_FULL_ADDRESS ? 1u << 0 : 0) |
                    (a->options & RVT_TE_OPT_SIJUMP ? 1u << 2 : 0) |
                    (a->options & RVT_TE_OPT_IMPLICIT_RETURN ? 1u << 3 : 0) |
                    h << 16 | src_bits(rt->nharts) << 28;
    wr(rt, te, 0);
    wr(rt, te, RVT_TCI_ACTIVE);
    wr(rt, te + 8, feat);
    wr(rt, te, ctl);
    wr(rt, te, ctl | RVT_TCI_ENABLE);
    wr(rt, te, ctl | RVT_TCI_ENABLE | RVT_TCI_TE_INST_TRACING);
}

/* --tci --etrace OUT: "Enabling and Disabling" as a driver does it: the
 * PIB sink (4-bit parallel) and the funnel first, the encoder last. */
static void drive(run_tci *rt, const rvt_te_attrs *a)
{
    wr(rt, RVT_TCI_PIB, 0);
    wr(rt, RVT_TCI_PIB, RVT_TCI_ACTIVE);
    uint32_t pib = RVT_TCI_ACTIVE | 10u << 4 | 0xFu << 16;
    wr(rt, RVT_TCI_PIB, pib);
    wr(rt, RVT_TCI_PIB, pib | RVT_TCI_ENABLE);
    wr(rt, RVT_TCI_FUNNEL, 0);
    wr(rt, RVT_TCI_FUNNEL, RVT_TCI_ACTIVE);
    wr(rt, RVT_TCI_FUNNEL, RVT_TCI_ACTIVE | RVT_TCI_ENABLE);
    for (unsigned h = 0; h < rt->nharts; h++)
        program_encoder(rt, a, h);
}

int run_tci_open(run_tci *rt, const rvt_hart_cfg *cfg, unsigned xlen, unsigned nharts,
                 rvt_irec_sink *out)
{
    const char *pib = rt->etrace ? rt->etrace : rt->pib;
    if (rt->etrace && rt->pib) {
        cli_err("--pib: with --tci, --etrace OUT is the PIB sink's stream already");
        return CLI_USAGE;
    }
    if (pib && !(rt->pibf = cli_out_fopen(pib, "wb")))
        return CLI_FAIL;
    /* SMEM: the sink may write the whole RAM (the program chooses where) */
    rt->nharts = nharts;
    rvt_tci_cfg tc = { .nharts = nharts, .data_trace = true, .sram_size = TCI_SRAM, .smem_base = RAM_BASE,
                       .smem_size = cfg->ram_size ? cfg->ram_size : 128ull << 20,
                       .idle_byte = 0x00, .mem_write = to_ram, .pib_out = to_pib, .ctx = rt };
    int st;
    rt->t = rvt_tci_new(&tc, &st);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    a.iaddress_width = xlen;
    if (rt->attrs)
        a = *rt->attrs;
    for (unsigned h = 0; h < nharts && rt->t; h++) {
        if (!(rt->te[h] = rvt_tci_te_new(rt->t, h, &a, &st)))
            break;
        out[h] = rvt_tci_te_sink(rt->te[h]);
    }
    if (!rt->te[nharts - 1]) {
        cli_err("--tci: %s", rvt_status_str(st));
        return CLI_FAIL;
    }
    if (rt->etrace)
        drive(rt, &a);
    return CLI_OK;
}

/* OUT.attrs: the E-Trace attributes and container of the last session,
 * and for a sink's buffer its state */
static int write_attrs(const run_tci *rt, const char *out, const rvt_sink_state *s)
{
    char path[4096], buf[512];
    snprintf(path, sizeof path, "%s.attrs", out);
    FILE *f = cli_out_fopen(path, "w");
    if (!f)
        return CLI_FAIL;
    /* hart 0's encoder's settings: the harts' encoders are programmed
     * alike, their srcIDs apart */
    const rvt_nt_cfg *nt = rvt_tci_te_nt_cfg(rt->te[0]);
    int bad;
    if (nt)     /* N-Trace: MSEO messages as the encoder made them */
        bad = rvt_nt_cfg_write(nt, f) < 0 || fputs("container=mseo\n", f) == EOF;
    else
        bad = (rvt_te_attrs_write(rvt_tci_te_attrs(rt->te[0]), f) < 0) |
              (rvt_tp_config_write(rvt_tci_te_container(rt->te[0]), f) < 0);
    if (s)
        bad |= rvt_sink_state_format(s, buf, sizeof buf) < 0 || fputs(buf, f) == EOF;
    bad |= fclose(f) != 0;
    if (bad)
        cli_err("%s: write error", path);
    return bad ? CLI_FAIL : CLI_OK;
}

/* F: the buffer [trRamStart, trRamLimit + 4) as the sink left it. */
static int dump_sink(run_tci *rt)
{
    rvt_sink_state s;
    const uint8_t *sram;
    uint64_t size = 0;
    if (rvt_tci_ram_state(rt->t, &s, &sram) == 0)
        size = rvt_sink_size(&s);
    if (!size) {
        cli_err("%s: the RAM sink has no buffer (trRamLimit below trRamStart)", rt->dump);
        return CLI_FAIL;
    }
    uint8_t *buf = malloc(size);
    if (!buf) {
        cli_err("%s: out of memory", rt->dump);
        return CLI_FAIL;
    }
    int rc = CLI_OK;
    if (sram)
        memcpy(buf, sram + s.start, size);
    else if (rvt_hart_tv_mem_read(rt->h, s.start, buf, size) != 0) {
        cli_err("%s: the sink's buffer 0x%llx..0x%llx is not in RAM", rt->dump,
                (unsigned long long)s.start, (unsigned long long)(s.limit + 3));
        rc = CLI_FAIL;
    }
    FILE *f = rc == CLI_OK ? cli_out_fopen(rt->dump, "wb") : NULL;
    if (rc == CLI_OK && !f)
        rc = CLI_FAIL;
    if (f && (fwrite(buf, 1, size, f) != size) | (fclose(f) != 0)) {
        cli_err("%s: write error", rt->dump);
        rc = CLI_FAIL;
    }
    free(buf);
    return rc == CLI_OK ? write_attrs(rt, rt->dump, &s) : rc;
}

int run_tci_close(run_tci *rt)
{
    int rc = CLI_OK;
    if (rt->dump && rt->h && dump_sink(rt) != CLI_OK)
        rc = CLI_FAIL;
    const char *pib = rt->etrace ? rt->etrace : rt->pib;
    if (rt->pibf && (fclose(rt->pibf) != 0 || rt->pib_err)) {
        cli_err("%s: write error", pib);
        rc = CLI_FAIL;
    }
    rt->pibf = NULL;
    if (rc == CLI_OK && rt->etrace && write_attrs(rt, rt->etrace, NULL) != CLI_OK)
        rc = CLI_FAIL;
    return rc;
}

void run_tci_free(run_tci *rt)
{
    if (rt->pibf)
        fclose(rt->pibf);
    for (unsigned h = 0; h < RVT_SMP_MAX_HARTS; h++)
        rvt_tci_te_free(rt->te[h]);
    rvt_tci_free(rt->t);
    memset(rt, 0, sizeof *rt);
}
