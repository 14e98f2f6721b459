/* perf.data in dump and decode (issue #16; rvtrace/perfdata.h): dump lists
 * the records as `perf report -D` does (one line each, then the totals per
 * type); decode takes each CPU's AUX area data (its AUXTRACE records, in
 * order) as an encapsulated E-Trace stream (cli_container.c) and decodes
 * it over the images the MMAP/MMAP2 records name, found under --symfs,
 * with the encoder settings a RISC-V AUXTRACE_INFO record carries. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_kind.h"
#include "cli_perf.h"
#include "rvtrace/etrace.h"
#include "rvtrace/image.h"
#include "rvtrace/perfdata.h"

bool cli_perf_file(const char *path)
{
    uint8_t magic[8];
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode))
        return false;       /* (a FIFO would block here; cli_slurp says why) */
    FILE *f = fopen(path, "rb");
    bool yes = f && fread(magic, 1, sizeof magic, f) == sizeof magic && rvt_perf_is(magic, 8);
    if (f)
        fclose(f);
    return yes;
}

/* The file read and its header checked; NULL after saying why. */
static rvt_perf_file *perf_open(const char *path, uint8_t **buf, size_t *len)
{
    int st;
    uint64_t bad;
    if (!(*buf = cli_slurp(path, len)))
        return NULL;
    rvt_perf_file *f = rvt_perf_open(*buf, *len, &st, &bad);
    if (!f) {
        char msg[128];
        snprintf(msg, sizeof msg, "bad perf.data header (%s)", rvt_status_str(st));
        cli_diag((void *)path, RVT_DIAG_ERROR, bad, msg);
        free(*buf);
    }
    return f;
}

static void bad_record(const char *path, int st, const rvt_perf_record *r)
{
    char msg[128];
    snprintf(msg, sizeof msg, "bad perf.data record (%s); the records after it are not read",
             rvt_status_str(st));
    cli_diag((void *)path, RVT_DIAG_ERROR, r->offset, msg);
}

/* ---- dump ---- */

static void print_record(const rvt_perf_record *r)
{
    const char *name = rvt_perf_record_name(r->type);
    printf("%#llx [%#x]: ", (unsigned long long)r->offset, r->size);
    if (name)
        printf("PERF_RECORD_%s", name);
    else
        printf("event %u", r->type);
    switch (r->type) {
    case RVT_PERF_RECORD_COMM:
        printf(": %s:%u/%u", r->name, r->pid, r->tid);
        break;
    case RVT_PERF_RECORD_MMAP:
    case RVT_PERF_RECORD_MMAP2:
        printf(" %u/%u: [%#llx(%#llx) @ %#llx", r->pid, r->tid, (unsigned long long)r->addr,
               (unsigned long long)r->len, (unsigned long long)r->pgoff);
        if (r->type == RVT_PERF_RECORD_MMAP2)
            printf(" prot %#x flags %#x", r->prot, r->flags);
        printf("]: %s", r->name);
        break;
    case RVT_PERF_RECORD_AUXTRACE_INFO:
        printf(" type: %u (%zu private words)", r->aux_type, r->npriv);
        break;
    case RVT_PERF_RECORD_AUXTRACE:
        printf(" size: %#llx  offset: %#llx  ref: %#llx  idx: %u  tid: %u  cpu: %u",
               (unsigned long long)r->data_len, (unsigned long long)r->aux_offset,
               (unsigned long long)r->aux_ref, r->aux_idx, r->tid, r->cpu);
        break;
    }
    putchar('\n');
}

static void print_header(const char *path, const rvt_perf_file *f)
{
    uint64_t off, size;
    rvt_perf_data_section(f, &off, &size);
    printf("# %s: perf.data, %zu attribute(s), data section at %#llx (%#llx bytes)\n", path,
           rvt_perf_nattrs(f), (unsigned long long)off, (unsigned long long)size);
    for (size_t i = 0; i < rvt_perf_nattrs(f); i++) {
        const rvt_perf_attr *a = rvt_perf_attr_at(f, i);
        printf("# attr %zu: type %u size %u config %#llx sample_type %#llx\n", i, a->type,
               a->size, (unsigned long long)a->config, (unsigned long long)a->sample_type);
    }
}

int cli_perf_dump(const cli_args *a, const char *path)
{
    size_t len;
    uint8_t *buf;
    if (cli_args_has(a, O_JSON)) {
        cli_err("dump: %s: perf.data is listed as text only", path);
        return CLI_USAGE;
    }
    rvt_perf_file *f = perf_open(path, &buf, &len);
    if (!f)
        return CLI_FAIL;
    bool summary = cli_args_has(a, O_SUMMARY);
    uint64_t count[256] = { 0 }, total = 0;
    rvt_perf_record r;
    int st;
    if (!summary)
        print_header(path, f);
    while ((st = rvt_perf_next(f, &r)) > 0) {
        total++;
        count[r.type & 255]++;
        if (!summary)
            print_record(&r);
    }
    if (st < 0)
        bad_record(path, st, &r);
    printf("\nAggregated stats:\n%16s events: %10llu\n", "TOTAL", (unsigned long long)total);
    for (unsigned t = 0; t < 256; t++)
        if (count[t] && rvt_perf_record_name(t))
            printf("%16s events: %10llu\n", rvt_perf_record_name(t), (unsigned long long)count[t]);
    rvt_perf_close(f);
    free(buf);
    return st < 0 ? CLI_FAIL : CLI_OK;
}

/* ---- decode ---- */

/* The image: every file the MMAP/MMAP2 records map, under --symfs (a
 * mapping once), placed as perf places it: the file bytes from pgoff on
 * at the mapped address (rvt_image_load_elf_mapped), so a relocated or
 * position-independent object decodes where it ran.  A bad record is
 * reported (false) and what came before it is used: a cut file still
 * decodes up to the cut. */
static bool load_maps(const char *path, rvt_perf_file *f, const char *symfs, rvt_image *img)
{
    rvt_perf_record r;
    int st;
    char file[4096];
    rvt_perf_rewind(f);
    while ((st = rvt_perf_next(f, &r)) > 0) {
        if (r.type != RVT_PERF_RECORD_MMAP && r.type != RVT_PERF_RECORD_MMAP2)
            continue;
        snprintf(file, sizeof file, "%s/%s", symfs, r.name);
        if (rvt_image_read(img, r.addr, &(uint8_t){ 0 }, 1) == 1)
            continue;          /* loaded already */
        if (rvt_image_load_elf_mapped(img, file, r.addr, r.len, r.pgoff) < 0)
            cli_err("%s: %s (mapped at %#llx, file offset %#llx): not loaded; its code cannot "
                    "be decoded: %s", path, file, (unsigned long long)r.addr,
                    (unsigned long long)r.pgoff, rvt_image_error(img, NULL));
    }
    if (st < 0)
        bad_record(path, st, &r);
    return st >= 0;
}

/* One CPU's AUX data: its AUXTRACE records' data in file order. */
static uint8_t *cpu_aux(rvt_perf_file *f, uint32_t cpu, size_t *len)
{
    rvt_perf_record r;
    size_t n = 0;
    uint8_t *out = NULL;
    rvt_perf_rewind(f);
    while (rvt_perf_next(f, &r) > 0) {
        if (r.type != RVT_PERF_RECORD_AUXTRACE || r.cpu != cpu)
            continue;
        uint8_t *o = realloc(out, n + r.data_len + 1);
        if (!o) {
            free(out);
            return NULL;
        }
        out = o;
        memcpy(out + n, r.data, r.data_len);
        n += r.data_len;
    }
    *len = n;
    return out ? out : calloc(1, 1);
}

/* The CPUs with AUX data, ascending (at most max). */
static size_t aux_cpus(rvt_perf_file *f, uint32_t *cpus, size_t max)
{
    rvt_perf_record r;
    size_t n = 0;
    rvt_perf_rewind(f);
    while (rvt_perf_next(f, &r) > 0) {
        if (r.type != RVT_PERF_RECORD_AUXTRACE)
            continue;
        size_t i = 0;
        while (i < n && cpus[i] < r.cpu)
            i++;
        if ((i < n && cpus[i] == r.cpu) || n == max)
            continue;
        memmove(cpus + i + 1, cpus + i, (n - i) * sizeof *cpus);
        cpus[i] = r.cpu;
        n++;
    }
    return n;
}

/* ---- the encoder's settings from AUXTRACE_INFO (docs/formats.md) ---- */

/* trTeInstFeatures bits (TCI 1.0) and the E-Trace modes they switch on. */
static const struct { unsigned bit; const char *option; } feature_options[] = {
    { 0, "full-address" },         /* trTeInstNoAddrDiff */
    { 2, "sijump" },               /* trTeInstEnSequentialJump */
    { 3, "implicit-return" },      /* trTeInstEnImplicitReturn */
    { 4, "branch-prediction" },    /* trTeInstEnBranchPrediction */
    { 5, "jump-target-cache" },    /* trTeInstEnJumpTargetCache */
};

static void apply_features(uint32_t features, rvt_proto_cfg *cfg)
{
    char list[128] = "";
    size_t n = 0;
    for (size_t i = 0; i < sizeof feature_options / sizeof *feature_options; i++)
        if (features >> feature_options[i].bit & 1)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? "," : "",
                                  feature_options[i].option);
    rvt_proto_cfg_set(cfg, "options", n ? list : "none");
}

/* CPU cpu's encoder block of a RISC-V AUXTRACE_INFO into cfg (E-Trace
 * modes, context field) and the container (the source field's width);
 * options and FILE.attrs, applied after, still win.  CLI_OK (also when
 * there is none), CLI_FAIL (said: a bad record, not E-Trace). */
static int info_settings(const char *path, rvt_perf_file *f, uint32_t cpu, rvt_proto_cfg *cfg)
{
    rvt_perf_record r;
    rvt_perf_riscv_te te;
    int got = 0;
    rvt_perf_rewind(f);
    while (!got && rvt_perf_next(f, &r) > 0)
        got = r.type == RVT_PERF_RECORD_AUXTRACE_INFO ? rvt_perf_riscv_te_info(&r, cpu, &te) : 0;
    if (got < 0)
        cli_diag((void *)path, RVT_DIAG_ERROR, r.offset,
                 "bad RISC-V AUXTRACE_INFO: its encoder blocks do not fit the record");
    else if (got && te.format != 0)
        cli_diag((void *)path, RVT_DIAG_ERROR, r.offset,
                 "AUXTRACE_INFO: the encoder's trTeFormat is not 0 (E-Trace); perf.data AUX "
                 "data is decoded as E-Trace");
    if (got <= 0 || te.format != 0)
        return got < 0 || got ? CLI_FAIL : CLI_OK;
    rvt_proto_cfg_set(cfg, "nocontext", te.context ? "0" : "1");
    if (te.has_features)
        apply_features(te.features, cfg);
    cli_container_capture("the perf.data AUXTRACE_INFO (trTeSrcBits)",
                          te.inhibit_src ? 0 : te.src_bits);
    return CLI_OK;
}

/* CPU cpu's decoder settings: AUXTRACE_INFO, then FILE.attrs and the
 * options (cli_settings_load); NULL after saying why. */
static rvt_proto_cfg *cpu_settings(const cli_args *a, const char *path, rvt_perf_file *f,
                                   uint32_t cpu, const rvt_image *img)
{
    rvt_proto_cfg *cfg = rvt_proto_cfg_new(cli_kind_proto(KIND_TE));
    if (!cfg || info_settings(path, f, cpu, cfg) != CLI_OK ||
        cli_settings_load(a, path, cfg) != CLI_OK) {
        rvt_proto_cfg_free(cfg);
        return NULL;
    }
    rvt_proto_cfg_input_xlen(cfg, rvt_image_xlen(img));
    return cfg;
}

typedef struct perf_dec {
    const char *label;
    rvt_out *outs[2];
    size_t nout;
    uint64_t errors;
} perf_dec;

static int perf_event(void *ctx, const rvt_flow_event *ev)
{
    perf_dec *p = ctx;
    if (ev->kind == RVT_EV_ERROR) {
        p->errors++;
        cli_diag((void *)p->label, RVT_DIAG_ERROR, cli_container_offset(ev->offset),
                 ev->msg ? ev->msg : "decode error");
    }
    for (size_t i = 0; i < p->nout; i++)
        rvt_out_event(p->outs[i], ev);
    return 0;
}

static int decode_cpu(perf_dec *p, rvt_perf_file *f, const rvt_te_attrs *ta, rvt_image *img,
                      uint32_t cpu, bool count)
{
    size_t len;
    uint8_t *buf = cpu_aux(f, cpu, &len);
    buf = cli_container_unwrap(p->label, buf, &len);
    if (!buf)
        return CLI_FAIL;
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new(ta, img, perf_event, p, &st);
    if (!d) {
        cli_err("%s: %s", p->label, rvt_status_str(st));
        free(buf);
        return CLI_FAIL;
    }
    rvt_te_decoder_set_source(d, (uint16_t)cpu);    /* events carry the CPU */
    rvt_te_decoder_run(d, buf, len);
    rvt_te_dec_stats ds;
    rvt_te_decoder_stats(d, &ds);
    if (count)
        printf("cpu %u: %llu instructions\n", cpu, (unsigned long long)ds.instructions);
    rvt_te_decoder_free(d);
    free(buf);
    return CLI_OK;
}

static int decode_cpus(const cli_args *a, const char *path, rvt_perf_file *f, rvt_image *img,
                       perf_dec *p)
{
    uint32_t cpus[256];
    size_t n = aux_cpus(f, cpus, 256);
    if (!n) {
        cli_err("%s: no AUXTRACE data", path);
        return CLI_FAIL;
    }
    int rc = CLI_OK;
    char label[4200];
    for (size_t i = 0; i < n && rc == CLI_OK; i++) {
        snprintf(label, sizeof label, "%s (cpu %u AUX data)", path, cpus[i]);
        p->label = label;
        rvt_proto_cfg *cfg = cpu_settings(a, path, f, cpus[i], img);
        rc = cfg ? decode_cpu(p, f, rvt_proto_cfg_native(cfg), img, cpus[i],
                              cli_args_has(a, O_COUNT))
                 : CLI_FAIL;
        rvt_proto_cfg_free(cfg);
    }
    return rc == CLI_OK && (p->errors || cli_container_damaged()) ? CLI_FAIL : rc;
}

static int open_outputs(const cli_args *a, rvt_image *img, perf_dec *p, FILE **pf)
{
    const char *pcs = cli_args_value(a, O_PCS);
    if (pcs && !(*pf = cli_out_fopen(pcs, "w")))
        return CLI_FAIL;
    if (*pf)
        p->outs[p->nout++] = rvt_out_open(rvt_out_find("pcs"), *pf, img);
    if (a->writers || (!pcs && !cli_args_has(a, O_COUNT)))
        p->outs[p->nout++] = rvt_out_open(a->writer, stdout, img);
    return CLI_OK;
}

int cli_perf_decode(const cli_args *a, const char *path)
{
    const char *symfs = cli_args_value(a, O_SYMFS);
    size_t len;
    uint8_t *buf;
    rvt_perf_file *f = perf_open(path, &buf, &len);
    if (!f)
        return CLI_FAIL;
    rvt_image *img = rvt_image_new();
    rvt_proto_cfg *cfg = rvt_proto_cfg_new(cli_kind_proto(KIND_TE));
    perf_dec p = { .label = path };
    FILE *pf = NULL;
    int rc = img && cfg ? cli_settings_load(a, path, cfg) : CLI_FAIL;
    bool whole = rc == CLI_OK && load_maps(path, f, symfs ? symfs : ".", img);
    if (rc == CLI_OK)
        rc = open_outputs(a, img, &p, &pf);
    if (rc == CLI_OK)
        rc = decode_cpus(a, path, f, img, &p);
    if (rc == CLI_OK && !whole)
        rc = CLI_FAIL;
    for (size_t i = 0; i < p.nout; i++)
        rvt_out_free(p.outs[i]);
    if (pf && fclose(pf) != 0)
        rc = CLI_FAIL;
    if (pf && cli_out_commit() != CLI_OK)
        rc = CLI_FAIL;
    rvt_proto_cfg_free(cfg);
    rvt_image_free(img);
    rvt_perf_close(f);
    free(buf);
    return rc;
}
