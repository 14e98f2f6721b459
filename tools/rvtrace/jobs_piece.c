/* A piece decoded by a decoder of its own (jobs_piece.h).  It starts at a
 * sync point with the modes of the support packet (E-Trace 6.5) or
 * Ownership message (N-Trace 7.1) named by the index, and goes on through
 * the next piece's sync unit: in both protocols the instructions between
 * the last packet/message and a sync are retired only when the sync
 * arrives (E-Trace format 3 address, N-Trace I-CNT/F-ADDR), so the walk up
 * to a sync is this piece's, and the events the next piece's decoder sends
 * for the sync itself, as a first sync, are dropped.  The decoder reads on
 * to the end of the stream and is stopped at the first event past its
 * piece: a damaged packet before the cut is then read, and resynchronised
 * over, as one decoder reads it, not cut short. */
#include <stdlib.h>
#include "jobs_piece.h"
#include "rvtrace/etrace.h"
#include "rvtrace/ntrace.h"

typedef struct rec {
    const jobs_cfg *c;
    piece *p;
    uint64_t adj;          /* decoder offset + adj = stream offset */
    bool dropping;         /* still in the events of bytes before p->rec */
    bool counting;         /* instructions counted, not kept: the decoder
                              counts them (no instruction events) */
    rvt_nt_decoder *nt;    /* merged: asked which errors are its own */
    uint64_t unsynced;     /* rvt_nt_dec_stats.unsynced_errors seen so far */
    bool sealed;           /* blocks: the first instruction is sealed (the head) */
    bool kept;             /* blocks: a block or event of the piece's own kept */
    bool marked;           /* --range end: where the tail's retirement starts */
    size_t mark;
    uint64_t mark_insns;
} rec;

/* A merged piece's error that the decoder reported as its own (no source
 * synchronised), not as its source's loss: marked for the merge. */
static void mark_unsynced(rec *r, rvt_flow_event *ev)
{
    rvt_nt_dec_stats ds;
    rvt_nt_decoder_stats(r->nt, &ds);
    if (ds.unsynced_errors != r->unsynced)
        ev->flags |= PIECE_EVF_UNSYNCED;
    r->unsynced = ds.unsynced_errors;
}

/* Whether a block or event from the stream's byte `offset` on is the
 * next piece's (N-Trace reads on to it: the pull stops there). */
static bool beyond(const piece *p, uint64_t offset)
{
    return !p->last && offset != UINT64_MAX && offset >= p->to;
}

/* A decoder's event with its offset the stream's. */
static rvt_flow_event moved(const rec *r, const rvt_flow_event *in)
{
    rvt_flow_event ev = *in;
    if (ev.offset != UINT64_MAX)
        ev.offset += r->adj;
    return ev;
}

/* An event of the piece's own: straight to the caller (p->direct), else
 * onto the tape. */
static int keep(rec *r, const rvt_flow_event *ev)
{
    piece *p = r->p;
    r->kept = true;
    if (p->direct)
        return p->stopped = r->c->fn(r->c->ctx, ev);
    ev_tape_put(&p->tape, ev);
    return 0;
}

static int rec_event(void *ctx, const rvt_flow_event *in)
{
    rec *r = ctx;
    piece *p = r->p;
    rvt_flow_event ev = moved(r, in);
    if (ev.kind == RVT_EV_ERROR && r->nt)
        mark_unsynced(r, &ev);
    if (beyond(p, ev.offset))
        return 1;                      /* the next piece's: stop here */
    if (ev.kind == RVT_EV_END && !p->last)
        return 0;
    if (r->dropping) {
        if (ev.offset < p->rec)
            return 0;
        r->dropping = false;
    }
    if (ev.kind == RVT_EV_INSN && ev.offset >= p->tail && ev.pc == p->tail_pc) {
        r->marked = true;
        r->mark = p->tape.n;
        r->mark_insns = p->insns;
    }
    if (ev.kind == RVT_EV_INSN) {
        p->insns += r->c->runs ? ev.aux : 1;
        if (!r->c->keep_insns)
            return 0;
    }
    return keep(r, &ev);
}

/* ---- E-Trace ---- */

/* Feed the support packet at `at` (dropped events: before p->rec). */
static void te_prime(rvt_te_decoder *d, const rvt_te_attrs *a, const uint8_t *buf, size_t len,
                     uint64_t at)
{
    rvt_te_reader rd;
    rvt_te_reader_init(&rd, a, buf + at, len - at);
    rvt_te_pkt pkt;
    uint64_t off;
    if (rvt_te_reader_next(&rd, &pkt, &off) > 0)
        rvt_te_decoder_packet(d, &pkt, 0);
}

/* Decode from the piece's point through the next piece's sync packet,
 * reading what the whole stream's reader reads (rvt_te_decoder_run_to).
 * The point's own sync packet is decoded first, alone: a fresh decoder
 * retires the instruction at a sync's address (11.1; the running decoder
 * retired it as the end of its walk, in the piece before), so a counting
 * piece's instructions are those decoded after it. */
static void te_piece(const jobs_cfg *c, piece *p, rec *r)
{
    int st = 0;
    rvt_te_decoder *d = rvt_te_decoder_new_mem(c->native, c->mem, rec_event, r, &st);
    if (!d) {
        p->status = st ? st : RVT_ERR_STATE;
        return;
    }
    if (p->src >= 0)            /* an encapsulated stream's srcID (its space, its events' src) */
        rvt_te_decoder_set_source(d, (uint16_t)p->src);
    rvt_te_decoder_set_events(d, !r->counting);
    rvt_te_decoder_set_runs(d, c->runs);        /* aux instructions from pc (out.h) */
    if (p->state != RVT_INDEX_NONE)
        te_prime(d, c->native, c->buf, c->len, p->state);
    r->adj = p->from;
    const uint8_t *b = c->buf + p->from;
    size_t n = c->len - (size_t)p->from;
    rvt_te_dec_stats ds = { 0 };
    if (p->rec > p->from) {
        size_t first = (size_t)(p->rec - p->from);
        rvt_te_decoder_run_to(d, b, n, first);
        rvt_te_decoder_stats(d, &ds);
        r->adj = p->rec;
        b += first;
        n -= first;
    }
    uint64_t before = ds.instructions;
    if (p->last)
        rvt_te_decoder_run(d, b, n);
    else
        rvt_te_decoder_run_to(d, b, n, p->to - r->adj);
    rvt_te_decoder_stats(d, &ds);
    p->skipped = ds.skipped;
    if (r->counting)
        p->insns = ds.instructions - before;
    rvt_te_decoder_free(d);
}

/* ---- N-Trace ---- */

/* Feed the Ownership message at `at`; its length. */
static size_t nt_prime(rvt_nt_decoder *d, const rvt_nt_cfg *cfg, const uint8_t *buf, size_t len,
                       uint64_t at)
{
    rvt_nt_reader rd;
    rvt_nt_reader_init(&rd, buf + at, len - at, cfg);
    rvt_nt_msg m;
    if (rvt_nt_reader_next(&rd, &m) <= 0)
        return 0;
    size_t n = (size_t)(m.offset + m.len);
    rvt_nt_decode(d, buf + at, n);
    return n;
}

/* The piece's bytes, in three parts that end on message boundaries
 * (rvt_nt_decode's chunks): the point's own sync message (from p->from to
 * p->rec: what a fresh decoder retires or counts for it is the piece
 * before's), the messages the piece owns (through the next piece's sync
 * message, p->to), and, keeping instructions, the rest of the stream,
 * read on until the first event past the piece stops the decoder.  A
 * counting piece is given no more than it owns: MSEO ends a message at
 * p->to (3.1-3.4).  *before and *owned: the decoder's stats before and
 * after the messages it owns, so that what two pieces' decoders read --
 * the sync message at a cut, and the message after it, read before its
 * first event stops the decoder -- counts for its owner only
 * (instructions, wide I-CNTs: 8.4.4). */
static int nt_feed(rvt_nt_decoder *d, const jobs_cfg *c, const piece *p, const rec *r,
                   rvt_nt_dec_stats *before, rvt_nt_dec_stats *owned)
{
    const uint8_t *b = c->buf + p->from;
    size_t n = c->len - (size_t)p->from;
    size_t first = (size_t)(p->rec - p->from);
    size_t upto = p->last ? n : (size_t)(p->to - p->from);
    int st = rvt_nt_decode(d, b, first);
    rvt_nt_decoder_stats(d, before);
    if (st == 0)
        st = rvt_nt_decode(d, b + first, upto - first);
    rvt_nt_decoder_stats(d, owned);
    if (st == 0 && !r->counting && upto < n)
        st = rvt_nt_decode(d, b + upto, n - upto);
    return st;
}

/* The wide I-CNTs of the piece's own messages: counted between the two
 * snapshots; the first one's offset is known when the decoder had counted
 * none before (else the piece before owns an earlier one, its own first
 * sync message's, which both read). */
static void nt_wide(piece *p, const rvt_nt_dec_stats *before, const rvt_nt_dec_stats *owned,
                    uint64_t adj)
{
    p->wide_icnt = owned->wide_icnt - before->wide_icnt;
    p->wide_icnt_offset = p->wide_icnt && !before->wide_icnt ? owned->wide_icnt_offset + adj
                                                             : UINT64_MAX;
}

static void nt_piece(const jobs_cfg *c, piece *p, rec *r)
{
    int st = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new_mem(c->native, c->mem, p->src, rec_event, r, &st);
    if (!d) {
        p->status = st ? st : RVT_ERR_STATE;
        return;
    }
    if (p->merged)
        r->nt = d;
    if (r->counting)
        rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_COUNT);
    else if (c->runs)           /* aux instructions from pc (out.h) */
        rvt_nt_decoder_set_events(d, RVT_NT_EVENTS_BLOCK);
    size_t pre = 0;
    if (p->state != RVT_INDEX_NONE) {
        r->adj = 0;            /* offsets below p->rec: dropped */
        pre = nt_prime(d, c->native, c->buf, c->len, p->state);
    }
    r->adj = p->from - pre;
    rvt_nt_dec_stats before, owned, ds;
    st = nt_feed(d, c, p, r, &before, &owned);
    if (st >= 0 && p->last)
        st = rvt_nt_decode_flush(d);    /* a message the stream cut: before the end's events */
    p->end_at = p->tape.n;
    if (st >= 0 && p->last)
        st = rvt_nt_decode_end(d);
    if (st < 0)
        p->status = st;
    rvt_nt_decoder_stats(d, &ds);
    if (p->last)
        owned = ds;
    p->msg_end = ds.msg_end + r->adj;
    if (r->counting)
        p->insns = owned.insns - before.insns;
    p->messages = ds.messages;
    nt_wide(p, &before, &owned, r->adj);
    rvt_nt_decoder_free(d);
}

/* ---- blocks (the pull API) ---- */

enum { BLK_DIRECT = 64 };

/* An event of a piece that pulls blocks: its own (at or past p->rec, and
 * before the next piece's), not the end of a piece before the last. */
static int pulled_event(void *ctx, const rvt_flow_event *in)
{
    rec *r = ctx;
    piece *p = r->p;
    rvt_flow_event ev = moved(r, in);
    if (beyond(p, ev.offset))
        return 1;
    if ((ev.offset != UINT64_MAX && ev.offset < p->rec) || (ev.kind == RVT_EV_END && !p->last))
        return 0;
    return keep(r, &ev);
}

/* The only piece (p->direct): its blocks straight to the caller, their
 * offsets the stream's. */
static int direct_blocks(rec *r, const rvt_block *b, size_t n)
{
    rvt_block out[BLK_DIRECT];
    int st = 0;
    for (size_t k = 0; !st && k < n; k += BLK_DIRECT) {
        size_t m = n - k < BLK_DIRECT ? n - k : BLK_DIRECT;
        for (size_t j = 0; j < m; j++) {
            out[j] = b[k + j];
            out[j].offset += r->adj;
        }
        st = r->c->fn_blocks(r->c->ctx, out, m);
    }
    return st;
}

/* A batch of blocks: the first, from the point's sync packet (before
 * p->rec), is the head (the seam, jobs_blocks.c); the rest are kept. */
static int pulled_blocks(void *ctx, const rvt_block *b, size_t n)
{
    rec *r = ctx;
    piece *p = r->p;
    size_t k = 0;
    if (r->sealed && !p->has_head && !r->kept && b[0].offset + r->adj < p->rec) {
        p->head = b[0];
        p->head.offset += r->adj;
        p->has_head = true;
        k = 1;
    }
    /* the piece's own: before p->to (beyond), in the decoder's offsets */
    uint64_t limit = p->last ? UINT64_MAX : p->to - r->adj, insns = 0;
    size_t own = k;
    for (; own < n && b[own].offset < limit; own++)
        insns += b[own].ninsn;
    p->insns += insns;
    r->kept = r->kept || own > k;
    int st = 0;
    if (p->direct && own > k)
        st = p->stopped = direct_blocks(r, b + k, own - k);
    else if (p->pcl)            /* the PC lists: position-free, written here */
        st = pcl_piece_blocks(p->pcl, b + k, own - k);
    else if (!p->direct)
        ev_tape_put_blocks(&p->tape, b + k, own - k, r->adj);
    return st ? st : own < n;       /* the next piece's block: stop */
}

/* The piece pulled (rvt_proto_decoder_pump_blocks): from the point's sync
 * unit through the next piece's (docs/parallel.md "The seams").  E-Trace:
 * the input stops there, as rvt_te_decoder_run_to's, and the first
 * instruction, which the piece before retired as the end of its walk, is
 * sealed: the head.  N-Trace: a fresh decoder retires nothing for its
 * first sync message (it starts at F-ADDR); the decoder reads on, seals
 * the block open at the first message past the piece's own, and is
 * stopped at the first block or event of the next piece's bytes (beyond).
 * The point's state unit is read first (a support packet whose options
 * need attributes not given leaves the modes as they were, as decoding
 * it does). */
static void pull_piece(const jobs_cfg *c, piece *p, rec *r)
{
    int st = 0;
    rvt_proto_decoder *d = rvt_proto_decoder_new(c->cfg, c->mem, NULL, NULL, &st);
    if (!d) {
        p->status = st ? st : RVT_ERR_STATE;
        return;
    }
    if (c->pcl && !p->direct && !(p->pcl = calloc(1, sizeof *p->pcl)))
        st = RVT_ERR_NOMEM;
    else if (p->pcl)
        st = pcl_piece_open(p->pcl, c->pcl, p->at);
    if (st == 0)
        st = rvt_proto_decoder_set_source(d, p->src);
    if (st == 0 && p->state != RVT_INDEX_NONE)
        rvt_proto_decoder_prime(d, c->buf + p->state, c->len - (size_t)p->state);
    r->adj = p->from;
    uint64_t stop = p->last ? UINT64_MAX : p->to - p->from;
    r->sealed = c->kind == KIND_TE && p->rec > p->from;
    if (st == 0)
        st = rvt_proto_decoder_set_input_piece(d, c->buf + p->from, c->len - (size_t)p->from,
                                               stop, r->sealed);
    if (st == 0)
        st = rvt_proto_decoder_pump_blocks(d, pulled_event, pulled_blocks, r);
    if (p->pcl && st >= 0)
        pcl_piece_close(p->pcl);        /* the parts' last bytes */
    if (st < 0)
        p->status = st;
    rvt_proto_dec_stats ds;
    rvt_proto_decoder_stats(d, &ds);
    p->skipped = ds.skipped;
    p->messages = ds.units;
    p->wide_icnt = ds.wide_icnt;        /* the piece's own messages' (set_input_piece) */
    p->wide_icnt_offset = ds.wide_icnt ? ds.wide_icnt_offset + r->adj : UINT64_MAX;
    rvt_proto_decoder_free(d);
}

void piece_decode(const jobs_cfg *c, piece *p)
{
    /* a --range end marks the tail's first instruction: per instruction */
    rec r = { .c = c, .p = p, .dropping = true,
              .counting = !c->keep_insns && p->tail == UINT64_MAX };
    if (c->blocks && p->tail == UINT64_MAX)
        pull_piece(c, p, &r);
    else if (c->kind == KIND_TE)
        te_piece(c, p, &r);
    else
        nt_piece(c, p, &r);
    if (r.marked) {
        ev_tape_cut(&p->tape, r.mark);
        p->insns = r.mark_insns;
    }
    if (p->tape.failed && !p->status)
        p->status = RVT_ERR_NOMEM;
}
