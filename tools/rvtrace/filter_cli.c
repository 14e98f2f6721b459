/* The trace-filter options of `rvtrace run` (--comparator, --filter,
 * --trace-range, --trace-on/-off/-notify; docs/filter.md) and the
 * --pcs-traced writer that lists what the filtered trace holds. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "rvtrace/filter.h"
#include "rvtrace/hart.h"
#include "rvtrace/image.h"

const char filter_options_help[] =
    "trace filters and triggers (E-Trace chapter 5, tables 2.3-2.6 and 4.7; they\n"
    "qualify every trace of the run: --etrace, --ntrace, --ingress; docs/filter.md):\n"
    "  --trace-range LO:HI  trace only instructions in [LO, HI) (a comparator and\n"
    "                       a filter of their own)\n"
    "  --comparator N:SPEC  comparator N (0-7): p=INPUT:FUNC:VALUE, s=INPUT:FUNC:VALUE,\n"
    "                       mode=p|and|nand|latch, notify=p|s|ps; INPUT iaddr,\n"
    "                       context, tval or daddr; FUNC eq, ne, lt, le, gt, ge,\n"
    "                       always (s also mask); VALUE a number or a code or\n"
    "                       data SYMBOL[+OFF]\n"
    "  --filter N:SPEC      filter N (0-15): comp=K (up to 3), priv=u+s+m,\n"
    "                       ecause=C+C, exception, interrupt, impdef=V/MASK,\n"
    "                       dtype=load+store+..., dsize=4+8, inst, data\n"
    "  --trace-on ADDR      trigger[0]: trace starts when ADDR retires (trace is\n"
    "                       off until then); ADDR a number or SYMBOL[+OFF]\n"
    "  --trace-off ADDR     trigger[1]: trace stops after ADDR retires\n"
    "  --trace-notify ADDR  trigger[2]: report ADDR explicitly when it retires\n"
    "  --pcs-traced F       write the PCs of the instructions the filtered trace\n"
    "                       holds (what its decoders rebuild)\n";

static const char *const names[] = {
    "--comparator", "--filter", "--trace-range", "--trace-on", "--trace-off", "--trace-notify",
};

bool filter_is_option(int argc, char **argv, int i, int *consumed)
{
    const char *a = argv[i];
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        size_t n = strlen(names[k]);
        if (strncmp(a, names[k], n))
            continue;
        if (a[n] == '=') {
            *consumed = 1;
            return true;
        }
        if (!a[n]) {
            *consumed = i + 1 < argc ? 2 : 1;
            return true;
        }
    }
    return false;
}

static bool sym_lookup(void *ctx, const char *name, uint64_t *addr)
{
    return rvt_image_lookup(ctx, name, addr);
}

/* No option configured comparator c (every field is at its reset value). */
static bool cmp_unset(const rvt_filter_cmp *c)
{
    return !c->p_input && !c->s_input && !c->p_function && !c->s_function && !c->match_mode &&
           !c->p_notify && !c->s_notify && !c->p_match && !c->s_match;
}

/* The first comparator and filter that nothing configured. */
static int free_units(const rvt_filter_cfg *cfg, unsigned *cmp, unsigned *filt)
{
    for (*cmp = 0; *cmp < RVT_FILTER_COMPARATORS; ++*cmp) {
        if (cmp_unset(&cfg->cmp[*cmp]))
            break;
    }
    for (*filt = 0; *filt < RVT_FILTER_FILTERS; ++*filt) {
        if (!cfg->filt[*filt].enable)
            break;
    }
    return *cmp < RVT_FILTER_COMPARATORS && *filt < RVT_FILTER_FILTERS ? 0 : -1;
}

/* --trace-range LO:HI as comparator "p=iaddr:ge:LO,s=iaddr:lt:HI,mode=and"
 * and a filter on it.  Ranges are added after the explicit units. */
static int add_range(rvt_filter_cfg *cfg, const char *v, rvt_image *img, char *err, size_t n)
{
    const char *colon = strchr(v, ':');
    unsigned c, f;
    if (!colon) {
        snprintf(err, n, "'%s': expected LO:HI", v);
        return -1;
    }
    if (free_units(cfg, &c, &f) < 0) {
        snprintf(err, n, "no comparator or filter left for '%s'", v);
        return -1;
    }
    char spec[600], fspec[32];
    snprintf(spec, sizeof spec, "%u:p=iaddr:ge:%.*s,s=iaddr:lt:%s,mode=and", c, (int)(colon - v), v,
             colon + 1);
    snprintf(fspec, sizeof fspec, "%u:comp=%u", f, c);
    if (rvt_filter_parse_cmp(cfg, spec, img ? sym_lookup : NULL, img, err, n) < 0)
        return -1;
    if (cfg->cmp[c].p_match >= cfg->cmp[c].s_match) {
        snprintf(err, n, "empty range: 0x%llx is not below 0x%llx",
                 (unsigned long long)cfg->cmp[c].p_match, (unsigned long long)cfg->cmp[c].s_match);
        return -1;
    }
    return rvt_filter_parse_filter(cfg, fspec, err, n) < 0 ? -1 : 0;
}

static int one_option(rvt_filter_cfg *cfg, const char *name, const char *v, rvt_image *img,
                      char *err, size_t n)
{
    rvt_filter_sym_fn lookup = img ? sym_lookup : NULL;   /* encode without --elf */
    if (!strcmp(name, "--comparator"))
        return rvt_filter_parse_cmp(cfg, v, lookup, img, err, n);
    if (!strcmp(name, "--filter"))
        return rvt_filter_parse_filter(cfg, v, err, n);
    if (!strcmp(name, "--trace-on"))
        return rvt_filter_add_trigger(cfg, RVT_FILTER_TRACE_ON, v, lookup, img, err, n);
    if (!strcmp(name, "--trace-off"))
        return rvt_filter_add_trigger(cfg, RVT_FILTER_TRACE_OFF, v, lookup, img, err, n);
    if (!strcmp(name, "--trace-notify"))
        return rvt_filter_add_trigger(cfg, RVT_FILTER_TRACE_NOTIFY, v, lookup, img, err, n);
    return 0;    /* --trace-range: second pass */
}

/* A filter that names a comparator no option configured never matches:
 * surely a typo, so it is refused. */
static int check_comparators_set(const rvt_filter_cfg *cfg)
{
    for (unsigned n = 0; n < RVT_FILTER_FILTERS; n++) {
        const rvt_filter_ctl *c = &cfg->filt[n];
        for (unsigned k = 0; k < 3 && c->enable; k++) {
            if (c->match_comp[k] && cmp_unset(&cfg->cmp[c->comp[k]])) {
                cli_err("--filter %u uses comparator %u, which no --comparator sets", n, c->comp[k]);
                return CLI_USAGE;
            }
        }
    }
    return CLI_OK;
}

/* Build the configuration from the collected options; prints the error. */
int filter_cfg_from_args(int argc, char **argv, rvt_image *img, rvt_filter_cfg *cfg)
{
    rvt_filter_cfg_init(cfg);
    char err[300];
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < argc; i++) {
            char name[32];
            const char *eq = strchr(argv[i], '=');
            const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
            snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - argv[i]) : (int)strlen(argv[i]), argv[i]);
            if (!eq)
                i++;
            if (!v) {
                cli_err("%s needs a value", name);
                return CLI_USAGE;
            }
            bool range = !strcmp(name, "--trace-range");
            int st = 0;
            if (pass == 0 && !range)
                st = one_option(cfg, name, v, img, err, sizeof err);
            else if (pass == 1 && range)
                st = add_range(cfg, v, img, err, sizeof err);
            if (st < 0) {
                cli_err("%s %s: %s%s", name, v, err,
                        img ? "" : " (symbols need the program: --elf PROG.elf)");
                return CLI_USAGE;
            }
        }
    }
    return check_comparators_set(cfg);
}

/* ---- encode: the same stage in front of an encoder ---- */

/* True if argv[i] is an option encode_filter_open() takes (the filter
 * options and --elf for their symbols); *consumed as filter_is_option. */
bool encode_filter_option(int argc, char **argv, int i, int *consumed)
{
    if (filter_is_option(argc, argv, i, consumed))
        return true;
    if (strcmp(argv[i], "--elf") && strncmp(argv[i], "--elf=", 6))
        return false;
    *consumed = strchr(argv[i], '=') || i + 1 >= argc ? 1 : 2;
    return true;
}

void encode_filter_close(encode_filter *ef)
{
    rvt_filter_free(ef->filter);
    rvt_image_free(ef->img);
    free(ef->args);
}

/* Put the filter stage in front of *sink when argv holds filter options
 * (symbols from --elf PROG).  CLI_OK, or an error already printed. */
int encode_filter_open(int argc, char **argv, rvt_irec_sink *sink, encode_filter *ef)
{
    memset(ef, 0, sizeof *ef);
    if (!(ef->args = calloc((size_t)argc + 1, sizeof *ef->args)))
        return CLI_FAIL;
    int n = 0, used;
    const char *elf = NULL;
    for (int i = 1; i < argc; i++) {
        if (!encode_filter_option(argc, argv, i, &used))
            continue;
        if (!strncmp(argv[i], "--elf", 5))
            elf = argv[i][5] == '=' ? argv[i] + 6 : (used == 2 ? argv[i + 1] : NULL);
        else
            for (int k = 0; k < used; k++)
                ef->args[n++] = argv[i + k];
        i += used - 1;
    }
    if (!n)
        return CLI_OK;
    if (elf) {
        int st;
        if (!(ef->img = rvt_image_new()) || !cli_in(elf) || (st = rvt_image_load_elf(ef->img, elf)) < 0) {
            cli_err("%s: cannot load for its symbols", elf);
            return CLI_FAIL;
        }
    }
    rvt_filter_cfg cfg;
    int rc = filter_cfg_from_args(n, ef->args, ef->img, &cfg);
    if (rc != CLI_OK)
        return rc;
    int st;
    if (!(ef->filter = rvt_filter_new(&cfg, sink, &st))) {
        cli_err("trace filter: %s", rvt_status_str(st));
        return CLI_FAIL;
    }
    *sink = rvt_filter_sink(ef->filter);
    return CLI_OK;
}

/* ---- --pcs-traced: the PCs of traced blocks, walked through the image ---- */
typedef struct traced_pcs {
    FILE *f;
    const char *path;
    rvt_image *img;
    const rvt_hart *hart;    /* its memory for code no image holds */
} traced_pcs;

/* The length of the instruction at pc: from the image, else (code the
 * program copied or loaded itself: U-Boot's relocated copy) from the
 * hart's memory (its physical addresses: right where translation is off),
 * else 2. */
static unsigned insn_len(const traced_pcs *t, uint64_t pc)
{
    const rvt_insn *in = rvt_image_insn(t->img, pc);
    uint8_t lo = 0;
    if (in && in->len)
        return in->len;
    if (t->hart && rvt_hart_tv_mem_read(t->hart, pc, &lo, 1) == RVT_OK)
        return (lo & 3) == 3 ? 4 : 2;     /* unpriv 1.5: base-length encoding */
    return 2;
}

static int traced_put(void *ctx, const rvt_irec *r, size_t n)
{
    traced_pcs *t = ctx;
    const unsigned skip = RVT_IREC_F_UNQUAL | RVT_IREC_F_HALTED | RVT_IREC_F_RESET;
    for (size_t i = 0; i < n; i++) {
        if (r[i].flags & skip)
            continue;
        uint64_t pc = r[i].iaddr, end = r[i].iaddr + 2ull * r[i].iretire;
        while (pc < end) {
            if (fprintf(t->f, "%llx\n", (unsigned long long)pc) < 0)
                return RVT_ERR_IO;
            pc += insn_len(t, pc);
        }
    }
    return 0;
}

int traced_pcs_open(const char *path, rvt_image *img, rvt_irec_sink *out, void **handle)
{
    traced_pcs *t = calloc(1, sizeof *t);
    if (!t || !(t->f = cli_out_fopen(path, "w"))) {
        free(t);
        return CLI_FAIL;
    }
    t->path = path;
    t->img = img;
    rvt_irec_sink s = { t, traced_put, NULL, NULL };
    *out = s;
    *handle = t;
    return CLI_OK;
}

void traced_pcs_hart(void *handle, const rvt_hart *h)
{
    if (handle)
        ((traced_pcs *)handle)->hart = h;
}

int traced_pcs_close(void *handle)
{
    traced_pcs *t = handle;
    if (!t)
        return CLI_OK;
    int rc = fclose(t->f) ? CLI_FAIL : CLI_OK;
    if (rc)
        cli_err("%s: write error", t->path);
    free(t);
    return rc;
}
