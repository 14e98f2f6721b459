/* Fuzz target: the transport stage (rvtrace/transport.h), chiefly the
 * encapsulation reader.  Input: 3 setting bytes (srcID width, timestamp
 * bytes, type width, unframed, transport), then the stream.  Every call
 * advances, frames and error offsets stay inside the stream, a frame's
 * payload lies inside it (or in the 31-byte realignment buffer), sync
 * points are sync points from any start, and an encap frame packed again
 * with rvt_encap_pack reads back as the same frame.
 * FUZZ_ARGS: -max_len=2048 */
#include "../fuzz.h"
#include "rvtrace/transport.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static void repack(const rvt_tp_config *c, const rvt_tp_frame *f)
{
    uint8_t b[64];
    uint64_t ts = f->timestamp;
    int n = rvt_encap_pack(c, f->src, f->type, f->flow, f->has_timestamp ? &ts : NULL, f->payload,
                           f->len, b, sizeof b);
    rvt_fuzz_check_status(n);
    RVT_FUZZ_ASSERT(n > 0 && (uint64_t)n == f->size);   /* what was read, packs */
    rvt_transport *t = rvt_tp_new("encap", c, b, (size_t)n, NULL);
    rvt_tp_frame g;
    RVT_FUZZ_ASSERT(rvt_tp_next(t, &g) == 1);
    RVT_FUZZ_ASSERT(g.src == f->src && g.type == f->type && g.flow == f->flow);
    RVT_FUZZ_ASSERT(g.timestamp == f->timestamp && g.len == f->len);
    RVT_FUZZ_ASSERT(!memcmp(g.payload, f->payload, f->len));
    rvt_tp_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    rvt_tp_config c;
    rvt_tp_config_init(&c);
    uint8_t a = rvt_fuzz_u8(&in), b = rvt_fuzz_u8(&in), k = rvt_fuzz_u8(&in);
    c.src_bits = a % 17;
    c.ts_bytes = b % 9;
    c.type_bits = (b >> 4) % 9;
    c.unframed = a & 0x80;
    const char *name = rvt_tp_names()[k % 3];
    int st;
    rvt_transport *t = rvt_tp_new(name, &c, in.p, in.n, &st);
    RVT_FUZZ_ASSERT(t != NULL);
    size_t calls = 0;
    rvt_tp_frame f;
    for (;;) {
        uint64_t before = rvt_tp_get_offset(t);
        st = rvt_tp_next(t, &f);
        rvt_fuzz_check_status(st);
        if (st == 0)
            break;
        RVT_FUZZ_ASSERT(rvt_tp_get_offset(t) > before && rvt_tp_get_offset(t) <= in.n);
        RVT_FUZZ_ASSERT(++calls <= in.n);
        RVT_FUZZ_ASSERT(f.offset < in.n);
        if (st < 0)
            continue;
        RVT_FUZZ_ASSERT(f.offset + f.size <= in.n && f.len > 0 && f.len <= 48);
        if (!strcmp(name, "encap"))
            repack(&c, &f);
        if (k & 0x40)
            rvt_tp_reject(t, &f);
    }
    RVT_FUZZ_ASSERT(rvt_tp_skipped(t) <= in.n);
    /* a sync point found from p is found again from any q in [p0, p] */
    rvt_tp_sync_set(t, in.n / 2);
    if (rvt_tp_sync_forward(t) == 0) {
        uint64_t s = rvt_tp_get_offset(t), s2;
        RVT_FUZZ_ASSERT(s >= in.n / 2 && s < in.n);
        rvt_tp_sync_set(t, s);
        RVT_FUZZ_ASSERT(rvt_tp_sync_forward(t) == 0);
        RVT_FUZZ_ASSERT(rvt_tp_get_sync_offset(t, &s2) == 0 && s2 == s);
    }
    rvt_tp_free(t);
    return 0;
}
