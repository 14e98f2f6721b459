/* The "pcs" writer: one lowercase hex PC per retired instruction, no 0x,
 * nothing else (docs/formats.md PC lists).  The hot path of
 * `decode --pcs`: its state is the FILE itself. */
#include "out/writers.h"

static void *pcs_open(FILE *f, rvt_image *img)
{
    (void)img;
    return f;
}

/* Lowercase hex without leading zeros; faster than fprintf. */
static void put_hex_line(FILE *f, uint64_t v)
{
    char buf[20];
    int i = 19;
    buf[i] = '\n';
    do {
        buf[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    fwrite(buf + i, 1, (size_t)(20 - i), f);
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
