/* The Trace Control Interface model's registers (src/tci; TCI 1.0).
 * Expected values from the spec's register tables, worked out here:
 *   tr??Impl = VerMajor 1 (3:0) | VerMinor 0 (7:4) | CompType (11:8):
 *     encoder type 1, protocol E-Trace 2.0 in 19:16/23:20 -> 0x00020101,
 *     funnel 8 -> 0x801, RAM sink 9 + HasSRAM (12) + HasSMEM (13) -> 0x3901,
 *     PIB 0xA -> 0xA01;
 *   tr??Control at power-up: Active 0, Enable 0, Empty (3) reset 1 -> 0x8. */
#include "tharness.h"
#include "rvtrace/tci.h"

#define TE0 RVT_TCI_TE(0)
#define TE1 RVT_TCI_TE(1)
#define FUN RVT_TCI_FUNNEL
#define RAM RVT_TCI_RAM
#define PIB RVT_TCI_PIB
#define SMEM 0x80100000ull

static uint8_t bus[0x1000];          /* the system memory the sink may write */
static uint8_t pins[256];
static size_t npins;

static bool mem_write(void *ctx, uint64_t addr, const uint8_t w[4])
{
    (void)ctx;
    if (addr < SMEM || addr + 4 > SMEM + sizeof bus)
        return false;
    memcpy(bus + (addr - SMEM), w, 4);
    return true;
}

static int pib_out(void *ctx, const uint8_t *b, size_t n)
{
    (void)ctx;
    for (size_t i = 0; i < n && npins < sizeof pins; i++)
        pins[npins++] = b[i];
    return 0;
}

static rvt_tci *model(uint32_t sram, uint64_t smem_size)
{
    rvt_tci_cfg c = { .nharts = 2, .data_trace = true, .sram_size = sram, .smem_base = SMEM,
                      .smem_size = smem_size, .mem_write = mem_write, .pib_out = pib_out };
    int st;
    rvt_tci *t = rvt_tci_new(&c, &st);
    CHECK(t != NULL);
    return t;
}

static uint32_t rd(rvt_tci *t, uint64_t off)
{
    uint32_t v = 0xdeadbeef;
    CHECK(rvt_tci_read(t, off, &v));
    return v;
}

static void wr(rvt_tci *t, uint64_t off, uint32_t v)
{
    CHECK(rvt_tci_write(t, off, v));
}

static void reset_and_discovery(void)
{
    rvt_tci *t = model(64, sizeof bus);
    CHECK_EQ(rd(t, TE0), 0x8);
    CHECK_EQ(rd(t, FUN), 0x8);
    CHECK_EQ(rd(t, RAM), 0x8);
    CHECK_EQ(rd(t, PIB), 0x8);
    CHECK_EQ(rd(t, TE0 + 4), 0x00020101);
    CHECK_EQ(rd(t, FUN + 4), 0x801);
    CHECK_EQ(rd(t, RAM + 4), 0x3901);
    CHECK_EQ(rd(t, PIB + 4), 0xA01);
    /* write 0x1: released, defaults: trTeInstMode 6 (6:4), trTeInstSyncMode 3
     * (17:16), trTeInstSyncMax 12 (23:20), trTeFormat 0 -> 0x00C30061 | Empty */
    wr(t, TE0, 0x1);
    CHECK_EQ(rd(t, TE0), 0x00C30069);
    /* Enable is not taken with the releasing write (reset first) */
    wr(t, TE1, 0x3);
    CHECK_EQ(rd(t, TE1) & 3, 1);
    /* reserved and unimplemented registers read 0, writes ignored */
    wr(t, TE0 + 0x20, 0xffffffff);
    CHECK_EQ(rd(t, TE0 + 0x20), 0);
    CHECK_EQ(rd(t, TE0 + 0x400), 0);        /* no filters */
    CHECK_EQ(rd(t, RVT_TCI_TE(5)), 0);      /* no hart 5 */
    /* accesses the window does not have */
    uint32_t v;
    CHECK(!rvt_tci_read(t, TE0 + 2, &v));
    CHECK(!rvt_tci_read(t, RVT_TCI_SIZE, &v));
    CHECK(!rvt_tci_write(t, RVT_TCI_SIZE + 4, 1));
    /* Active 0 resets the encoder: Enable goes with it */
    wr(t, TE0, 0x3);
    CHECK_EQ(rd(t, TE0) & 3, 3);
    wr(t, TE0, 0x2);
    CHECK_EQ(rd(t, TE0), 0x8);
    rvt_tci_free(t);
}

static void encoder_warl(void)
{
    rvt_tci *t = model(64, 0);
    wr(t, TE0, 0x1);
    uint32_t base = rd(t, TE0) & ~0x8u;
    wr(t, TE0, (base & ~0x70u) | 3u << 4);      /* mode 3 not there: 6, never 0 */
    CHECK_EQ(rd(t, TE0) >> 4 & 7, 6);
    wr(t, TE0, base & ~0x70u);                  /* 0 is legal */
    CHECK_EQ(rd(t, TE0) >> 4 & 7, 0);
    wr(t, TE0, base | 2u << 24);                /* trTeFormat 2 reserved: keeps 0 */
    CHECK_EQ(rd(t, TE0) >> 24 & 7, 0);
    wr(t, TE0, base | 1u << 24);                /* N-Trace: protocol 1.0 */
    CHECK_EQ(rd(t, TE0) >> 24 & 7, 1);
    CHECK_EQ(rd(t, TE0 + 4), 0x00010101);
    wr(t, TE0, (base & ~0x30000u) | 2u << 16);  /* sync by cycles: not there, keeps 3 */
    CHECK_EQ(rd(t, TE0) >> 16 & 3, 3);
    wr(t, TE0, base | 1u << 13);                /* trTeInstStallEna: no stalls, 0 */
    CHECK_EQ(rd(t, TE0) >> 13 & 1, 0);
    /* trTeInstFeatures: bits 0, 2, 3, trTeSrcID 27:16, trTeSrcBits 31:28 <= 12 */
    wr(t, TE0 + 8, 0xffffffff);
    CHECK_EQ(rd(t, TE0 + 8), 0xCFFF000D);
    wr(t, TE0 + 8, 0x5 << 28 | 0x123 << 16);
    CHECK_EQ(rd(t, TE0 + 8), 0x51230000);
    /* trTeDataControl: Implemented (RO 1); AddrCompress 3 keeps the field */
    wr(t, TE0 + 0x10, 0x2 | 1u << 18);
    CHECK_EQ(rd(t, TE0 + 0x10), 0x3 | 1u << 18);
    wr(t, TE0 + 0x10, 0x2 | 3u << 18);
    CHECK_EQ(rd(t, TE0 + 0x10), 0x3 | 1u << 18);
    /* trTeTrigExtInControl: inputs 0 and 1, actions 0/2/3/4 */
    wr(t, TE0 + 0x54, 0x77777742);
    CHECK_EQ(rd(t, TE0 + 0x54), 0x42);
    wr(t, TE0 + 0x54, 0x51);                    /* 5 and 1 reserved: kept */
    CHECK_EQ(rd(t, TE0 + 0x54), 0x42);
    /* trTeInstStallOrOverflow: RW1C, cleared by enabling */
    wr(t, TE0, base | 0x2);
    wr(t, FUN, 0x1);                            /* the funnel is not enabled: lost */
    uint8_t b[4] = { 1, 2, 3, 4 };
    CHECK_EQ(rvt_tci_put(t, 0, b, 4), 0);
    CHECK(rd(t, TE0) & (1u << 12));
    wr(t, TE0, (rd(t, TE0) & ~(1u << 12) & ~0x8u));   /* writing 0 keeps it */
    CHECK(rd(t, TE0) & (1u << 12));
    wr(t, TE0, rd(t, TE0) & ~0x8u);                    /* writing 1 clears */
    CHECK_EQ(rd(t, TE0) >> 12 & 1, 0);
    rvt_tci_free(t);
}

/* Program as "Enabling and Disabling" says: sink, funnel, then encoder. */
static void enable_path(rvt_tci *t, uint32_t ram_ctl)
{
    wr(t, RAM, 0x1);
    wr(t, RAM, ram_ctl);
    wr(t, RAM, ram_ctl | 0x2);
    wr(t, FUN, 0x1);
    wr(t, FUN, 0x3);
    wr(t, TE0, 0x1);
    wr(t, TE0, (rd(t, TE0) & ~0x8u) | 0x2);
    wr(t, TE0, (rd(t, TE0) & ~0x8u) | 0x4);
}

static void smem_sink(void)
{
    rvt_tci *t = model(0, sizeof bus);
    wr(t, RAM, 0x1);
    /* SMEM only: trRamMode tied to 1; the whole memory at reset */
    CHECK_EQ(rd(t, RAM) & 0x10, 0x10);
    CHECK_EQ(rd(t, RAM + 0x10), 0x80100000);
    CHECK_EQ(rd(t, RAM + 0x18), 0x80100FFC);
    /* detection: 0 gives the lowest value, 0xFFFFFFFF the highest */
    wr(t, RAM + 0x10, 0);
    CHECK_EQ(rd(t, RAM + 0x10), 0x80100000);
    wr(t, RAM + 0x14, 0xffffffff);              /* the highest start: the last word */
    CHECK_EQ(rd(t, RAM + 0x14), 0);             /* trRamStartHigh: nothing above 4 GiB */
    CHECK_EQ(rd(t, RAM + 0x10), 0x80100FFC);
    wr(t, RAM + 0x10, 0);                       /* back to the lowest */
    wr(t, RAM + 0x18, 0xffffffff);
    CHECK_EQ(rd(t, RAM + 0x18), 0x80100FFC);
    /* trRamRP not settable in SMEM mode: read the memory */
    wr(t, RAM + 0x28, 0x80100ffc);
    CHECK_EQ(rd(t, RAM + 0x28), 0);
    /* a 64-byte ring: start 0x80100000, limit 0x8010003C, WP = start */
    wr(t, RAM + 0x18, 0x8010003C);
    wr(t, RAM + 0x20, 0x80100000);
    enable_path(t, 0x11);
    CHECK(rvt_tci_tracing(t, 0));
    uint8_t b[70];
    for (unsigned i = 0; i < sizeof b; i++)
        b[i] = (uint8_t)(i + 1);
    CHECK_EQ(rvt_tci_put(t, 0, b, 70), 70);
    /* 17 words written: 16 fill the ring (WP back at start, wrap set),
     * the 17th at offset 0; bytes 69, 70 wait in the sink (Empty 0) */
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100005);
    CHECK_EQ(rd(t, RAM) & 0x8, 0);
    CHECK_EQ(bus[0], 65);
    CHECK_EQ(bus[4], 5);
    /* writes to the pointers are ignored while enabled */
    wr(t, RAM + 0x20, 0x80100010);
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100005);
    /* disabling: encoder, funnel, sink; the sink flushes with idle bytes */
    wr(t, TE0, rd(t, TE0) & ~0xAu);
    wr(t, FUN, 0x1);
    wr(t, RAM, 0x11);
    CHECK_EQ(rd(t, RAM) & 0xA, 0x8);
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100009);
    uint8_t want[4] = { 69, 70, 0, 0 };
    CHECK_MEM(bus + 4, want, 4);
    rvt_sink_state s;
    const uint8_t *sram = (const uint8_t *)1;
    CHECK_EQ(rvt_tci_ram_state(t, &s, &sram), 0);
    CHECK(sram == NULL);
    CHECK_EQ(s.start, 0x80100000);
    CHECK_EQ(s.limit, 0x8010003C);
    CHECK_EQ(s.wp, 0x80100008);
    CHECK(s.wrap && !s.stop_on_wrap);
    CHECK_EQ(rvt_sink_size(&s), 64);
    /* writing trRamWPLow clears the wrap bit */
    wr(t, RAM + 0x20, 0x80100000);
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100000);
    rvt_tci_free(t);
}

/* trRamStopOnWrap: the sink disables itself after the word at trRamLimit;
 * what comes later is lost (the encoder's overflow bit). */
static void stop_on_wrap(void)
{
    rvt_tci *t = model(0, sizeof bus);
    wr(t, RAM, 0x1);
    wr(t, RAM + 0x18, 0x8010003C);
    enable_path(t, 0x111);
    uint8_t b[70];
    memset(b, 0x5a, sizeof b);
    CHECK_EQ(rvt_tci_put(t, 0, b, 70), 64);
    CHECK_EQ(rd(t, RAM) & 0x2, 0);
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100001);
    CHECK(rd(t, TE0) & (1u << 12));
    rvt_sink_state s;
    CHECK_EQ(rvt_tci_ram_state(t, &s, NULL), 0);
    CHECK(s.wrap && s.stop_on_wrap);
    CHECK_EQ(s.wp, s.start);
    rvt_tci_free(t);
}

/* SRAM mode: trRamStart 0, trRamLimit the SRAM's last word, read back
 * through trRamRP / trRamData (32-bit words, LSB first). */
static void sram_sink(void)
{
    rvt_tci *t = model(64, 0);
    wr(t, RAM, 0x1);
    CHECK_EQ(rd(t, RAM + 4), 0x1901);
    CHECK_EQ(rd(t, RAM) & 0x10, 0);
    wr(t, RAM + 0x10, 0x40);                    /* trRamStart fixed at 0 */
    CHECK_EQ(rd(t, RAM + 0x10), 0);
    CHECK_EQ(rd(t, RAM + 0x18), 0x3C);
    wr(t, RAM + 0x28, 0x3C);                    /* RP settable: use trRamData */
    CHECK_EQ(rd(t, RAM + 0x28), 0x3C);
    wr(t, RAM, 0x11);                           /* SMEM not there: stays SRAM */
    CHECK_EQ(rd(t, RAM) & 0x10, 0);
    enable_path(t, 0x1);
    uint8_t b[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
    CHECK_EQ(rvt_tci_put(t, 0, b, 8), 8);
    wr(t, RAM + 0x28, 0);
    CHECK_EQ(rd(t, RAM + 0x40), 0x44332211);
    CHECK_EQ(rd(t, RAM + 0x40), 0x88776655);
    CHECK_EQ(rd(t, RAM + 0x28), 8);
    wr(t, RAM + 0x28, 0x3C);                    /* after the word at limit: start */
    rd(t, RAM + 0x40);
    CHECK_EQ(rd(t, RAM + 0x28), 0);
    rvt_tci_free(t);
}

static void funnel_and_pib(void)
{
    rvt_tci *t = model(64, 0);
    wr(t, FUN, 0x1);
    wr(t, FUN + 8, 0xffff);                     /* two inputs */
    CHECK_EQ(rd(t, FUN + 8), 0x3);
    wr(t, FUN + 8, 0x1);
    wr(t, PIB, 0x1);
    CHECK_EQ(rd(t, PIB) >> 16, 0xF);            /* a slow divider after reset */
    wr(t, PIB, 0x1 | 4u << 4);                  /* Manchester not there: keeps Off */
    CHECK_EQ(rd(t, PIB) >> 4 & 0xF, 0);
    wr(t, PIB, 0x1 | 5u << 4 | 1u << 8);        /* UART: no clock centring */
    CHECK_EQ(rd(t, PIB) & 0x1F0, 5u << 4);
    wr(t, PIB, 0x3 | 10u << 4 | 1u << 8 | 3u << 16);
    CHECK_EQ(rd(t, PIB), 0x3 | 0x8 | 10u << 4 | 1u << 8 | 3u << 16);
    wr(t, FUN, 0x3);
    wr(t, TE0, 0x1);
    wr(t, TE0, 0x3);
    wr(t, TE1, 0x1);
    wr(t, TE1, 0x3);
    uint8_t a[2] = { 0xa0, 0xa1 }, c[2] = { 0xb0, 0xb1 };
    npins = 0;
    CHECK_EQ(rvt_tci_put(t, 0, a, 2), 0);      /* input 0 disabled: discarded */
    CHECK_EQ(rvt_tci_put(t, 1, c, 2), 2);
    wr(t, FUN + 8, 0);
    CHECK_EQ(rvt_tci_put(t, 0, a, 2), 2);
    uint8_t want[4] = { 0xb0, 0xb1, 0xa0, 0xa1 };
    CHECK_EQ(npins, 4);
    CHECK_MEM(pins, want, 4);
    rvt_tci_free(t);
}

/* "Triggers Precedence" and trTeInstTrigEnable; external trigger in/out. */
static void triggers(void)
{
    rvt_tci *t = model(64, 0);
    wr(t, TE0, 0x1);
    uint32_t base = (rd(t, TE0) & ~0x8u) | 0x2;
    wr(t, TE0, base);
    bool notify;
    CHECK(!rvt_tci_triggers(t, 0, RVT_TCI_TRIG_ON, &notify));   /* no trTeInstTrigEnable */
    CHECK(!rvt_tci_tracing(t, 0));
    wr(t, TE0, base | 1u << 11);
    CHECK(rvt_tci_triggers(t, 0, RVT_TCI_TRIG_ON, &notify));
    CHECK(rvt_tci_tracing(t, 0));
    /* off: the cycle is traced up to its newest instruction, then off */
    CHECK(rvt_tci_triggers(t, 0, RVT_TCI_TRIG_OFF | RVT_TCI_TRIG_NOTIFY, &notify));
    CHECK(notify);
    CHECK(!rvt_tci_tracing(t, 0));
    /* not tracing: a notify gives nothing */
    CHECK(!rvt_tci_triggers(t, 0, RVT_TCI_TRIG_NOTIFY, &notify));
    CHECK(!notify);
    /* on and off in one cycle: traced from the oldest to the newest, off after */
    CHECK(rvt_tci_triggers(t, 0, RVT_TCI_TRIG_ON | RVT_TCI_TRIG_OFF, NULL));
    CHECK(!rvt_tci_tracing(t, 0));
    /* external input 1 = trace-on (2), output 0 fires on start and stop */
    wr(t, TE0 + 0x54, 0x2u << 4 | 0x3u);
    wr(t, TE0 + 0x58, 0x3);
    uint64_t n0 = rvt_tci_ext_out_count(t, 0);
    CHECK(rvt_tci_ext_trigger(t, 0, 1, NULL));
    CHECK(rvt_tci_tracing(t, 0));
    CHECK(rvt_tci_ext_trigger(t, 0, 0, NULL));  /* trace-off: this cycle still traced */
    CHECK(!rvt_tci_tracing(t, 0));
    CHECK_EQ(rvt_tci_ext_out_count(t, 0) - n0, 2);
    CHECK(!rvt_tci_ext_trigger(t, 0, 2, NULL)); /* input 2 does not exist */
    rvt_tci_free(t);
}

/* Timestamp units: the funnel's counts the system clock prescaled by
 * 4^trTsPrescale; an encoder in Shared mode reads it. */
static void timestamps(void)
{
    rvt_tci *t = model(64, 0);
    wr(t, FUN, 0x1);
    wr(t, FUN + 0x40, 0x1);
    CHECK_EQ(rd(t, FUN + 0x40), 0x1 | 48u << 24);   /* trTsWidth 48 */
    wr(t, FUN + 0x40, 0x1 | 0x2 | 3u << 4);         /* Internal Core: not a funnel's */
    CHECK_EQ(rd(t, FUN + 0x40) >> 4 & 7, 0);
    wr(t, FUN + 0x40, 0x1 | 0x2 | 2u << 4 | 1u << 8);
    rvt_tci_tick(t, 10);
    CHECK_EQ(rd(t, FUN + 0x48), 2);
    rvt_tci_tick(t, 2);
    CHECK_EQ(rd(t, FUN + 0x48), 3);
    CHECK_EQ(rd(t, FUN + 0x4C), 0);
    wr(t, TE0, 0x1);
    wr(t, TE0 + 0x40, 0x1);
    wr(t, TE0 + 0x40, 0x1 | 4u << 4);               /* Shared */
    CHECK_EQ(rd(t, TE0 + 0x48), 3);
    wr(t, FUN + 0x40, 0x1 | 0x4 | 2u << 4);         /* trTsReset (W1), stopped */
    CHECK_EQ(rd(t, FUN + 0x48), 0);
    CHECK_EQ(rd(t, FUN + 0x40) & 0x6, 0);
    rvt_tci_free(t);
}

/* Hostile writes: random offsets and values, then the invariants. */
static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
    return th_xorshift64(&rng);
}

static void invariants(rvt_tci *t)
{
    static const uint64_t comps[] = { TE0, TE1, FUN, RAM, PIB };
    static const uint32_t impls[] = { 0, 0, 0x801, 0x3901, 0xA01 };
    for (unsigned i = 0; i < 5; i++) {
        uint32_t c = rd(t, comps[i]);
        if (!(c & 1))
            CHECK_EQ(c & 2, 0);             /* in reset: not enabled */
        if (impls[i])
            CHECK_EQ(rd(t, comps[i] + 4), impls[i]);
        else
            CHECK_EQ(rd(t, comps[i] + 4) & 0xFFFF, 0x0101);
    }
    rvt_sink_state s;
    if (rvt_tci_ram_state(t, &s, NULL) == 0) {
        CHECK_EQ((s.start | s.limit | s.wp) & 3, 0);
        CHECK(s.wp >= s.start && s.wp <= s.limit);
        if (rvt_tci_ram_smem(t))
            CHECK(s.start >= SMEM && s.limit < SMEM + sizeof bus);
        else
            CHECK(s.limit < 64);
    }
}

static void hostile(void)
{
    rvt_tci *t = model(64, sizeof bus);
    for (unsigned i = 0; i < 200000; i++) {
        uint64_t r = next();
        uint64_t off = (r % (RVT_TCI_SIZE + 64)) & ~3ull;
        if ((r >> 40) % 8 == 0)
            off &= ~0xfffull;               /* mostly the control registers */
        uint32_t v = (uint32_t)(next() >> 16);
        rvt_tci_write(t, off, v);
        uint32_t got;
        rvt_tci_read(t, off ^ ((r >> 20) & 0x7c), &got);
        if (i % 64 == 0) {
            uint8_t b[37];
            memset(b, (int)i, sizeof b);
            rvt_tci_put(t, (unsigned)(r >> 50) % 3, b, (size_t)(r >> 56) % sizeof b);
            rvt_tci_triggers(t, (unsigned)(r >> 45) % 3, (unsigned)(r >> 30) & 7, NULL);
            rvt_tci_tick(t, r >> 58);
        }
        if (i % 1000 == 0)
            invariants(t);
    }
    invariants(t);
    rvt_tci_free(t);
    rvt_tci_cfg bad = { .nharts = 0, .sram_size = 64 };
    int st = 0;
    CHECK(rvt_tci_new(&bad, &st) == NULL && st == RVT_ERR_INVAL);
    bad.nharts = 17;
    CHECK(rvt_tci_new(&bad, &st) == NULL);
    bad.nharts = 1, bad.sram_size = 100;        /* not a power of two */
    CHECK(rvt_tci_new(&bad, &st) == NULL);
    bad.sram_size = 0;                          /* no mode at all */
    CHECK(rvt_tci_new(&bad, &st) == NULL);
}

/* trRamStart written above trRamLimit and trRamWP (the fuzz target's
 * invariant start <= WP <= limit, fuzz/targets/tci.c): both move up with
 * it rather than leave an empty or inverted ring. */
static void pointer_order(void)
{
    rvt_tci *t = model(0, sizeof bus);
    wr(t, RAM, 0x1);
    wr(t, RAM + 0x18, 0x8010003C);
    wr(t, RAM + 0x20, 0x80100010);
    wr(t, RAM + 0x10, 0x80100800);
    CHECK_EQ(rd(t, RAM + 0x10), 0x80100800);
    CHECK_EQ(rd(t, RAM + 0x18), 0x80100800);
    CHECK_EQ(rd(t, RAM + 0x20), 0x80100800);
    rvt_tci_free(t);
}

int main(void)
{
    pointer_order();
    reset_and_discovery();
    encoder_warl();
    smem_sink();
    stop_on_wrap();
    sram_sink();
    funnel_and_pib();
    triggers();
    timestamps();
    hostile();
    return TH_DONE();
}
