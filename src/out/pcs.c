/* The "pcs" writer: one lowercase hex PC per retired instruction, no 0x,
 * nothing else (docs/formats.md PC lists).  The hot path of
 * `decode --pcs`: its state is the FILE itself. */
#include "out/writers.h"

static void *pcs_open(FILE *f, rvt_image *img)
{
    (void)img;
    return f;
}

/* Lowercase hex without leading zeros, one line; faster than fprintf.
 * Two digits per step from a byte table, into one aligned 32-byte block so
 * fwrite's copy never loads across a cache line. */
static void put_hex_line(FILE *f, uint64_t v)
{
    static const char hex[] = "0123456789abcdef";
    _Alignas(32) char buf[32];
    int i = 31;
    buf[i] = '\n';
    do {
        unsigned b = (unsigned)(v & 0xff);
        buf[--i] = hex[b & 15];
        buf[--i] = hex[b >> 4];
        v >>= 8;
    } while (v);
    i += buf[i] == '0' && i < 30;       /* the high nibble of the top byte */
    fwrite(buf + i, 1, (size_t)(32 - i), f);
}

static void pcs_event(void *state, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        put_hex_line(state, ev->pc);
}

static void pcs_finish(void *state)
{
    (void)state;        /* the FILE belongs to the caller */
}

const rvt_out_writer rvt_out_pcs_writer = {
    .name = "pcs", .needs_image = false,
    .open = pcs_open, .event = pcs_event, .finish = pcs_finish,
};
