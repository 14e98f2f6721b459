/* The board around the hart (docs/hart.md "Board"): a table of memory-
 * mapped devices, one file each (dev_*.c), and the state they keep.
 * RAM takes the inline fast path in hart_int.h; an access outside RAM
 * looks its address up in the board's table (mem.c).  A board is one
 * table (board_virt.c); another board (e.g. Spike's HTIF) is one more
 * table and device file. */
#ifndef RVT_HART_BOARD_H
#define RVT_HART_BOARD_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

struct rvt_hart;

/* One device: [base, base+size).  read/write get the offset in the
 * device and an access of 1, 2, 4 or 8 bytes wholly inside it; a device
 * that rejects an access returns false (access fault, priv 3.6). */
typedef struct hart_dev {
    const char *name;
    uint64_t base, size;
    bool (*read)(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
    bool (*write)(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);
} hart_dev;

typedef struct hart_board {
    const char *name;
    const hart_dev *devs;
    size_t ndevs;
} hart_board;

extern const hart_board hart_board_virt;   /* board_virt.c */

/* QEMU 7.2 virt memory map (hw/riscv/virt.c) */
#define VIRT_TEST_BASE 0x100000ull
#define VIRT_TEST_SIZE 0x1000ull
#define VIRT_CLINT_BASE 0x2000000ull
#define VIRT_CLINT_SIZE 0x10000ull
#define VIRT_PLIC_BASE 0xc000000ull
#define VIRT_PLIC_SIZE 0x600000ull
#define VIRT_UART_BASE 0x10000000ull
#define VIRT_UART_SIZE 0x100ull
#define VIRT_UART_IRQ 10u             /* PLIC source of the UART (virt.h UART0_IRQ) */
#define VIRT_TIMEBASE_HZ 10000000u    /* RISCV_ACLINT_DEFAULT_TIMEBASE_FREQ */
/* rvtrace's Trace Control Interface window (docs/tci.md): a hole in
 * QEMU's virt map, between the UART/virtio/fw_cfg block and the flash */
#define VIRT_TCI_BASE 0x18000000ull

/* PLIC (RISC-V PLIC spec 1.0.0): sources 1..HART_PLIC_NSRC, contexts
 * 2i = hart i M-mode, 2i+1 = hart i S-mode (virt); 3 priority bits as
 * virt.  Room for the most harts a board has (rvtrace/smp.h). */
#define HART_PLIC_NSRC 96u
#define HART_PLIC_WORDS ((HART_PLIC_NSRC + 1 + 31) / 32)
#define HART_PLIC_NCTX 16u
#define HART_PLIC_PRIO_MASK 7u

typedef struct hart_plic {
    uint32_t prio[HART_PLIC_NSRC + 1];
    uint32_t pending[HART_PLIC_WORDS];
    uint32_t claimed[HART_PLIC_WORDS];     /* in service: claimed, not completed */
    uint32_t level[HART_PLIC_WORDS];       /* the sources' interrupt lines */
    uint32_t enable[HART_PLIC_NCTX][HART_PLIC_WORDS];
    uint32_t threshold[HART_PLIC_NCTX];
} hart_plic;

/* NS16550A: receive side fed from cfg.uart_in, one byte at a time when
 * the program waits for it (dev_uart.c). */
typedef struct hart_uart {
    uint8_t ier, lcr, mcr, scr, fcr, dll, dlm;
    bool thr_ip;          /* THR-empty interrupt pending (16550 IIR 0x02) */
    bool rx_full;         /* RBR holds cfg.uart_in[rx_pos] */
    unsigned idle_polls;  /* LSR reads finding no data since the last THR write */
    size_t rx_pos;        /* next byte of cfg.uart_in */
} hart_uart;

/* Shared by every hart of the board (rvtrace/smp.h). */
typedef struct hart_devices {
    hart_plic plic;
    hart_uart uart;
} hart_devices;

/* ---- shared register helpers (mem.c) ---- */
/* [off, off+size) lies inside the little-endian register at reg_off. */
bool hart_reg_in(uint64_t off, unsigned size, uint64_t reg_off, unsigned reg_size);
uint64_t hart_reg_get(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size);
uint64_t hart_reg_put(uint64_t reg, uint64_t off, uint64_t reg_off, unsigned size, uint64_t v);

/* ---- device entry points (dev_*.c) ---- */
bool hart_aclint_read(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
bool hart_aclint_write(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);
bool hart_plic_read(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
bool hart_plic_write(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);
bool hart_uart_read(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
bool hart_uart_write(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);
bool hart_syscon_read(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
bool hart_syscon_write(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);
bool hart_tci_read(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t *v);
bool hart_tci_write(struct rvt_hart *h, uint64_t off, unsigned size, uint64_t v);

/* A source's interrupt line (level-triggered gateway, PLIC spec 5). */
void hart_plic_set_level(struct rvt_hart *h, unsigned src, bool level);
void hart_uart_reset(struct rvt_hart *h);

#endif
