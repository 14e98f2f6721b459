/* Code that changes under the writers (self-modifying code, a JIT: the
 * library caller patches its image between two blocks).  The PC-list
 * writers keep each block's bytes by (start, count, end) (pc_list.c) and
 * rvt_out_block/rvt_out_run keep each block's shape by (start, count)
 * (block_shape.c); the same key may then stand for other instruction
 * lengths.  Here a block of 4 instructions from 0x1000 to 0x1008 is
 * first 4+2+2+4 bytes long, then, the code at 0x1000 replaced
 * (rvt_image_add_bytes shadows the old bytes), 2+2+4+4: the same start,
 * count, end and half-word count (6), other pcs in between.  Worked out
 * by hand from those lengths: 1000 1004 1006 1008, then 1000 1002 1004
 * 1008.  A writer that trusted what it kept would repeat the first. */
#include <stdlib.h>
#include <string.h>
#include "tharness.h"
#include "rvtrace/flow.h"
#include "rvtrace/out.h"
#include "rvtrace/pcbin.h"

#define BASE 0x1000u

static const uint8_t NOP4[4] = { 0x13, 0x00, 0x00, 0x00 };     /* addi x0,x0,0 */
static const uint8_t CNOP[2] = { 0x01, 0x00 };                 /* c.nop */

static const uint64_t want[2][4] = {
    { 0x1000, 0x1004, 0x1006, 0x1008 },     /* 4+2+2+4 */
    { 0x1000, 0x1002, 0x1004, 0x1008 },     /* 2+2+4+4 */
};
static const char want_text[] = "1000\n1004\n1006\n1008\n1000\n1002\n1004\n1008\n";

/* The code at BASE in its first (version 0) or second (1) lengths. */
static void put_code(rvt_image *img, int version)
{
    uint8_t b[12];
    if (version == 0) {
        memcpy(b, NOP4, 4), memcpy(b + 4, CNOP, 2), memcpy(b + 6, CNOP, 2), memcpy(b + 8, NOP4, 4);
    } else {
        memcpy(b, CNOP, 2), memcpy(b + 2, CNOP, 2), memcpy(b + 4, NOP4, 4), memcpy(b + 8, NOP4, 4);
    }
    CHECK_EQ(rvt_image_add_bytes(img, BASE, b, sizeof b, version ? "patched" : "code"), 0);
}

static const rvt_block blk = { .start_pc = 0x1000, .end_pc = 0x1008, .next_pc = 0x1008, .ninsn = 4,
                               .end = RVT_BLK_DISCON };

/* How the test hands the block to an output. */
typedef enum way { BY_BLOCKS, BY_BLOCK, BY_RUN, BY_WRITER_BLOCKS } way;

static void feed(rvt_out *o, const rvt_out_writer *w, void **state, way how)
{
    switch (how) {
    case BY_BLOCKS: CHECK_EQ(rvt_out_blocks(o, &blk, 1, NULL), 0); break;
    case BY_BLOCK: CHECK_EQ(rvt_out_block(o, &blk), 0); break;
    case BY_RUN: {
        /* a block-mode event: 4 instructions making 6 half-words */
        rvt_flow_event ev = { .kind = RVT_EV_INSN, .pc = 0x1000, .aux = 4, .aux2 = 6 };
        CHECK_EQ(rvt_out_run(o, &ev), 0);
        break;
    }
    case BY_WRITER_BLOCKS: CHECK_EQ(w->blocks(*state, &blk, 1), 4); break;
    }
}

/* The block, the code changed, the block again: through writer w's
 * output (or, BY_WRITER_BLOCKS, its own entry) into *text. */
static size_t run(const rvt_out_writer *w, way how, char **text)
{
    rvt_image *img = rvt_image_new();
    put_code(img, 0);
    size_t len = 0;
    FILE *f = open_memstream(text, &len);
    rvt_out *o = NULL;
    void *state = NULL;
    if (how == BY_WRITER_BLOCKS)
        state = w->open(f, img);
    else
        o = rvt_out_open(w, f, img);
    CHECK(o || state);
    feed(o, w, &state, how);
    put_code(img, 1);
    feed(o, w, &state, how);
    if (o)
        rvt_out_free(o);
    else
        w->finish(state);
    fclose(f);
    rvt_image_free(img);
    return len;
}

static void check_text(const rvt_out_writer *w, way how)
{
    char *text = NULL;
    run(w, how, &text);
    CHECK_STR(text, want_text);
    free(text);
}

static void check_bin(way how)
{
    char *bin = NULL;
    size_t len = run(rvt_out_find("pcs-bin"), how, &bin);
    CHECK_EQ(len, RVT_PCBIN_HEADER + 8 * 8);
    for (unsigned v = 0; v < 2 && len == RVT_PCBIN_HEADER + 8 * 8; v++)
        for (unsigned k = 0; k < 4; k++) {
            uint64_t pc = 0;
            for (unsigned i = 0; i < 8; i++)
                pc |= (uint64_t)(uint8_t)bin[RVT_PCBIN_HEADER + 8 * (4 * v + k) + i] << (8 * i);
            CHECK_EQ(pc, want[v][k]);
        }
    free(bin);
}

/* A writer of the test's own with only an event entry: rvt_out_block and
 * rvt_out_run expand blocks into events through their kept shapes. */
static void *ev_open(FILE *f, rvt_image *img)
{
    (void)img;
    return f;
}
static void ev_event(void *state, const rvt_flow_event *ev)
{
    if (ev->kind == RVT_EV_INSN)
        fprintf(state, "%llx\n", (unsigned long long)ev->pc);
}
static void ev_finish(void *state) { (void)state; }
static const rvt_out_writer events_only = { .name = "test-events", .open = ev_open, .event = ev_event,
                                            .finish = ev_finish };

/* What the generation counts: every change of the code the image serves,
 * not a lookup. */
static void check_generation(void)
{
    rvt_image *img = rvt_image_new();
    uint64_t g0 = rvt_image_generation(img);
    put_code(img, 0);
    uint64_t g1 = rvt_image_generation(img);
    CHECK(g1 != g0);
    CHECK(rvt_image_insn(img, BASE) != NULL);
    CHECK_EQ(rvt_image_generation(img), g1);
    rvt_image_invalidate(img, BASE, 4);
    CHECK(rvt_image_generation(img) != g1);
    CHECK_EQ(rvt_image_generation(NULL), 0);
    rvt_image_free(img);
}

int main(void)
{
    const rvt_out_writer *pcs = rvt_out_find("pcs");
    check_text(pcs, BY_BLOCKS);
    check_text(pcs, BY_BLOCK);
    check_text(pcs, BY_RUN);
    check_text(pcs, BY_WRITER_BLOCKS);
    check_bin(BY_BLOCKS);
    check_bin(BY_RUN);
    check_bin(BY_WRITER_BLOCKS);
    check_text(&events_only, BY_BLOCK);
    check_text(&events_only, BY_BLOCKS);
    check_text(&events_only, BY_RUN);
    check_generation();
    return TH_DONE();
}
