/* Fuzz target: the Trace Control Interface model (rvtrace/tci.h,
 * docs/tci.md): hostile register accesses, trace bytes, triggers and time.
 * Input: 1 configuration byte (bits 1:0 harts - 1 (3 = 1), bit 2 no SRAM,
 * bit 3 no SMEM (not both)), then operations, an opcode byte each:
 *   0 write: component byte, 2-byte offset in it, 4-byte value
 *   1 read:  component byte, 2-byte offset
 *   2 put:   hart byte, length byte, the bytes
 *   3 triggers: hart byte, action bits;  4 ext trigger: hart, input
 *   5 tick: 2 bytes
 * Invariants after every operation: a component whose Active reads 0 is
 * not enabled; tr??Impl never changes; the RAM sink's start, limit and WP
 * are 4-byte aligned with start <= WP <= limit inside the memory of its
 * mode; rvt_tci_put never takes more than it was given; the SRAM buffer
 * (when the sink is in SRAM mode) goes through rvt_sink_order without an
 * error other than "no sync point".
 * FUZZ_ARGS: -max_len=4096 */
#include "../fuzz_ops.h"
#include "rvtrace/tci.h"

#define SMEM_BASE 0x80000000ull
#define SMEM_SIZE 0x2000u
#define SRAM_SIZE 256u

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    return 0;
}

static uint8_t smem[SMEM_SIZE];

static bool mem_write(void *ctx, uint64_t addr, const uint8_t w[4])
{
    (void)ctx;
    RVT_FUZZ_ASSERT(addr >= SMEM_BASE && addr + 4 <= SMEM_BASE + SMEM_SIZE && !(addr & 3));
    memcpy(smem + (addr - SMEM_BASE), w, 4);
    return true;
}

static int pib_out(void *ctx, const uint8_t *b, size_t n)
{
    (void)ctx, (void)b, (void)n;
    return 0;
}

static uint64_t comp_base(unsigned c)
{
    static const uint64_t bases[] = { RVT_TCI_FUNNEL, RVT_TCI_RAM, RVT_TCI_PIB };
    return c < 4 ? RVT_TCI_TE(c) : bases[(c - 4) % 3];
}

static void invariants(rvt_tci *t, unsigned nharts, const uint32_t *impl)
{
    for (unsigned c = 0; c < nharts + 3; c++) {
        unsigned k = c < nharts ? c : 4 + (c - nharts);
        uint32_t ctl, im;
        RVT_FUZZ_ASSERT(rvt_tci_read(t, comp_base(k), &ctl) && rvt_tci_read(t, comp_base(k) + 4, &im));
        RVT_FUZZ_ASSERT((ctl & RVT_TCI_ACTIVE) || !(ctl & RVT_TCI_ENABLE));
        if (k >= 4)
            RVT_FUZZ_ASSERT(im == impl[k - 4]);
        else
            RVT_FUZZ_ASSERT((im & 0xfff) == 0x101);
    }
    rvt_sink_state s;
    const uint8_t *sram;
    if (rvt_tci_ram_state(t, &s, &sram) != 0)
        return;
    RVT_FUZZ_ASSERT(!((s.start | s.limit | s.wp) & 3) && s.start <= s.wp && s.wp <= s.limit);
    if (!sram) {
        RVT_FUZZ_ASSERT(s.start >= SMEM_BASE && s.limit < SMEM_BASE + SMEM_SIZE);
        return;
    }
    RVT_FUZZ_ASSERT(s.limit < SRAM_SIZE);
    uint8_t copy[SRAM_SIZE];
    size_t len = (size_t)rvt_sink_size(&s);
    memcpy(copy, sram + s.start, len);
    rvt_sink_view v;
    int st = rvt_sink_order(&s, "encap", NULL, copy, len, &v);
    RVT_FUZZ_ASSERT(st == 0 || st == RVT_ERR_NOSYNC);
    RVT_FUZZ_ASSERT(v.begin <= v.end && v.end <= len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rvt_fuzz_in in = { data, size };
    uint8_t cfgb = rvt_fuzz_u8(&in);
    unsigned nharts = (cfgb & 3) == 3 ? 1 : (cfgb & 3) + 1;
    rvt_tci_cfg c = { .nharts = nharts, .sram_size = cfgb & 4 ? 0 : SRAM_SIZE,
                      .smem_base = SMEM_BASE, .smem_size = cfgb & 8 && !(cfgb & 4) ? 0 : SMEM_SIZE,
                      .mem_write = mem_write, .pib_out = pib_out };
    rvt_tci *t = rvt_tci_new(&c, NULL);
    RVT_FUZZ_ASSERT(t != NULL);
    uint32_t impl[3];
    for (unsigned k = 0; k < 3; k++)
        RVT_FUZZ_ASSERT(rvt_tci_read(t, comp_base(4 + k) + 4, &impl[k]));
    while (in.n) {
        uint8_t op = rvt_fuzz_u8(&in) % 6;
        uint64_t base = comp_base(rvt_fuzz_u8(&in) % 7);
        uint32_t v;
        uint8_t buf[256];
        switch (op) {
        case 0: {
            uint64_t off = base + (rvt_fuzz_bytes(&in, 2) & 0xfff);
            bool ok = rvt_tci_write(t, off, (uint32_t)rvt_fuzz_bytes(&in, 4));
            RVT_FUZZ_ASSERT(ok == !(off & 3));
            break;
        }
        case 1:
            rvt_tci_read(t, base + (rvt_fuzz_bytes(&in, 2) & 0xfff), &v);
            break;
        case 2: {
            unsigned h = (unsigned)(base / RVT_TCI_COMP) % 4;
            size_t n = rvt_fuzz_u8(&in);
            for (size_t i = 0; i < n; i++)
                buf[i] = rvt_fuzz_u8(&in);
            RVT_FUZZ_ASSERT(rvt_tci_put(t, h, buf, n) <= n);
            break;
        }
        case 3:
            rvt_tci_triggers(t, (unsigned)(base / RVT_TCI_COMP) % 4, rvt_fuzz_u8(&in), NULL);
            break;
        case 4:
            rvt_tci_ext_trigger(t, (unsigned)(base / RVT_TCI_COMP) % 4, rvt_fuzz_u8(&in) % 4, NULL);
            break;
        default:
            rvt_tci_tick(t, rvt_fuzz_bytes(&in, 2));
            break;
        }
        invariants(t, nharts, impl);
    }
    rvt_tci_free(t);
    return 0;
}
