/* Golden comparison against GNU objdump: tests/golden/isa/{cover,programs}.txt
 * were generated once by tests/golden/isa/gen.sh (objdump -d of the interop
 * programs and of cover.S for RV64 and RV32).  Every instruction word is
 * decoded and disassembled with a symbolizer built from the symbols objdump
 * printed, and must match objdump's text.  Deliberate differences (see
 * docs/isa.md): objdump's "# addr <sym>" register-tracking comments are
 * stripped, and words objdump shows as data (.word/.short/.byte/.8byte,
 * from mapping symbols) are skipped. */
#include "tharness.h"
#include "rvtrace/isa.h"

struct sym { unsigned block, xlen; uint64_t addr; char name[64]; };
static struct sym syms[4096];
static size_t nsyms;

struct symctx { unsigned block, xlen; };

static const char *lookup(void *ctx, uint64_t addr, uint64_t *off)
{
    const struct symctx *c = ctx;
    const struct sym *best = NULL;
    for (size_t i = 0; i < nsyms; i++)
        if (syms[i].block == c->block && syms[i].xlen == c->xlen && syms[i].addr <= addr &&
            (!best || syms[i].addr >= best->addr))
            best = &syms[i];
    if (!best)
        return NULL;
    *off = addr - best->addr;
    return best->name;
}

static bool is_data(const char *text)
{
    return !strncmp(text, ".word", 5) || !strncmp(text, ".short", 6) ||
           !strncmp(text, ".byte", 5) || !strncmp(text, ".8byte", 6);
}

/* Split a fixture line into its 4 tab-separated fields; false if short. */
static bool split(char *line, char *fld[4])
{
    char *p = line;
    line[strcspn(line, "\n")] = 0;
    for (int i = 0; i < 4; i++) {
        if (!p)
            return false;
        fld[i] = p;
        p = i < 3 ? strchr(p, '\t') : NULL;
        if (p)
            *p++ = 0;
    }
    return true;
}

/* Pass 1: the symbols objdump printed, per program block ('#' lines). */
static void load_syms(FILE *f)
{
    char line[512], *fld[4];
    unsigned block = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            block++;
        else if (split(line, fld) && !strcmp(fld[0], "sym") &&
                 nsyms < sizeof syms / sizeof syms[0]) {
            syms[nsyms].block = block;
            syms[nsyms].xlen = (unsigned)strtoul(fld[1], NULL, 10);
            syms[nsyms].addr = strtoull(fld[2], NULL, 16);
            snprintf(syms[nsyms].name, sizeof syms[nsyms].name, "%s", fld[3]);
            nsyms++;
        }
    }
}

static void check_line(char *fld[4], unsigned block)
{
    char *want = fld[3];
    char *cmt = strstr(want, " #");
    if (cmt)
        *cmt = 0;
    struct symctx ctx = { block, (unsigned)strtoul(fld[0], NULL, 10) };
    uint64_t pc = strtoull(fld[1], NULL, 16);
    uint32_t raw = (uint32_t)strtoul(fld[2], NULL, 16);
    rvt_insn in;
    char got[128];
    rvt_isa_decode(raw, ctx.xlen, &in);
    rvt_isa_disasm(&in, pc, got, sizeof got, lookup, &ctx);
    if (strcmp(got, want) != 0)
        TH_FAIL("rv%u %s %s: got \"%s\" want \"%s\"", ctx.xlen, fld[1], fld[2], got, want);
    else
        th_passed++;
}

static unsigned run_file(const char *path, unsigned *skipped)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        TH_FAIL("cannot open %s", path);
        return 0;
    }
    nsyms = 0;
    load_syms(f);
    rewind(f);
    char line[512], *fld[4];
    unsigned checked = 0, block = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            block++;
            continue;
        }
        if (!split(line, fld) || !strcmp(fld[0], "sym"))
            continue;
        if (is_data(fld[3])) {
            (*skipped)++;
            continue;
        }
        check_line(fld, block);
        checked++;
    }
    fclose(f);
    return checked;
}

static void test_api(void)
{
    rvt_insn in;
    char buf[64];
    /* Truncation: returns the stored length, always NUL-terminated. */
    rvt_isa_decode(0xff010113, 64, &in);             /* addi sp,sp,-16 */
    CHECK_EQ(rvt_isa_disasm(&in, 0, buf, sizeof buf, NULL, NULL), 13);
    CHECK_STR(buf, "add\tsp,sp,-16");
    CHECK_EQ(rvt_isa_disasm(&in, 0, buf, 4, NULL, NULL), 3);
    CHECK_STR(buf, "add");
    CHECK_EQ(rvt_isa_disasm(&in, 0, buf, 0, NULL, NULL), 0);
    /* No symbolizer: bare target.  jal ra,+8 at 0x1000 */
    rvt_isa_decode(0x008000ef, 64, &in);
    rvt_isa_disasm(&in, 0x1000, buf, sizeof buf, NULL, NULL);
    CHECK_STR(buf, "jal\t1008");
    /* RV32 wraps targets at 32 bits: c.j -2048 at 0x100 */
    rvt_isa_decode(0xb001, 32, &in);
    rvt_isa_disasm(&in, 0x100, buf, sizeof buf, NULL, NULL);
    CHECK_STR(buf, "j\tfffff900");
    rvt_isa_decode(0xb001, 64, &in);
    rvt_isa_disasm(&in, 0x100, buf, sizeof buf, NULL, NULL);
    CHECK_STR(buf, "j\tfffffffffffff900");
}

int main(void)
{
    const char *src = getenv("RVT_SRC");
    char path[1024];
    unsigned skipped = 0, n = 0;
    test_api();
    snprintf(path, sizeof path, "%s/tests/golden/isa/cover.txt", src ? src : ".");
    n += run_file(path, &skipped);
    snprintf(path, sizeof path, "%s/tests/golden/isa/programs.txt", src ? src : ".");
    n += run_file(path, &skipped);
    printf("%u lines compared, %u data lines skipped\n", n, skipped);
    CHECK(n > 5000);
    return TH_DONE();
}
