/* vmheavy: a page-table-heavy S-mode workload under Sv39 (priv 1.12 ch. 4)
 * for the hart's speed with paging on (issue 15: >= 60 MIPS).  M builds:
 *   VA 0x80000000-0x80ffffff  identity, 2 MiB megapages, R W X, A D set
 *   VA 0x40000000-0x403fffff  a window of NPAGES 4 KiB pages over pool[],
 *                             in two address spaces (ASID 1 and 2) that map
 *                             window page v to pool page perm(v) and
 *                             perm(v) ^ 1, A/D left to the hart
 * S runs ROUNDS rounds; each switches satp to the other ASID (no flush:
 * ASIDs keep both spaces' translations apart), then for every window page
 * in a stride order reads a word, mixes it, and writes the page's next
 * word, so NPAGES pages (four times the hart's 256-entry TLB) are touched
 * between two visits of one page.  Every REMAP_EVERY rounds one page is
 * remapped and fenced (sfence.vma with an address).  build.sh also builds
 * a small size of it, asid.elf, for the tests that run every program.  M then checks, through
 * physical addresses, what S wrote through the window. */
#ifdef VMHEAVY_HOST
#include <stdint.h>
#include <stdio.h>
typedef uint64_t ureg;
#else
#include "rt.h"
#endif

#define PTE_V 0x01UL
#define PTE_R 0x02UL
#define PTE_W 0x04UL
#define PTE_X 0x08UL
#define PTE_A 0x40UL
#define PTE_D 0x80UL
#define RAM 0x80000000UL
#define WIN 0x40000000UL
#ifndef NPAGES
#define NPAGES 1024   /* a power of two */
#endif
#ifndef ROUNDS
#define ROUNDS 2400
#endif
#ifndef REMAP_EVERY
#define REMAP_EVERY 64   /* rounds; a power of two */
#endif
#define WORDS (4096 / 8)

static uint64_t root[2][512] __attribute__((aligned(4096)));
static uint64_t l1_ram[512] __attribute__((aligned(4096)));
static uint64_t l1_win[2][512] __attribute__((aligned(4096)));
/* whole 4 KiB tables: a table's base is a PPN (4.4.1) */
#define L0_TABLES ((NPAGES + 511) / 512)
static uint64_t l0_win[2][L0_TABLES * 512] __attribute__((aligned(4096)));
static uint64_t pool[NPAGES][WORDS] __attribute__((aligned(4096)));
#ifndef VMHEAVY_HOST
static uint8_t s_stack[8192] __attribute__((aligned(16)));
static uint64_t digest;
/* from the host build, one block per size built (build.sh):
 * cc -DVMHEAVY_HOST [-DNPAGES=N -DROUNDS=R] src/vmheavy.c && ./a.out */
#include "vmheavy_want.h"
#endif

static uint64_t pte(uint64_t pa, uint64_t bits)
{
    return (pa >> 12) << 10 | bits | PTE_V;
}

/* A permutation of the pages: multiplication by an odd number mod 2^10. */
static unsigned perm(unsigned v)
{
    return (v * 389u + 17u) & (NPAGES - 1);
}

static unsigned backing(unsigned as, unsigned v)
{
    return as ? perm(v) ^ 1u : perm(v);
}

#ifndef VMHEAVY_HOST
static void build_tables(void)
{
    for (unsigned as = 0; as < 2; as++) {
        root[as][RAM >> 30] = pte((ureg)l1_ram, 0);
        root[as][WIN >> 30] = pte((ureg)l1_win[as], 0);
        for (unsigned t = 0; t < L0_TABLES; t++)
            l1_win[as][t] = pte((ureg)&l0_win[as][t * 512], 0);
        for (unsigned v = 0; v < NPAGES; v++)
            l0_win[as][v] = pte((ureg)pool[backing(as, v)], PTE_R | PTE_W);
    }
    for (unsigned i = 0; i < 8; i++)
        l1_ram[i] = pte(RAM + (i << 21), PTE_R | PTE_W | PTE_X | PTE_A | PTE_D);
}

static uint64_t satp_of(unsigned as)
{
    return (8UL << 60) | ((uint64_t)(as + 1) << 44) | ((ureg)root[as] >> 12);
}
#endif

/* Window page v of address space as: through the MMU on the hart, the
 * backing pool page itself in the host build. */
static volatile uint64_t *page(unsigned as, unsigned v)
{
#ifdef VMHEAVY_HOST
    return pool[backing(as, v)];
#else
    (void)as;
    return (volatile uint64_t *)(WIN + v * 4096UL);
#endif
}

/* Round r in address space as: visit the window pages in stride order. */
static uint64_t touch_round(unsigned r, unsigned as, uint64_t h)
{
    unsigned slot = r % (WORDS - 1);
    for (unsigned k = 0; k < NPAGES; k++) {
        unsigned v = (k * 97u + r) & (NPAGES - 1);
        volatile uint64_t *pg = page(as, v);
        h = (h ^ pg[slot]) * 0x100000001b3ull;
        pg[slot + 1] = h ^ (v + as);
    }
    return h;
}

/* FNV-1a over every pool word, in physical order. */
static uint64_t pool_hash(void)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned p = 0; p < NPAGES; p++)
        for (unsigned w = 0; w < WORDS; w++)
            h = (h ^ pool[p][w]) * 0x100000001b3ull;
    return h;
}

static uint64_t run_rounds(void (*switch_to)(unsigned as))
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned r = 0; r < ROUNDS; r++) {
        unsigned as = r & 1;
        switch_to(as);
        h = touch_round(r, as, h);
        if ((r & (REMAP_EVERY - 1)) == REMAP_EVERY - 1) {
            /* rewrite window page r's entry (the same translation) and fence
             * it: the hart must drop and walk it again */
            unsigned v = r & (NPAGES - 1);
            l0_win[as][v] = pte((ureg)pool[backing(as, v)], PTE_R | PTE_W);
#ifndef VMHEAVY_HOST
            __asm__ volatile("sfence.vma %0, zero" :: "r"(WIN + v * 4096UL) : "memory");
#endif
        }
    }
    return h;
}

#ifdef VMHEAVY_HOST
static void no_switch(unsigned as) { (void)as; }

int main(void)
{
    uint64_t d = run_rounds(no_switch);
    printf("#if NPAGES == %u && ROUNDS == %u\n#define WANT_DIGEST 0x%016llxull\n"
           "#define WANT_POOL 0x%016llxull\n#endif\n", NPAGES, ROUNDS,
           (unsigned long long)d, (unsigned long long)pool_hash());
    return 0;
}
#else
static void satp_switch(unsigned as)
{
    rt_csr_write(satp, satp_of(as));
}

static void s_main(ureg unused)
{
    (void)unused;
    digest = run_rounds(satp_switch);
    __asm__ volatile("ecall" ::: "memory");
    for (;;)
        ;
}

void rt_trap(struct rt_frame *f)
{
    (void)f;
    ureg cause = rt_csr_read(mcause);
    if (cause != 9)
        rt_exit(rt_report("vmheavy unexpected M trap", cause, 0x71));
    int err = rt_expect(digest, WANT_DIGEST, 41);
    if (!err)
        err = rt_expect(pool_hash(), WANT_POOL, 42);
    rt_exit(rt_report("vmheavy", digest, err));
}

int main(void)
{
    build_tables();
    rt_pmp_open();
    rt_csr_write(stvec, (ureg)rt_strap_entry);
    rt_csr_write(satp, satp_of(0));
    __asm__ volatile("sfence.vma" ::: "memory");
    rt_csr_clear(mstatus, RT_MSTATUS_MPP);
    rt_csr_set(mstatus, 1UL << 11);   /* MPP = S */
    rt_mret_to(0, s_main, (ureg)(s_stack + sizeof s_stack));
}
#endif
