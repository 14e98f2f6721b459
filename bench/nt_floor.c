/* Lower bound on N-Trace HTM size (nt_floor.h has the argument). */
#include <string.h>
#include "nt_floor.h"

#define FLOOR_MSG_BITS 24u       /* TCODE, B-TYPE + I-CNT, U-ADDR */
#define FLOOR_HIST_BITS 8u       /* a HIST byte (or a ResourceFull) */
#define FLOOR_REPEAT_BITS 16u    /* RepeatBranch: TCODE, B-CNT */
#define FLOOR_SYNC_BITS 64u      /* the first ProgTraceSync */

void nt_floor_init(nt_floor *f)
{
    memset(f, 0, sizeof *f);
}

static void push(nt_floor *f, uint64_t ret)
{
    f->stack[f->top] = ret;
    f->top = (f->top + 1) % NT_FLOOR_STACK;
    if (f->depth < NT_FLOOR_STACK)
        f->depth++;
}

/* A return or a swap's pop half (table 3, 9.2 mode 3). */
static void pop(nt_floor *f)
{
    f->pending = true;
    f->pend_btype = 0;
    f->pend_is_return = f->depth > 0;
    if (f->depth) {
        f->top = (f->top + NT_FLOOR_STACK - 1) % NT_FLOOR_STACK;
        f->depth--;
        f->pend_ret = f->stack[f->top];
    }
}

/* The pending event's message, now that its target is known. */
static void message(nt_floor *f, uint64_t target)
{
    f->pending = false;
    if (f->pend_is_return && target == f->pend_ret)
        return;                          /* implicit return: no message */
    uint64_t uaddr = (target ^ f->prev_addr) >> 1;      /* 8.1 */
    bool same = f->have_prev && f->pend_btype == f->prev_btype &&
                f->icnt == f->prev_icnt && uaddr == f->prev_uaddr;
    if (same) {
        if (!f->in_repeat)
            f->bits += FLOOR_REPEAT_BITS;
        f->in_repeat = true;
    } else {
        f->bits += FLOOR_MSG_BITS + (f->branched ? FLOOR_HIST_BITS : 0);
        f->in_repeat = false;
    }
    f->have_prev = true;
    f->prev_btype = f->pend_btype;
    f->prev_icnt = f->icnt;
    f->prev_uaddr = uaddr;
    f->prev_addr = target;
    f->icnt = 0;
    f->branched = false;
}

static void forced(nt_floor *f, unsigned btype)
{
    f->pending = true;
    f->pend_is_return = false;
    f->pend_btype = btype;
}

void nt_floor_put(nt_floor *f, const rvt_irec *r)
{
    bool trap = r->itype == RVT_ITYPE_EXCEPTION || r->itype == RVT_ITYPE_INTERRUPT;
    if (!f->started) {
        f->started = true;
        f->bits += FLOOR_SYNC_BITS;
        f->prev_addr = r->iaddr;          /* F-ADDR: the first U-ADDR's base */
    }
    if (f->pending) {
        if (trap && r->ninstr == 0)
            f->pending = false;           /* the trap's message reports both */
        else
            message(f, r->iaddr);
    }
    f->icnt += r->iretire;
    uint64_t next = r->iaddr + 2ull * r->iretire;
    switch (r->itype) {
    case RVT_ITYPE_EXCEPTION:
    case RVT_ITYPE_INTERRUPT:
        forced(f, 1);
        break;
    case RVT_ITYPE_NT_BRANCH:
    case RVT_ITYPE_T_BRANCH:
        f->branched = true;
        break;
    case RVT_ITYPE_UNINF_CALL:
        if (!r->sijump)
            forced(f, 0);
        push(f, next);
        break;
    case RVT_ITYPE_INF_CALL:
        push(f, next);
        break;
    case RVT_ITYPE_SWAP:
        pop(f);
        push(f, next);
        break;
    case RVT_ITYPE_RETURN:
        if (!r->sijump)
            pop(f);
        break;
    case RVT_ITYPE_XRET:
        forced(f, 0);
        break;
    case RVT_ITYPE_UNINF_TAIL:
    case RVT_ITYPE_UNINF_JUMP:
    case RVT_ITYPE_UNINF_JUMP3:
        if (!r->sijump)
            forced(f, 0);
        break;
    default:
        break;
    }
}

uint64_t nt_floor_bits(const nt_floor *f)
{
    return f->bits;
}
