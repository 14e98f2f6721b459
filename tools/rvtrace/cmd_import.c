/* rvtrace import FMT IN -o OUT: text traces to ingress records
 * (docs/format-import.md). */
#include <inttypes.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/image.h"
#include "tv_cli.h"

const char cmd_import_help[] =
    "usage: rvtrace import FORMAT IN -o OUT.rvi|OUT.csv [OPTIONS]\n"
    "\n"
    "Convert a text trace to ingress records (one E-Trace instruction block per\n"
    "retired instruction).  IN may be '-' for stdin; gzip files must be\n"
    "decompressed first (zcat F.gz | rvtrace import FORMAT - -o OUT.rvi).\n"
    "\n"
    "formats:\n"
    "  refcsv    E-Trace reference-flow encoder input: itype_0,cause,tval,priv,\n"
    "            iaddr_0,context,[time,]ctype,[sijump_0,]iretire_0,ilastsize_0\n"
    "  spikecsv  reference-flow Spike trace: VALID,ADDRESS,INSN,PRIVILEGE,\n"
    "            EXCEPTION,ECAUSE,TVAL,INTERRUPT\n"
    "  spikelog  spike --log-commits log (with or without -l lines)\n"
    "  pcs       one hex pc per line; needs --elf for the instruction words (a\n"
    "            list the image cannot explain, more than 1 in 20 instructions\n"
    "            followed by an inferred trap, is refused: wrong --elf)\n"
    "  qemu      QEMU's state log (qemu-system-riscv64 -singlestep\n"
    "            -d cpu,fpu,nochain,int) to a tandem-verification trace\n"
    "            -o OUT.tvt, from the ELF's entry on (needs --elf); check it\n"
    "            with 'rvtrace verify --dut qemu' (docs/tv.md)\n"
    "\n"
    "options:\n"
    "  -o FILE          output: .rvi (binary records) or .csv (encoder-input CSV)\n"
    "  --elf P.elf      program image (pcs; also sets the XLEN)\n"
    "  --xlen 32|64     XLEN for decoding instruction words (default: ELF's, else 64)\n"
    "  --itype3         refcsv input uses 3-bit itype (6 = uninferable jump)\n"
    "  --priv N         pcs: privilege level to report (default 3, M-mode)\n"
    "  --csv-itype3     .csv output: write 3-bit itype codes\n"
    "  --csv-time-sijump  .csv output: the variant with time and sijump_0 columns\n";

typedef struct imp_opts {
    const char *fmt, *in, *out, *elf;
    uint64_t xlen, priv;
    bool itype3, priv_set, csv_itype3, csv_ts;
} imp_opts;

static int parse_opts(int argc, char **argv, imp_opts *o)
{
    const char *v;
    for (int i = 1; i < argc; i++) {
        if ((v = cli_opt(argc, argv, &i, "-o"))) o->out = v;
        else if ((v = cli_opt(argc, argv, &i, "--elf"))) o->elf = v;
        else if ((v = cli_opt(argc, argv, &i, "--xlen"))) {
            if (!cli_parse_u64(v, &o->xlen) || (o->xlen != 32 && o->xlen != 64))
                return cli_err("--xlen must be 32 or 64"), CLI_USAGE;
        } else if ((v = cli_opt(argc, argv, &i, "--priv"))) {
            if (!cli_parse_range("--priv", v, CLI_NUM_PLAIN, 0, 7, &o->priv))
                return CLI_USAGE;
            o->priv_set = true;
        } else if (!strcmp(argv[i], "--itype3")) o->itype3 = true;
        else if (!strcmp(argv[i], "--csv-itype3")) o->csv_itype3 = true;
        else if (!strcmp(argv[i], "--csv-time-sijump")) o->csv_ts = true;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_err("import: unknown option %s", argv[i]), CLI_USAGE;
        else if (!o->fmt) o->fmt = argv[i];
        else if (!o->in) o->in = argv[i];
        else return cli_err("import: extra argument %s", argv[i]), CLI_USAGE;
    }
    if (!o->fmt || !o->in || !o->out) {
        cli_err("usage: rvtrace import FORMAT IN -o OUT (rvtrace help import)");
        return CLI_USAGE;
    }
    return CLI_OK;
}

/* The output: an .rvi writer or an encoder-input CSV writer. */
typedef struct imp_out {
    rvt_rvi_writer *rvi;
    rvt_refcsv_writer *csv;
    rvt_irec_sink sink;
} imp_out;

static int open_out(const imp_opts *o, unsigned xlen, imp_out *out)
{
    int st;
    const char *name = cli_out_claim(o->out);
    if (!cli_in(o->in) || !name)
        return RVT_ERR_INVAL;
    if (cli_has_suffix(o->out, ".csv")) {
        unsigned fl = (o->csv_itype3 ? RVT_REFCSV_ITYPE3 : 0) | (o->csv_ts ? RVT_REFCSV_TIME_SIJUMP : 0);
        out->csv = rvt_refcsv_writer_open(name, fl, &st);
        if (out->csv)
            out->sink = rvt_refcsv_writer_sink(out->csv);
    } else {
        out->rvi = rvt_rvi_writer_open(name, xlen, &st);
        if (out->rvi) {
            out->sink = rvt_rvi_writer_sink(out->rvi);
            if (o->itype3)
                rvt_rvi_writer_set_flags(out->rvi, RVT_RVI_F_ITYPE3);
        }
    }
    if (st < 0)
        cli_err("%s: cannot create: %s", o->out, rvt_status_str(st));
    return st;
}

static int close_out(imp_out *out)
{
    return out->rvi ? rvt_rvi_writer_close(out->rvi) : rvt_refcsv_writer_close(out->csv);
}

/* QEMU's state log -> a TV trace (tv_qemu.c) */
static int import_qemu(const imp_opts *o)
{
    if (!o->elf) {
        cli_err("import qemu needs --elf PROG.elf");
        return CLI_USAGE;
    }
    rvt_image *img = rvt_image_new();
    if (!img)
        return CLI_FAIL;
    rvt_image_set_diag(img, cli_diag, (void *)o->elf);
    int rc = CLI_FAIL;
    if (cli_in(o->elf) && rvt_image_load_elf(img, o->elf) >= 0) {
        unsigned xlen = o->xlen ? (unsigned)o->xlen : rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
        rc = tv_import_qemu(o->in, o->out, img, xlen);
    }
    rvt_image_free(img);
    return rc;
}

int cmd_import(int argc, char **argv)
{
    imp_opts o = { 0 };
    int rc = parse_opts(argc, argv, &o);
    if (rc != CLI_OK)
        return rc;
    if (!strcmp(o.fmt, "qemu"))
        return import_qemu(&o);
    int fmt = rvt_import_format(o.fmt);
    if (fmt < 0) {
        cli_err("import: unknown format '%s' (refcsv, spikecsv, spikelog, pcs)", o.fmt);
        return CLI_USAGE;
    }
    if (fmt == RVT_IMPORT_PCS && !o.elf) {
        cli_err("import pcs needs --elf PROG.elf");
        return CLI_USAGE;
    }
    rvt_image *img = NULL;
    if (o.elf) {
        img = rvt_image_new();
        rvt_image_set_diag(img, cli_diag, (void *)o.elf);
        if (!cli_in(o.elf) || rvt_image_load_elf(img, o.elf) < 0) {
            rvt_image_free(img);
            return CLI_FAIL;
        }
    }
    rvt_import_cfg cfg = { .itype3 = o.itype3, .xlen = (unsigned)o.xlen, .priv_set = o.priv_set,
                           .priv = (unsigned)o.priv, .image = img, .diag = cli_diag,
                           .diag_ctx = (void *)o.in };
    unsigned xlen = cfg.xlen ? cfg.xlen : img ? rvt_image_xlen(img) : 0;
    imp_out out = { 0 };
    rvt_import_result res;
    rc = open_out(&o, xlen, &out);
    if (rc >= 0) {
        rc = rvt_import_file((rvt_import_fmt)fmt, o.in, &cfg, &out.sink, &res);
        int crc = close_out(&out);
        if (rc >= 0 && crc < 0) {
            cli_err("%s: %s", o.out, rvt_status_str(crc));
            rc = crc;
        }
    }
    rvt_image_free(img);
    if (rc < 0)
        return CLI_FAIL;
    if (res.records == 0) {
        cli_err("%s: no records (nothing to import)", o.in);
        return CLI_FAIL;
    }
    char a[32], b[32];
    fprintf(stderr, "rvtrace: import %s: %s records (%" PRIu64 " traps, %" PRIu64
            " inferred) from %s lines, itype %u-bit\n", o.fmt, cli_thousands(res.records, a, sizeof a),
            res.traps, res.inferred_traps, cli_thousands(res.lines, b, sizeof b), res.itype_width);
    return CLI_OK;
}
