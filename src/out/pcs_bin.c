/* The "pcs-bin" writer (`decode --pcs-bin FILE`): the retired PCs as a
 * binary PC list (rvtrace/pcbin.h, docs/formats.md): the header, then each
 * PC little-endian in xlen/8 bytes, through the 64 KiB buffer (fmt.h).
 * Fixed width rather than delta-coded: a store per instruction to write,
 * random access to read. */
#include <stdlib.h>
#include "rvtrace/pcbin.h"
#include "out/fmt.h"
#include "out/writers.h"

typedef struct pcb_out {
    unsigned bytes;             /* per PC: 4 or 8 */
    rvt_obuf b;
} pcb_out;

static void *pcb_open(FILE *f, rvt_image *img)
{
    pcb_out *o = malloc(sizeof *o);
    if (!o)
        return NULL;
    unsigned xlen = img && rvt_image_xlen(img) == 32 ? 32 : 64;
    o->bytes = xlen / 8;
    rvt_obuf_init(&o->b, f);
    uint8_t hdr[RVT_PCBIN_HEADER];
    rvt_pcbin_header(hdr, xlen);
    rvt_obuf_write(&o->b, hdr, sizeof hdr);
    return o;
}

static void pcb_event(void *state, const rvt_flow_event *ev)
{
    if (ev->kind != RVT_EV_INSN)
        return;
    pcb_out *o = state;
    unsigned char *p = (unsigned char *)rvt_obuf_reserve(&o->b, 8);
    uint64_t v = ev->pc;
    for (unsigned i = 0; i < o->bytes; i++, v >>= 8)   /* little-endian whatever the host */
        p[i] = (unsigned char)v;
    rvt_obuf_commit(&o->b, (char *)p + o->bytes);
}

static void pcb_finish(void *state)
{
    pcb_out *o = state;
    rvt_obuf_flush(&o->b);
    free(o);
}

const rvt_out_writer rvt_out_pcs_bin_writer = {
    .name = "pcs-bin", .needs_image = false, .file_option = true,
    .open = pcb_open, .event = pcb_event, .finish = pcb_finish,
};
