/* Fuzz target: the N-Trace MSEO/message layer (rvt_nt_reader_*,
 * rvt_nt_msg_format, rvt_nt_msg_encode -- the `rvtrace dump` path).  Input:
 * 4 setting bytes (fuzz_ntrace.h), then MSEO bytes.  Every call must
 * advance, messages and error offsets stay inside the stream, a message is
 * at most RVT_NT_MAX_MSG bytes, and re-encoding a decoded message reads back
 * as the same message.
 * Inputs are capped at 512 bytes (50-150 packets/messages): every layout and
 * error path is reached within a few of them, while the dump path costs
 * ~8 us per packet under ASan (mostly snprintf), so 4 KB inputs held these
 * targets at ~350 exec/s (perf: no per-input setup cost to remove).
 * FUZZ_ARGS: -max_len=512 */
#include "../fuzz_ntrace.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void reencode(const rvt_nt_cfg *c, const rvt_nt_msg *m)
{
    uint8_t b[4 * RVT_NT_MAX_MSG];
    int n = rvt_nt_msg_encode(m, c, b, sizeof b);
    rvt_fuzz_check_status(n);
    if (n <= 0)
        return;
    RVT_FUZZ_ASSERT((size_t)n <= sizeof b);
    rvt_nt_reader r;
    rvt_nt_reader_init(&r, b, (size_t)n, c);
    rvt_nt_msg q;
    memset(&q, 0, sizeof q);
    int st = rvt_nt_reader_next(&r, &q);
    RVT_FUZZ_ASSERT(st > 0);   /* what the encoder wrote, the reader reads */
    RVT_FUZZ_ASSERT(q.tcode == m->tcode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    rvt_nt_cfg c;
    rvt_fuzz_nt_cfg(&in, 0, &c);
    rvt_nt_reader r;
    rvt_nt_reader_init(&r, in.p, in.n, &c);
    size_t calls = 0;
    for (;;) {
        rvt_nt_msg m;
        memset(&m, 0, sizeof m);
        size_t before = r.pos;
        int st = rvt_nt_reader_next(&r, &m);
        rvt_fuzz_check_status(st);
        if (st == 0)
            break;
        RVT_FUZZ_ASSERT(r.pos > before && r.pos <= in.n);   /* progress */
        RVT_FUZZ_ASSERT(++calls <= in.n);
        if (st < 0) {
            RVT_FUZZ_ASSERT(r.err != NULL);
            RVT_FUZZ_ASSERT(r.err_offset <= in.n);
            continue;
        }
        RVT_FUZZ_ASSERT(m.offset < in.n && m.len <= RVT_NT_MAX_MSG);
        RVT_FUZZ_ASSERT(m.offset + m.len <= in.n);
        char line[1024], tiny[8];
        int n = rvt_nt_msg_format(&m, calls & 1, line, sizeof line);
        RVT_FUZZ_ASSERT(n >= 0 && strlen(line) < sizeof line);
        rvt_nt_msg_format(&m, !(calls & 1), tiny, sizeof tiny);
        RVT_FUZZ_ASSERT(strlen(tiny) < sizeof tiny);
        reencode(&c, &m);
    }
    return 0;
}
