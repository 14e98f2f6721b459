/* Fuzz target: the E-Trace packet layer (rvt_te_reader_*, rvt_te_unpack,
 * rvt_te_pack, rvt_te_pkt_format -- the `rvtrace dump` path).  Input: 6
 * attribute bytes (fuzz_etrace.h), then a raw-container stream.  Every call
 * of the reader must advance, offsets stay inside the stream, every packet
 * unpacked re-packs, and packing is idempotent (pack(unpack(pack(p))) equals
 * pack(p) byte for byte).
 * Inputs are capped at 512 bytes (50-150 packets/messages): every layout and
 * error path is reached within a few of them, while the dump path costs
 * ~8 us per packet under ASan (mostly snprintf), so 4 KB inputs held these
 * targets at ~350 exec/s (perf: no per-input setup cost to remove).
 * FUZZ_ARGS: -max_len=512 */
#include "../fuzz_etrace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void repack(const rvt_te_attrs *a, const rvt_te_pkt *p)
{
    uint8_t b1[64], b2[64];
    int n1 = rvt_te_pack(a, p, b1, sizeof b1);
    rvt_fuzz_check_status(n1);
    if (n1 < 0)
        return;
    RVT_FUZZ_ASSERT((size_t)n1 <= sizeof b1);
    rvt_te_pkt q;
    memset(&q, 0, sizeof q);
    int st = rvt_te_unpack(a, b1, (size_t)n1, &q);
    RVT_FUZZ_ASSERT(st >= 0);   /* what pack wrote, unpack reads */
    int n2 = rvt_te_pack(a, &q, b2, sizeof b2);
    RVT_FUZZ_ASSERT(n2 == n1 && memcmp(b1, b2, (size_t)n1) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    rvt_te_attrs a;
    rvt_fuzz_te_attrs(&in, 0, &a);
    rvt_te_reader r;
    rvt_te_reader_init(&r, &a, in.p, in.n);
    size_t calls = 0;
    for (;;) {
        rvt_te_pkt p;
        memset(&p, 0, sizeof p);
        uint64_t off = UINT64_MAX;
        size_t before = r.pos;
        int st = rvt_te_reader_next(&r, &p, &off);
        rvt_fuzz_check_status(st);
        if (st == 0)
            break;
        RVT_FUZZ_ASSERT(off < in.n);
        RVT_FUZZ_ASSERT(r.pos > before && r.pos <= in.n);   /* progress */
        RVT_FUZZ_ASSERT(++calls <= in.n);
        if (st > 0) {
            char line[512], tiny[8];
            int n = rvt_te_pkt_format(&a, &p, calls & 1, line, sizeof line);
            RVT_FUZZ_ASSERT(n >= 0 && strlen(line) < sizeof line);
            rvt_te_pkt_format(&a, &p, !(calls & 1), tiny, sizeof tiny);
            RVT_FUZZ_ASSERT(strlen(tiny) < sizeof tiny);
            repack(&a, &p);
        }
    }
    return 0;
}
