/* N-Trace repeated history (9.3, 8.3.1: ResourceFull RCODE 2, HIST with an
 * HREPEAT count) walked as the same number of RCODE 1 messages would be:
 * the decoder walks the copies a 63-bit history word at a time, not one
 * by one, and that must not move a block; through next_blocks the walk
 * stops after the batch asked for.  Blocks and counts below are
 * derived by hand from the program and the bits.
 *
 * Program (RV64I, assembled with riscv64-unknown-elf-as):
 *   A 0x1000 addi a0,a0,1   00150513
 *     0x1004 bne a0,a1,A    feb51ee3   taken: A; not taken: B
 *   B 0x1008 beq a0,a1,A    feb50ce3   taken: A; not taken: C
 *   C 0x100c j A            ff5ff06f   no HIST bit (trTeInstEnAllJumps off)
 * so any history is a path.  Half-words: A 4, B 2, C 2. */
#include <string.h>
#include "test_ntrace_util.h"
#include "rvtrace/flow.h"

#define A 0x1000u
#define B 0x1008u
#define C 0x100cu
#define MAX_BLOCKS 4096

static rvt_image *program(void)
{
    rvt_image *img = rvt_image_new();
    put32(img, A, 0x00150513);
    put32(img, A + 4, 0xfeb51ee3);
    put32(img, B, 0xfeb50ce3);
    put32(img, C, 0xff5ff06f);
    return img;
}

static void cfg_htm(rvt_nt_cfg *cfg)
{
    rvt_nt_cfg_default(cfg);
    cfg->inst_mode = RVT_NT_MODE_HTM;
    CHECK_EQ(rvt_nt_cfg_check(cfg), 0);
}

/* ProgTraceSync at A; each of the nhist histories k times (one RCODE 2
 * message, or k RCODE 1 messages when `as_copies`); ProgTraceCorrelation
 * (EVCODE 0) with I-CNT = the half-words walked, so nothing more is
 * walked. */
static size_t stream_of(const rvt_nt_cfg *cfg, const uint64_t *hist, size_t nhist, uint64_t k,
                        bool as_copies, uint64_t icnt, uint8_t *buf, size_t cap)
{
    rvt_nt_msg m;
    size_t n = 0;
    memset(&m, 0, sizeof m);
    m.tcode = RVT_NT_PROG_TRACE_SYNC;
    rvt_nt_set(&m, RVT_NT_F_SYNC, 3);
    rvt_nt_set(&m, RVT_NT_F_ICNT, 0);
    rvt_nt_set(&m, RVT_NT_F_FADDR, A >> 1);
    n = msg_put(&m, cfg, buf, n, cap);
    for (size_t h = 0; h < nhist; h++)
        for (uint64_t i = 0; i < (as_copies ? k : 1); i++) {
            memset(&m, 0, sizeof m);
            m.tcode = RVT_NT_RESOURCE_FULL;
            rvt_nt_set(&m, RVT_NT_F_RCODE, as_copies ? RVT_NT_RCODE_HIST : RVT_NT_RCODE_HREPEAT);
            rvt_nt_set(&m, RVT_NT_F_RDATA, hist[h]);
            if (!as_copies)
                rvt_nt_set(&m, RVT_NT_F_HREPEAT, k);
            n = msg_put(&m, cfg, buf, n, cap);
        }
    memset(&m, 0, sizeof m);
    m.tcode = RVT_NT_PROG_TRACE_CORRELATION;
    rvt_nt_set(&m, RVT_NT_F_EVCODE, 0);
    rvt_nt_set(&m, RVT_NT_F_CDF, 0);
    rvt_nt_set(&m, RVT_NT_F_ICNT, icnt);
    return msg_put(&m, cfg, buf, n, cap);
}

static size_t stream(const rvt_nt_cfg *cfg, uint64_t hist, uint64_t k, bool as_copies,
                     uint64_t icnt, uint8_t *buf, size_t cap)
{
    return stream_of(cfg, &hist, 1, k, as_copies, icnt, buf, cap);
}

/* A decoder pulling buf (NULL, a failed check, if it cannot be made). */
static rvt_nt_decoder *pulling(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *buf,
                               size_t len)
{
    int st;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, NULL, NULL, &st);
    CHECK(d != NULL);
    if (d)
        CHECK_EQ(rvt_nt_decoder_set_input(d, buf, len), 0);
    return d;
}

typedef struct blocks {
    rvt_block b[MAX_BLOCKS];
    size_t n;
    uint64_t insns, errors;
} blocks;

/* Every block through next_block, and the errors through next_event. */
static void pull(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *buf, size_t len, blocks *out)
{
    memset(out, 0, sizeof *out);
    rvt_nt_decoder *d = pulling(cfg, img, buf, len);
    if (!d)
        return;
    rvt_flow_event ev;
    rvt_block blk;
    for (;;) {
        while (rvt_nt_decoder_next_event(d, &ev) > 0)
            out->errors += ev.kind == RVT_EV_ERROR;
        if (rvt_nt_decoder_next_block(d, &blk) <= 0)
            break;
        if (out->n < MAX_BLOCKS)
            out->b[out->n++] = blk;
        out->insns += blk.ninsn;
    }
    rvt_nt_decoder_free(d);
}

static void same_blocks(const blocks *x, const blocks *y)
{
    CHECK_EQ(x->n, y->n);
    CHECK_EQ(x->insns, y->insns);
    CHECK_EQ(x->errors, y->errors);
    for (size_t i = 0; i < x->n && i < y->n; i++) {
        CHECK_EQ(x->b[i].start_pc, y->b[i].start_pc);
        CHECK_EQ(x->b[i].end_pc, y->b[i].end_pc);
        CHECK_EQ(x->b[i].ninsn, y->b[i].ninsn);
        CHECK_EQ(x->b[i].next_pc, y->b[i].next_pc);
        CHECK_EQ(x->b[i].end, y->b[i].end);
    }
}

static blocks one, copies;

/* History 1,0,1,0,0 (oldest first; RDATA 0b1_10100 with its stop bit),
 * 30 times: 12 copies fit a 63-bit word, so the walk takes 12 + 12 + 6.
 * The first copy from A: A taken -> A, A not -> B, B taken -> A, A not
 * -> B, B not -> C (the walk stops after the branch taking the last bit):
 * 8 instructions, 16 half-words, 5 blocks.  Every later copy starts at C:
 * C's jump to A, then the same: 9 instructions, 18 half-words, 6 blocks.
 * 30 copies: 8 + 29 * 9 = 269 instructions, 16 + 29 * 18 = 538
 * half-words, 5 + 29 * 6 = 179 blocks. */
static void test_pattern_by_hand(rvt_image *img, const rvt_nt_cfg *cfg)
{
    static uint8_t buf[64 * RVT_NT_MAX_MSG];
    size_t n = stream(cfg, 0x34, 30, false, 538, buf, sizeof buf);
    pull(cfg, img, buf, n, &one);
    CHECK_EQ(one.errors, 0);
    CHECK_EQ(one.insns, 269);
    CHECK_EQ(one.n, 179);
    static const struct { uint64_t start, end; unsigned ninsn, why; uint64_t next; } first[] = {
        { A, A + 4, 2, RVT_BLK_BRANCH_TAKEN, A },
        { A, A + 4, 2, RVT_BLK_BRANCH_NOT_TAKEN, B },
        { B, B, 1, RVT_BLK_BRANCH_TAKEN, A },
        { A, A + 4, 2, RVT_BLK_BRANCH_NOT_TAKEN, B },
        { B, B, 1, RVT_BLK_BRANCH_NOT_TAKEN, C },
        { C, C, 1, RVT_BLK_JUMP, A },
        { A, A + 4, 2, RVT_BLK_BRANCH_TAKEN, A },
    };
    for (size_t i = 0; i < sizeof first / sizeof first[0] && i < one.n; i++) {
        CHECK_EQ(one.b[i].start_pc, first[i].start);
        CHECK_EQ(one.b[i].end_pc, first[i].end);
        CHECK_EQ(one.b[i].ninsn, first[i].ninsn);
        CHECK_EQ(one.b[i].end, first[i].why);
        CHECK_EQ(one.b[i].next_pc, first[i].next);
    }
    /* the 12th copy's last block and the 13th's first: across the word */
    size_t at = 5 + 11 * 6;
    CHECK_EQ(one.b[at - 1].start_pc, B);
    CHECK_EQ(one.b[at - 1].end, RVT_BLK_BRANCH_NOT_TAKEN);
    CHECK_EQ(one.b[at].start_pc, C);
    CHECK_EQ(one.b[at].end, RVT_BLK_JUMP);
    /* the last block ends where the encoder stopped the trace (7.12) */
    CHECK_EQ(one.b[one.n - 1].start_pc, B);
    CHECK_EQ(one.b[one.n - 1].end, RVT_BLK_STOP);
    n = stream(cfg, 0x34, 30, true, 538, buf, sizeof buf);
    pull(cfg, img, buf, n, &copies);
    same_blocks(&one, &copies);
}

/* Other word boundaries: a 1-bit history (63 a word), a 31-bit one (2 a
 * word, 8.3.1: HIST is at most 32 bits), a count that is a whole number
 * of words and a single copy, each against the copies one by one.  First
 * with I-CNT 0 at the end, short of the walked half-words: an error in
 * both, after the same blocks; then with the I-CNT those blocks make
 * (every instruction is 4 bytes: 2 half-words each): no error. */
static void test_words(rvt_image *img, const rvt_nt_cfg *cfg)
{
    static uint8_t buf[300 * RVT_NT_MAX_MSG];
    static const struct { uint64_t hist, k; } cases[] = {
        { 0x3, 200 },                    /* taken: A over and over */
        { 0xAAAAAAAAull, 3 },            /* 31 bits 0101...: A not, B taken, A not ... */
        { 0x34, 24 },                    /* two whole words */
        { 0x2, 1 },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t icnt = 0;
        for (unsigned pass = 0; pass < 2; pass++) {
            size_t n = stream(cfg, cases[c].hist, cases[c].k, false, icnt, buf, sizeof buf);
            pull(cfg, img, buf, n, &one);
            n = stream(cfg, cases[c].hist, cases[c].k, true, icnt, buf, sizeof buf);
            pull(cfg, img, buf, n, &copies);
            same_blocks(&one, &copies);
            CHECK(one.n > 0);
            CHECK_EQ(one.errors, pass ? 0u : 1u);
            icnt = 2 * one.insns;
        }
    }
    /* 200 taken bits from A: 200 blocks of A, 2 instructions each */
    size_t n = stream(cfg, 0x3, 200, false, 800, buf, sizeof buf);
    pull(cfg, img, buf, n, &one);
    CHECK_EQ(one.errors, 0);
    CHECK_EQ(one.insns, 400);
    CHECK_EQ(one.n, 200);
}

/* The pull API stops a history walk when the caller's next_blocks array
 * is full and goes on at the next call (issue #18): the 200 taken bits
 * from A in batches of 7 blocks.  After the first call the walk has
 * retired exactly the 7 blocks got (7 x 2 instructions), not the whole
 * message (before: all 400 instructions, the other 193 blocks queued);
 * after every call it is at most one block of A (2 instructions) ahead
 * (a history word's last block is closed by the next word's first,
 * which then waits), and the blocks are those next_block gives. */
static void test_batches_stop(rvt_image *img, const rvt_nt_cfg *cfg)
{
    static uint8_t buf[8 * RVT_NT_MAX_MSG];
    size_t len = stream(cfg, 0x3, 200, false, 800, buf, sizeof buf);
    pull(cfg, img, buf, len, &one);
    rvt_nt_decoder *d = pulling(cfg, img, buf, len);
    if (!d)
        return;
    memset(&copies, 0, sizeof copies);
    rvt_block b[7];
    int got;
    uint64_t ahead = 0;
    rvt_nt_dec_stats ds;
    while ((got = rvt_nt_decoder_next_blocks(d, b, 7)) > 0) {
        for (int i = 0; i < got && copies.n < MAX_BLOCKS; i++) {
            copies.b[copies.n++] = b[i];
            copies.insns += b[i].ninsn;
        }
        CHECK_EQ(rvt_nt_decoder_stats(d, &ds), 0);
        if (copies.n == 7)
            CHECK_EQ(ds.insns, 14);
        CHECK(ds.insns >= copies.insns);
        ahead = ds.insns - copies.insns > ahead ? ds.insns - copies.insns : ahead;
    }
    CHECK_EQ(got, 0);
    CHECK(ahead <= 2);
    rvt_nt_decoder_free(d);
    CHECK_EQ(copies.n, 200);
    same_blocks(&one, &copies);
}

/* Every block through next_blocks, `batch` a call (the offsets too: the
 * same stream pulled two ways must agree on them). */
static void pull_batches(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *buf, size_t len,
                         size_t batch, blocks *out, rvt_nt_dec_stats *ds)
{
    memset(out, 0, sizeof *out);
    rvt_nt_decoder *d = pulling(cfg, img, buf, len);
    if (!d)
        return;
    static rvt_block b[256];
    int got;
    while ((got = rvt_nt_decoder_next_blocks(d, b, batch)) > 0)
        for (int i = 0; i < got; i++) {
            if (out->n < MAX_BLOCKS)
                out->b[out->n++] = b[i];
            out->insns += b[i].ninsn;
        }
    CHECK_EQ(got, 0);
    CHECK_EQ(rvt_nt_decoder_stats(d, ds), 0);
    rvt_nt_decoder_free(d);
}

static int count_insn(void *ctx, const rvt_flow_event *ev)
{
    *(uint64_t *)ctx += ev->kind == RVT_EV_INSN;
    return 0;
}

/* The push decoder's counts over the same stream (it copies no blocks). */
static void push_stats(const rvt_nt_cfg *cfg, rvt_image *img, const uint8_t *buf, size_t len,
                       rvt_nt_dec_stats *ds)
{
    int st;
    uint64_t n = 0;
    rvt_nt_decoder *d = rvt_nt_decoder_new(cfg, rvt_image_insn_cb, img, -1, count_insn, &n, &st);
    CHECK(d != NULL);
    if (!d)
        return;
    CHECK_EQ(rvt_nt_decode(d, buf, len), 0);
    CHECK_EQ(rvt_nt_decode_end(d), 0);
    CHECK_EQ(rvt_nt_decoder_stats(d, ds), 0);
    CHECK_EQ(n, ds->insns);
    rvt_nt_decoder_free(d);
}

static blocks batched;

/* Histories whose copies come back where they began through branches
 * alone: next_blocks writes the later copies as copies of the first's
 * blocks (repeat_copies in nt_dec.c), which must give what the walk
 * gives, at every batch size (a copy cut by the batch's end, the rest at
 * the next call) and with the wide-I-CNT count where the walk makes it.
 * By hand, from A:
 * - 0x3 (bit 1), 200 times: A taken -> A each time: 200 blocks of 2
 *   instructions, 800 half-words;
 * - 0x5 (bits 0,1), 150 times: A not -> B, B taken -> A: 300 blocks,
 *   3 instructions and 6 half-words a copy: 450, 900;
 * - 0x6 (bits 1,0), 100 times: A taken -> A, A not -> B, then from B
 *   every copy is B taken -> A, A not -> B (the second copy is the first
 *   that comes back where it began): 200 blocks, 2 + 2 + 99 * 3 = 301
 *   instructions, 602 half-words. */
static void test_copies(rvt_image *img, const rvt_nt_cfg *cfg)
{
    static uint8_t buf[260 * RVT_NT_MAX_MSG];
    static const struct { uint64_t hist, k, nblk, insns; } cases[] = {
        { 0x3, 200, 200, 400 }, { 0x5, 150, 300, 450 }, { 0x6, 100, 200, 301 },
    };
    static const size_t sizes[] = { 1, 2, 3, 5, 7, 64, 255, 256 };
    rvt_nt_dec_stats ds, ps;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        uint64_t icnt = 2 * cases[c].insns;   /* every instruction is 4 bytes */
        size_t len = stream(cfg, cases[c].hist, cases[c].k, true, icnt, buf, sizeof buf);
        pull(cfg, img, buf, len, &copies);
        CHECK_EQ(copies.errors, 0);
        CHECK_EQ(copies.n, cases[c].nblk);
        CHECK_EQ(copies.insns, cases[c].insns);
        len = stream(cfg, cases[c].hist, cases[c].k, false, icnt, buf, sizeof buf);
        pull(cfg, img, buf, len, &one);
        same_blocks(&one, &copies);
        push_stats(cfg, img, buf, len, &ps);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            pull_batches(cfg, img, buf, len, sizes[z], &batched, &ds);
            batched.errors = one.errors;
            same_blocks(&one, &batched);
            for (size_t i = 0; i < one.n && i < batched.n; i++)
                CHECK_EQ(one.b[i].offset, batched.b[i].offset);
            CHECK_EQ(ds.insns, ps.insns);
            CHECK_EQ(ds.errors, 0);
            CHECK_EQ(ds.wide_icnt, ps.wide_icnt);
            CHECK_EQ(ds.wide_icnt_offset, ps.wide_icnt_offset);
        }
    }
}

/* The same with rvtIcntBits 6 (2^6 = 64 half-words): the copies pass it
 * (0x3 x 200: 800 half-words), where the walk counts one wide I-CNT for
 * the ResourceFull message (8.4.4, wide_icnt); the copies must not skip
 * that count. */
static void test_copies_wide(rvt_image *img, const rvt_nt_cfg *htm)
{
    rvt_nt_cfg cfg = *htm;
    cfg.icnt_bits = 6;
    CHECK_EQ(rvt_nt_cfg_check(&cfg), 0);
    static uint8_t buf[208 * RVT_NT_MAX_MSG];
    size_t len = stream(&cfg, 0x3, 200, false, 800, buf, sizeof buf);
    rvt_nt_dec_stats ds, ps;
    push_stats(&cfg, img, buf, len, &ps);
    CHECK(ps.wide_icnt >= 1);
    pull(&cfg, img, buf, len, &one);
    CHECK_EQ(one.n, 200);
    CHECK_EQ(one.errors, 0);
    static const size_t sizes[] = { 2, 7, 256 };
    for (int as_copies = 0; as_copies < 2; as_copies++) {
        /* as RCODE 1 messages: walked by branch_chain, which stops there too */
        len = stream(&cfg, 0x3, 200, as_copies, 800, buf, sizeof buf);
        push_stats(&cfg, img, buf, len, &ps);
        CHECK(ps.wide_icnt >= 1);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            pull_batches(&cfg, img, buf, len, sizes[z], &batched, &ds);
            same_blocks(&one, &batched);
            CHECK_EQ(ds.insns, 400);
            CHECK_EQ(ds.wide_icnt, ps.wide_icnt);
            CHECK_EQ(ds.wide_icnt_offset, ps.wide_icnt_offset);
        }
    }
    /* one HIST message of 31 taken bits: 31 blocks of A, 124 half-words,
     * past 64 at the 17th block, inside the message's one history walk:
     * the wide I-CNT is that message's (offset 4, after the 4-byte sync),
     * not the ProgTraceCorrelation's */
    len = stream(&cfg, 0xFFFFFFFFull, 1, true, 124, buf, sizeof buf);
    push_stats(&cfg, img, buf, len, &ps);
    CHECK_EQ(ps.wide_icnt_offset, 4);
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        pull_batches(&cfg, img, buf, len, sizes[z], &batched, &ds);
        CHECK_EQ(batched.n, 31);
        CHECK_EQ(ds.insns, 62);
        CHECK_EQ(ds.wide_icnt, ps.wide_icnt);
        CHECK_EQ(ds.wide_icnt_offset, 4);
    }
}

/* The blocks of HIST bits from A, by hand from the program (top of this
 * file): A (2 instructions) taken -> A, not -> B; B taken -> A, not -> C;
 * C jumps to A with no bit.  The walk stops after the branch taking the
 * last bit; that block ends where the trace stops (7.12). */
static void by_hand(const uint64_t *hist, size_t nhist, blocks *out)
{
    memset(out, 0, sizeof *out);
    uint64_t pc = A;
    for (size_t h = 0; h < nhist; h++) {
        for (int i = 62 - __builtin_clzll(hist[h]); i >= 0; i--) {
            unsigned bit = (unsigned)(hist[h] >> i) & 1u;
            rvt_block *b = &out->b[out->n++];
            if (pc == C) {
                *b = (rvt_block){ .start_pc = C, .end_pc = C, .ninsn = 1, .end = RVT_BLK_JUMP,
                                  .next_pc = A };
                out->insns++;
                b = &out->b[out->n++];
                pc = A;
            }
            uint64_t to = bit ? A : pc == A ? B : C;
            *b = (rvt_block){ .start_pc = pc, .end_pc = pc == A ? A + 4 : pc, .ninsn = pc == A ? 2 : 1,
                              .end = bit ? RVT_BLK_BRANCH_TAKEN : RVT_BLK_BRANCH_NOT_TAKEN,
                              .next_pc = to };
            out->insns += b->ninsn;
            pc = to;
        }
    }
    out->b[out->n - 1].end = RVT_BLK_STOP;
    out->b[out->n - 1].next_pc = out->b[out->n - 1].end_pc;
}

/* HIST messages (RCODE 1), each walked as a run of branches written into
 * the caller's array with the walk's state in locals (branch_chain in
 * nt_dec.c, left at C's jump and at the array's end): every batch size
 * gives the blocks worked out by hand. */
static void test_chain_by_hand(rvt_image *img, const rvt_nt_cfg *cfg)
{
    static const uint64_t hist[] = { 0xB5A596D3ull, 0x8000000Full, 0xE4F0C3A1ull, 0x2D };
    static uint8_t buf[8 * RVT_NT_MAX_MSG];
    static blocks want;
    by_hand(hist, 4, &want);
    /* I-CNT: every instruction is 4 bytes */
    size_t n = stream_of(cfg, hist, 4, 1, true, 2 * want.insns, buf, sizeof buf);
    pull(cfg, img, buf, n, &one);
    same_blocks(&want, &one);
    static const size_t sizes[] = { 1, 2, 3, 4, 7, 16, 256 };
    rvt_nt_dec_stats ds;
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        pull_batches(cfg, img, buf, n, sizes[z], &batched, &ds);
        same_blocks(&want, &batched);
        CHECK_EQ(ds.errors, 0);
    }
}

int main(void)
{
    rvt_image *img = program();
    rvt_nt_cfg cfg;
    cfg_htm(&cfg);
    test_pattern_by_hand(img, &cfg);
    test_words(img, &cfg);
    test_batches_stop(img, &cfg);
    test_copies(img, &cfg);
    test_copies_wide(img, &cfg);
    test_chain_by_hand(img, &cfg);
    rvt_image_free(img);
    return TH_DONE();
}
