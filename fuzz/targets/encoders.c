/* Fuzz target: the E-Trace and N-Trace instruction-trace encoders
 * (rvt_te_encoder_*, rvt_nt_encoder_*) over ingress records made from the
 * input.  `rvtrace encode` feeds them whatever a user's .rvi or CSV holds,
 * so the records take any value the .rvi reader and the importers let
 * through (itype <= 15, ilastsize <= 3, priv <= 7, ctype <= 3, sijump and
 * every known flag, ninstr <= iretire, the last instruction's size within
 * iretire), not only what a hart retires.
 * Input: 6 E-Trace attribute bytes (fuzz_etrace.h), 5 N-Trace settings
 * bytes (fuzz_ntrace.h), then 12 bytes per record (rec_from below).
 * Checked: no crash or sanitizer report, statuses are known ones, and
 * every packet or message an encoder wrote reads back without error
 * (rvt_te_reader_next, rvt_nt_reader_next): an encoder only writes
 * well-formed streams.
 * FUZZ_ARGS: -max_len=2048 */
#include <stdlib.h>
#include "../fuzz_etrace.h"
#include "../fuzz_ntrace.h"

#define REC_BYTES 12
#define OUT_MAX (1u << 20)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

typedef struct outbuf {
    uint8_t *b;
    size_t n;
} outbuf;

static int collect(void *ctx, const uint8_t *bytes, size_t n)
{
    outbuf *o = ctx;
    RVT_FUZZ_ASSERT(o->n + n <= OUT_MAX);      /* bounded by the records */
    memcpy(o->b + o->n, bytes, n);
    o->n += n;
    return 0;
}

/* b[0]: itype | ilastsize << 4 | sijump << 6 | cycle end << 7;
 * b[1]: priv | ctype << 3 | one of eight flag sets << 5;
 * b[2], b[3]: ninstr and iretire (ninstr <= iretire);
 * b[4] bit 0: jump to next + 2 * (int16)b[5..6], else sequential;
 * b[7..8]: cause, b[9]: tval, b[10]: time step, b[11]: context. */
static void rec_from(const uint8_t *b, uint64_t *next, uint64_t *time, rvt_irec *r)
{
    static const uint8_t flag_sets[8] = {
        0, RVT_IREC_F_UNQUAL, RVT_IREC_F_TRIG_START, RVT_IREC_F_TRIG_STOP,
        RVT_IREC_F_TRIG_NOTIFY, RVT_IREC_F_HALTED, RVT_IREC_F_RESET,
        RVT_IREC_F_TRIG_START | RVT_IREC_F_TRIG_NOTIFY,
    };
    memset(r, 0, sizeof *r);
    r->itype = b[0] & 15u;
    r->ilastsize = (b[0] >> 4) & 3u;
    r->sijump = (b[0] >> 6) & 1u;
    r->flags = (uint8_t)(((b[0] >> 7) ? RVT_IREC_F_CYCLE_END : 0) | flag_sets[b[1] >> 5]);
    r->priv = b[1] & 7u;
    r->ctype = (b[1] >> 3) & 3u;
    r->iretire = b[3];
    r->ninstr = b[2] <= b[3] ? b[2] : b[3];
    if (r->ninstr && r->iretire < (1u << r->ilastsize))    /* the reader's rule */
        r->iretire = 1u << r->ilastsize;
    r->iaddr = *next;
    if (b[4] & 1u)
        r->iaddr += 2 * (int64_t)(int16_t)(b[5] | b[6] << 8);
    r->cause = (uint16_t)(b[7] | b[8] << 8);
    r->tval = b[9];
    *time += b[10];
    r->time = *time;
    r->context = b[11];
    *next = r->iaddr + 2ull * r->iretire;
}

static void check_te(const rvt_te_attrs *attrs, const outbuf *o)
{
    rvt_te_attrs a = *attrs;
    rvt_te_reader rd;
    rvt_te_reader_init(&rd, &a, o->b, o->n);
    rvt_te_pkt p;
    uint64_t off;
    int st;
    while ((st = rvt_te_reader_next(&rd, &p, &off)) > 0) {
        /* Support packets change the layout of the packets after them. */
        if (p.format == 3 && p.subformat == 3)
            a.options = rvt_te_support_options(&a, p.options);
    }
    if (st != 0)
        fprintf(stderr, "encoders: E-Trace packet at offset %llu does not read back: %s\n",
                (unsigned long long)off, rvt_status_str(st));
    RVT_FUZZ_ASSERT(st == 0);
}

static void check_nt(const rvt_nt_cfg *c, const outbuf *o)
{
    rvt_nt_reader rd;
    rvt_nt_reader_init(&rd, o->b, o->n, c);
    rvt_nt_msg m;
    int st;
    while ((st = rvt_nt_reader_next(&rd, &m)) > 0)
        ;
    if (st != 0)
        fprintf(stderr, "encoders: N-Trace message at offset %llu does not read back: %s\n",
                (unsigned long long)rd.err_offset, rd.err ? rd.err : rvt_status_str(st));
    RVT_FUZZ_ASSERT(st == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    rvt_te_attrs a;
    rvt_fuzz_te_attrs(&in, 0, &a);
    rvt_nt_cfg c;
    rvt_fuzz_nt_cfg(&in, a.iaddress_width, &c);
    outbuf te = { malloc(OUT_MAX), 0 }, nt = { malloc(OUT_MAX), 0 };
    int st = 0;
    rvt_te_encoder *e = te.b ? rvt_te_encoder_new(&a, collect, &te, &st) : NULL;
    rvt_fuzz_check_status(st);
    rvt_nt_encoder *n = nt.b ? rvt_nt_encoder_new(&c, collect, &nt, &st) : NULL;
    rvt_fuzz_check_status(st);
    uint64_t next = 0x80000000u, time = 0;
    int te_st = 0, nt_st = 0;
    for (; in.n >= REC_BYTES; in.p += REC_BYTES, in.n -= REC_BYTES) {
        rvt_irec r;
        rec_from(in.p, &next, &time, &r);
        if (e && te_st >= 0)
            rvt_fuzz_check_status(te_st = rvt_te_encoder_put(e, &r, 1));
        if (n && nt_st >= 0)
            rvt_fuzz_check_status(nt_st = rvt_nt_encoder_put(n, &r, 1));
    }
    if (e && te_st >= 0)
        rvt_fuzz_check_status(rvt_te_encoder_end(e));
    if (n && nt_st >= 0)
        rvt_fuzz_check_status(rvt_nt_encoder_end(n));
    if (e)
        check_te(&a, &te);
    if (n)
        check_nt(&c, &nt);
    rvt_te_encoder_free(e);
    rvt_nt_encoder_free(n);
    free(te.b);
    free(nt.b);
    return 0;
}
