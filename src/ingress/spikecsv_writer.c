/* Writes blocks as the reference flow's Spike-style instruction trace CSV
 * (docs/format-import.md "spikecsv"), the input its post-iss reads, so a
 * hart run can feed the reference tools; `rvtrace import spikecsv` reads
 * it back into the same blocks.  One row per instruction:
 *   VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT
 * An exception marks the trapping instruction's row (retired for ecall and
 * ebreak, else the instruction after the block's last retired one); an
 * interrupt marks the last retired row.  Rows are held back by one so an
 * interrupt block without instructions can mark the row before it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ingress/csv_out.h"
#include "rvtrace/image.h"
#include "rvtrace/ingress.h"
#include "rvtrace/isa.h"

typedef struct spike_row {
    uint64_t addr, cause, tval;
    uint32_t insn;
    uint8_t priv, exception, interrupt;
} spike_row;

struct rvt_spikecsv_writer {
    csv_out out;
    const rvt_image *img;
    unsigned xlen;
    spike_row pend;
    bool have_pend;
    int err;
};

rvt_spikecsv_writer *rvt_spikecsv_writer_open(const char *path, const rvt_image *img,
                                              unsigned xlen, int *status)
{
    rvt_spikecsv_writer *w = img ? calloc(1, sizeof *w) : NULL;
    int st = RVT_OK;
    if (!img) {
        st = RVT_ERR_INVAL;
    } else if (!w) {
        st = RVT_ERR_NOMEM;
    } else {
        w->img = img;
        w->xlen = xlen == 32 ? 32 : 64;
        if (!csv_out_open(&w->out, path, "VALID,ADDRESS,INSN,PRIVILEGE,EXCEPTION,ECAUSE,TVAL,INTERRUPT\n")) {
            st = RVT_ERR_IO;
            free(w);
            w = NULL;
        }
    }
    if (status)
        *status = st;
    return w;
}

/* The encoding at pc from the image: 16 bits for a compressed instruction
 * (low bits != 11), as Spike writes it; 0 where the image has nothing
 * (a fetch fault).  *len gets its size in bytes. */
static uint32_t insn_at(const rvt_spikecsv_writer *w, uint64_t pc, unsigned *len)
{
    uint8_t b[4] = { 0 };
    size_t got = rvt_image_read(w->img, pc, b, 4);
    *len = 4;
    if (got < 2)
        return 0;
    if ((b[0] & 3) != 3) {
        *len = 2;
        return (uint32_t)b[0] | (uint32_t)b[1] << 8;
    }
    if (got < 4)
        return 0;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void flush_pend(rvt_spikecsv_writer *w)
{
    if (!w->have_pend)
        return;
    const spike_row *r = &w->pend;
    if (fprintf(w->out.f, "1,%" PRIx64 ",%" PRIx32 ",%x,%x,%" PRIx64 ",%" PRIx64 ",%x\n", r->addr,
                r->insn, r->priv, r->exception, r->cause, r->tval, r->interrupt) < 0)
        w->err = RVT_ERR_IO;
    w->have_pend = false;
}

static void put_insn(rvt_spikecsv_writer *w, const rvt_irec *r, uint64_t pc, uint32_t insn)
{
    flush_pend(w);
    w->pend = (spike_row){ .addr = pc, .insn = insn, .priv = r->priv };
    w->have_pend = true;
}

/* Mark the held row with the block's trap. */
static void mark_trap(rvt_spikecsv_writer *w, const rvt_irec *r)
{
    w->pend.cause = r->cause;
    w->pend.tval = r->tval;
    if (r->itype == RVT_ITYPE_INTERRUPT)
        w->pend.interrupt = 1;
    else
        w->pend.exception = 1;
}

static bool traps_itself(const rvt_spikecsv_writer *w, uint32_t raw)
{
    rvt_insn in;
    memset(&in, 0, sizeof in);
    rvt_isa_decode(raw, w->xlen, &in);
    return in.op == RVT_OP_ECALL || in.op == RVT_OP_EBREAK;
}

static int put_block(rvt_spikecsv_writer *w, const rvt_irec *r)
{
    bool trap = r->itype == RVT_ITYPE_EXCEPTION || r->itype == RVT_ITYPE_INTERRUPT;
    uint64_t pc = r->iaddr;
    uint32_t last = 0;
    for (uint32_t k = 0; k < r->ninstr; k++) {
        unsigned len;
        last = insn_at(w, pc, &len);
        if (k + 1 == r->ninstr)
            len = 2u << r->ilastsize;       /* the block says (4.2) */
        put_insn(w, r, pc, last);
        pc += len;
    }
    if (!trap)
        return w->err;
    if (r->itype == RVT_ITYPE_EXCEPTION && !(r->ninstr && traps_itself(w, last))) {
        /* A fault: the instruction after the last retired one, which did
         * not retire (E-Trace 4.2), is the trapping row. */
        unsigned len;
        put_insn(w, r, pc, insn_at(w, pc, &len));
    }
    if (w->have_pend)
        mark_trap(w, r);
    return w->err;
}

static int w_put(void *ctx, const rvt_irec *recs, size_t n)
{
    rvt_spikecsv_writer *w = ctx;
    for (size_t i = 0; i < n && w->err == RVT_OK; i++)
        w->err = put_block(w, &recs[i]);
    return w->err;
}

static int w_end(void *ctx)
{
    rvt_spikecsv_writer *w = ctx;
    flush_pend(w);
    return csv_out_flush(&w->out, &w->err);
}

rvt_irec_sink rvt_spikecsv_writer_sink(rvt_spikecsv_writer *w)
{
    /* Data accesses have no column in this CSV: data() is left NULL. */
    rvt_irec_sink s = { w, w_put, NULL, w_end };
    return s;
}

int rvt_spikecsv_writer_close(rvt_spikecsv_writer *w)
{
    if (!w)
        return RVT_ERR_INVAL;
    flush_pend(w);
    int rc = csv_out_close(&w->out, w->err);
    free(w);
    return rc;
}
