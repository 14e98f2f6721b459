/* Timestamps in the packets of the encoder behind a TCI Trace Encoder
 * (src/tci/te_etrace.c, ts_unit.c).  TCI 1.0 "Timestamp Unit": trTsControl
 * at +0x40 of the encoder (Active bit 0, Count 1, Mode 6:4 = 3 Internal
 * Core, trTsEnable 15 "for Trace Encoder only"); trTsWidth 48, so
 * Encapsulation 1.0 2.1.1 gives T = 6 timestamp bytes, present when
 * header.extend (bit 7) is 1, after the header and the srcID (0 bytes
 * here), LSB first; packet length = 1 + S + T * extend + header.length
 * (2.1.5).  The clock is the hart's cycle count (rvt_irec.time): the
 * counter, started at time 0, holds the time of the block that made a
 * packet. */
#include "tharness.h"
#include "rvtrace/tci.h"
#include "rvtrace/etrace.h"

#define TE RVT_TCI_TE(0)
#define TS (TE + 0x40)
#define TS_ON (1u | 1u << 1 | 3u << 4)          /* Active, Count, Internal Core */
#define TS_ENABLE (1u << 15)

static rvt_irec block(unsigned i, uint64_t time)
{
    rvt_irec r = { .iaddr = 0x80000000u + 8u * i, .iretire = 4, .ninstr = 2, .ilastsize = 1,
                   .priv = 3, .time = time };
    return r;
}

/* The packets in the SRAM (from 0 to trRamWP): their timestamps into
 * ts[] (UINT64_MAX for a packet without one); returns the count, or -1
 * when the packets do not end at trRamWP. */
static int packets(rvt_tci *t, uint64_t *ts, int max)
{
    rvt_sink_state s;
    const uint8_t *m = NULL;
    CHECK_EQ(rvt_tci_ram_state(t, &s, &m), 0);
    int n = 0;
    uint64_t at = 0;
    while (at < s.wp && n < max) {
        uint8_t h = m[at];
        unsigned len = h & 31u, ext = h >> 7;
        if (len == 0) {           /* null.idle / null.alignment */
            at++;
            continue;
        }
        uint64_t v = UINT64_MAX;
        if (ext) {
            v = 0;
            for (unsigned b = 0; b < 6; b++)
                v |= (uint64_t)m[at + 1 + b] << 8 * b;
        }
        ts[n++] = v;
        at += 1 + 6 * ext + len;
    }
    return at == s.wp ? n : -1;
}

static void enable_path(rvt_tci *t)
{
    rvt_tci_write(t, RVT_TCI_RAM, 1);
    rvt_tci_write(t, RVT_TCI_RAM, 3);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 1);
    rvt_tci_write(t, RVT_TCI_FUNNEL, 3);
    rvt_tci_write(t, TE, 1);
}

/* Blocks at times 100 and 150 traced, tracing stopped by a write: the
 * first packet (te_inst sync, made by the block at 100) carries 100, the
 * last (the encoder's end, made at the stop with the clock at 150) 150. */
static void stamped(bool enable)
{
    rvt_tci_cfg c = { .nharts = 1, .sram_size = 4096 };
    rvt_tci *t = rvt_tci_new(&c, NULL);
    rvt_te_attrs a;
    rvt_te_attrs_default(&a);
    rvt_tci_te *e = rvt_tci_te_new(t, 0, &a, NULL);
    rvt_irec_sink k = rvt_tci_te_sink(e);
    enable_path(t);
    rvt_tci_write(t, TS, 1);                            /* release the unit */
    rvt_tci_write(t, TS, TS_ON | (enable ? TS_ENABLE : 0));
    uint32_t v;
    rvt_tci_read(t, TS, &v);
    CHECK_EQ(v & 0x80ffu, TS_ON | (enable ? TS_ENABLE : 0));
    uint32_t ctl;
    rvt_tci_read(t, TE, &ctl);
    ctl = (ctl & ~RVT_TCI_EMPTY) | RVT_TCI_ENABLE;
    rvt_tci_write(t, TE, ctl);
    rvt_tci_write(t, TE, ctl | RVT_TCI_TE_INST_TRACING);
    rvt_irec r = block(0, 100);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    rvt_tci_read(t, TS + 8, &v);
    CHECK_EQ(v, 100);                                   /* trTsCounterLow */
    r = block(1, 150);
    CHECK_EQ(k.put(k.ctx, &r, 1), 0);
    rvt_tci_write(t, TE, ctl);                          /* trTeInstTracing 0: end */
    rvt_tci_write(t, RVT_TCI_FUNNEL, 1);
    rvt_tci_write(t, RVT_TCI_RAM, 1);                   /* flush the last word (null.idle) */
    uint64_t ts[64];
    int n = packets(t, ts, 64);
    CHECK(n >= 2);
    if (n >= 2) {
        CHECK_EQ(ts[0], enable ? 100 : UINT64_MAX);
        CHECK_EQ(ts[n - 1], enable ? 150 : UINT64_MAX);
    }
    CHECK_EQ(rvt_tci_te_container(e)->ts_bytes, enable ? 6 : 0);
    rvt_tci_te_free(e);
    rvt_tci_free(t);
}

/* trTsEnable is the encoder's: the funnel's unit keeps it 0 (WARL) */
static void funnel_no_enable(void)
{
    rvt_tci_cfg c = { .nharts = 1, .sram_size = 4096 };
    rvt_tci *t = rvt_tci_new(&c, NULL);
    enable_path(t);
    rvt_tci_write(t, RVT_TCI_FUNNEL + 0x40, 1);
    rvt_tci_write(t, RVT_TCI_FUNNEL + 0x40, 1u | 1u << 1 | 2u << 4 | TS_ENABLE);
    uint32_t v;
    rvt_tci_read(t, RVT_TCI_FUNNEL + 0x40, &v);
    CHECK_EQ(v & 0x80ffu, 1u | 1u << 1 | 2u << 4);
    rvt_tci_free(t);
}

int main(void)
{
    stamped(true);
    stamped(false);
    funnel_no_enable();
    return TH_DONE();
}
