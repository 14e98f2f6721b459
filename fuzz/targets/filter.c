/* Fuzz target: the trace-filter stage (src/filter) -- the text form of
 * comparators, filters and triggers, then ingress blocks and data accesses
 * through the stage.  Input: lines up to the first NUL byte, each a kind
 * character and a specification ('c' comparator, 'f' filter, '2' trace-on,
 * '3' trace-off, '4' trace-notify; symbols "main" and "f" resolve); then
 * 12-byte records (byte 0 bit 0: data access, else a block).
 * Invariants: a refused specification has a message; the stage forwards
 * every block with its own flags kept and only UNQUAL/TRIG_* added; without
 * iFilters, trace-on/-off triggers or trace-off pulses in the records
 * nothing is unqualified; halted/reset
 * blocks pass untouched; no data access appears that was not put in.
 * FUZZ_ARGS: -max_len=2048 */
#include "../fuzz.h"
#include "rvtrace/filter.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static bool sym(void *ctx, const char *name, uint64_t *addr)
{
    (void)ctx;
    if (!strcmp(name, "main"))
        *addr = 0x80000000;
    else if (!strcmp(name, "f"))
        *addr = 0x80000100;
    else
        return false;
    return true;
}

static void parse_line(rvt_filter_cfg *cfg, const char *line)
{
    char err[256] = "";
    int st = 0;
    switch (line[0]) {
    case 'c': st = rvt_filter_parse_cmp(cfg, line + 1, sym, NULL, err, sizeof err); break;
    case 'f': st = rvt_filter_parse_filter(cfg, line + 1, err, sizeof err); break;
    case '2': case '3': case '4':
        st = rvt_filter_add_trigger(cfg, (unsigned)(line[0] - '0'), line + 1, sym, NULL, err, sizeof err);
        break;
    default: return;
    }
    rvt_fuzz_check_status(st);
    RVT_FUZZ_ASSERT(st == 0 || err[0]);
    RVT_FUZZ_ASSERT(rvt_filter_cfg_check(cfg, NULL, 0) == 0);   /* a refusal changes nothing */
}

/* Returns the offset after the text part. */
static size_t parse_text(rvt_filter_cfg *cfg, const uint8_t *data, size_t size)
{
    size_t end = 0;
    while (end < size && data[end])
        end++;
    char line[600];
    for (size_t i = 0; i < end; ) {
        size_t n = 0;
        while (i < end && data[i] != '\n' && n < sizeof line - 1)
            line[n++] = (char)data[i++];
        line[n] = 0;
        while (i < end && data[i] != '\n')
            i++;
        i++;
        parse_line(cfg, line);
    }
    return end < size ? end + 1 : size;
}

typedef struct out_sink {
    rvt_irec last;
    uint64_t blocks, data;
} out_sink;

static int out_put(void *ctx, const rvt_irec *r, size_t n)
{
    out_sink *o = ctx;
    RVT_FUZZ_ASSERT(n == 1);
    o->last = r[0];
    o->blocks++;
    return 0;
}

static int out_data(void *ctx, const rvt_drec *d, size_t n)
{
    (void)d;
    ((out_sink *)ctx)->data += n;
    return 0;
}

static uint64_t u16at(const uint8_t *p) { return (uint64_t)p[0] | (uint64_t)p[1] << 8; }

static rvt_irec block_of(const uint8_t *p)
{
    rvt_irec r = { 0 };
    r.iaddr = 0x80000000 + 2 * u16at(p + 1);
    r.iretire = p[3] % 32;
    r.ninstr = r.iretire ? 1 : 0;
    r.ilastsize = p[4] & 1 ? 1 : 0;
    r.itype = p[4] >> 4;
    r.priv = (uint8_t)(p[5] & 3) == 2 ? 3 : p[5] & 3;
    r.cause = p[6] % 40;
    r.tval = u16at(p + 7);
    r.context = p[9];
    r.flags = p[10] & 0x7f;
    return r;
}

static rvt_drec data_of(const uint8_t *p)
{
    rvt_drec d = { 0 };
    d.iaddr = 0x80000000 + 2 * u16at(p + 1);
    d.addr = 0x80000000 + u16at(p + 3) * 8;
    d.dtype = p[5] % 16;
    d.dsize = p[6] % 5;
    d.flags = p[7] & (RVT_DREC_F_SPLIT_REQ | RVT_DREC_F_RESPONSE);   /* split phases (4.3) */
    d.lrid = p[8] % 8;
    return d;
}

static bool has_action(const rvt_filter_cfg *cfg, unsigned a)
{
    for (unsigned i = 0; i < cfg->ntrig; i++)
        if (cfg->trig[i].action == a)
            return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_filter_cfg cfg;
    rvt_filter_cfg_init(&cfg);
    size_t off = parse_text(&cfg, data, size);
    out_sink o = { 0 };
    rvt_irec_sink down = { &o, out_put, out_data, NULL };
    int st;
    rvt_filter *f = rvt_filter_new(&cfg, &down, &st);
    RVT_FUZZ_ASSERT(f && st == 0);
    rvt_irec_sink s = rvt_filter_sink(f);
    bool free_run = !cfg.ifilters && !has_action(&cfg, RVT_FILTER_TRACE_ON) &&
                    !has_action(&cfg, RVT_FILTER_TRACE_OFF);
    const unsigned added = RVT_IREC_F_UNQUAL | RVT_IREC_F_TRIG_START | RVT_IREC_F_TRIG_STOP |
                           RVT_IREC_F_TRIG_NOTIFY;
    uint64_t put_data = 0;
    for (; off + 12 <= size; off += 12) {
        const uint8_t *p = data + off;
        if (p[0] & 1) {
            rvt_drec d = data_of(p);
            RVT_FUZZ_ASSERT(s.data(s.ctx, &d, 1) == 0);
            put_data++;
            continue;
        }
        rvt_irec r = block_of(p);
        /* a trace-off pulse of the source itself ends the free run */
        if ((r.flags & RVT_IREC_F_TRIG_STOP) && !(r.flags & (RVT_IREC_F_HALTED | RVT_IREC_F_RESET)))
            free_run = false;
        RVT_FUZZ_ASSERT(s.put(s.ctx, &r, 1) == 0);
        unsigned got = o.last.flags;
        RVT_FUZZ_ASSERT((got & r.flags) == r.flags);
        RVT_FUZZ_ASSERT(!(got & ~(r.flags | added)));
        if (r.flags & (RVT_IREC_F_HALTED | RVT_IREC_F_RESET))
            RVT_FUZZ_ASSERT(got == r.flags);
        if (free_run)
            RVT_FUZZ_ASSERT(!((got & ~r.flags) & RVT_IREC_F_UNQUAL));
    }
    const rvt_filter_stats *fs = rvt_filter_get_stats(f);
    RVT_FUZZ_ASSERT(o.data <= put_data && fs->data == put_data);
    RVT_FUZZ_ASSERT(fs->data - fs->data_dropped == o.data);
    RVT_FUZZ_ASSERT(fs->blocks <= o.blocks && fs->unqualified <= fs->blocks);
    rvt_filter_free(f);
    return 0;
}
