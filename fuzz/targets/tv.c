/* Fuzz target: the tandem-verification trace (.tvt, src/tv): the streaming
 * reader (rvt_tv_reader_*, through a read callback in small chunks, as
 * `rvtrace dump F.tvt` and `verify` read a file), the item codec
 * (rvt_tv_decode/encode) and the verifier (rvt_tv_verifier_*: shadow state
 * plus a reference hart) over a fixed program.
 * Input: byte 0 = parameters: bit 0 XLEN 32 (else 64), bit 1 FLEN 32 (else
 * XLEN), bits 4:2 MLEN (0 = XLEN, else 32 + 4k), bit 5 run the verifier,
 * bits 7:6 read chunk (1, 3, 17 bytes or all); then the .tvt bytes.
 * Checked: every reader call consumes input and ends; item offsets grow and
 * lie inside the stream, error offsets too; items <= bytes; every item read
 * re-encodes and decodes back to itself (TV ch. 2 is a bijection on the
 * fields it defines); the verifier's counters stay bounded by the items.
 * Inputs stay at 1 KB (~200 items): a reference hart per input keeps the
 * target near 1 000 exec/s, and longer inputs mostly repeat item kinds.
 * FUZZ_ARGS: -max_len=1024 */
#include "../fuzz.h"
#include "rvtrace/tv.h"

/* One reference program per XLEN (the verifier's hart needs code to step). */
static rvt_image *img64, *img32;

static rvt_image *load(const char *rel)
{
    char path[4096];
    rvt_image *img = rvt_image_new();
    if (img && rvt_image_load_elf(img, rvt_fuzz_src(rel, path, sizeof path)) >= 0)
        return img;
    fprintf(stderr, "tv: cannot load %s: the verifier is not fuzzed for it\n", path);
    rvt_image_free(img);
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    img64 = load("programs/amo.elf");
    img32 = load("programs/crc_rv32.elf");
    return 0;
}

typedef struct chunked {
    const uint8_t *p;
    size_t n, pos, chunk;
} chunked;

static long chunk_read(void *ctx, uint8_t *buf, size_t n)
{
    chunked *c = ctx;
    size_t k = c->n - c->pos;
    if (k > c->chunk)
        k = c->chunk;
    if (k > n)
        k = n;
    memcpy(buf, c->p + c->pos, k);
    c->pos += k;
    return (long)k;
}

/* Decoded items are canonical: encode, decode again, same fields. */
static void roundtrip(const rvt_tv_cfg *cfg, const rvt_tv_item *it, int prev_req)
{
    uint8_t b[RVT_TV_ITEM_MAX];
    int n = rvt_tv_encode(cfg, it, b);
    RVT_FUZZ_ASSERT(n > 0 && n <= RVT_TV_ITEM_MAX);
    rvt_tv_item q;
    memset(&q, 0, sizeof q);
    RVT_FUZZ_ASSERT(rvt_tv_decode(cfg, b, (size_t)n, prev_req, &q) == n);
    RVT_FUZZ_ASSERT(q.op == it->op && q.id == it->id && q.reg == it->reg &&
                    q.mem_op == it->mem_op && q.mem_size == it->mem_size &&
                    q.result == it->result && q.has_data == it->has_data &&
                    q.value == it->value && q.addr == it->addr && q.data == it->data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const size_t chunks[4] = { 1, 3, 17, SIZE_MAX };
    uint8_t p = data[0];
    rvt_tv_cfg req = { .xlen = (p & 1u) ? 32u : 64u, .flen = (p & 2u) ? 32u : 0u,
                       .mlen = (p >> 2) & 7u ? 32u + 4u * ((p >> 2) & 7u) : 0u };
    rvt_tv_cfg cfg;
    if (rvt_tv_cfg_resolve(&req, &cfg) < 0)
        return 0;
    chunked src = { data + 1, size - 1, 0, chunks[p >> 6] };
    int st = 0;
    rvt_tv_reader *r = rvt_tv_reader_new(&cfg, chunk_read, &src, &st);
    rvt_fuzz_check_status(st);
    if (!r)
        return 0;
    rvt_image *img = cfg.xlen == 32 ? img32 : img64;
    rvt_tv_verifier *v = NULL;
    if ((p & 0x20u) && img) {
        /* 1 MiB of RAM holds either program (< 300 KB); a bigger RAM only
         * costs time per input. */
        rvt_tv_verify_cfg vc = { .tv = cfg, .hart = { .xlen = cfg.xlen, .ram_size = 1u << 20 } };
        v = rvt_tv_verifier_new(&vc, img, &st);
        rvt_fuzz_check_status(st);
    }
    uint64_t items = 0, errors = 0, last_off = 0;
    int prev_req = -1;
    for (size_t calls = 0;; calls++) {
        RVT_FUZZ_ASSERT(calls <= src.n + 1);    /* each call consumes a byte */
        rvt_tv_item it;
        memset(&it, 0, sizeof it);
        uint64_t off = UINT64_MAX;
        st = rvt_tv_reader_next(r, &it, &off);
        if (st == RVT_ERR_EOS)
            break;
        rvt_fuzz_check_status(st);
        if (st < 0) {
            errors++;
            RVT_FUZZ_ASSERT(off < src.n && off >= last_off);
            last_off = off;
            prev_req = -1;
            continue;
        }
        RVT_FUZZ_ASSERT(it.offset < src.n && it.offset >= last_off && it.index == items);
        last_off = it.offset;
        items++;
        roundtrip(&cfg, &it, prev_req);
        prev_req = it.op == RVT_TV_MEM_REQ ? it.mem_op : -1;
        if (v)
            rvt_fuzz_check_status(rvt_tv_verifier_put(v, &it));
    }
    RVT_FUZZ_ASSERT(items + errors <= src.n);
    RVT_FUZZ_ASSERT(rvt_tv_reader_skipped(r) <= src.n);
    if (v) {
        rvt_fuzz_check_status(rvt_tv_verifier_end(v));
        rvt_tv_verify_stats vs;
        rvt_tv_verifier_stats(v, &vs);
        RVT_FUZZ_ASSERT(vs.items == items && vs.groups <= items && vs.steps <= vs.groups);
        rvt_tv_divergence d;
        if (rvt_tv_verifier_first(v, &d)) {
            char line[256];
            rvt_tv_divergence_str(&d, line, sizeof line);
            RVT_FUZZ_ASSERT(d.offset < src.n && strlen(line) < sizeof line);
        }
    }
    rvt_tv_verifier_free(v);
    rvt_tv_reader_free(r);
    return 0;
}
