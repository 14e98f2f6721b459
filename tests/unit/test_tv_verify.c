/* Tandem verification end to end on the workloads: the hart's commit hook
 * feeds the writer; the bytes read back and re-encode identically; the
 * verifier (a second hart, TV 3.1) agrees with every trace; and a flipped
 * register value, pc, store datum, load datum, CSR or instruction is
 * reported at exactly the item that carries it. */
#include "rvtrace/tv.h"
#include "test_hart_util.h"

typedef struct membuf { uint8_t *p; size_t n, cap; } membuf;

static int mb_write(void *ctx, const uint8_t *buf, size_t n)
{
    membuf *m = ctx;
    if (m->n + n > m->cap) {
        size_t cap = (m->n + n) * 2;
        uint8_t *p = realloc(m->p, cap);
        if (!p)
            return RVT_ERR_NOMEM;
        m->p = p;
        m->cap = cap;
    }
    memcpy(m->p + m->n, buf, n);
    m->n += n;
    return RVT_OK;
}

static unsigned xlen_of(rvt_image *img)
{
    return rvt_image_xlen(img) ? rvt_image_xlen(img) : 64;
}

typedef struct counted { rvt_tv_writer *w; uint64_t commits; } counted;

static int count_commit(void *ctx, const rvt_hart_commit *c)
{
    counted *k = ctx;
    k->commits++;
    return rvt_tv_writer_on_commit(k->w, c);
}

/* Run prog with the writer on; returns the commits seen. */
static uint64_t trace(rvt_image *img, membuf *out)
{
    rvt_tv_writer_cfg wc = { .tv = { .xlen = xlen_of(img) }, .write = mb_write,
                             .write_ctx = out, .eaddr = true, .mem_bus = true };
    counted k = { rvt_tv_writer_new(&wc, NULL), 0 };
    rvt_hart_cfg hc = { .on_commit = count_commit, .commit_ctx = &k };
    rvt_hart *h = rvt_hart_new(&hc, img, NULL);
    CHECK(h && k.w);
    if (!h || !k.w)
        return 0;
    CHECK_EQ(rvt_tv_writer_init_state(k.w, h), RVT_OK);
    CHECK_EQ(rvt_hart_run(h, 0), RVT_HART_EXITED);
    CHECK_EQ(rvt_hart_exit_code(h), 0);
    rvt_hart_stats st;
    rvt_hart_get_stats(h, &st);
    /* one commit per retirement, plus one per trap that retired nothing */
    CHECK(k.commits >= st.instret && k.commits <= st.instret + st.exceptions + st.interrupts);
    rvt_hart_free(h);
    CHECK_EQ(rvt_tv_writer_free(k.w), RVT_OK);
    return k.commits;
}

/* Reader -> writer reproduces the bytes; returns the groups. */
static uint64_t round_trip(unsigned xlen, const membuf *in)
{
    membuf again = { 0 };
    rvt_tv_cfg c = { .xlen = xlen };
    rvt_tv_writer_cfg wc = { .tv = c, .write = mb_write, .write_ctx = &again };
    rvt_tv_writer *w = rvt_tv_writer_new(&wc, NULL);
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&c, in->p, in->n, NULL);
    rvt_tv_item it;
    uint64_t groups = 0, off;
    int st;
    while ((st = rvt_tv_reader_next(r, &it, &off)) == RVT_OK) {
        groups += it.op == RVT_TV_BEGIN;
        if (rvt_tv_writer_put(w, &it) < 0)
            break;
    }
    CHECK_EQ(st, RVT_ERR_EOS);
    rvt_tv_writer_free(w);
    rvt_tv_reader_free(r);
    CHECK_EQ(again.n, in->n);
    CHECK(again.n == in->n && !memcmp(again.p, in->p, in->n));
    free(again.p);
    return groups;
}

typedef bool (*pick_fn)(const rvt_tv_item *it);

/* Verify the trace; the first item (from index `from`) that `pick`
 * accepts is changed by `mutate`.  Returns the divergence count; *d gets
 * the first, *target the mutated item's index. */
static uint64_t verify(rvt_image *img, const membuf *in, pick_fn pick, uint64_t from,
                       void (*mutate)(rvt_tv_item *), rvt_tv_divergence *d,
                       uint64_t *target, rvt_tv_item *orig)
{
    rvt_tv_verify_cfg vc = { .tv = { .xlen = xlen_of(img) } };
    rvt_tv_verifier *v = rvt_tv_verifier_new(&vc, img, NULL);
    rvt_tv_reader *r = rvt_tv_reader_new_mem(&vc.tv, in->p, in->n, NULL);
    CHECK(v && r);
    rvt_tv_item it;
    uint64_t off;
    bool done = !pick;
    while (v && r && rvt_tv_reader_next(r, &it, &off) == RVT_OK) {
        if (!done && it.index >= from && pick(&it)) {
            *orig = it;
            mutate(&it);
            *target = it.index;
            done = true;
        }
        rvt_tv_verifier_put(v, &it);
    }
    rvt_tv_verifier_end(v);
    rvt_tv_verify_stats s = { 0 };
    rvt_tv_verifier_stats(v, &s);
    memset(d, 0, sizeof *d);
    rvt_tv_verifier_first(v, d);
    rvt_tv_reader_free(r);
    rvt_tv_verifier_free(v);
    return s.divergences;
}

static bool is_gpr(const rvt_tv_item *it)
{
    return it->op == RVT_TV_FULL_REG && it->reg > 0x1000 && it->reg < 0x1020;
}
static bool is_pc(const rvt_tv_item *it) { return it->op == RVT_TV_STATE && it->id == RVT_TV_S_PC; }
static bool is_sdata(const rvt_tv_item *it)
{
    return it->op == RVT_TV_STATE && it->id >= RVT_TV_S_DATA8 && it->id <= RVT_TV_S_DATA64;
}
static bool is_load_rsp(const rvt_tv_item *it) { return it->op == RVT_TV_MEM_RSP && it->has_data; }
static bool is_mepc(const rvt_tv_item *it) { return it->op == RVT_TV_FULL_REG && it->reg == 0x341; }
static bool is_insn(const rvt_tv_item *it) { return it->op == RVT_TV_INSN32; }
static bool is_fpr(const rvt_tv_item *it)
{
    return it->op == RVT_TV_FULL_REG && it->reg >= RVT_TV_REG_FPR(0) && it->reg <= RVT_TV_REG_FPR(31);
}
static void flip_value(rvt_tv_item *it) { it->value ^= 4; }
static void flip_data(rvt_tv_item *it) { it->data ^= 1; }

static void inject(rvt_image *img, const membuf *tr, const char *name, pick_fn pick,
                   void (*mutate)(rvt_tv_item *), const char *what_prefix, bool data_field)
{
    rvt_tv_divergence d;
    rvt_tv_item orig = { 0 };
    uint64_t target = UINT64_MAX;
    uint64_t n = verify(img, tr, pick, 1000, mutate, &d, &target, &orig);
    if (!n || d.item != target || strncmp(d.what, what_prefix, strlen(what_prefix)))
        TH_FAIL("%s: %llu divergences, first at item %llu (%s), mutated item %llu", name,
                (unsigned long long)n, (unsigned long long)d.item, d.what,
                (unsigned long long)target);
    else
        th_passed++;
    CHECK_EQ(d.offset, orig.offset);
    uint64_t was = data_field ? orig.data : orig.value;
    CHECK_EQ(d.expected, was);
    CHECK_EQ(d.traced, data_field ? was ^ 1 : was ^ 4);
}

static void workload(const char *prog, bool faults)
{
    rvt_image *img = th_program(prog);
    CHECK(img != NULL);
    if (!img)
        return;
    membuf tr = { 0 };
    uint64_t commits = trace(img, &tr);
    CHECK_EQ(round_trip(xlen_of(img), &tr), commits + 1);   /* + the init group */
    rvt_tv_divergence d;
    rvt_tv_item o;
    uint64_t t;
    CHECK_EQ(verify(img, &tr, NULL, 0, NULL, &d, &t, &o), 0);
    if (faults) {
        inject(img, &tr, prog, is_gpr, flip_value, "x", false);
        inject(img, &tr, prog, is_pc, flip_value, "pc", false);
        inject(img, &tr, prog, is_sdata, flip_value, "store data", false);
        inject(img, &tr, prog, is_load_rsp, flip_data, "response data", true);
        inject(img, &tr, prog, is_insn, flip_value, "instruction", false);
    }
    if (!strcmp(prog, "ecall"))
        inject(img, &tr, prog, is_mepc, flip_value, "mepc", false);
    /* FPR writes are traced (full_reg 0x1020 + n, FLEN 64) and compared */
    if (!strncmp(prog, "fpu", 3))
        inject(img, &tr, prog, is_fpr, flip_value, "f", false);
    free(tr.p);
    rvt_image_free(img);
}

int main(void)
{
    workload("amo", true);
    workload("ecall", false);
    workload("sort_rv32", true);
    workload("timer", false);
    workload("privs", false);
    workload("fpu_rv32", false);
    return TH_DONE();
}
