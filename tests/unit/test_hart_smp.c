/* Several harts on one board (rvtrace/smp.h, src/hart/smp.c): the
 * per-hart ACLINT registers (ACLINT 1.0 MSWI msip at +4i, MTIMER mtimecmp
 * at +0x4000 + 8i), PLIC contexts 2i/2i+1 (virt), another hart's store
 * breaking a reservation (unpriv 8.2), wfi parking until an IPI (priv
 * 3.3.3), the shared mtime, and N = 1 running as rvt_hart_run.  Expected
 * values come from the specs and docs/hart.md "Several harts". */
#include "hart/hart_int.h"
#include "test_hart_util.h"
#include "test_hart_dev.h"

#define CLINT 0x02000000ull
#define MSIP(i) (CLINT + 4ull * (i))
#define MTIMECMP(i) (CLINT + 0x4000 + 8ull * (i))
#define PLIC 0x0c000000ull
#define PLIC_PRIO(s) (PLIC + 4ull * (s))
#define PLIC_ENABLE(c) (PLIC + 0x2000 + 0x80ull * (c))
#define PLIC_THRESH(c) (PLIC + 0x200000 + 0x1000ull * (c))
#define MSIP_BIT (1ull << 3)
#define MEIP (1ull << 11)
#define SEIP (1ull << 9)

/* hart 0 spins; hart i > 0 enables MSIE, waits in wfi, counts s1, spins */
static const tinsn prog[] = {
    I4(0xf1402573),   /* 0:  csrr a0, mhartid */
    I2(0xe111),       /* 4:  bnez a0, 8 */
    I2(0xa001),       /* 6:  j 6 */
    I2(0x42a1),       /* 8:  li t0, 8 (MSIE) */
    I4(0x30429073),   /* a:  csrw mie, t0 */
    I4(0x10500073),   /* e:  wfi */
    I2(0x0485),       /* 12: addi s1, s1, 1 */
    I2(0xa001),       /* 14: j 14 */
};

typedef struct sys { rvt_image *img; rvt_smp *m; rvt_hart *h[RVT_SMP_MAX_HARTS]; } sys;

static sys sys_new(unsigned n, uint64_t quantum)
{
    sys s = { timage(prog, NINSN(prog)), NULL, { 0 } };
    rvt_hart_cfg cfg[RVT_SMP_MAX_HARTS];
    for (unsigned i = 0; i < n; i++)
        cfg[i] = (rvt_hart_cfg){ .xlen = 64 };
    int st;
    s.m = rvt_smp_new(cfg, n, quantum, s.img, &st);
    CHECK(s.m != NULL);
    for (unsigned i = 0; s.m && i < n; i++)
        s.h[i] = rvt_smp_hart(s.m, i);
    return s;
}

static void sys_free(sys *s)
{
    rvt_smp_free(s->m);
    rvt_image_free(s->img);
}

static void test_aclint_per_hart(void)
{
    sys s = sys_new(2, 0);
    rvt_hart *h0 = s.h[0], *h1 = s.h[1];
    CHECK_EQ(rvt_smp_count(s.m), 2);
    CHECK_EQ(rvt_hart_reg(h1, 10), 1);          /* a0 = hartid */
    wr(h0, MSIP(1), 4, 0xffffffff);             /* hart 0 sends hart 1 an IPI */
    CHECK_EQ(rd(h0, MSIP(1), 4), 1);            /* bit 0 only */
    CHECK_EQ(h1->msip, 1);
    CHECK_EQ(h0->msip, 0);
    CHECK(hart_mip(h1) & MSIP_BIT);
    CHECK(!(hart_mip(h0) & MSIP_BIT));
    CHECK_EQ(rd(h1, MSIP(0), 4), 0);
    wr(h0, MSIP(2), 4, 1);                      /* no hart 2: ignored, reads 0 */
    CHECK_EQ(rd(h0, MSIP(2), 4), 0);
    wr(h1, MTIMECMP(1), 8, 0x1234);
    CHECK_EQ(h1->mtimecmp, 0x1234);
    CHECK_EQ(h0->mtimecmp, UINT64_MAX);         /* reset value, untouched */
    CHECK_EQ(rd(h0, MTIMECMP(1) + 4, 4), 0);    /* RV32 view: the high half */
    CHECK_EQ(rd(h0, MTIMECMP(2), 8), 0);        /* no hart 2 */
    sys_free(&s);
}

static void test_plic_contexts(void)
{
    sys s = sys_new(2, 0);
    rvt_hart *h0 = s.h[0], *h1 = s.h[1];
    wr(h0, PLIC_THRESH(3), 4, 2);               /* hart 1 S-mode: exists */
    CHECK_EQ(rd(h0, PLIC_THRESH(3), 4), 2);
    wr(h0, PLIC_THRESH(4), 4, 2);               /* context 4 = hart 2: none */
    CHECK_EQ(rd(h0, PLIC_THRESH(4), 4), 0);
    wr(h0, PLIC_PRIO(10), 4, 3);
    wr(h0, PLIC_ENABLE(3), 4, 1u << 10);        /* source 10 to hart 1 S-mode */
    hart_plic_set_level(h0, 10, true);
    CHECK_EQ(h1->ext_ip, SEIP);                 /* 3 > threshold 2 */
    CHECK_EQ(h0->ext_ip, 0);
    wr(h0, PLIC_ENABLE(0), 4, 1u << 10);        /* and to hart 0 M-mode */
    CHECK_EQ(h0->ext_ip, MEIP);
    CHECK_EQ(rd(h1, PLIC_THRESH(3) + 4, 4), 10);   /* hart 1 claims it */
    CHECK_EQ(h0->ext_ip, 0);                    /* in service: no longer pending */
    CHECK_EQ(h1->ext_ip, 0);
    sys_free(&s);
}

static void test_reservation_broken_by_peer(void)
{
    sys s = sys_new(2, 0);
    rvt_hart *h0 = s.h[0], *h1 = s.h[1];
    uint64_t a = TBASE + 0x800;
    h1->resv = a >> 3;
    h1->resv_addr = a;
    h0->peer_resv = true;                       /* smp.c sets it at hart 0's turn */
    CHECK_EQ(hart_store(h0, a + 4, 4, 7), 0);   /* same 8-byte granule */
    CHECK_EQ(h1->resv, HART_NO_RESV);
    CHECK(!h0->peer_resv);                      /* nobody holds one now */
    h1->resv = a >> 3;
    h0->peer_resv = true;
    CHECK_EQ(hart_store(h0, a + 8, 4, 7), 0);   /* the next granule: kept */
    CHECK_EQ(h1->resv, a >> 3);
    sys_free(&s);
}

static void test_wfi_parks_until_ipi(void)
{
    sys s = sys_new(2, 10);
    rvt_hart *h0 = s.h[0], *h1 = s.h[1];
    CHECK_EQ(rvt_smp_run(s.m, 100), RVT_HART_STEP_LIMIT);
    CHECK(h1->parked);
    CHECK_EQ(rvt_hart_pc(h1), TBASE + 0x12);    /* wfi retired */
    uint64_t h1_before = h1->instret;
    CHECK_EQ(h1_before, 5);
    CHECK_EQ(h0->instret, 95);                  /* every other turn went to hart 0 */
    CHECK_EQ(rvt_smp_run(s.m, 100), RVT_HART_STEP_LIMIT);
    CHECK_EQ(h1->instret, h1_before);           /* still parked */
    wr(h0, MSIP(1), 4, 1);
    CHECK_EQ(rvt_smp_run(s.m, 100), RVT_HART_STEP_LIMIT);
    CHECK(!h1->parked);
    CHECK_EQ(rvt_hart_reg(h1, 9), 1);           /* s1: went on after the wfi */
    /* mtime is one clock: everything both harts retired */
    CHECK_EQ(s.m ? hart_mtime(rvt_smp_last(s.m)) : 0, h0->instret + h1->instret);
    sys_free(&s);
}

static void test_all_parked_is_fatal(void)
{
    static const tinsn sleep[] = { I4(0x10500073), I2(0xa001) };   /* wfi; j . */
    rvt_image *img = timage(sleep, NINSN(sleep));
    rvt_hart_cfg cfg[2] = { { .xlen = 64 }, { .xlen = 64 } };
    int st;
    rvt_smp *m = rvt_smp_new(cfg, 2, 0, img, &st);
    CHECK(m != NULL);
    CHECK_EQ(rvt_smp_run(m, 0), RVT_HART_FATAL);   /* mie = 0: nothing can wake them */
    CHECK(rvt_hart_fatal_msg(rvt_smp_last(m)) != NULL);
    rvt_smp_free(m);
    rvt_image_free(img);
}

/* One hart is the plain hart: the same stop and state as rvt_hart_run. */
static void test_one_hart(void)
{
    sys s = sys_new(1, 0);
    CHECK_EQ(rvt_smp_run(s.m, 50), RVT_HART_STEP_LIMIT);
    CHECK_EQ(s.h[0]->instret, 50);
    CHECK(s.h[0]->smp == NULL);
    CHECK_EQ(hart_count(s.h[0]), 1);
    sys_free(&s);
    rvt_hart_cfg cfg = { .xlen = 64 };
    int st;
    CHECK(rvt_smp_new(&cfg, 0, 0, NULL, &st) == NULL);
    CHECK(rvt_smp_new(&cfg, RVT_SMP_MAX_HARTS + 1, 0, NULL, &st) == NULL);
}

int main(void)
{
    test_aclint_per_hart();
    test_plic_contexts();
    test_reservation_broken_by_peer();
    test_wfi_parks_until_ipi();
    test_all_parked_is_fatal();
    test_one_hart();
    return TH_DONE();
}
