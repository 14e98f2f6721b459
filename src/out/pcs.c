/* The "pcs" writer: one lowercase hex PC per retired instruction, no 0x,
 * nothing else (docs/formats.md PC lists).  The hot path of
 * `decode --pcs`: formatted without printf into a buffer written 64 KiB
 * at a time (fmt.h). */
#include <stdlib.h>
#include "out/fmt.h"
#include "out/writers.h"

static void *pcs_open(FILE *f, rvt_image *img)
{
    (void)img;
    rvt_obuf *b = malloc(sizeof *b);
    if (b)
        rvt_obuf_init(b, f);
    return b;
}

static void pcs_event(void *state, const rvt_flow_event *ev)
{
    if (ev->kind != RVT_EV_INSN)
        return;
    rvt_obuf *b = state;
    char *p = rvt_fmt_hex(rvt_obuf_reserve(b, 17), ev->pc);
    *p++ = '\n';
    rvt_obuf_commit(b, p);
}

static void pcs_finish(void *state)
{
    rvt_obuf_flush(state);
    free(state);        /* the FILE belongs to the caller */
}

const rvt_out_writer rvt_out_pcs_writer = {
    .name = "pcs", .needs_image = false,
    .open = pcs_open, .event = pcs_event, .finish = pcs_finish,
};
