/* N-Trace flow decoder (ch. 11): messages + program image -> retired
 * instructions.  Walks I-CNT and HIST a straight-line block at a time
 * through the instruction/block cache shared with the E-Trace decoder
 * (isa/insn_blocks.h); starts and restarts at synchronisation messages. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/ntrace.h"
#include "rvtrace/transport.h"
#include "ntrace/nt_addr.h"
#include "flow/flow_insn.h"
#include "flow/flow_seq.h"
#include "flow/flow_stack.h"
#include "flow/flow_state.h"
#include "flow/flow_pull.h"
#include "flow/flow_pull_direct.h"
#include "ntrace/nt_pull.h"
#include "ntrace/nt_return.h"
#include "ntrace/nt_read.h"
#include "ntrace/nt_chunk.h"
#include "util/bitio.h"
#include "image/mem_view.h"
#include "util/grow.h"
#include "isa/insn_blocks.h"

/* I-CNT accepted beyond rvtIcntBits (icnt_ok): 2^40 half-words. */
#define NT_ICNT_CEILING (1ull << 40)

/* Trace Event markers (table 25 SYNC=6) held until the walk is there. */
#define NT_MARK_MAX (1u << 16)

typedef struct nt_mark {
    uint64_t pos;             /* half-words from the I-CNT base (as consumed) */
    uint64_t pc;              /* F-ADDR: the notified instruction */
} nt_mark;

/* Where a source's walk stands in its I-CNT span and HIST word: what the
 * walk changes at every block, in one struct the block walk (walk_blocks)
 * copies into a local, so that its loop keeps it in registers (stores of
 * the blocks it hands out could alias the source's fields). */
typedef struct nt_cursor {
    uint64_t consumed;        /* half-words walked since the last I-CNT report */
    uint64_t bit_at;          /* consumed when the last HIST bit was taken */
    uint64_t hbits;           /* history bits not yet used, oldest at bit hn-1 */
    unsigned hn;
    const rvt_insn *prev;     /* previous instruction of this I-CNT span (9.1) */
    uint64_t prev_pc;
} nt_cursor;

/* Decoder state of one message source (11.2). */
typedef struct nt_src {
    /* NO_SYNC until the first sync (which starts the trace), then DECODE
     * or WAIT_SYNC; the pending loss counts skipped I-CNT half-words */
    rvt_flow_sync sync;
    bool ended;               /* its last message is a ProgTraceCorrelation (7.12) */
    uint64_t pc, ref;
    nt_cursor c;
    uint64_t extra;           /* I-CNT from ResourceFull RCODE 0 (8.4.4) */
    rvt_flow_stack stack;     /* 9.2 */
    uint64_t stack_slot[NT_RETURN_DEPTH_MAX];
    uint64_t ts;              /* 8.7 */
    uint64_t retired_pc;      /* the last instruction walked (UINT64_MAX: none yet) */
    nt_mark *marks;           /* pending markers, oldest at marks[mhead] */
    unsigned mhead, nmark;
    size_t mcap;
    const rvt_insn *held;     /* BTM: a marker's instruction, walked, whose
                                 successor the next message names */
    uint64_t held_pc;
    /* 7.11: the last branch message, for RepeatBranch */
    uint8_t last_tcode;
    bool last_valid;
    uint64_t last_icnt, last_hist, last_target;
    rvt_flow_event ev;        /* template: src, priv */
    uint64_t context;         /* the last Ownership message's (7.1), 0 before */
    bool has_context;         /* one was given (format 2-3): a primed
                                 source's seeds the pull's (pull_start) */
} nt_src;

/* The pull API: a history walk (ResourceFull HIST or HREPEAT, 9.3) that
 * stopped because the caller's next_blocks array is full, to go on at the
 * next pull_step, before the next message (issue #18: the blocks past a
 * batch had waited in the pull core's ring, built there and copied out). */
typedef struct nt_resume {
    bool pending;
    nt_src *s;
    rvt_nt_msg m;             /* the ResourceFull message (its timestamp) */
    uint64_t hist, left;      /* HREPEAT: the history and the copies still to
                                 walk after the one walking (0: none) */
} nt_resume;

struct rvt_nt_decoder {
    rvt_nt_cfg cfg;
    int src_filter;
    nt_src *src[4096];
    uint16_t used[4096];      /* ids with a state, in order of first use */
    unsigned nused;
    uint64_t base;            /* stream offset of the next buffer */
    nt_chunker chunks;        /* rvt_nt_decode's chunks, cut anywhere */
    rvt_nt_dec_stats st;
    rvt_flow_fn fn;
    void *fn_ctx;
    int stop;                 /* fn's nonzero return */
    uint64_t msg_off;
    uint64_t last_end;        /* stream offset where the last whole message ends */
    uint64_t xmask;
    uint64_t icnt_max;        /* largest I-CNT a message can carry (8.4.4) */
    uint64_t icnt_ceiling;    /* largest I-CNT accepted (see icnt_ok) */
    uint64_t wide_off;        /* message of the last wide_icnt count */
    uint64_t owned;           /* the piece's messages end here: the wide
                                 I-CNTs of those before counted, the open
                                 block sealed at the first after
                                 (rvt_nt_decoder_set_input_piece) */
    bool sealed;
    unsigned events;          /* RVT_NT_EVENTS_* */
    rvt_iblocks bc;           /* instructions and straight-line blocks */
    rvt_dec_mem mem;          /* the view bc reads (mem.h), if over an rvt_mem */
    rvt_nt_reader rd;         /* the input of set_input */
    rvt_flow_pull pull;       /* set_input starts it: the pull API drives
                                 the walk (pulled) */
    nt_resume resume;
    uint64_t steps;           /* blocks walked that ended other than by a
                                 HIST bit's branch edge (nt_probe) */
};

static inline bool pulled(const rvt_nt_decoder *d)
{
    return rvt_flow_pull_started(&d->pull);
}

rvt_nt_decoder *rvt_nt_decoder_new(const rvt_nt_cfg *cfg, rvt_nt_insn_fn insn,
                                   void *insn_ctx, int src_filter, rvt_flow_fn fn, void *fn_ctx,
                                   int *status)
{
    rvt_nt_decoder *d = cfg ? calloc(1, sizeof *d) : NULL;
    int st = cfg ? RVT_ERR_NOMEM : RVT_ERR_INVAL;
    if (d) {
        d->cfg = *cfg;
        st = insn ? rvt_nt_cfg_check(&d->cfg) : RVT_ERR_INVAL;
    }
    if (st < 0) {
        free(d);
        if (status)
            *status = st;
        return NULL;
    }
    d->src_filter = src_filter;
    d->fn = fn;
    d->fn_ctx = fn_ctx;
    d->xmask = d->cfg.xlen == 32 ? 0xffffffffull : ~0ull;
    /* the encoder reports at the counter's MSB (2^(bits-1)) plus at most
     * one block; 2^bits leaves room for both */
    d->icnt_max = 1ull << d->cfg.icnt_bits;
    d->icnt_ceiling = d->icnt_max > NT_ICNT_CEILING ? d->icnt_max : NT_ICNT_CEILING;
    d->owned = UINT64_MAX;
    rvt_iblk_init(&d->bc, insn, insn_ctx, d->xmask);
    if (status)
        *status = 0;
    return d;
}

rvt_nt_decoder *rvt_nt_decoder_new_mem(const rvt_nt_cfg *cfg, const rvt_mem *mem, int src_filter,
                                       rvt_flow_fn fn, void *fn_ctx, int *status)
{
    rvt_dec_mem dm = { 0 };
    int st = cfg ? rvt_dec_mem_open(&dm, mem, NULL) : RVT_ERR_INVAL;
    rvt_nt_decoder *d = st < 0 ? NULL
                        : rvt_nt_decoder_new(cfg, rvt_memv_insn, dm.view, src_filter, fn, fn_ctx,
                                             &st);
    if (d)
        d->mem = dm;
    else
        rvt_dec_mem_close(&dm);
    if (status)
        *status = st;
    return d;
}

void rvt_nt_decoder_free(rvt_nt_decoder *d)
{
    if (!d)
        return;
    rvt_dec_mem_close(&d->mem);
    for (unsigned i = 0; i < d->nused; i++) {
        free(d->src[d->used[i]]->marks);
        free(d->src[d->used[i]]);
    }
    rvt_flow_pull_free(&d->pull);
    free(d);
}

void rvt_nt_decoder_flush_cache(rvt_nt_decoder *d)
{
    if (d)
        rvt_dec_mem_flush(&d->mem, &d->bc);
}

/* mem.h: a source's code is looked up in the space its last Ownership
 * message named (7.1: PRV and context; 11.3: decoders must know which
 * image runs in which context). */
static void nt_space(rvt_nt_decoder *d, const nt_src *s)
{
    rvt_dec_mem_space(&d->mem, &d->bc, s->context, s->ev.priv, s->ev.src);
}

/* Input was given (pull) or decoded (push): the stream has begun. */
static bool input_taken(const rvt_nt_decoder *d)
{
    return pulled(d) || d->st.messages || d->base;
}

void rvt_nt_decoder_set_events(rvt_nt_decoder *d, unsigned mode)
{
    if (d && !pulled(d))      /* the pull API needs every instruction */
        d->events = mode <= RVT_NT_EVENTS_COUNT ? mode : RVT_NT_EVENTS_INSN;
}

int rvt_nt_decoder_set_src_filter(rvt_nt_decoder *d, int src)
{
    if (!d || src > 4095)
        return RVT_ERR_INVAL;
    if (input_taken(d))
        return RVT_ERR_STATE;
    d->src_filter = src < 0 ? -1 : src;
    return 0;
}

int rvt_nt_decoder_stats(const rvt_nt_decoder *d, rvt_nt_dec_stats *out)
{
    if (!d || !out)
        return RVT_ERR_INVAL;
    *out = d->st;
    out->cache_flushes = d->bc.flushes;
    out->msg_end = d->last_end;
    return 0;
}

static nt_src *src_state(rvt_nt_decoder *d, unsigned id)
{
    id &= 4095;
    if (!d->src[id]) {
        nt_src *s = calloc(1, sizeof *s);
        if (!s)
            return NULL;
        /* 9.2: assume the largest depth */
        rvt_flow_stack_init(&s->stack, s->stack_slot, NT_RETURN_DEPTH_MAX, NT_RETURN_DEPTH_MAX);
        s->ev.src = (uint16_t)id;
        s->ev.priv = 3;
        d->src[id] = s;
        d->used[d->nused++] = (uint16_t)id;
    }
    return d->src[id];
}

/* ---- events ---- */

/* RVT_EV_INSN at pc; in block mode aux = instructions, aux2 = half-words. */
static inline int insn_event(rvt_nt_decoder *d, nt_src *s, uint64_t pc, uint64_t n, uint64_t hw)
{
    rvt_flow_event ev = s->ev;
    ev.kind = RVT_EV_INSN;
    ev.pc = pc;
    if (d->events == RVT_NT_EVENTS_BLOCK) {
        ev.aux = n;
        ev.aux2 = hw;
    }
    ev.offset = d->msg_off;
    return d->stop = d->fn(d->fn_ctx, &ev);
}

static int event(rvt_nt_decoder *d, nt_src *s, unsigned kind, uint64_t pc, uint64_t aux,
                 uint64_t aux2, const char *msg)
{
    if (d->stop)
        return d->stop;
    rvt_flow_event ev = s->ev;
    ev.kind = (uint8_t)kind;
    ev.pc = pc;
    ev.aux = aux;
    ev.aux2 = aux2;
    ev.offset = d->msg_off;
    ev.msg = msg;
    d->stop = d->fn(d->fn_ctx, &ev);
    return d->stop;
}

static inline bool synced(const nt_src *s) { return rvt_flow_synced(&s->sync); }

/* The lost instruction count is unknown: I-CNT counts half-words (8.4.2),
 * and which 2- and 4-byte instructions they were depends on the path
 * through the code, which the skipped messages no longer tell; a skipped
 * HIST-only message has no I-CNT at all.  aux2 keeps the half-words the
 * skipped messages reported. */
#define NT_LOST_WHY "trace not decodable before this sync; instructions lost: unknown " \
                    "(aux2: I-CNT half-words of the skipped messages)"

/* A decoding error: report it here, drop synchronisation until the next
 * sync, where the loss is reported (src/flow/flow_state.h). */
static int lose(rvt_nt_decoder *d, nt_src *s, const char *why)
{
    d->st.errors++;
    rvt_flow_lose(&s->sync, NT_LOST_WHY);
    return event(d, s, RVT_EV_ERROR, s->pc, 0, 0, why);
}

/* The loss policy: one RVT_EV_LOST where output resumes (at pc). */
static int report_loss(rvt_nt_decoder *d, nt_src *s, uint64_t pc)
{
    uint64_t hw;
    const char *why;
    if (!rvt_flow_take_loss(&s->sync, &hw, &why))
        return 0;
    d->st.lost++;
    return event(d, s, RVT_EV_LOST, pc, UINT64_MAX, hw, why ? why : NT_LOST_WHY);
}

/* 8.4.4: an encoder reports I-CNT (ResourceFull RCODE 0, SYNC 4) before it
 * passes 2^rvtIcntBits, but the reference code never does, so its streams
 * carry wider I-CNTs on long runs.  They are accepted and counted (the
 * caller notes it once), up to a ceiling that keeps a hostile I-CNT's walk
 * finite. */
static void wide_icnt(rvt_nt_decoder *d)
{
    if ((d->st.wide_icnt && d->wide_off == d->msg_off) || d->msg_off >= d->owned)
        return;                 /* one count per message, of the piece's own */
    d->wide_off = d->msg_off;
    if (!d->st.wide_icnt++)
        d->st.wide_icnt_offset = d->msg_off;
}

static bool icnt_ok(rvt_nt_decoder *d, uint64_t icnt)
{
    if (icnt > d->icnt_max)
        wide_icnt(d);
    return icnt <= d->icnt_ceiling;
}

/* ---- instruction walking (11.1) ---- */

/* Instruction classes: table 2's, src/flow/flow_insn.h. */
#define NT_RULES (&rvt_flow_rules_ntrace)

static inline bool is_call(const rvt_insn *i) { return rvt_flow_is_call(i, NT_RULES); }
static inline bool is_return(const rvt_insn *i) { return rvt_flow_is_return(i, NT_RULES); }
static inline bool is_inferable_jump(const rvt_insn *i)
{
    return rvt_flow_is_inferable_jump(i, NT_RULES);
}

/* The oldest of the hn history bits left in hbits (hn >= 1). */
static inline unsigned pop_bit(uint64_t hbits, unsigned *hn)
{
    --*hn;
    return (unsigned)(hbits >> *hn) & 1u;
}

static inline bool take_bit(nt_cursor *c, unsigned *bit)
{
    if (!c->hn)
        return false;
    c->bit_at = c->consumed;
    *bit = pop_bit(c->hbits, &c->hn);
    return true;
}

/* 9.1: jalr after lui/auipc/c.lui writing its base register, in the same span. */
static bool seq_target(rvt_nt_decoder *d, const nt_cursor *c, const rvt_insn *j, uint64_t *t)
{
    return d->cfg.seq_jump && rvt_flow_seq_target(c->prev, c->prev_pc, j, d->xmask, t);
}

/* Next PC after a mid-span instruction (all of its outcomes are implied).
 * Returns false when the trace does not say where it goes. */
static inline bool step(rvt_nt_decoder *d, nt_cursor *c, rvt_flow_stack *stack, const rvt_insn *i,
                        uint64_t pc, uint64_t *next)
{
    uint64_t seq = (pc + i->len) & d->xmask;
    unsigned bit;
    uint64_t a;
    switch (i->jclass) {
    case RVT_JC_NONE:
        *next = seq;
        return true;
    case RVT_JC_BRANCH:
        if (d->cfg.inst_mode == RVT_NT_MODE_HTM) {
            if (!take_bit(c, &bit))
                return false;
        } else {
            bit = 0;    /* BTM: a taken branch ends its message (7.2) */
        }
        *next = bit ? (pc + (uint64_t)i->imm) & d->xmask : seq;
        return true;
    case RVT_JC_CALL_INF: case RVT_JC_TAIL_INF: case RVT_JC_JUMP_INF:
        if (d->cfg.all_jumps && d->cfg.inst_mode == RVT_NT_MODE_HTM && !take_bit(c, &bit))
            return false;
        if (is_call(i))
            rvt_flow_stack_push(stack, seq);
        *next = rvt_flow_inferable_target(i, pc) & d->xmask;
        return true;
    default:
        break;
    }
    /* Uninferable inside a span: an implicit return (9.2) or a
     * sequentially inferable jump (9.1). */
    if (seq_target(d, c, i, next)) {
        if (is_call(i))
            rvt_flow_stack_push(stack, seq);
        return true;
    }
    /* table 4: a swap pops, then pushes its own link */
    if (is_return(i) && d->cfg.implicit_return && rvt_flow_stack_pop(stack, &a)) {
        if (is_call(i))
            rvt_flow_stack_push(stack, seq);
        *next = a;
        return true;
    }
    return false;
}

/* 8.4: "an exception ... before retirement of an instruction CANNOT update
 * the I-CNT", and an illegal encoding (the image's 48/64-bit words
 * included) traps before it retires, so a span cannot walk past one.  It
 * may end on one: the reference code counts the trapping instruction and
 * sends the handler as an ordinary B-TYPE 0 address (interop corpus,
 * docs/conformance-ntrace.md), so the message resolves it.  A reserved
 * length (>= 80 bits, len 0 here) has no known size at all: the walk would
 * never move past `.word 0xffffffff`, and spun forever. */
static bool can_walk(const rvt_insn *i, uint64_t rem, bool final)
{
    if (i->op != RVT_OP_ILLEGAL)
        return true;
    return i->len != 0 && final && (uint64_t)(i->len >> 1) == rem;
}

/* One instruction of the slow path: report it, stop at the span's end or
 * step past it.  Returns 0 to go on, 1 when the span ended, else stop. */
static int walk_one(rvt_nt_decoder *d, nt_src *s, uint64_t *pc, uint64_t *rem, bool final,
                    const rvt_insn **last, uint64_t *last_pc)
{
    const rvt_insn *i = rvt_iblk_insn(&d->bc, *pc);
    s->pc = *pc;          /* where an error is reported */
    if (!i)
        return lose(d, s, "no program image at the traced address");
    if (!can_walk(i, *rem, final))
        return lose(d, s, i->len ? "I-CNT goes past an illegal instruction, which traps without "
                                   "retiring (8.4)"
                                 : "I-CNT covers an instruction of reserved length (>= 80 bits)");
    uint64_t sz = i->len >> 1;
    d->steps++;
    if (final && sz > *rem)
        return lose(d, s, "I-CNT ends inside an instruction (8.4.1)");
    d->st.insns++;
    if (d->events != RVT_NT_EVENTS_COUNT && insn_event(d, s, *pc, 1, sz))
        return d->stop;
    s->c.consumed += sz;
    s->retired_pc = *pc;
    if (final && (*rem -= sz) == 0) {
        *last = i;
        *last_pc = *pc;
        return 1;
    }
    uint64_t next;
    if (!step(d, &s->c, &s->stack, i, *pc, &next)) {
        if (i->jclass == RVT_JC_BRANCH)
            return lose(d, s, "direct branch without a HIST bit");
        return lose(d, s, "uninferable jump inside an I-CNT span");
    }
    s->c.prev = i;
    s->c.prev_pc = *pc;
    *pc = next;
    return 0;
}

/* A block's instructions to whoever takes them: the pull core a
 * straight-line run at a time, the push callback an event per instruction
 * or one per block (RVT_NT_EVENTS_*).  at: the source's event template
 * with the message's offset; pulled: pulled(d), read once by the caller.
 * Returns the callback's nonzero answer. */
static inline int hand_out(rvt_nt_decoder *d, bool pulled, const rvt_flow_event *at,
                           const rvt_iblock *b, uint64_t pc, uint64_t last_pc)
{
    if (pulled) {
        rvt_flow_pull_run(&d->pull, at, pc, b->n, last_pc, b->last);
        return 0;
    }
    if (d->events == RVT_NT_EVENTS_COUNT)
        return 0;
    rvt_flow_event ev = *at;
    ev.kind = RVT_EV_INSN;
    ev.pc = pc;
    if (d->events == RVT_NT_EVENTS_BLOCK) {
        ev.aux = b->n;
        ev.aux2 = b->hw;
        return d->stop = d->fn(d->fn_ctx, &ev);
    }
    for (unsigned k = 0; k < b->n; k++) {
        ev.pc = pc;
        if ((d->stop = d->fn(d->fn_ctx, &ev)) != 0)
            return d->stop;
        pc = (pc + 2 + 2 * ((b->lens >> k) & 1u)) & d->xmask;
    }
    return 0;
}

static inline rvt_flow_event walk_at(const rvt_nt_decoder *d, const nt_src *s)
{
    rvt_flow_event at = s->ev;
    at.offset = d->msg_off;
    return at;
}

/* Block b retired up to its last instruction (at last_pc): the one
 * before that is the previous instruction a sequential jump (9.1) at
 * last_pc looks at. */
static inline void retire_prev(rvt_nt_decoder *d, nt_cursor *c, const rvt_iblock *b,
                               uint64_t last_pc)
{
    if (b->prev) {
        c->prev = b->prev;
        c->prev_pc = (last_pc - b->prev->len) & d->xmask;
    }
}

/* The block that ends the span exactly: its last instruction is left for
 * the message to resolve (returns 1, or the callback's answer). */
static int walk_last_block(rvt_nt_decoder *d, nt_src *s, const rvt_iblock *b, uint64_t *pc,
                           const rvt_insn **last, uint64_t *last_pc)
{
    rvt_flow_event at = walk_at(d, s);
    uint64_t end = b->last_pc;
    d->st.insns += b->n;
    if (hand_out(d, pulled(d), &at, b, *pc, end))
        return d->stop;
    s->c.consumed += b->hw;
    retire_prev(d, &s->c, b, end);
    s->retired_pc = end;
    *last = b->last;
    *last_pc = *pc = end;
    return 1;
}

/* The walk may take block b whole and step past its last instruction:
 * code known, no illegal encoding (walk_one names it, can_walk), and
 * inside the span short of its end (final), or a HIST bit left to use. */
static inline bool block_inside(const rvt_iblock *b, uint64_t rem, bool final, unsigned hn)
{
    return b->n && !b->illegal && (final ? b->hw < rem : hn != 0);
}

/* The block control goes to from b's last instruction (at last_pc): by
 * b's successor pointer along a fixed edge (fall-through, a branch's or
 * an inferable jump's target), else by lookup (a return's or sequential
 * jump's target). */
static inline const rvt_iblock *next_block(rvt_nt_decoder *d, const rvt_iblock *b,
                                           uint64_t last_pc, uint64_t next)
{
    const rvt_insn *last = b->last;
    if (next == ((last_pc + last->len) & d->xmask))
        return rvt_iblk_succ(&d->bc, b, RVT_IBLK_FALL, next);
    switch (last->jclass) {
    case RVT_JC_BRANCH: case RVT_JC_CALL_INF: case RVT_JC_TAIL_INF: case RVT_JC_JUMP_INF:
        return rvt_iblk_succ(&d->bc, b, RVT_IBLK_TAKEN, next);
    default:
        return rvt_iblk_block(&d->bc, next);
    }
}

/* walk_blocks_of's pulled history walk, a run of HTM branches (7.2)
 * written straight into next_blocks' array with its state in locals: the
 * collector's fields (slot, count, context) and the cache's space key are
 * read once, not after every block's stores (a byte store may alias them,
 * so the general loop reloaded them each block).  Entered with b at pc
 * block_inside, no block open and a slot free; leaves when the next block
 * is not a branch (CHAIN_ON: the general loop goes on with it), or the
 * walk ends or stops as the general loop would (CHAIN_STOP: the last block
 * left open to the collector, or closed with the caller's array full and
 * the walk to resume, nt_resume). */
enum { CHAIN_ON, CHAIN_STOP };

typedef struct nt_chain {
    const rvt_iblock *b;
    uint64_t pc, consumed, insns;
    unsigned hn;
    const rvt_insn *last;     /* the last block stepped (NULL: none) */
    uint64_t last_pc;
} nt_chain;

static inline __attribute__((always_inline)) int
branch_chain(rvt_nt_decoder *d, nt_src *s, const rvt_flow_event *at, nt_chain *k, uint64_t hbits,
             uint64_t wide_at)
{
    rvt_flow_pull *p = &d->pull;
    const rvt_iblock *b = k->b;
    unsigned hn = k->hn;
    k->last = NULL;
    if (!rvt_flow_pull_direct_free(p) || p->full || b->jclass != RVT_JC_BRANCH || !hn)
        return CHAIN_ON;
    rvt_block *o = rvt_flow_pull_direct(p);
    rvt_block *const out = p->out, *const lim = out + p->max_out;
    const rvt_block tmpl = rvt_flow_pull_opening(p, at);
    const uint64_t key = d->bc.space_key;
    uint64_t pc = k->pc, consumed = k->consumed, insns = k->insns, last_pc;
    const rvt_insn *last;
    int r = CHAIN_ON;
    for (;;) {
        last = b->last;
        last_pc = b->last_pc;
        uint64_t fall = b->to[RVT_IBLK_FALL];
        rvt_flow_block_whole(o, pc, b->n, last_pc, 0, 0, &tmpl);
        insns += b->n;
        consumed += b->hw;
        unsigned edge = pop_bit(hbits, &hn) ? RVT_IBLK_TAKEN : RVT_IBLK_FALL;
        uint64_t next = b->to[edge];
        pc = next;
        b = rvt_iblk_succ_keyed(&d->bc, b, edge, next, key);
        /* walk_blocks_of's `more`: bit_at is consumed here */
        if (!hn || !b->n || b->illegal || consumed > wide_at) {
            rvt_flow_pull_direct_open(p, o, last);
            r = CHAIN_STOP;
            break;
        }
        /* the collector's test (insn_end), as in walk_blocks_of */
        o->end = next == fall && next > last_pc ? RVT_BLK_BRANCH_NOT_TAKEN : RVT_BLK_BRANCH_TAKEN;
        o->next_pc = next;
        if (++o == lim) {
            p->n_out = (size_t)(o - out);
            if (rvt_flow_pull_direct_stop(p)) {     /* the caller has its batch */
                d->resume.pending = true;
                d->resume.s = s;
                r = CHAIN_STOP;
            }
            break;
        }
        if (b->jclass != RVT_JC_BRANCH)
            break;
    }
    p->n_out = (size_t)(o - out);
    k->b = b;
    k->pc = pc;
    k->hn = hn;
    k->consumed = consumed;
    k->insns = insns;
    k->last = last;
    k->last_pc = last_pc;
    return r;
}

/* Whole straight-line blocks from *pc (b, the first, is block_inside),
 * each last instruction stepped over, one cache block a step: the loop
 * most instructions of a trace go through (issue #18).  A run of HTM
 * branches (7.2: a HIST bit each) is `b = b->succ[bit]`: the bit picks
 * the edge, the successor pointer the block, with no lookup and no
 * step(); other transfers go through step() (fixed targets by successor
 * pointer too, returns and sequential jumps by lookup).  The cursor, the
 * counts and the settings stay in locals until it stops: when the next
 * block is not block_inside, a marker is pending (the caller checks it
 * after every block), the callback stopped the walk, a step failed (an
 * error: the source loses synchronisation) or a long history walk needs
 * walk()'s checks.  Pulled (the pull API), a block whose successor is the
 * loop's next block is written whole into next_blocks' array
 * (flow/flow_pull_direct.h).  final and pulled are constants in each
 * caller (walk_blocks), so the compiler makes a loop for spans and one
 * for history walks, each pulled and pushed (the push loop carries none
 * of the pull's work: the instruction-level decoder lost 6 % to it). */
static inline __attribute__((always_inline)) int
walk_blocks_of(rvt_nt_decoder *d, nt_src *s, const rvt_iblock *b, uint64_t *pcp, uint64_t *remp,
               const bool final, const bool pulled)
{
    rvt_flow_event at = walk_at(d, s);
    /* the cursor's hot fields in scalars: step() takes the cursor's
     * address, which kept the whole struct in memory */
    nt_cursor c = s->c;
    uint64_t consumed = c.consumed, bit_at = c.bit_at;
    const uint64_t hbits = c.hbits;
    unsigned hn = c.hn;
    const uint64_t bit_limit = d->icnt_max, wide_at = s->extra + d->icnt_max;
    const bool htm = d->cfg.inst_mode == RVT_NT_MODE_HTM, one = s->nmark;
    rvt_flow_pull *p = &d->pull;
    uint64_t pc = *pcp, rem = *remp, insns = 0, retired = s->retired_pc, next, steps = 0;
    int st = 0;
    for (;;) {
        if (pulled && !final && htm && !one) {
            nt_chain k = { .b = b, .pc = pc, .consumed = consumed, .insns = insns, .hn = hn };
            int r = branch_chain(d, s, &at, &k, hbits, wide_at);
            if (k.last) {
                b = k.b;
                pc = k.pc;
                hn = k.hn;
                consumed = bit_at = k.consumed;
                insns = k.insns;
                retired = k.last_pc;
                c.prev = k.last;
                c.prev_pc = k.last_pc;
            }
            if (r == CHAIN_STOP)
                break;
        }
        const rvt_insn *last = b->last;
        uint64_t last_pc = b->last_pc, fall = b->to[RVT_IBLK_FALL];
        rvt_block *o = pulled ? rvt_flow_pull_direct(p) : NULL;
        insns += b->n;
        if (o)
            rvt_flow_pull_direct_fill(p, o, &at, pc, b->n, last_pc);
        else if ((st = hand_out(d, pulled, &at, b, pc, last_pc)) != 0)
            break;
        else if (pulled)
            o = rvt_flow_pull_direct_take(p);
        consumed += b->hw;
        retired = last_pc;
        if (final)
            rem -= b->hw;
        rvt_block_end end;
        bool plain = false;
        if (htm && b->jclass == RVT_JC_BRANCH && hn) {
            bit_at = consumed;
            unsigned bit = pop_bit(hbits, &hn);
            unsigned edge = bit ? RVT_IBLK_TAKEN : RVT_IBLK_FALL;
            next = b->to[edge];
            b = rvt_iblk_succ(&d->bc, b, edge, next);
            /* the collector's test (insn_end): next == last_pc + len,
             * which `fall` is unless the address wrapped */
            end = next == fall && next > last_pc ? RVT_BLK_BRANCH_NOT_TAKEN
                                                 : RVT_BLK_BRANCH_TAKEN;
        } else {
            c.consumed = consumed;
            c.bit_at = bit_at;
            c.hn = hn;
            steps += pulled;    /* nt_probe's (the push loop stays as it was) */
            retire_prev(d, &c, b, last_pc);
            bool stepped = step(d, &c, &s->stack, last, last_pc, &next);
            bit_at = c.bit_at;
            hn = c.hn;
            if (!stepped) {
                if (o)
                    rvt_flow_pull_direct_open(p, o, last);
                pc = s->pc = last_pc;
                st = lose(d, s, last->jclass == RVT_JC_BRANCH
                                    ? "direct branch without a HIST bit"
                                    : "uninferable jump inside an I-CNT span");
                break;
            }
            b = next_block(d, b, last_pc, next);
            plain = rvt_flow_is_plain(last);
            end = rvt_flow_block_end(last, NT_RULES, next == last_pc + last->len);
        }
        c.prev = last;
        c.prev_pc = last_pc;
        pc = next;
        bool more = !one && block_inside(b, rem, final, hn) &&
                    (final || (consumed - bit_at <= bit_limit && consumed <= wide_at));
        /* A block whose successor is the next block of this loop ends
         * as its last instruction says (no event can come between); one
         * the walk stops after, or that may go on (its last instruction
         * is plain: RVT_IBLK_MAX), stays open to what comes next. */
        if (more && !plain) {
            if (o)
                rvt_flow_pull_direct_close(p, o, end, next);
            /* a history walk stops between two blocks once the caller
             * has what it asked for (nt_resume) */
            if (pulled && !final && rvt_flow_pull_direct_stop(p)) {
                d->resume.pending = true;
                d->resume.s = s;
                break;
            }
        } else if (o) {
            rvt_flow_pull_direct_open(p, o, last);
        }
        if (!more)
            break;
    }
    c.consumed = consumed;
    c.bit_at = bit_at;
    c.hn = hn;
    s->c = c;
    s->retired_pc = retired;
    d->st.insns += insns;
    if (pulled)
        d->steps += steps;
    *pcp = pc;
    *remp = rem;
    return st;
}

/* Aligned to 64 bytes, so that its loops (the push loop's call per
 * instruction above all) sit the same way on fetch boundaries in every
 * program that links the library: that loop's speed moves with where it
 * sits.  rvtrace_bench's instruction-level N-Trace row read 284-290 M
 * instr/s unaligned and 312 aligned (main: 312-323), a small driver over
 * the same stream 311 and 308 (main: 315-317), the code the same
 * (2026-11-26 16:40-16:55). */
static __attribute__((aligned(64))) int walk_blocks(rvt_nt_decoder *d, nt_src *s,
                                                    const rvt_iblock *b, uint64_t *pc,
                                                    uint64_t *rem, bool final)
{
    if (pulled(d))
        return final ? walk_blocks_of(d, s, b, pc, rem, true, true)
                     : walk_blocks_of(d, s, b, pc, rem, false, true);
    return final ? walk_blocks_of(d, s, b, pc, rem, true, false)
                 : walk_blocks_of(d, s, b, pc, rem, false, false);
}

/* A pending marker falls inside the next `hw` half-words (not at their
 * end): walk them one instruction at a time to stop there. */
static bool mark_inside(const nt_src *s, uint64_t hw)
{
    if (!s->nmark)
        return false;
    uint64_t pos = s->marks[s->mhead].pos;
    return pos > s->c.consumed && pos < s->c.consumed + hw;
}

/* Report the markers whose instruction the walk has just retired: I-CNT
 * (7.5) ends on the instruction at F-ADDR, or the trace contradicts it. */
static int marks_reached(rvt_nt_decoder *d, nt_src *s)
{
    while (s->nmark && s->marks[s->mhead].pos <= s->c.consumed) {
        nt_mark m = s->marks[s->mhead];
        s->mhead++;
        s->nmark--;
        if (m.pos != s->c.consumed || m.pc != s->retired_pc) {
            s->pc = m.pc;
            return lose(d, s, "trace event (SYNC 6): I-CNT does not end on the instruction at F-ADDR");
        }
        int st = event(d, s, RVT_EV_NOTIFY, m.pc, 0, 0, NULL);
        if (st)
            return st;
    }
    if (!s->nmark)
        s->mhead = 0;
    return 0;
}

/* Walk instructions.  final: exactly `rem` half-words; the last one is
 * left in last/last_pc for the message to resolve.  Otherwise (history
 * from ResourceFull) walk until the last pending HIST bit is used (only a
 * block's final instruction can take one, so whole blocks are safe). */
static int walk(rvt_nt_decoder *d, nt_src *s, uint64_t rem, bool final,
                const rvt_insn **last, uint64_t *last_pc)
{
    uint64_t pc = s->pc;
    int st = 0;
    if (last)
        *last = NULL;
    if (s->held && (final ? rem != 0 : s->c.hn != 0))
        return lose(d, s, "uninferable jump inside an I-CNT span");
    while (final ? rem != 0 : s->c.hn != 0) {
        if (!final && s->c.consumed - s->c.bit_at > d->icnt_max) {
            /* a history bit no branch takes: a loop without branches
             * would never use it up.  No real path runs 2^rvtIcntBits
             * half-words without a branch. */
            s->pc = pc;
            return lose(d, s, "history walk: no branch for 2^rvtIcntBits half-words (8.4.4)");
        }
        if (!final && s->c.consumed > s->extra + d->icnt_max)
            wide_icnt(d);       /* the next I-CNT report will be wider too */
        const rvt_iblock *b = rvt_iblk_block(&d->bc, pc);
        /* a block ending in an illegal instruction is walked one by one
         * (can_walk), so that an error names that instruction */
        if (mark_inside(s, b->hw)) {
            st = walk_one(d, s, &pc, &rem, final, last, last_pc);
        } else if (block_inside(b, rem, final, s->c.hn)) {
            st = walk_blocks(d, s, b, &pc, &rem, final);
        } else if (final && b->n && !b->illegal && b->hw == rem) {
            st = walk_last_block(d, s, b, &pc, last, last_pc);
            rem = 0;
        } else {
            st = walk_one(d, s, &pc, &rem, final, last, last_pc);
        }
        if (st >= 0 && s->nmark && synced(s) && !d->stop) {
            int m = marks_reached(d, s);
            st = m ? m : st;
        }
        if (st || !synced(s) || d->resume.pending)
            break;
    }
    s->pc = pc;
    return st > 0 ? 0 : st;
}

static void set_hist(nt_src *s, uint64_t hist)
{
    /* 8.3: the stop bit is the MSB; the bit below it is the oldest branch */
    unsigned n = hist ? 63u - (unsigned)__builtin_clzll(hist) : 0;
    s->c.hbits = hist & rvt_mask(n);
    s->c.hn = n;
}

static int hist_chunk(rvt_nt_decoder *d, nt_src *s, uint64_t hist)
{
    if (s->c.hn)
        return lose(d, s, "history bits left over before a ResourceFull");
    set_hist(s, hist);
    return walk(d, s, 0, false, NULL, NULL);
}

/* END_CHECK: as END_ADDR, for a B-TYPE 0 sync message (table 25): its
 * F-ADDR is the next PC, so where the last instruction implies its own
 * successor the two must agree, or the decoder lost its way since the
 * previous sync (a corrupted HIST bit or I-CNT that decoded without an
 * error) and the instructions it emitted are suspect. */
enum end_kind { END_DIRECT, END_ADDR, END_CHECK, END_NONE };

/* The last instruction's successor follows from the image and HIST alone
 * (no trap, no uninferable jump). */
static bool implies_next(const rvt_insn *i)
{
    return rvt_flow_is_plain(i) || rvt_flow_is_branch(i) || is_inferable_jump(i);
}

static int lose_way(rvt_nt_decoder *d, nt_src *s, uint64_t addr)
{
    d->st.lost_way++;
    s->pc = addr;
    return lose(d, s, "sync message's F-ADDR is not where the decoded path goes: the "
                      "instructions since the previous sync may be wrong");
}

/* The whole span of an I-CNT-bearing message: walk, then resolve its last
 * instruction (taken branch, jump to the message's address, or nothing). */
static int span(rvt_nt_decoder *d, nt_src *s, uint64_t icnt, bool has_hist, uint64_t hist,
                enum end_kind kind, uint64_t addr)
{
    if (has_hist) {
        if (s->c.hn)
            return lose(d, s, "history bits left over");
        set_hist(s, hist);
    }
    if (!icnt_ok(d, icnt))
        return lose(d, s, "I-CNT above max(2^rvtIcntBits, 2^40) half-words (8.4.4)");
    uint64_t total = s->extra + icnt;
    if (total < s->c.consumed)
        return lose(d, s, "I-CNT smaller than the instructions its history implies");
    const rvt_insn *last = s->held;
    uint64_t last_pc = s->held_pc;
    int st = 0;
    if (!s->held || total != s->c.consumed)
        st = walk(d, s, total - s->c.consumed, true, &last, &last_pc);
    if (st || !synced(s))
        return st;
    s->held = NULL;
    s->c.consumed = s->extra = s->c.bit_at = 0;
    s->c.prev = NULL;
    uint64_t next = s->pc;
    if (last) {
        uint64_t seq = (last_pc + last->len) & d->xmask, a;
        bool htm = d->cfg.inst_mode == RVT_NT_MODE_HTM;
        unsigned bit = 0;
        if (last->jclass == RVT_JC_BRANCH && htm && !take_bit(&s->c, &bit))
            return lose(d, s, "direct branch without a HIST bit");
        if (is_inferable_jump(last) && htm && d->cfg.all_jumps && !take_bit(&s->c, &bit))
            return lose(d, s, "direct jump without a HIST bit (all-jumps)");
        if (kind == END_DIRECT) {
            /* 7.2: the span ends with the taken branch (or a jump under
             * trTeInstEnAllJumps) */
            if (last->jclass != RVT_JC_BRANCH && !is_inferable_jump(last))
                return lose(d, s, "DirectBranch does not end on a direct branch");
            if (is_call(last))
                rvt_flow_stack_push(&s->stack, seq);
            next = (last_pc + (uint64_t)last->imm) & d->xmask;   /* branch or jal */
        } else {
            /* table 4 stack effects of the last instruction: it retired
             * (8.4), also when a trap follows it (B-TYPE 1-3), as after a
             * `jal f` whose target's first instruction traps */
            if (is_return(last))
                rvt_flow_stack_pop(&s->stack, &a);
            if (is_call(last))
                rvt_flow_stack_push(&s->stack, seq);
            if (last->jclass == RVT_JC_BRANCH)
                next = bit ? (last_pc + (uint64_t)last->imm) & d->xmask : seq;
            else if (is_inferable_jump(last))
                next = rvt_flow_inferable_target(last, last_pc) & d->xmask;
            else
                next = seq;
            if (kind == END_CHECK && implies_next(last) && next != addr)
                return lose_way(d, s, addr);
            if (kind == END_ADDR || kind == END_CHECK)
                next = addr;    /* 11.1: the address applies last (a jump's
                                   target or the trap handler) */
        }
    } else if (kind == END_CHECK && !s->held && next != addr) {
        return lose_way(d, s, addr);
    } else if (kind == END_ADDR || kind == END_CHECK) {
        next = addr;
    } else if (kind == END_DIRECT) {
        return lose(d, s, "DirectBranch with I-CNT 0");
    }
    if (s->c.hn)
        return lose(d, s, "history bits left over after the message");
    s->pc = next;
    return 0;
}

/* ---- messages ---- */

/* What a sync tells happened (table 25; the number stays in the text).
 * SYNC 3 is "very first synchronization message after exit from debug
 * mode": an encoder starts every trace with it (table 26), so the first
 * one of a source is the trace start, a later one a restart after the hart
 * halted (EVCODE 0). */
static const char *nt_sync_reason(unsigned sync, bool first)
{
    static const char *const names[] = {
        "external trace trigger (SYNC 0)", "restart after a hart reset (SYNC 1)",
        "periodic (SYNC 2)", "trace restart after the hart halted (SYNC 3)",
        "I-CNT overflow (SYNC 4)", "trace on (SYNC 5)",
        "trace event (SYNC 6)", "restart after lost trace (FIFO overrun, SYNC 7)",
        "reserved (SYNC 8)", "restart after power-down (SYNC 9)",
    };
    if (sync == RVT_NT_SYNC_DEBUG_EXIT && first)
        return "trace start (SYNC 3)";
    return sync < sizeof names / sizeof names[0] ? names[sync] : "reserved (SYNC 10-15)";
}

/* What a ProgTraceCorrelation tells happened (7.12 EVCODE).  EVCODE 0,
 * "entry into debug mode", is what an encoder sends when the traced hart
 * stops, which ends every complete trace (8.4.4 example, table 26). */
static const char *nt_stop_reason(unsigned evcode)
{
    switch (evcode) {
    case RVT_NT_EV_DEBUG: return "the hart stopped: end of trace (EVCODE 0)";
    case RVT_NT_EV_LOWPOWER: return "trace paused: the hart entered low-power mode (EVCODE 1)";
    case RVT_NT_EV_DISABLED: return "trace off (EVCODE 4)";
    default: return "reserved or vendor EVCODE";
    }
}

static int resync(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    uint64_t pc = nt_faddr_pc(m->f[RVT_NT_F_FADDR], d->xmask);
    int st = report_loss(d, s, pc);
    if (st)
        return st;
    d->st.resyncs++;
    bool first = s->sync.state == RVT_FLOW_NO_SYNC;
    s->sync.state = RVT_FLOW_DECODE;
    s->pc = s->ref = pc;
    s->c.consumed = s->extra = s->c.bit_at = 0;
    s->c.hn = 0;
    s->c.prev = NULL;
    s->last_valid = false;
    s->retired_pc = UINT64_MAX;
    s->held = NULL;
    s->mhead = s->nmark = 0;      /* their I-CNT went with the old base */
    rvt_flow_stack_clear(&s->stack);
    return event(d, s, RVT_EV_SYNC, pc, m->f[RVT_NT_F_SYNC], 0,
                 nt_sync_reason((unsigned)m->f[RVT_NT_F_SYNC], first));
}

/* A field's value, 0 when the message has none (f[] of absent fields is
 * not cleared by the splitter). */
static inline uint64_t fget(const rvt_nt_msg *m, int field)
{
    return rvt_nt_has(m, field) ? m->f[field] : 0;
}

static bool sync_resets(unsigned sync)
{
    return sync != RVT_NT_SYNC_TRIGGER && sync != RVT_NT_SYNC_ICNT && sync != RVT_NT_SYNC_EVENT;
}

/* A ProgTraceSync whose SYNC does not reset the encoder (table 25: 0
 * external trigger, 4, 6 trace event) is a marker in the running trace:
 * 7.5 "I-CNT field may not be 0 and may be used to identify the exact PC
 * location" of the event, whose PC is F-ADDR.  Its I-CNT was sent and
 * reset (ch. 10 rule 7) but the span goes on (HIST is not in the message),
 * so it is walked with the next I-CNT report, as RCODE 0 is (8.4.4).  It
 * cannot start decoding: the instruction at F-ADDR already retired and
 * where it went is not known. */
static bool is_marker(const rvt_nt_msg *m)
{
    return m->tcode == RVT_NT_PROG_TRACE_SYNC && !sync_resets((unsigned)m->f[RVT_NT_F_SYNC]);
}

static int push_mark(rvt_nt_decoder *d, nt_src *s, uint64_t pos, uint64_t pc)
{
    if (s->mhead + s->nmark == s->mcap) {
        if (s->mhead) {
            memmove(s->marks, s->marks + s->mhead, s->nmark * sizeof *s->marks);
            s->mhead = 0;
        } else {
            /* bounded: an HTM encoder sends the history (and so its I-CNT)
             * long before this many markers pile up */
            if (s->mcap == NT_MARK_MAX)
                return lose(d, s, "too many trace event (SYNC 6) markers before an I-CNT report");
            nt_mark *n = rvt_grow(s->marks, &s->mcap, s->mcap + 1, sizeof *n, 8);
            if (!n)
                return RVT_ERR_NOMEM;
            s->marks = n;
        }
    }
    s->marks[s->mhead + s->nmark++] = (nt_mark){ pos, pc };
    return 0;
}

/* BTM: a taken branch ends its message (7.2), so every branch up to the
 * marker fell through and its span is walked now; a loop whose branches
 * all fall through sends nothing else, and its markers would pile up.
 * The marker's instruction is stepped over as inside a span. */
static int walk_to_mark(rvt_nt_decoder *d, nt_src *s)
{
    const rvt_insn *last;
    uint64_t last_pc, next;
    int st = walk(d, s, s->extra - s->c.consumed, true, &last, &last_pc);
    if (st || !synced(s) || !last)
        return st;
    if (!step(d, &s->c, &s->stack, last, last_pc, &next)) {
        /* an uninferable jump: its message follows with I-CNT 0, or trace
         * stopped after it (7.12) */
        s->held = last;
        s->held_pc = last_pc;
        return 0;
    }
    s->c.prev = last;
    s->c.prev_pc = last_pc;
    s->pc = next;
    return 0;
}

/* Table 25 SYNC=6 (a watchpoint, trigger action 4): RVT_EV_NOTIFY right
 * after the instruction at F-ADDR, where I-CNT ends (7.5).  HTM: the
 * history of the branches before it comes later, so it waits for the walk. */
static int trace_event(rvt_nt_decoder *d, nt_src *s, uint64_t pc)
{
    if (s->extra < s->c.consumed)
        return lose(d, s, "trace event (SYNC 6) before instructions already walked");
    int st = push_mark(d, s, s->extra, pc);
    if (st || !synced(s))
        return st;
    if (d->cfg.inst_mode != RVT_NT_MODE_HTM && s->extra > s->c.consumed)
        return walk_to_mark(d, s);
    return marks_reached(d, s);
}

static int marker(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    uint64_t icnt = fget(m, RVT_NT_F_ICNT);
    if (!icnt_ok(d, icnt))
        return lose(d, s, "I-CNT above max(2^rvtIcntBits, 2^40) half-words (8.4.4)");
    s->extra += icnt;
    uint64_t pc = nt_faddr_pc(m->f[RVT_NT_F_FADDR], d->xmask);
    s->ref = d->cfg.no_addr_diff ? 0 : pc;  /* 8.1 */
    s->last_valid = false;
    if (m->f[RVT_NT_F_SYNC] == RVT_NT_SYNC_EVENT)
        return trace_event(d, s, pc);
    return 0;
}

/* B-TYPE 1-3: N-Trace names the kind of trap, never its cause (ch. 1: the
 * encoder "does not require cause and tval ... as these are not reported in
 * N-Trace messages"), so the event says the cause is unknown, aux/aux2 0. */
static int trap_event(rvt_nt_decoder *d, nt_src *s, unsigned btype, uint64_t handler)
{
    if (d->stop)
        return d->stop;
    rvt_flow_event ev = s->ev;
    ev.kind = btype == RVT_NT_BTYPE_INTERRUPT ? RVT_EV_INTERRUPT : RVT_EV_TRAP;
    ev.flags = RVT_EVF_CAUSE_UNKNOWN;
    ev.pc = handler;
    ev.offset = d->msg_off;
    return d->stop = d->fn(d->fn_ctx, &ev);
}

static int branch_msg(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    bool sync = rvt_nt_is_sync(m->tcode);
    bool direct = m->tcode == RVT_NT_DIRECT_BRANCH || m->tcode == RVT_NT_DIRECT_BRANCH_SYNC;
    uint64_t target = 0;
    if (sync)
        target = nt_faddr_pc(m->f[RVT_NT_F_FADDR], d->xmask);
    else if (rvt_nt_has(m, RVT_NT_F_UADDR))
        target = nt_uaddr_pc(s->ref, m->f[RVT_NT_F_UADDR], d->cfg.no_addr_diff, d->xmask);
    unsigned btype = (unsigned)fget(m, RVT_NT_F_BTYPE);
    int st = span(d, s, m->f[RVT_NT_F_ICNT], rvt_nt_has(m, RVT_NT_F_HIST), fget(m, RVT_NT_F_HIST),
                  direct && !sync ? END_DIRECT
                  : sync && !direct && btype == RVT_NT_BTYPE_JUMP ? END_CHECK : END_ADDR, target);
    if (st)
        return st;
    if (!synced(s))
        return sync ? resync(d, s, m) : 0;
    if (!direct || sync)
        s->ref = d->cfg.no_addr_diff ? 0 : target;
    if (direct && !sync)
        target = s->pc;
    s->last_valid = !sync;
    s->last_tcode = m->tcode;
    s->last_icnt = m->f[RVT_NT_F_ICNT];
    s->last_hist = fget(m, RVT_NT_F_HIST);
    s->last_target = target;
    if (sync && sync_resets((unsigned)m->f[RVT_NT_F_SYNC]))
        rvt_flow_stack_clear(&s->stack);
    if (btype && !direct)
        st = trap_event(d, s, btype, target);
    return st;
}

/* 7.11: handle the previous branch message again, B-CNT times. */
static int repeat_msg(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    if (!s->last_valid)
        return lose(d, s, "RepeatBranch without a preceding branch message");
    bool direct = s->last_tcode == RVT_NT_DIRECT_BRANCH;
    bool hist = s->last_tcode == RVT_NT_INDIRECT_BRANCH_HIST;
    for (uint64_t k = 0; k < m->f[RVT_NT_F_BCNT] && synced(s) && !d->stop; k++) {
        uint64_t before = d->st.insns;
        int st = span(d, s, s->last_icnt, hist, s->last_hist, direct ? END_DIRECT : END_ADDR,
                      s->last_target);
        if (st)
            return st;
        /* A repetition that retires nothing (I-CNT 0 to the same address)
         * leaves the state as it was: the rest of B-CNT are no-ops, and a
         * hostile count must not spin here. */
        if (d->st.insns == before)
            break;
    }
    return d->stop;
}

/* Where the walk of one copy of a repeated history (9.3) began: enough
 * to tell whether it came back there through HIST branch edges alone
 * (repeat_copies). */
typedef struct nt_probe {
    uint64_t pc, consumed, insns, steps;
} nt_probe;

static nt_probe probe_start(const rvt_nt_decoder *d, const nt_src *s)
{
    return (nt_probe){ s->pc, s->c.consumed, d->st.insns, d->steps };
}

/* Copies of a repeated history walked one at a time before the walk goes
 * a word at a time: a loop's first copy may lead into it from elsewhere. */
#define NT_PROBES 2

/* Pulled (next_blocks): the copy of an n-bit history just walked from pr
 * came back to where it began through HIST branch edges alone -- one
 * block a bit, no call, return or jump (d->steps did not move), so the
 * return stack and the previous instruction (9.1) are untouched, and no
 * event came.  Every later copy then walks the same blocks from the same
 * state, so up to k of them are written into the caller's array as
 * copies of the last n blocks (flow/flow_pull_direct.h: no walk, no
 * pointer chase; long.elf's stream is two thirds repeated history), and
 * the source's counts move as their walk would move them.  The copies
 * stop short of 2^rvtIcntBits half-words since the last I-CNT report,
 * where the walk counts a wide I-CNT (wide_icnt).  Returns the copies
 * made: 0 when the copy was not such a cycle or the array has no room. */
static uint64_t repeat_copies(rvt_nt_decoder *d, nt_src *s, const nt_probe *pr, unsigned n,
                              uint64_t k)
{
    rvt_flow_pull *p = &d->pull;
    if (!pulled(d) || !synced(s) || d->stop || d->resume.pending || s->nmark || s->held ||
        s->c.hn || s->pc != pr->pc || d->steps != pr->steps)
        return 0;
    uint64_t times = rvt_flow_pull_direct_repeats(p, n);
    if (!times || rvt_flow_pull_direct_recent(p, n)->start_pc != pr->pc)
        return 0;
    uint64_t hw = s->c.consumed - pr->consumed, insns = d->st.insns - pr->insns;
    uint64_t wide_at = s->extra + d->icnt_max;
    uint64_t fit = s->c.consumed < wide_at && hw ? (wide_at - s->c.consumed) / hw : 0;
    times = times < k ? times : k;
    times = times < fit ? times : fit;
    if (!times)
        return 0;
    /* the last copy's last block as the walk leaves it: open at the end
     * of the history, else closed, the walk stopping there when the
     * caller's array is full (nt_resume) */
    rvt_flow_pull_direct_repeat(p, n, times, times == k);
    s->c.consumed += times * hw;
    s->c.bit_at = s->c.consumed;      /* each copy ends on the branch taking its last bit */
    d->st.insns += times * insns;
    if (times < k && rvt_flow_pull_direct_stop(p)) {
        d->resume.pending = true;
        d->resume.s = s;
    }
    return times;
}

/* 9.3 (8.3.1): the history `hist` k times over, as k ResourceFull
 * messages with it would be.  Each copy's walk stops right after the
 * branch that takes its last bit and the next copy goes on from there, so
 * as many whole copies as fit a 63-bit history word are walked as one
 * word: the same path and events, one walk per word, not per copy (a
 * short pattern repeated often, as a loop gives, is the common case).
 * Pulled, the first copies are walked one at a time (NT_PROBES), and once
 * one comes back where it began, the next are copies of its blocks
 * (repeat_copies).  A history with no branch bits repeats nothing. */
static int hist_repeat(rvt_nt_decoder *d, nt_src *s, uint64_t hist, uint64_t k)
{
    if (hist <= 1)
        return 0;
    unsigned n = 63u - (unsigned)__builtin_clzll(hist);
    uint64_t pattern = hist & rvt_mask(n), per_word = 63u / n;
    unsigned probes = pulled(d) ? NT_PROBES : 0;
    while (k && synced(s) && !d->stop) {
        uint64_t copies = probes ? 1 : k < per_word ? k : per_word, word = 1; /* the stop bit (8.3) */
        nt_probe pr = probe_start(d, s);
        for (uint64_t i = 0; i < copies; i++)
            word = word << n | pattern;
        int st = hist_chunk(d, s, word);
        if (st)
            return st;
        k -= copies;
        if (probes) {
            uint64_t made = repeat_copies(d, s, &pr, n, k);
            k -= made;
            probes = made ? 0 : probes - 1;
        }
        if (d->resume.pending) {
            d->resume.hist = hist;
            d->resume.left = k;
            return 0;
        }
    }
    return d->stop;
}

static int resource_full(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    uint64_t rdata = m->f[RVT_NT_F_RDATA];
    switch (m->f[RVT_NT_F_RCODE]) {
    case RVT_NT_RCODE_ICNT:
        if (!icnt_ok(d, rdata))
            return lose(d, s, "I-CNT above max(2^rvtIcntBits, 2^40) half-words (8.4.4)");
        s->extra += rdata;     /* 8.4.4: I-CNT keeps running */
        return 0;
    case RVT_NT_RCODE_HIST:
        return hist_chunk(d, s, rdata);
    case RVT_NT_RCODE_HREPEAT:
        return hist_repeat(d, s, rdata, m->f[RVT_NT_F_HREPEAT]);
    default:
        d->st.vendor++;
        return 0;
    }
}

/* 7.1: the privilege and, formats 2-3, the context an Ownership message's
 * PROCESS field p gives its source. */
static void own_state(nt_src *s, uint64_t p)
{
    s->ev.priv = (uint8_t)((p >> 2) & 3u);
    if ((p & 3u) >= 2) {
        s->context = p >> 5;
        s->has_context = true;
    }
}

static int ownership(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    uint64_t p = m->f[RVT_NT_F_PROCESS];
    unsigned fmt = p & 3u, prv = (p >> 2) & 3u;
    int st = 0;
    if (fmt == 1)
        return 0;   /* reserved format */
    bool tell = prv != s->ev.priv || !synced(s);
    own_state(s, p);
    if (tell)
        st = event(d, s, RVT_EV_PRIV, s->pc, prv, (p >> 4) & 1u, NULL);
    nt_space(d, s);
    if (!st && fmt >= 2)
        st = event(d, s, RVT_EV_CONTEXT, s->pc, p >> 5, fmt, NULL);
    return st;
}

/* A message skipped while unsynchronised.  Every program trace message
 * stands for retired instructions (at least its branch), so any of them
 * means instructions were lost, even one without I-CNT (a damaged first
 * sync followed by HIST-only ResourceFull messages used to report nothing);
 * vendor-defined and reserved messages (6.1) do not, nor does a
 * ProgTraceCorrelation without I-CNT (a second stop report). */
static bool is_program_trace(unsigned tcode)
{
    switch (tcode) {
    case RVT_NT_DIRECT_BRANCH: case RVT_NT_INDIRECT_BRANCH: case RVT_NT_INDIRECT_BRANCH_HIST:
    case RVT_NT_RESOURCE_FULL: case RVT_NT_REPEAT_BRANCH:
        return true;
    default:
        return false;
    }
}

static void count_lost(nt_src *s, const rvt_nt_msg *m)
{
    uint64_t hw = 0;
    if (rvt_nt_has(m, RVT_NT_F_ICNT))
        hw = m->f[RVT_NT_F_ICNT];
    else if (m->tcode == RVT_NT_RESOURCE_FULL && m->f[RVT_NT_F_RCODE] == 0)
        hw = m->f[RVT_NT_F_RDATA];
    rvt_flow_skip(&s->sync, hw, is_program_trace(m->tcode), NT_LOST_WHY);
}

static int timestamp(rvt_nt_decoder *d, nt_src *s, const rvt_nt_msg *m)
{
    if (!rvt_nt_has(m, RVT_NT_F_TSTAMP))
        return 0;
    /* 8.7: absolute in sync messages, relative elsewhere */
    if (rvt_nt_is_sync(m->tcode))
        s->ts = m->f[RVT_NT_F_TSTAMP];
    else
        s->ts += m->f[RVT_NT_F_TSTAMP];
    return synced(s) ? event(d, s, RVT_EV_TIME, s->pc, s->ts, 0, NULL) : 0;
}

/* The state of m's source: NULL with *st 0 when the decoder does not
 * keep it (src_filter), or RVT_ERR_NOMEM. */
static nt_src *msg_source(rvt_nt_decoder *d, const rvt_nt_msg *m, int *st)
{
    unsigned id = rvt_nt_has(m, RVT_NT_F_SRC) ? (unsigned)m->f[RVT_NT_F_SRC] : 0;
    *st = 0;
    if (d->src_filter >= 0 && id != (unsigned)d->src_filter)
        return NULL;
    nt_src *s = src_state(d, id);
    if (!s)
        *st = RVT_ERR_NOMEM;
    return s;
}

static int message(rvt_nt_decoder *d, const rvt_nt_msg *m)
{
    int st;
    nt_src *s = msg_source(d, m, &st);
    if (!s)
        return st;
    d->st.messages++;
    d->msg_off = m->offset;
    if (pulled(d) && !d->sealed && m->offset >= d->owned) {
        d->sealed = true;       /* set_input_piece: the piece's last block */
        rvt_flow_pull_seal(&d->pull);
    }
    nt_space(d, s);
    if (m->tcode < RVT_NT_VENDOR_FIRST)    /* 6.1: vendor messages say nothing about it */
        s->ended = m->tcode == RVT_NT_PROG_TRACE_CORRELATION;
    if (m->tcode == RVT_NT_OWNERSHIP)
        return ownership(d, s, m);
    if (m->tcode == RVT_NT_ERROR) {
        /* reported where the trace resumes, as every loss */
        rvt_flow_lose(&s->sync, "Error message: trace messages were lost (7.4); instructions "
                                "lost: unknown (aux2: I-CNT half-words of the skipped messages)");
        return 0;
    }
    if (!synced(s)) {
        if (!rvt_nt_is_sync(m->tcode) || is_marker(m)) {
            count_lost(s, m);
            return 0;
        }
        st = resync(d, s, m);
        return st ? st : timestamp(d, s, m);
    }
    switch (m->tcode) {
    case RVT_NT_PROG_TRACE_SYNC:
        if (is_marker(m)) {
            st = marker(d, s, m);
            break;
        }
        if (s->c.consumed || s->c.hn || s->extra)
            rvt_flow_skip(&s->sync, s->extra, false, NULL);
        st = resync(d, s, m);
        break;
    case RVT_NT_DIRECT_BRANCH: case RVT_NT_DIRECT_BRANCH_SYNC:
    case RVT_NT_INDIRECT_BRANCH: case RVT_NT_INDIRECT_BRANCH_SYNC:
    case RVT_NT_INDIRECT_BRANCH_HIST: case RVT_NT_INDIRECT_BRANCH_HIST_SYNC:
        st = branch_msg(d, s, m);
        break;
    case RVT_NT_RESOURCE_FULL:
        s->last_valid = false;
        d->resume.left = 0;
        st = resource_full(d, s, m);
        if (d->resume.pending) {
            d->resume.m = *m;   /* its walk goes on at the next pull_step */
            return st;
        }
        break;
    case RVT_NT_REPEAT_BRANCH:
        st = repeat_msg(d, s, m);
        break;
    case RVT_NT_PROG_TRACE_CORRELATION:
        st = span(d, s, m->f[RVT_NT_F_ICNT], rvt_nt_has(m, RVT_NT_F_HIST), fget(m, RVT_NT_F_HIST),
                  END_NONE, 0);
        if (!st && synced(s)) {
            st = timestamp(d, s, m);
            unsigned ev = (unsigned)fget(m, RVT_NT_F_EVCODE);
            /* 7.12: I-CNT ends on the last instruction traced */
            uint64_t at = s->retired_pc != UINT64_MAX ? s->retired_pc : s->pc;
            if (!st)
                st = event(d, s, RVT_EV_STOP, at, ev, 0, nt_stop_reason(ev));
            rvt_flow_stop(&s->sync);     /* 7.12: trace stopped here */
            return st;
        }
        break;
    default:
        d->st.vendor++;       /* 6.1: vendor-defined/reserved: ignored */
        return 0;
    }
    if (!st && synced(s))
        st = timestamp(d, s, m);
    return st;
}

/* A transport error (3.4: a truncated message, a bad MSEO sequence):
 * every synchronised source loses synchronisation.  It is reported even
 * when no source is synchronised (before the first sync, after a loss, or
 * after the trace ended with ProgTraceCorrelation): trailing junk after the
 * last message is damage, not idle (idle is 0xFF, 3.1), so the caller can
 * name the byte offset. */
static int transport_error(rvt_nt_decoder *d, const char *why)
{
    bool told = false;
    for (unsigned i = 0; i < d->nused; i++) {
        nt_src *s = d->src[d->used[i]];
        if (synced(s)) {
            told = true;
            if (lose(d, s, why))
                return d->stop;
        }
    }
    if (told)
        return 0;
    nt_src *s = src_state(d, d->src_filter >= 0 ? (unsigned)d->src_filter : 0);
    if (!s)
        return RVT_ERR_NOMEM;
    d->st.errors++;
    d->st.unsynced_errors++;
    return event(d, s, RVT_EV_ERROR, 0, 0, 0, why);
}

/* The next message of r, or its transport error: 1 handled (*st: 0, a
 * negative status or the callback's nonzero answer), 0 none left. */
static int next_message(rvt_nt_decoder *d, rvt_nt_reader *r, int *st)
{
    rvt_nt_msg m;
    int rd = nt_reader_next_present(r, &m);
    if (rd == 0)
        return 0;
    if (rd < 0) {
        d->msg_off = r->err_offset;
        *st = transport_error(d, r->err);
        return 1;
    }
    d->last_end = r->base + r->pos;
    *st = message(d, &m);
    if (*st >= 0 && d->stop)
        *st = d->stop;
    return 1;
}

/* Every message of r (a buffer or a transport: one path), pushed; then
 * the stream offset moves past r's input. */
static int push_messages(rvt_nt_decoder *d, rvt_nt_reader *r)
{
    d->stop = 0;
    int st = 0;
    while (next_message(d, r, &st))
        if (st)
            return st;
    d->base += r->len;
    return 0;
}

/* A segment of the pushed stream that frames as in the whole stream
 * (nt_chunk.h), decoded; buf NULL: len bytes passed over. */
static int push_segment(void *ctx, const uint8_t *buf, size_t len)
{
    rvt_nt_decoder *d = ctx;
    if (!buf) {
        d->base += len;
        return 0;
    }
    rvt_nt_reader r;
    rvt_nt_reader_init(&r, buf, len, &d->cfg);
    r.base = d->base;
    return push_messages(d, &r);
}

int rvt_nt_decode(rvt_nt_decoder *d, const uint8_t *buf, size_t len)
{
    if (!d || !d->fn || (!buf && len))
        return RVT_ERR_INVAL;
    if (pulled(d))
        return RVT_ERR_STATE;
    return nt_chunker_feed(&d->chunks, buf, len, push_segment, d);
}

/* 7.12: an encoder ends its trace with a ProgTraceCorrelation (EVCODE 0
 * when the hart stops, 4 when trace is switched off), so a stream whose
 * sources (the one kept by src_filter, else every one seen) do not all end
 * with one was cut short: a truncated capture, or an empty file. */
static bool stream_complete(const rvt_nt_decoder *d)
{
    for (unsigned i = 0; i < d->nused; i++)
        if (!d->src[d->used[i]]->ended)
            return false;
    return d->nused > 0;
}

/* The end of the stream, to d->fn (the push callback or the pull queue). */
static int decode_end(rvt_nt_decoder *d)
{
    d->stop = 0;
    bool complete = stream_complete(d);
    nt_src *s = src_state(d, d->src_filter >= 0 ? (unsigned)d->src_filter : 0);
    if (!s)
        return RVT_ERR_NOMEM;
    d->msg_off = complete ? d->base : d->last_end;
    /* the loss policy: a loss the stream never resumed from, before END */
    for (unsigned i = 0; i < d->nused; i++) {
        int st = report_loss(d, d->src[d->used[i]], d->src[d->used[i]]->pc);
        if (st)
            return st;
    }
    return event(d, s, RVT_EV_END, s->pc, complete ? 0 : RVT_END_INCOMPLETE, 0, NULL);
}

int rvt_nt_decode_end(rvt_nt_decoder *d)
{
    if (!d || !d->fn)
        return RVT_ERR_INVAL;
    int st = rvt_nt_decode_flush(d);
    return st ? st : decode_end(d);
}

int rvt_nt_decode_flush(rvt_nt_decoder *d)
{
    if (!d || !d->fn)
        return RVT_ERR_INVAL;
    if (pulled(d))
        return RVT_ERR_STATE;
    return nt_chunker_end(&d->chunks, push_segment, d);     /* a message the stream cut */
}

int rvt_nt_decoder_run_transport(rvt_nt_decoder *d, rvt_transport *tp)
{
    if (!d || !d->fn || !tp)
        return RVT_ERR_INVAL;
    if (input_taken(d))
        return RVT_ERR_STATE;      /* tp's offsets start the stream */
    rvt_nt_reader r;
    rvt_nt_reader_init_transport(&r, tp, &d->cfg);
    int st = push_messages(d, &r);
    return st ? st : decode_end(d);
}

/* ---- the pull API (rvtrace/flow.h, src/flow/flow_pull.h) ---- */

/* The ResourceFull message whose history walk stopped (nt_resume) goes
 * on: the rest of the walk, the copies left, then what message() does
 * after the walk (its timestamp). */
static int resume(rvt_nt_decoder *d)
{
    nt_resume *r = &d->resume;
    nt_src *s = r->s;
    r->pending = false;
    int st = walk(d, s, 0, false, NULL, NULL);
    if (!st && !r->pending && r->left) {
        uint64_t left = r->left;
        r->left = 0;
        st = hist_repeat(d, s, r->hist, left);
    }
    if (st || r->pending || !synced(s))
        return st;
    return timestamp(d, s, &r->m);
}

/* One message into the pull queue (or the rest of one, nt_resume); at the
 * end of the input, the end. */
static int pull_step(void *dec)
{
    rvt_nt_decoder *d = dec;
    int st = 0;
    if (d->resume.pending) {
        st = resume(d);
        return st < 0 ? st : 1;
    }
    if (next_message(d, &d->rd, &st))
        return st < 0 ? st : 1;
    d->base += d->rd.len;
    st = decode_end(d);
    return st < 0 ? st : 0;
}

/* 7.1: the context and privilege an Ownership message gives its source,
 * without its events (rvt_nt_decoder_prime). */
static int prime_ownership(rvt_nt_decoder *d, const rvt_nt_msg *m)
{
    int st;
    nt_src *s = msg_source(d, m, &st);
    if (!s)
        return st;
    uint64_t p = m->f[RVT_NT_F_PROCESS];
    if ((p & 3u) != 1)      /* 1: reserved format */
        own_state(s, p);
    return 0;
}

int rvt_nt_decoder_prime(rvt_nt_decoder *d, const uint8_t *unit, size_t len)
{
    if (!d || !unit)
        return RVT_ERR_INVAL;
    if (input_taken(d))
        return RVT_ERR_STATE;
    rvt_nt_reader rd;
    rvt_nt_reader_init(&rd, unit, len, &d->cfg);
    rvt_nt_msg m;
    if (rvt_nt_reader_next(&rd, &m) <= 0 || m.tcode != RVT_NT_OWNERSHIP)
        return RVT_ERR_INVAL;
    return prime_ownership(d, &m);
}

/* The pull API over d->rd (set up by the caller).  A primed source's
 * context is its blocks' (rvt_block.context: the last RVT_EV_CONTEXT's,
 * which the Ownership message would have sent). */
static int pull_start(rvt_nt_decoder *d)
{
    rvt_flow_pull_init(&d->pull, NT_RULES, &d->bc, &d->mem, pull_step, d);
    for (unsigned i = 0; i < d->nused; i++) {
        const nt_src *s = d->src[d->used[i]];
        if (s->has_context)
            d->pull.context[d->used[i] & (RVT_FLOW_SRCS - 1)] = s->context;
    }
    d->fn = rvt_flow_pull_event;
    d->fn_ctx = &d->pull;
    d->stop = 0;
    d->events = RVT_NT_EVENTS_INSN;
    return 0;
}

int rvt_nt_decoder_set_input_piece(rvt_nt_decoder *d, const uint8_t *buf, size_t len,
                                   uint64_t owned)
{
    if (!d || (!buf && len))
        return RVT_ERR_INVAL;
    if (input_taken(d))
        return RVT_ERR_STATE;
    rvt_nt_reader_init(&d->rd, buf, len, &d->cfg);
    d->owned = owned;
    return pull_start(d);
}

int rvt_nt_decoder_set_input(rvt_nt_decoder *d, const uint8_t *buf, size_t len)
{
    return rvt_nt_decoder_set_input_piece(d, buf, len, UINT64_MAX);
}

int rvt_nt_decoder_set_input_transport(rvt_nt_decoder *d, rvt_transport *tp)
{
    if (!d || !tp)
        return RVT_ERR_INVAL;
    if (input_taken(d))
        return RVT_ERR_STATE;
    rvt_nt_reader_init_transport(&d->rd, tp, &d->cfg);
    return pull_start(d);
}

/* The pull calls: the pull core's (its statuses, flow_pull.h). */
rvt_flow_pull *rvt_nt_decoder_pull(rvt_nt_decoder *d)
{
    return d ? &d->pull : NULL;
}

int rvt_nt_decoder_next_block(rvt_nt_decoder *d, rvt_block *out)
{
    return rvt_flow_pull_next_block(rvt_nt_decoder_pull(d), out);
}

int rvt_nt_decoder_next_blocks(rvt_nt_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_blocks(rvt_nt_decoder_pull(d), out, max);
}

int rvt_nt_decoder_next_run(rvt_nt_decoder *d, rvt_block *out, size_t max)
{
    return rvt_flow_pull_next_run(rvt_nt_decoder_pull(d), out, max);
}

int rvt_nt_decoder_next_insn(rvt_nt_decoder *d, rvt_flow_insn *out)
{
    return rvt_flow_pull_next_insn(rvt_nt_decoder_pull(d), out);
}

int rvt_nt_decoder_next_event(rvt_nt_decoder *d, rvt_flow_event *out)
{
    return rvt_flow_pull_next_event(rvt_nt_decoder_pull(d), out);
}
