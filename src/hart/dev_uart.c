/* NS16550A UART at 0x10000000 (QEMU hw/char/serial.c, reg-shift 0),
 * interrupt on PLIC source 10.  Transmit: THR bytes go to cfg.console at
 * once, so the transmitter is always empty.  Receive: cfg.uart_in is what
 * a user types, one byte in RBR at a time, and the next byte arrives only
 * while the program waits for input -- it polls LSR finding no data
 * RX_IDLE_POLLS times with nothing sent in between, or has the receive
 * interrupt enabled.  Typing ahead would let code that peeks at the line
 * while busy (U-Boot's ctrlc() during a command) eat the input; this
 * timing is deterministic and loses nothing.  docs/hart.md lists the
 * registers. */
#include "hart_int.h"

enum { REG_RBR = 0, REG_IER = 1, REG_IIR = 2, REG_LCR = 3, REG_MCR = 4, REG_LSR = 5,
       REG_MSR = 6, REG_SCR = 7 };
#define LCR_DLAB 0x80u
#define LSR_DR 0x01u
#define LSR_THRE 0x20u
#define LSR_TEMT 0x40u
#define IER_RDI 0x01u
#define IER_THRI 0x02u
#define IIR_NONE 0x01u
#define IIR_THRI 0x02u
#define IIR_RDI 0x04u
#define IIR_FIFO 0xc0u          /* FIFOs enabled (FCR bit 0) */
#define MSR_IDLE 0xb0u          /* DCD, DSR, CTS: QEMU's line with no modem */

#define RX_IDLE_POLLS 16

static bool rx_ready(const rvt_hart *h)
{
    return h->dev->uart.rx_full;
}

/* The next input byte reaches RBR (if there is one). */
static void rx_arrive(rvt_hart *h)
{
    hart_uart *u = &h->dev->uart;
    if (!u->rx_full && u->rx_pos < h->cfg.uart_in_len)
        u->rx_full = true;
    u->idle_polls = 0;
}

/* 16550 interrupt identification, highest priority first (received data,
 * then THR empty); line-status and modem-status interrupts never occur. */
static unsigned iir_id(const rvt_hart *h)
{
    const hart_uart *u = &h->dev->uart;
    if ((u->ier & IER_RDI) && rx_ready(h))
        return IIR_RDI;
    if ((u->ier & IER_THRI) && u->thr_ip)
        return IIR_THRI;
    return IIR_NONE;
}

static void irq_update(rvt_hart *h)
{
    hart_plic_set_level(h, VIRT_UART_IRQ, iir_id(h) != IIR_NONE);
}

void hart_uart_reset(rvt_hart *h)
{
    h->dev->uart = (hart_uart){ 0 };
    irq_update(h);
}

static uint8_t rx_pop(rvt_hart *h)
{
    hart_uart *u = &h->dev->uart;
    if (!u->rx_full)
        return 0;
    uint8_t b = h->cfg.uart_in[u->rx_pos++];
    u->rx_full = false;
    if (u->ier & IER_RDI)       /* an interrupt-driven reader takes the next one */
        rx_arrive(h);
    irq_update(h);
    return b;
}

static uint8_t lsr_read(rvt_hart *h)
{
    hart_uart *u = &h->dev->uart;
    if (!u->rx_full && ++u->idle_polls >= RX_IDLE_POLLS) {
        rx_arrive(h);
        irq_update(h);
    }
    return (uint8_t)(LSR_THRE | LSR_TEMT | (u->rx_full ? LSR_DR : 0));
}

static uint8_t read8(rvt_hart *h, unsigned reg)
{
    hart_uart *u = &h->dev->uart;
    bool dlab = u->lcr & LCR_DLAB;
    switch (reg) {
    case REG_RBR: return dlab ? u->dll : rx_pop(h);
    case REG_IER: return dlab ? u->dlm : u->ier;
    case REG_IIR: {
        unsigned id = iir_id(h);
        if (id == IIR_THRI) {     /* reading IIR clears a THRE interrupt */
            u->thr_ip = false;
            irq_update(h);
        }
        return (uint8_t)(id | ((u->fcr & 1) ? IIR_FIFO : 0));
    }
    case REG_LCR: return u->lcr;
    case REG_MCR: return u->mcr;
    case REG_LSR: return lsr_read(h);
    case REG_MSR: return MSR_IDLE;
    default: return u->scr;
    }
}

static void thr_write(rvt_hart *h, uint8_t b)
{
    char c = (char)b;
    if (h->cfg.console)
        h->cfg.console(h->cfg.console_ctx, &c, 1);
    h->dev->uart.thr_ip = true;   /* sent at once: THR is empty again */
    h->dev->uart.idle_polls = 0;   /* busy, not waiting for input */
}

static void write8(rvt_hart *h, unsigned reg, uint8_t b)
{
    hart_uart *u = &h->dev->uart;
    bool dlab = u->lcr & LCR_DLAB;
    switch (reg) {
    case REG_RBR:
        if (dlab)
            u->dll = b;
        else
            thr_write(h, b);
        break;
    case REG_IER:
        if (dlab) {
            u->dlm = b;
        } else {
            /* 16550: enabling the THRE interrupt with THR empty raises it */
            if ((b & IER_THRI) && !(u->ier & IER_THRI))
                u->thr_ip = true;
            u->ier = b & 0x0f;
            if (u->ier & IER_RDI)
                rx_arrive(h);
        }
        break;
    case REG_IIR:
        u->fcr = b & 0xc9;   /* FCR; the reset bits 1-2 self-clear and drop no input */
        break;
    case REG_LCR: u->lcr = b; break;
    case REG_MCR: u->mcr = b & 0x1f; break;
    case REG_SCR: u->scr = b; break;
    default: break;       /* LSR, MSR: read-only */
    }
    irq_update(h);
}

/* Wider accesses are split into bytes, as QEMU's 8-bit register file. */
bool hart_uart_read(rvt_hart *h, uint64_t off, unsigned size, uint64_t *v)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < size; i++)
        r |= (uint64_t)read8(h, (unsigned)(off + i) & 7) << (8 * i);
    *v = r;
    return true;
}

bool hart_uart_write(rvt_hart *h, uint64_t off, unsigned size, uint64_t v)
{
    for (unsigned i = 0; i < size; i++)
        write8(h, (unsigned)(off + i) & 7, (uint8_t)(v >> (8 * i)));
    return true;
}
