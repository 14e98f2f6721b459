/* decode --jobs: the PC lists written by the pieces (tools/rvtrace/
 * jobs_pcl.c).  A piece that is not the head keeps at most `hold` bytes
 * per list, then waits for its turn; the head writes straight to the
 * file.  Here piece 1, on a thread of its own, is given its blocks while
 * piece 0 has written nothing: it must stop within the hold (no more
 * kept than that, ever), and once piece 0 is written and piece 1 is the
 * head, go on; the file is the header, piece 0's PCs, piece 1's, in that
 * order, as one writer writes them.  With nothing to wait for (a hold
 * larger than the piece), piece 1 keeps everything and the thread that
 * hands the pieces on writes it; so with a piece of less than one chunk
 * (its one chunk, handed over when the part ends), which with a hold of
 * one byte waits instead. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "jobs_pcl.h"
#include "rvtrace/flow.h"
#include "rvtrace/pcbin.h"
#include "tharness.h"

#define PCS0 300            /* piece 0's instructions */
/* piece 1's: 2.5 of the part's chunks (PCL_CHUNK) of --pcs-bin, three
 * handed over; SMALL1, a part of less than one chunk */
#define PCS1 (5u * PCL_CHUNK / 16u)
#define SMALL1 1000u
static size_t pcs1 = PCS1;
#define BATCH 100
#define HOLD (PCL_CHUNK + PCL_CHUNK / 2)   /* bytes: one chunk kept, the next waits */

static uint64_t pc_of(size_t i)
{
    return 0x80000000u + 2 * i;
}

/* Instructions first..first+n of the list, BATCH blocks of one at a
 * time: the writes refused (none; counted, not CHECKed: the harness's
 * counters are the main thread's). */
static size_t feed(pcl_piece *pp, size_t first, size_t n)
{
    rvt_block b[BATCH];
    size_t refused = 0;
    for (size_t at = 0; at < n; at += BATCH) {
        size_t m = n - at < BATCH ? n - at : BATCH;
        for (size_t k = 0; k < m; k++) {
            uint64_t pc = pc_of(first + at + k);
            b[k] = (rvt_block){ .start_pc = pc, .end_pc = pc, .next_pc = pc, .ninsn = 1,
                                .end = RVT_BLK_DISCON };
        }
        refused += pcl_piece_blocks(pp, b, m) != 0;
    }
    return refused;
}

typedef struct later {
    pcl_piece *pp;
    size_t refused;
    bool done;              /* under the gate's mutex */
} later;

static void *piece1(void *arg)
{
    later *l = arg;
    l->refused = feed(l->pp, PCS0, pcs1);
    pcl_piece_close(l->pp);
    pthread_mutex_lock(&l->pp->gate->mu);
    l->done = true;
    pthread_mutex_unlock(&l->pp->gate->mu);
    return NULL;
}

/* Piece 1 blocked in a wait (true), or done without one (false). */
static bool blocked(pcl_gate *g, const later *l)
{
    for (;;) {
        pthread_mutex_lock(&g->mu);
        bool waiting = g->waiting > 0, done = l->done;
        pthread_mutex_unlock(&g->mu);
        if (waiting || done)
            return waiting;
        usleep(1000);
    }
}

/* The file: the header, then every pc in order, 8 bytes each. */
static void check_list(const char *buf, size_t n)
{
    CHECK_EQ(n, RVT_PCBIN_HEADER + 8 * (PCS0 + pcs1));
    if (n != RVT_PCBIN_HEADER + 8 * (PCS0 + pcs1))
        return;
    uint8_t hdr[RVT_PCBIN_HEADER];
    rvt_pcbin_header(hdr, 64);
    CHECK_MEM(buf, hdr, sizeof hdr);
    size_t bad = 0;
    for (size_t i = 0; i < PCS0 + pcs1; i++) {
        uint64_t pc;
        memcpy(&pc, buf + RVT_PCBIN_HEADER + 8 * i, 8);     /* a little-endian host */
        bad += pc != pc_of(i);
    }
    CHECK_EQ(bad, 0);
}

/* Pieces 0 and 1 of one list, hold bytes kept at most by a piece not
 * at the head; whether piece 1 waited. */
static uint64_t two_pieces(size_t hold, size_t *peak)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    rvt_out *whole = rvt_out_open(rvt_out_find("pcs-bin"), f, NULL);   /* the header */
    pcl_gate g;
    pcl_gate_init(&g);
    g.hold = hold;
    jobs_pcl lists = { .n = 1, .w = { rvt_out_find("pcs-bin") }, .f = { f }, .gate = &g };
    pcl_piece p0, p1;
    CHECK_EQ(pcl_piece_open(&p0, &lists, 0), 0);
    CHECK_EQ(pcl_piece_open(&p1, &lists, 1), 0);
    later l = { .pp = &p1 };
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, piece1, &l), 0);
    if (hold < 8 * pcs1)
        CHECK(blocked(&g, &l));
    else
        CHECK(!blocked(&g, &l));
    /* while it waits, it has kept no more than the hold */
    CHECK(p1.s[0].peak <= hold);
    CHECK_EQ(feed(&p0, 0, PCS0), 0);        /* the head: straight to f */
    pcl_piece_close(&p0);
    pcl_piece_drain(&p0);
    pcl_gate_head(&g, 1);
    pthread_join(t, NULL);
    CHECK_EQ(l.refused, 0);
    pcl_piece_drain(&p1);
    *peak = p1.s[0].peak;
    uint64_t waits = p1.waits;
    pcl_piece_free(&p0);
    pcl_piece_free(&p1);
    pcl_gate_destroy(&g);
    rvt_out_free(whole);
    fclose(f);
    check_list(buf, n);
    free(buf);
    return waits;
}

int main(void)
{
    size_t peak;
    CHECK(two_pieces(HOLD, &peak) > 0);
    CHECK(peak <= HOLD);
    /* room for the whole piece: no wait, everything kept, then written */
    CHECK_EQ(two_pieces(1u << 20, &peak), 0);
    CHECK_EQ(peak, 8 * PCS1);
    /* a piece of less than one chunk: its one chunk kept, then written */
    pcs1 = SMALL1;
    CHECK_EQ(two_pieces(1u << 20, &peak), 0);
    CHECK_EQ(peak, 8 * SMALL1);
    /* and with a hold of one byte: it waits to be the head */
    CHECK(two_pieces(1, &peak) > 0);
    CHECK_EQ(peak, 0);
    return TH_DONE();
}
