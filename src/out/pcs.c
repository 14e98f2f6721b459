/* The "pcs" writer: one lowercase hex PC per retired instruction, no 0x,
 * nothing else (docs/formats.md PC lists).  The hot path of
 * `decode --pcs`: formatted without printf into a buffer written 64 KiB
 * at a time (fmt.h), blocks walked through their cached shapes
 * (pc_list.h). */
#include "out/pc_list.h"

static void put_pcs(rvt_obuf *b, const uint64_t *pcs, size_t n)
{
    char *p = rvt_obuf_reserve(b, 17 * n);
    for (size_t k = 0; k < n; k++) {
        p = rvt_fmt_hex(p, pcs[k]);
        *p++ = '\n';
    }
    rvt_obuf_commit(b, p);
}

static void *pcs_open(FILE *f, rvt_image *img)
{
    return rvt_pc_list_new(f, img, put_pcs);
}

const rvt_out_writer rvt_out_pcs_writer = {
    .name = "pcs", .needs_image = false,
    .open = pcs_open, .event = rvt_pc_list_event, .finish = rvt_pc_list_finish, .block = rvt_pc_list_block,
};
