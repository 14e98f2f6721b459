/* QEMU 7.2's virt board as the hart models it (docs/hart.md "Board"). */
#include "hart_int.h"
#include "rvtrace/tci.h"

static const hart_dev virt_devs[] = {
    { "test", VIRT_TEST_BASE, VIRT_TEST_SIZE, hart_syscon_read, hart_syscon_write },
    { "clint", VIRT_CLINT_BASE, VIRT_CLINT_SIZE, hart_aclint_read, hart_aclint_write },
    { "plic", VIRT_PLIC_BASE, VIRT_PLIC_SIZE, hart_plic_read, hart_plic_write },
    { "uart", VIRT_UART_BASE, VIRT_UART_SIZE, hart_uart_read, hart_uart_write },
    { "tci", VIRT_TCI_BASE, RVT_TCI_SIZE, hart_tci_read, hart_tci_write },
};

const hart_board hart_board_virt = { "virt", virt_devs, sizeof virt_devs / sizeof virt_devs[0] };
