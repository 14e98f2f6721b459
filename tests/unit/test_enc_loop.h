/* Ingress records of a small loop for the encoders' batch tests (E-Trace
 * and N-Trace): plain runs, branches, a call and return, traps, context
 * changes; and a version-2 .rvi file written of them, whose runs of steps
 * the encoders take whole (rvt_rvi_replay_steps). */
#ifndef TEST_ENC_LOOP_H
#define TEST_ENC_LOOP_H

#include <stdlib.h>
#include <unistd.h>
#include "rvtrace/ingress.h"
#include "tharness.h"
#include "test_bytes_util.h"   /* te_buf */

typedef struct enc_gen {
    rvt_irec *r;
    size_t n, max;
    uint64_t time;
} enc_gen;

/* One single-instruction block of hw half-words, one cycle after the last. */
static inline void enc_gen_add(enc_gen *g, uint64_t iaddr, unsigned hw, unsigned itype)
{
    if (g->n >= g->max)
        return;
    g->r[g->n++] = (rvt_irec){ .iaddr = iaddr, .iretire = hw, .ninstr = 1, .ilastsize = hw == 2,
                               .itype = (uint8_t)itype, .priv = 3, .time = ++g->time,
                               .flags = RVT_IREC_F_CYCLE_END };
}

/* A loop: three plain instructions (4, 2, 4 bytes), a branch back taken
 * but every fifth time, then a call to a leaf of plain instructions and
 * its return, a jump back; every 97th pass an ecall into a handler and
 * its mret; every 7th a context change on the second instruction.  The
 * records go to r[0..max); returns how many. */
static inline size_t enc_loop(rvt_irec *r, size_t max, unsigned iters)
{
    const uint64_t B = 0x80000000ull, F = 0x80000100ull, H = 0x80000200ull;
    enc_gen g = { r, 0, max, 0 };
    for (unsigned i = 0; i < iters; i++) {
        enc_gen_add(&g, B, 2, 0);
        enc_gen_add(&g, B + 4, 1, 0);
        if (i % 7 == 3) {           /* E-Trace table 4.4: imprecise, then precise */
            r[g.n - 1].ctype = i % 2 ? 1 : 2;
            r[g.n - 1].context = i;
        }
        enc_gen_add(&g, B + 6, 2, 0);
        /* later passes: long predictable stretches (a predicted-branch
         * count, 6.8, ended by a failed prediction) */
        bool back = i < 500 ? i % 5 != 4 : i % 60 != 59;
        enc_gen_add(&g, B + 10, 2, back ? 5 : 4);
        if (back)
            continue;
        enc_gen_add(&g, B + 14, 2, 9);              /* jal ra, F */
        uint64_t a = F;                             /* a run of 29 (.rvi version 2) */
        for (unsigned k = 0; k < 29; k++) {
            unsigned hw = (k + i) % 3 ? 2 : 1;
            enc_gen_add(&g, a, hw, 0);
            a += 2 * hw;
        }
        enc_gen_add(&g, a, 2, 13);                  /* ret */
        if (i % 97 == 9) {
            enc_gen_add(&g, B + 18, 2, 1);          /* ecall */
            r[g.n - 1].cause = 11;
            enc_gen_add(&g, H, 2, 0);
            enc_gen_add(&g, H + 4, 2, 3);           /* mret to B + 22 */
            enc_gen_add(&g, B + 22, 2, 11);         /* j B */
        } else {
            enc_gen_add(&g, B + 18, 2, 11);         /* j B */
        }
    }
    return g.n;
}

/* r[0..n) written to a new version-2 .rvi file; its path in path
 * (a mkstemp template).  False (and a failed check) when it cannot be. */
static inline bool enc_loop_rvi(char *path, const rvt_irec *r, size_t n)
{
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return false;
    close(fd);
    int st = 0;
    rvt_rvi_writer *w = rvt_rvi_writer_open(path, 64, &st);
    CHECK(w != NULL);
    if (!w)
        return false;
    rvt_irec_sink ws = rvt_rvi_writer_sink(w);
    CHECK_EQ(ws.put(ws.ctx, r, n), 0);
    CHECK_EQ(rvt_rvi_writer_close(w), 0);
    return true;
}

/* What one encoding gave, whichever the encoder (messages: N-Trace
 * messages or E-Trace packets). */
typedef struct enc_result {
    te_buf out;
    int st;
    uint64_t instructions, halfwords, messages;
} enc_result;

/* A test's encoder with the settings kv, ended: over r[0..n) a record at
 * a time (path NULL), or from the .rvi at path with its runs handed over
 * whole (with_steps) or as records. */
typedef void (*enc_run_fn)(const char *kv, const rvt_irec *r, size_t n, const char *path, bool with_steps,
                           enc_result *res);

static inline bool enc_same(const enc_result *a, const enc_result *b)
{
    return a->st == b->st && a->out.n == b->out.n && !memcmp(a->out.b, b->out.b, a->out.n) &&
           a->instructions == b->instructions && a->halfwords == b->halfwords && a->messages == b->messages;
}

/* r[0..n) through a version-2 .rvi in every setting of modes: its runs
 * whole, its records one by one and the records put directly give the
 * same stream and counts, without error. */
static inline void enc_same_from_rvi(enc_run_fn run, const rvt_irec *r, size_t n, const char *const *modes,
                                     size_t nmodes)
{
    char path[] = "/tmp/rvt_test_enc_loop_XXXXXX";
    if (!enc_loop_rvi(path, r, n))
        return;
    for (size_t m = 0; m < nmodes; m++) {
        enc_result direct, plain, steps;
        run(modes[m], r, n, NULL, false, &direct);
        run(modes[m], r, n, path, false, &plain);
        run(modes[m], r, n, path, true, &steps);
        if (direct.st != 0 || !enc_same(&direct, &plain) || !enc_same(&direct, &steps))
            TH_FAIL("%s: status %d/%d/%d, %zu/%zu/%zu bytes, %llu/%llu/%llu instructions", modes[m],
                    direct.st, plain.st, steps.st, direct.out.n, plain.out.n, steps.out.n,
                    (unsigned long long)direct.instructions, (unsigned long long)plain.instructions,
                    (unsigned long long)steps.instructions);
        else
            th_passed++;
        free(direct.out.b);
        free(plain.out.b);
        free(steps.out.b);
    }
    remove(path);
}

#endif
