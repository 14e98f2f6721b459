/* Fuzz target: the E-Trace data-trace layer (ch. 7): rvt_te_reader_frame,
 * rvt_te_dunpack / rvt_te_dpack / rvt_te_dpkt_format (the `dump` path of
 * te_data packets) and the decoder rvt_te_data_decoder_run.  Input: 2
 * attribute bytes (fuzz_etrace_data.h: data_width, no_address, no_data,
 * data_compress, iaddress_width = XLEN, the split interface), then a raw-container stream that
 * may mix te_inst (msg_type 2) and te_data (msg_type 3) frames.
 * Checked: every reader call advances; error and access offsets lie inside
 * the stream and never go back; the decoder reports one diagnostic per
 * error it counts; each access is well formed (a type the packet formats
 * can carry, a size the data bus / XLEN allows, atomics aligned (table
 * 7.6), address and data masked to
 * their widths, fields the options leave out 0); every te_data packet that
 * unpacks re-packs, the re-packed bytes unpack to the same fields, and
 * packing is idempotent; the accesses decoded, given to the data encoder
 * (rvt_te_data_encoder_put) with the same attributes, decode back to
 * themselves (7.1.3: whatever compression the encoder picks).
 * FUZZ_ARGS: -max_len=512 */
#include "../fuzz_etrace_data.h"
#include "util/bitio.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

typedef struct dctx {
    const rvt_te_attrs *a;
    size_t len;
    uint64_t last_off;      /* accesses and errors come in stream order */
    unsigned accesses, errors;
    rvt_drec *keep;         /* the accesses, when not NULL */
    size_t cap;             /* room in keep */
} dctx;

static void diag(void *ctx, int level, uint64_t offset, const char *msg)
{
    dctx *d = ctx;
    RVT_FUZZ_ASSERT(msg != NULL && strlen(msg) < 4096);
    RVT_FUZZ_ASSERT(level == RVT_DIAG_ERROR);
    RVT_FUZZ_ASSERT(offset < d->len);
    RVT_FUZZ_ASSERT(offset >= d->last_off || d->last_off == UINT64_MAX);
    d->last_off = offset;
    d->errors++;
}

/* Size and type of an access (tables 7.1-7.13): loads and stores up to
 * data_width_p, atomics 32 or 64 bits within it, CSRs XLEN wide. */
static void check_access(const rvt_te_attrs *a, const rvt_drec *r)
{
    unsigned bits = 8u << r->dsize;
    RVT_FUZZ_ASSERT(r->dsize <= 3);
    if (r->dtype == RVT_DTYPE_LOAD || r->dtype == RVT_DTYPE_STORE) {
        RVT_FUZZ_ASSERT(bits <= a->data_width);
    } else if (r->dtype >= RVT_DTYPE_AMO_SWAP && r->dtype <= RVT_DTYPE_AMO_MIN) {
        RVT_FUZZ_ASSERT(bits >= 32 && bits <= a->data_width);
        RVT_FUZZ_ASSERT(!(r->addr & rvt_mask(r->dsize)));      /* table 7.6: aligned */
    } else {
        RVT_FUZZ_ASSERT(r->dtype >= RVT_DTYPE_CSR_RW && r->dtype <= RVT_DTYPE_CSR_RC);
        RVT_FUZZ_ASSERT(bits == (a->iaddress_width > 32 ? 64u : 32u));
        RVT_FUZZ_ASSERT(r->addr <= 0xfff);      /* a CSR number */
    }
    RVT_FUZZ_ASSERT(r->addr <= rvt_mask(a->iaddress_width));
    RVT_FUZZ_ASSERT(r->data <= rvt_mask(bits) && r->data2 <= rvt_mask(bits));
    if (a->no_address)
        RVT_FUZZ_ASSERT(r->addr == 0);
    if (a->no_data)
        RVT_FUZZ_ASSERT(r->data == 0 && r->data2 == 0);
    /* Not traced (rvt_te_data_decoder_new). */
    RVT_FUZZ_ASSERT(r->iaddr == 0 && r->dblock == 0 && r->flags == 0);
}

static int on_access(void *ctx, const rvt_drec *r, uint64_t offset)
{
    dctx *d = ctx;
    RVT_FUZZ_ASSERT(offset < d->len);
    RVT_FUZZ_ASSERT(offset >= d->last_off || d->last_off == UINT64_MAX);
    d->last_off = offset;
    check_access(d->a, r);
    RVT_FUZZ_ASSERT(!d->keep || d->accesses < d->cap);
    if (d->keep)
        d->keep[d->accesses] = *r;
    d->accesses++;
    char line[160];
    RVT_FUZZ_ASSERT(rvt_te_drec_format(r, 0, line, sizeof line) >= 0);
    RVT_FUZZ_ASSERT(strlen(line) < sizeof line);
    return 0;
}

static void repack(const rvt_te_attrs *a, const rvt_te_dpkt *p, const uint8_t *sizes)
{
    uint8_t b1[64], b2[64];
    int n1 = rvt_te_dframe(a, p, b1, sizeof b1);
    RVT_FUZZ_ASSERT(n1 >= 2);           /* what unpack read, pack writes */
    RVT_FUZZ_ASSERT((b1[0] & 31) + 1 == n1 && (b1[0] >> 5) == 3);
    rvt_te_dpkt q;
    RVT_FUZZ_ASSERT(rvt_te_dunpack_split(a, b1 + 1, (size_t)n1 - 1, sizes, &q) == 0);
    RVT_FUZZ_ASSERT(memcmp(p, &q, sizeof q) == 0);
    int n2 = rvt_te_dframe(a, &q, b2, sizeof b2);
    RVT_FUZZ_ASSERT(n2 == n1 && memcmp(b1, b2, (size_t)n1) == 0);
}

static void packets(const rvt_te_attrs *a, const uint8_t *s, size_t n)
{
    rvt_te_reader r;
    rvt_te_reader_init(&r, a, s, n);
    size_t calls = 0;
    uint8_t sizes[1u << RVT_TE_MAX_INDEX_WIDTH];   /* split atomics (7.10) */
    memset(sizes, RVT_TE_NO_ATOMIC, sizeof sizes);
    for (;;) {
        unsigned type = 99;
        const uint8_t *pl = NULL;
        size_t len = 0, before = r.pos;
        uint64_t off = UINT64_MAX;
        int st = rvt_te_reader_frame(&r, &type, &pl, &len, &off);
        rvt_fuzz_check_status(st);
        if (st == 0)
            break;
        RVT_FUZZ_ASSERT(off < n);
        RVT_FUZZ_ASSERT(r.pos > before && r.pos <= n);     /* progress */
        RVT_FUZZ_ASSERT(++calls <= n);
        if (st < 0 || type != 3)
            continue;
        RVT_FUZZ_ASSERT(pl > s && pl + len <= s + n);
        rvt_te_dpkt p;
        if (rvt_te_dunpack_split(a, pl, len, sizes, &p) < 0)
            continue;
        char line[512], tiny[8];
        RVT_FUZZ_ASSERT(rvt_te_dpkt_format(a, &p, calls & 1, line, sizeof line) >= 0);
        RVT_FUZZ_ASSERT(strlen(line) < sizeof line);
        rvt_te_dpkt_format(a, &p, !(calls & 1), tiny, sizeof tiny);
        RVT_FUZZ_ASSERT(strlen(tiny) < sizeof tiny);
        repack(a, &p, sizes);
        rvt_te_dsplit_track(a, &p, sizes);
    }
}

static bool same_access(const rvt_drec *x, const rvt_drec *y)
{
    return x->iaddr == y->iaddr && x->addr == y->addr && x->data == y->data &&
           x->data2 == y->data2 && x->dtype == y->dtype && x->dsize == y->dsize &&
           x->dblock == y->dblock && x->flags == y->flags;
}

/* The encoder's frames, appended to one buffer. */
typedef struct sink {
    uint8_t *buf;
    size_t n, cap;
} sink;

static int to_buf(void *ctx, const uint8_t *b, size_t n)
{
    sink *k = ctx;
    if (n > k->cap - k->n)
        return RVT_ERR_LIMIT;
    memcpy(k->buf + k->n, b, n);
    k->n += n;
    return 0;
}

/* Encode what was decoded and decode it again: the same accesses. */
static void reencode(const rvt_te_attrs *a, const rvt_drec *acc, unsigned n)
{
    if (!n)
        return;
    sink k = { malloc(64u * n), 0, 64u * n };
    int st = 0;
    rvt_te_data_encoder *e = rvt_te_data_encoder_new(a, to_buf, &k, &st);
    RVT_FUZZ_ASSERT(e != NULL && k.buf != NULL);
    st = rvt_te_data_encoder_put(e, acc, n);
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(st >= 0);                   /* what the decoder gives is encodable */
    rvt_te_data_encoder_free(e);
    rvt_drec *back = calloc(n, sizeof *back);
    dctx d = { a, k.n, UINT64_MAX, 0, 0, back, n };
    rvt_te_data_decoder *dec = rvt_te_data_decoder_new(a, on_access, &d, &st);
    RVT_FUZZ_ASSERT(dec != NULL && back != NULL);
    rvt_te_data_decoder_set_diag(dec, diag, &d);
    RVT_FUZZ_ASSERT(rvt_te_data_decoder_run(dec, k.buf, k.n) == 0);
    RVT_FUZZ_ASSERT(d.accesses == n);
    for (unsigned i = 0; i < n; i++)
        RVT_FUZZ_ASSERT(same_access(&back[i], &acc[i]));
    rvt_te_data_decoder_free(dec);
    free(back);
    free(k.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    rvt_te_attrs a;
    rvt_fuzz_te_data_attrs(&in, &a);
    packets(&a, in.p, in.n);

    rvt_drec *acc = calloc(in.n + 1, sizeof *acc);
    RVT_FUZZ_ASSERT(acc != NULL);
    dctx d = { &a, in.n, UINT64_MAX, 0, 0, acc, in.n + 1 };
    int st = 0;
    rvt_te_data_decoder *dec = rvt_te_data_decoder_new(&a, on_access, &d, &st);
    RVT_FUZZ_ASSERT(dec != NULL && st == 0);
    rvt_te_data_decoder_set_diag(dec, diag, &d);
    int errs = rvt_te_data_decoder_run(dec, in.p, in.n);
    rvt_fuzz_check_status(errs);
    RVT_FUZZ_ASSERT(errs >= 0 && (unsigned)errs == d.errors);
    RVT_FUZZ_ASSERT(d.accesses + d.errors <= in.n);   /* a frame is at least 1 byte */
    /* A second run of the same decoder starts afresh (a new stream is
     * unsynchronised): the same accesses and errors. */
    unsigned nacc = d.accesses;
    d = (dctx){ &a, in.n, UINT64_MAX, 0, 0, NULL, 0 };
    RVT_FUZZ_ASSERT(rvt_te_data_decoder_run(dec, in.p, in.n) == errs);
    RVT_FUZZ_ASSERT(d.accesses == nacc);
    rvt_te_data_decoder_free(dec);
    reencode(&a, acc, nacc);
    free(acc);
    return 0;
}
