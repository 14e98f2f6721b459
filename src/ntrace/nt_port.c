/* Probe port writer (N-Trace 3.3/3.4): bytes go out in words of 1, 2, 4 or
 * 8 bytes, first byte in the least significant position; the last partial
 * word is padded with idle bytes 0xFF. */
#include <stdlib.h>
#include <string.h>
#include "rvtrace/ntrace.h"

#define PORT_BUF 65536

struct rvt_nt_port {
    FILE *f;
    unsigned width;
    size_t n;
    bool err;
    uint8_t buf[PORT_BUF];
};

rvt_nt_port *rvt_nt_port_new(FILE *f, unsigned port_bytes)
{
    if (!f || !port_bytes || port_bytes > 8 || (port_bytes & (port_bytes - 1)))
        return NULL;
    rvt_nt_port *p = calloc(1, sizeof *p);
    if (p) {
        p->f = f;
        p->width = port_bytes;
    }
    return p;
}

static int flush(rvt_nt_port *p, size_t upto)
{
    if (upto && fwrite(p->buf, 1, upto, p->f) != upto)
        p->err = true;
    memmove(p->buf, p->buf + upto, p->n - upto);
    p->n -= upto;
    return p->err ? RVT_ERR_IO : 0;
}

int rvt_nt_port_write(void *port, const uint8_t *bytes, size_t n)
{
    rvt_nt_port *p = port;
    while (n) {
        size_t k = PORT_BUF - p->n < n ? PORT_BUF - p->n : n;
        memcpy(p->buf + p->n, bytes, k);
        p->n += k;
        bytes += k;
        n -= k;
        /* whole words only: the probe transfers width bytes at a time */
        if (p->n == PORT_BUF && flush(p, p->n - p->n % p->width) < 0)
            return RVT_ERR_IO;
    }
    return 0;
}

int rvt_nt_port_close(rvt_nt_port *p)
{
    if (!p)
        return 0;
    while (p->n % p->width)
        p->buf[p->n++] = 0xFF;     /* 3.1: idle padding */
    int st = flush(p, p->n);
    if (fflush(p->f) != 0)
        st = RVT_ERR_IO;
    free(p);
    return st;
}
