/* The "pcs" writer: one lowercase hex PC per retired instruction, no 0x,
 * nothing else (docs/formats.md PC lists).  The hot path of
 * `decode --pcs`: formatted without printf into a buffer written 256 KiB
 * at a time (fmt.h), blocks walked through their cached shapes
 * (pc_list.h). */
#include <string.h>
#include "out/pc_list.h"

/* "00".."ff": the last two digits of a pc by table. */
static const char hex_pairs[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* The digits of hi = pc >> 8 (hi != 0), kept for the pcs after it. */
static void new_hi(rvt_pc_list *l, uint64_t hi)
{
    l->hi = hi;
    l->hi_len = (unsigned)(rvt_fmt_hex(l->hi_digits, hi) - l->hi_digits);
}

/* One line per pc: the digits above the last two copied from the last pc
 * that had them (a block's pcs mostly share all but the last two), those
 * two by table (issue #18: `--pcs` >= 100 M lines/s). */
static void put_pcs(rvt_pc_list *l, const uint64_t *pcs, size_t n)
{
    char *p = rvt_obuf_reserve(&l->b, 17 * n);
    for (size_t k = 0; k < n; k++) {
        uint64_t pc = pcs[k], hi = pc >> 8;
        if (!hi) {                              /* one or two digits */
            p = rvt_fmt_hex(p, pc);
            *p++ = '\n';
            continue;
        }
        if (hi != l->hi)
            new_hi(l, hi);
        memcpy(p, l->hi_digits, 16);            /* stays within this line's 17 bytes */
        p += l->hi_len;
        memcpy(p, &hex_pairs[2 * (pc & 0xff)], 2);
        p[2] = '\n';
        p += 3;
    }
    rvt_obuf_commit(&l->b, p);
}

static void *pcs_open(FILE *f, rvt_image *img)
{
    return rvt_pc_list_new(f, img, put_pcs);
}

static void *pcs_open_part(FILE *f, const rvt_out_bufs *to, rvt_image *img)
{
    return rvt_pc_list_new_part(f, to, img, put_pcs);
}

const rvt_out_writer rvt_out_pcs_writer = {
    .name = "pcs", .needs_image = false,
    .open = pcs_open, .event = rvt_pc_list_event, .finish = rvt_pc_list_finish, .block = rvt_pc_list_block,
    .blocks = rvt_pc_list_blocks, .open_part = pcs_open_part,
};
