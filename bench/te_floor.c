/* Lower bound on E-Trace size (te_floor.h has the argument). */
#include <string.h>
#include "te_floor.h"

#define FLOOR_PACKET_BITS 16u    /* header byte + one payload byte */
#define FLOOR_SYNC_BITS 48u      /* the first format 3 subformat 0 packet */

void te_floor_init(te_floor *f)
{
    memset(f, 0, sizeof *f);
}

static void discon(te_floor *f)
{
    f->discons++;
    f->last_discon = true;
}

void te_floor_put(te_floor *f, const rvt_irec *r)
{
    bool after_discon = f->last_discon;
    f->last_discon = false;
    switch (r->itype) {
    case RVT_ITYPE_EXCEPTION:
    case RVT_ITYPE_INTERRUPT:
        f->traps++;
        f->depth = 0;            /* 3.2.5: reset by the sync packet */
        if (after_discon && r->ninstr == 0)
            f->discons--;        /* the trap's packet reports both */
        break;
    case RVT_ITYPE_RETURN:
        if (f->depth)
            f->depth--;          /* implicit return: free */
        else
            discon(f);
        break;
    case RVT_ITYPE_INF_CALL:
        f->depth++;
        break;
    case RVT_ITYPE_UNINF_CALL:
        if (!r->sijump)
            discon(f);
        f->depth++;
        break;
    case RVT_ITYPE_XRET:
    case RVT_ITYPE_SWAP:
        discon(f);
        break;
    case RVT_ITYPE_UNINF_TAIL:
    case RVT_ITYPE_UNINF_JUMP:
    case RVT_ITYPE_UNINF_JUMP3:
        if (!r->sijump)
            discon(f);
        break;
    default:
        break;
    }
}

uint64_t te_floor_bits(const te_floor *f)
{
    return FLOOR_SYNC_BITS + FLOOR_PACKET_BITS * (f->traps + f->discons);
}
