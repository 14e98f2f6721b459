/* The virt board's devices (src/hart/dev_*.c) through the device table,
 * as a load/store from the hart reaches them: PLIC (PLIC spec 1.0.0),
 * NS16550A receive side and interrupts, syscon; DTB placement (QEMU 7.2
 * riscv_load_fdt) and a0/a1 at reset.  Expected values are derived from
 * the specs and docs/hart.md, not from the code. */
#include "hart/hart_int.h"
#include "test_hart_util.h"
#include "test_hart_dev.h"

#define PLIC 0x0c000000ull
#define PLIC_PRIO(s) (PLIC + 4ull * (s))
#define PLIC_PENDING (PLIC + 0x1000)
#define PLIC_ENABLE(c) (PLIC + 0x2000 + 0x80ull * (c))
#define PLIC_THRESH(c) (PLIC + 0x200000 + 0x1000ull * (c))
#define PLIC_CLAIM(c) (PLIC_THRESH(c) + 4)
#define UART 0x10000000ull
#define MEIP (1ull << 11)
#define SEIP (1ull << 9)

typedef struct board { rvt_image *img; rvt_hart *h; } board;

static board board_new(const char *input, const void *dtb, size_t dtb_len, uint64_t ram)
{
    static const tinsn loop[] = { I4(0x0000006f) };   /* j . */
    board b = { timage(loop, 1), NULL };
    rvt_hart_cfg cfg = { .xlen = 64, .uart_in = (const uint8_t *)input,
                         .uart_in_len = input ? strlen(input) : 0, .dtb = dtb, .dtb_len = dtb_len,
                         .ram_size = ram };
    int st;
    b.h = rvt_hart_new(&cfg, b.img, &st);
    CHECK(b.h != NULL);
    return b;
}

static void board_free(board *b)
{
    rvt_hart_free(b->h);
    rvt_image_free(b->img);
}

static void test_plic_registers(void)
{
    board b = board_new(NULL, NULL, 0, 0);
    rvt_hart *h = b.h;
    wr(h, PLIC_PRIO(10), 4, 0xffffffff);
    CHECK_EQ(rd(h, PLIC_PRIO(10), 4), 7);          /* 3 priority bits */
    wr(h, PLIC_PRIO(0), 4, 5);
    CHECK_EQ(rd(h, PLIC_PRIO(0), 4), 0);           /* source 0 does not exist */
    wr(h, PLIC_ENABLE(1), 4, 0xffffffff);
    CHECK_EQ(rd(h, PLIC_ENABLE(1), 4), 0xfffffffe);   /* bit 0: source 0 */
    wr(h, PLIC_ENABLE(1) + 12, 4, 0xffffffff);
    CHECK_EQ(rd(h, PLIC_ENABLE(1) + 12, 4), 1);    /* only source 96 in word 3 */
    wr(h, PLIC_THRESH(0), 4, 0x1f);
    CHECK_EQ(rd(h, PLIC_THRESH(0), 4), 7);
    wr(h, PLIC_PENDING, 4, 0xffffffff);
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 0);           /* pending is read-only */
    wr(h, PLIC_THRESH(2), 4, 3);                   /* no context 2: ignored */
    CHECK_EQ(rd(h, PLIC_THRESH(2), 4), 0);
    uint64_t v;
    CHECK_EQ(hart_load_slow(h, PLIC_PRIO(1), 1, &v), CAUSE_LOAD_ACCESS + 1);   /* 32-bit only */
    CHECK_EQ(hart_store_slow(h, PLIC_PRIO(1), 8, 0), CAUSE_STORE_ACCESS + 1);
    CHECK_EQ(hart_load_slow(h, 0x3000000, 4, &v), CAUSE_LOAD_ACCESS + 1);    /* nothing there */
    CHECK_EQ(hart_mip(h) & (MEIP | SEIP), 0);
    board_free(&b);
}

/* Polled input: a byte arrives after 16 empty LSR polls (docs/hart.md). */
static void test_uart_polled(void)
{
    board b = board_new("AB", NULL, 0, 0);
    rvt_hart *h = b.h;
    for (int i = 0; i < 15; i++)
        CHECK_EQ(rd(h, UART + 5, 1), 0x60);        /* THRE | TEMT, no DR */
    CHECK_EQ(rd(h, UART + 5, 1), 0x61);            /* 16th poll: DR */
    CHECK_EQ(rd(h, UART + 5, 1), 0x61);
    CHECK_EQ(rd(h, UART + 0, 1), 'A');
    CHECK_EQ(rd(h, UART + 5, 1), 0x60);
    for (int i = 0; i < 10; i++)
        rd(h, UART + 5, 1);
    wr(h, UART + 0, 1, 'x');                       /* sending: not waiting */
    for (int i = 0; i < 15; i++)
        CHECK_EQ(rd(h, UART + 5, 1), 0x60);
    CHECK_EQ(rd(h, UART + 5, 1), 0x61);
    CHECK_EQ(rd(h, UART + 0, 1), 'B');
    for (int i = 0; i < 40; i++)
        CHECK_EQ(rd(h, UART + 5, 1), 0x60);        /* input exhausted */
    CHECK_EQ(rd(h, UART + 0, 1), 0);
    CHECK_EQ(rd(h, UART + 2, 1), 0x01);            /* IIR: nothing pending */
    CHECK_EQ(hart_mip(h) & (MEIP | SEIP), 0);      /* IER = 0: no interrupt */
    board_free(&b);
}

/* Interrupt-driven input through PLIC source 10 to S-mode (context 1). */
static void test_uart_irq(void)
{
    board b = board_new("ABC", NULL, 0, 0);
    rvt_hart *h = b.h;
    wr(h, PLIC_PRIO(10), 4, 1);
    wr(h, PLIC_ENABLE(1), 4, 1u << 10);
    wr(h, PLIC_THRESH(1), 4, 1);
    wr(h, UART + 1, 1, 0x01);                      /* IER.ERBFI: 'A' arrives */
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 1u << 10);
    CHECK_EQ(hart_mip(h) & SEIP, 0);               /* priority 1 is not > threshold 1 */
    wr(h, PLIC_THRESH(1), 4, 0);
    CHECK_EQ(hart_mip(h) & (MEIP | SEIP), SEIP);   /* context 1 only */
    CHECK_EQ(rd(h, UART + 2, 1), 0x04);            /* IIR: received data */
    CHECK_EQ(rd(h, PLIC_CLAIM(1), 4), 10);
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 0);
    CHECK_EQ(hart_mip(h) & SEIP, 0);               /* in service */
    CHECK_EQ(rd(h, PLIC_CLAIM(1), 4), 0);          /* nothing else */
    wr(h, PLIC_CLAIM(1), 4, 10);                   /* complete, line still high */
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 1u << 10);    /* the gateway forwards again */
    CHECK_EQ(hart_mip(h) & SEIP, SEIP);
    CHECK_EQ(rd(h, UART, 1), 'A');
    CHECK_EQ(hart_mip(h) & SEIP, SEIP);            /* 'B' arrived at once */
    CHECK_EQ(rd(h, UART, 1), 'B');
    CHECK_EQ(rd(h, UART, 1), 'C');
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 0);           /* line low: no longer pending */
    CHECK_EQ(hart_mip(h) & SEIP, 0);
    board_free(&b);
}

static void test_plic_complete_rules(void)
{
    board b = board_new("AB", NULL, 0, 0);
    rvt_hart *h = b.h;
    wr(h, PLIC_PRIO(10), 4, 2);
    wr(h, PLIC_ENABLE(0), 4, 1u << 10);
    wr(h, UART + 1, 1, 0x01);
    CHECK_EQ(hart_mip(h) & (MEIP | SEIP), MEIP);   /* context 0: M-mode */
    CHECK_EQ(rd(h, PLIC_CLAIM(0), 4), 10);
    wr(h, PLIC_ENABLE(0), 4, 0);
    wr(h, PLIC_CLAIM(0), 4, 10);                   /* not enabled: ignored */
    wr(h, PLIC_ENABLE(0), 4, 1u << 10);
    CHECK_EQ(hart_mip(h) & MEIP, 0);               /* still in service */
    wr(h, PLIC_CLAIM(0), 4, 10);
    CHECK_EQ(hart_mip(h) & MEIP, MEIP);
    wr(h, PLIC_CLAIM(0), 4, 0);                    /* source 0: ignored */
    wr(h, PLIC_CLAIM(0), 4, 1000);                 /* no such source */
    CHECK_EQ(hart_mip(h) & MEIP, MEIP);
    board_free(&b);
}

static void test_uart_thre(void)
{
    board b = board_new(NULL, NULL, 0, 0);
    rvt_hart *h = b.h;
    wr(h, UART + 2, 1, 0x01);                      /* FCR: FIFOs on */
    CHECK_EQ(rd(h, UART + 2, 1), 0xc1);
    wr(h, UART + 1, 1, 0x02);                      /* IER.ETBEI with THR empty */
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 1u << 10);
    CHECK_EQ(rd(h, UART + 2, 1), 0xc2);            /* IIR: THR empty ... */
    CHECK_EQ(rd(h, UART + 2, 1), 0xc1);            /* ... cleared by reading IIR */
    CHECK_EQ(rd(h, PLIC_PENDING, 4), 0);
    wr(h, UART + 3, 1, 0x83);                      /* DLAB: divisor latch */
    wr(h, UART + 0, 1, 0x12);
    wr(h, UART + 1, 1, 0x34);
    CHECK_EQ(rd(h, UART + 0, 1), 0x12);
    CHECK_EQ(rd(h, UART + 1, 1), 0x34);
    wr(h, UART + 3, 1, 0x03);
    CHECK_EQ(rd(h, UART + 1, 1), 0x02);            /* IER back */
    CHECK_EQ(rd(h, UART + 6, 1), 0xb0);            /* MSR: DCD DSR CTS */
    board_free(&b);
}

static void test_syscon(void)
{
    board b = board_new(NULL, NULL, 0, 0);
    wr(b.h, 0x100000, 4, 0x1234);                  /* not a command: ignored */
    CHECK(!rvt_hart_exited(b.h));
    wr(b.h, 0x100000, 4, (7u << 16) | 0x3333);
    CHECK(rvt_hart_exited(b.h));
    CHECK_EQ(rvt_hart_exit_code(b.h), 7);
    board_free(&b);
}

/* QEMU 7.2 riscv_load_fdt: 2 MiB-aligned, below min(RAM end, 3 GiB). */
static void test_dtb_addr(void)
{
    rvt_hart_cfg c = { 0 };
    CHECK_EQ(rvt_hart_dtb_addr(&c, 0x1000), 0x87e00000);   /* 128 MiB default */
    c.ram_size = 64ull << 20;
    CHECK_EQ(rvt_hart_dtb_addr(&c, 0x1000), 0x83e00000);
    c.ram_size = 4ull << 30;
    CHECK_EQ(rvt_hart_dtb_addr(&c, 0x1000), 0xbfe00000);    /* 3 GiB limit */
    c.ram_size = 1ull << 20;
    CHECK_EQ(rvt_hart_dtb_addr(&c, 0x1000), 0x80000000);
    CHECK_EQ(rvt_hart_dtb_addr(&c, 2ull << 20), 0);         /* does not fit */
}

static void test_dtb_boot(void)
{
    rvt_hart_cfg cfg = { .xlen = 64 };
    uint8_t *dtb = NULL;
    size_t len = 0;
    rvt_hart_dtb_opts opt = { "console=ttyS0", 0, 0 };
    CHECK_EQ(rvt_hart_dtb_build(&cfg, 64, &opt, &dtb, &len), 0);
    CHECK(len > 64 && len < 0x10000);
    static const uint8_t magic[4] = { 0xd0, 0x0d, 0xfe, 0xed };   /* DT spec 5.2 */
    CHECK_MEM(dtb, magic, 4);
    board b = board_new(NULL, dtb, len, 0);
    CHECK_EQ(rvt_hart_reg(b.h, 10), 0);            /* a0 = hartid */
    CHECK_EQ(rvt_hart_reg(b.h, 11), 0x87e00000);   /* a1 = the DTB */
    uint8_t got[4];
    CHECK_EQ(rvt_hart_tv_mem_read(b.h, 0x87e00000, got, 4), 0);
    CHECK_MEM(got, magic, 4);
    board_free(&b);
    board n = board_new(NULL, NULL, 0, 0);
    CHECK_EQ(rvt_hart_reg(n.h, 11), 0);            /* no DTB: a1 = 0 */
    board_free(&n);
    free(dtb);
    CHECK_EQ(rvt_hart_dtb_build(&cfg, 16, &opt, &dtb, &len), RVT_ERR_INVAL);
}

/* Hostile register traffic (docs/hart.md: never a host crash): every
 * size at offsets across and just past each device, random values; the
 * hart keeps answering and the PLIC's line matches its registers. */
static void test_hostile(void)
{
    static const uint64_t bases[][2] = { { 0x100000, 0x1000 }, { 0x2000000, 0x10000 },
                                         { PLIC, 0x600000 }, { UART, 0x100 } };
    board b = board_new("xyz", NULL, 0, 0);
    rvt_hart *h = b.h;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        const uint64_t *d = bases[x % 4];
        if (d[0] == 0x100000 && ((x >> 8) & 0xffff) < 0x100)
            continue;                              /* keep the finisher out of it */
        unsigned size = 1u << ((x >> 3) % 4);
        uint64_t off = (x >> 16) % (d[1] + 16);
        if (d[0] == PLIC)
            off = (x & (1ull << 40)) ? (x >> 16) % 0x3000 : 0x200000 + (x >> 16) % 0x3000;
        uint64_t v;
        if (x & 1)
            hart_store_slow(h, d[0] + (off & ~(uint64_t)(size - 1)), size, x >> 5);
        else
            hart_load_slow(h, d[0] + (off & ~(uint64_t)(size - 1)), size, &v);
    }
    CHECK(!rvt_hart_exited(h));
    for (unsigned c = 0; c < 2; c++)
        wr(h, PLIC_THRESH(c), 4, 7);               /* nothing beats threshold 7 */
    CHECK_EQ(hart_mip(h) & (MEIP | SEIP), 0);
    board_free(&b);
}

/* priv 3.1.9: mip.SEIP reads as the software bit OR the PLIC's line, but
 * a csrrc/csrrs of mip uses only the software bit: clearing STIP while the
 * PLIC's S-context line is up must not latch SEIP. */
static void test_seip_rmw(void)
{
    static const tinsn prog[] = {
        I4(0x02000293),   /* li    t0, 0x20 (STIP) */
        I4(0x3442b073),   /* csrc  mip, t0 */
        I4(0x0000006f),   /* j     . */
    };
    rvt_image *img = timage(prog, NINSN(prog));
    rvt_hart_cfg cfg = { .xlen = 64, .uart_in = (const uint8_t *)"A", .uart_in_len = 1 };
    int st;
    rvt_hart *h = rvt_hart_new(&cfg, img, &st);
    CHECK(h != NULL);
    wr(h, PLIC_PRIO(10), 4, 1);
    wr(h, PLIC_ENABLE(1), 4, 1u << 10);
    wr(h, UART + 1, 1, 0x01);                      /* 'A' arrives: line up */
    CHECK_EQ(hart_mip(h) & SEIP, SEIP);
    CHECK_EQ(rvt_hart_run(h, 2), RVT_HART_STEP_LIMIT);
    CHECK_EQ(rd(h, UART, 1), 'A');                 /* line down */
    CHECK_EQ(hart_mip(h) & SEIP, 0);               /* nothing latched */
    rvt_hart_free(h);
    rvt_image_free(img);
}

int main(void)
{
    test_plic_registers();
    test_uart_polled();
    test_uart_irq();
    test_plic_complete_rules();
    test_uart_thre();
    test_syscon();
    test_dtb_addr();
    test_dtb_boot();
    test_hostile();
    test_seip_rmw();
    return TH_DONE();
}
