/* rvtrace dump FILE: one packet (E-Trace), message (N-Trace), record (.rvi)
 * or tandem-verification item (.tvt) per line, every field named; the
 * protocols' walk is rvt_proto_dump (rvtrace/proto.h). */
#include <stdlib.h>
#include <string.h>
#include "cli_kind.h"
#include "cli_perf.h"
#include "dump_summary.h"
#include "pcbin_dump.h"

const char cmd_dump_help[] =
    "usage: rvtrace dump [--etrace|--ntrace|--tv] [--json|--summary] [--addresses] FILE\n"
    "\n"
    "Print a trace file one packet (E-Trace .te), message (N-Trace .nt),\n"
    "record (.rvi) or tandem-verification item (.tvt) per line, every field\n"
    "named.  The kind is taken from --etrace/--ntrace/--tv, else the settings\n"
    "in FILE.attrs, else the bytes (N-Trace by its MSEO bits, E-Trace by its\n"
    "framing), else the file name (.te .nt .rvi .tvt: only a hint; a name\n"
    "the bytes contradict is said on stderr, as is a kind the bytes alone told).\n"
    "An ELF or the other trace's FILE.attrs is reported in one line.  Settings are read from\n"
    "FILE.attrs when present; a .tvt stream takes --xlen/--flen/--mlen\n"
    "(default 64).  Fields are printed as on the wire; in text, an E-Trace\n"
    "address is followed by the byte address or signed byte difference it\n"
    "stands for, e.g. address=0x1d (+0x3a).\n"
    "--summary (E-Trace, N-Trace): instead of the list, a table of packets or\n"
    "messages per kind with their bytes and share of the stream, biggest\n"
    "first (E-Trace bytes include the 1-byte headers).  --addresses (N-Trace):\n"
    "each message with an F-ADDR or U-ADDR ends with the PC it stands for\n"
    "(\"-> 0x...\"; JSON: \"pc\"), U-ADDR being XORed with the source's previous\n"
    "address (N-Trace 8.1).\n"
    "A binary PC list (decode --pcs-bin, docs/formats.md; known by its magic)\n"
    "is printed as decode --pcs writes the PCs: one hex address per line.\n"
    "E-Trace containers: the reference-flow framing, or the ratified\n"
    "encapsulation (--container encap, docs/transport.md) when FILE.attrs says\n"
    "so or the file starts with a synchronisation sequence; the choice is\n"
    "said on stderr, and --container/--encap-* options override it.  Offsets\n"
    "are the file's bytes (an encapsulated packet's header).\n"
    "A perf.data is listed one record per line as perf report -D prints them,\n"
    "then the count of each record type (docs/perfdata.md).\n";

typedef struct dump_ctx {
    const char *file;
    dump_summary *sum;
} dump_ctx;

/* The item's line with the FILE's byte offset of an unwrapped
 * (encapsulated) stream in place of the unwrapped one: the text form's
 * leading right-aligned offset, the JSON form's first member "offset". */
static const char *file_offset_text(const rvt_proto_item *it, char *buf, size_t n)
{
    uint64_t off = cli_container_offset(it->offset);
    static const char key[] = "{\"offset\":";
    const char *t = it->text, *rest = t;
    bool json = !strncmp(t, key, sizeof key - 1);
    if (off == it->offset)
        return t;
    rest += json ? sizeof key - 1 : strspn(t, " ");
    rest += strspn(rest, "0123456789");
    snprintf(buf, n, json ? "%s%llu%s" : "%s%8llu%s", json ? key : "", (unsigned long long)off, rest);
    return buf;
}

static int on_item(void *ctx, const rvt_proto_item *it)
{
    dump_ctx *d = ctx;
    char line[2048];
    if (it->status < 0)
        cli_diag((void *)d->file, RVT_DIAG_ERROR, cli_container_offset(it->offset), it->msg);
    else if (d->sum)
        dump_summary_add(d->sum, it->name, it->size);
    if (it->text) {
        const char *t = file_offset_text(it, line, sizeof line);
        /* several sources in one encapsulated stream: which one (2.1.2) */
        long src = cli_container_nsources() > 1 ? cli_container_src_at(it->offset) : -1;
        if (src >= 0 && t[0] == '{')
            printf("{\"srcID\":%ld,%s\n", src, t + 1);
        else if (src >= 0)
            printf("%s srcID=%ld\n", t, src);
        else
            puts(t);
    }
    return 0;
}

void cli_warn_incomplete(const char *file, const rvt_proto *p, uint64_t offset)
{
    char msg[256];
    snprintf(msg, sizeof msg, "incomplete trace: the stream ends without the encoder's end marker "
             "(%s); the last complete %s ends here", rvt_proto_end_marker(p), rvt_proto_unit(p));
    cli_diag((void *)file, RVT_DIAG_WARN, cli_container_offset(offset), msg);
}

static int dump_stream(const cli_args *a, const char *file, rvt_proto_cfg *c, bool te)
{
    bool summary = cli_args_has(a, O_SUMMARY), json = cli_args_has(a, O_JSON);
    unsigned flags = (json ? RVT_PROTO_DUMP_JSON : 0) | (summary ? RVT_PROTO_DUMP_NOTEXT : 0) |
                     (cli_args_has(a, O_ADDRESSES) && !summary ? RVT_PROTO_DUMP_PCS : 0);
    size_t len;
    uint8_t *buf = cli_slurp(file, &len);
    if (te) {   /* E-Trace: unwrap an encapsulated stream, all sources (cli_container.c) */
        cli_container_merge_sources();
        buf = cli_container_unwrap(file, buf, &len);
    }
    if (!buf)
        return CLI_FAIL;
    dump_ctx d = { .file = file, .sum = summary ? calloc(1, sizeof *d.sum) : NULL };
    if (summary && !d.sum) {
        free(buf);
        cli_err("dump: out of memory");
        return CLI_FAIL;
    }
    rvt_proto_dump_end end;
    int st = rvt_proto_dump(c, buf, len, flags, on_item, &d, &end);
    if (d.sum) {
        char unit[32];
        snprintf(unit, sizeof unit, "%ss", rvt_proto_unit(rvt_proto_cfg_proto(c)));
        dump_summary_print(d.sum, len, unit);
    }
    if (st < 0)
        cli_err("%s: %s", file, rvt_status_str(st));
    else if (end.knows_end && !end.ended && !end.errors)   /* bad items already say it is damaged */
        cli_warn_incomplete(file, rvt_proto_cfg_proto(c), end.complete);
    free(d.sum);
    free(buf);
    return st < 0 || end.errors || cli_container_damaged() ? CLI_FAIL : CLI_OK;
}

int cmd_dump(int argc, char **argv)
{
    cli_args a;
    cli_kind k;
    int rc = cli_args_parse(&a, CMD_DUMP, "dump", argc, argv);
    if (rc == CLI_OK && a.nfiles && pcbin_is_file(a.files[0]))
        return pcbin_dump_file(a.files[0]);
    if (rc == CLI_OK && a.nfiles && cli_perf_file(a.files[0]))
        return cli_perf_dump(&a, a.files[0]);     /* perf.data (cli_perf.c) */
    if (rc == CLI_OK)
        rc = cli_kind_of(&a, &k);
    if (rc != CLI_OK)
        return rc;
    if (k == KIND_NONE) {
        cli_kind_unknown(&a);
        return CLI_USAGE;
    }
    if ((rc = cli_args_check_kind(&a, k)) != CLI_OK)
        return rc;
    if (!a.nfiles) {
        cli_err("dump: no input file");
        return CLI_USAGE;
    }
    if (k == KIND_RVI)
        return rvi_dump_file(a.files[0], cli_args_has(&a, O_JSON));
    rvt_proto_cfg *c = rvt_proto_cfg_new(cli_kind_proto(k));
    if (!c)
        return CLI_FAIL;
    rc = cli_settings_load(&a, a.files[0], c);
    if (rc == CLI_OK && k == KIND_TVT)
        rc = tv_dump_file(a.files[0], cli_args_has(&a, O_JSON), rvt_proto_cfg_native(c));
    else if (rc == CLI_OK)
        rc = dump_stream(&a, a.files[0], c, k == KIND_TE);
    rvt_proto_cfg_free(c);
    return rc;
}
