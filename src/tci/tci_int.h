/* Trace Control Interface model internals (include/rvtrace/tci.h): one
 * struct per component, one file each. */
#ifndef RVT_TCI_INT_H
#define RVT_TCI_INT_H

#include "rvtrace/tci.h"
#include "rvtrace/filter.h"

/* TCI 1.0 "Trace Component Register Map": tr??Control at 0, tr??Impl at 4 */
#define TCI_CONTROL 0x000u
#define TCI_IMPL 0x004u
/* tr??Impl: VerMajor 3:0 = 1, VerMinor 7:4 = 0, CompType 11:8 */
#define TCI_IMPL_V1(type) (1u | 0u << 4 | (uint32_t)(type) << 8)
enum { TCI_TYPE_TE = 0x1, TCI_TYPE_FUNNEL = 0x8, TCI_TYPE_RAM = 0x9, TCI_TYPE_PIB = 0xA };

/* Field helpers: bits [lo, lo + width) of v */
static inline uint32_t tci_field(uint32_t v, unsigned lo, unsigned width)
{
    return (v >> lo) & ((1u << width) - 1u);
}
static inline uint32_t tci_put(uint32_t v, unsigned lo, unsigned width, uint32_t f)
{
    uint32_t m = ((1u << width) - 1u) << lo;
    return (v & ~m) | ((f << lo) & m);
}

/* How a tr??Control write acts (TCI 1.0 "Reset and Discovery"): Active 0
 * holds the component in reset (Enable 0 with it); the write that sets
 * Active from 0 releases it and "set[s] all defaults" (its other bits are
 * not taken); later writes set the fields. */
typedef enum { TCI_CTL_RESET, TCI_CTL_RELEASE, TCI_CTL_SET } tci_ctl_op;
tci_ctl_op tci_ctl_op_of(uint32_t old, uint32_t written);

/* ---- Timestamp unit (ts_unit.c), in an encoder or the funnel ---- */
typedef struct tci_ts {
    uint32_t control;
    uint64_t counter, sub;     /* counter; prescaler ticks toward its next increment */
    bool in_funnel;            /* modes: funnel {None, Internal System}, encoder {None, Internal Core, Shared} */
} tci_ts;
#define TCI_TS_BASE 0x040u     /* trTsControl; trTsCounterLow/High at +8/+0xC */
#define TCI_TS_WIDTH 48u       /* trTsWidth (SD) */
void tci_ts_reset(tci_ts *ts);
uint32_t tci_ts_read(const tci_ts *ts, const tci_ts *shared, unsigned off);
void tci_ts_write(tci_ts *ts, unsigned off, uint32_t v);
void tci_ts_tick(tci_ts *ts, uint64_t ticks);
/* trTsEnable (an encoder's unit): its packets carry the timestamp */
bool tci_ts_stamps(const tci_ts *ts);
/* The value a packet carries: the unit's counter, or in Shared mode the
 * one it shares (the funnel's) */
uint64_t tci_ts_value(const tci_ts *ts, const tci_ts *shared);

/* ---- Trace Encoder (te_regs.c) ---- */
/* trTeInstFeatures bits offered: NoAddrDiff, EnSequentialJump, EnImplicitReturn */
#define TCI_TE_NO_ADDR_DIFF (1u << 0)
#define TCI_TE_SEQ_JUMP (1u << 2)
#define TCI_TE_IMPLICIT_RETURN (1u << 3)
#define TCI_TE_FEATURE_MASK (TCI_TE_NO_ADDR_DIFF | TCI_TE_SEQ_JUMP | TCI_TE_IMPLICIT_RETURN)
/* trTeControl: trTeInhibitSrc, trTeInstSyncMode, trTeInstSyncMax, trTeFormat */
#define TCI_TE_INHIBIT_SRC (1u << 15)
/* trTeDataControl: trTeDataTracing (bit 1), trTeDataTrigEnable (bit 2) */
#define TCI_TE_DATA_TRACING (1u << 1)
#define TCI_TE_DATA_TRIG_ENABLE (1u << 2)
#define TCI_TE_SYNC_MODE_LO 16u
#define TCI_TE_SYNC_MAX_LO 20u
#define TCI_TE_FORMAT_LO 24u
#define TCI_TE_NFILT RVT_FILTER_FILTERS       /* trTeFilter<i>, i < 16 */
#define TCI_TE_NCOMP RVT_FILTER_COMPARATORS   /* trTeComp<j>, j < 8 */
typedef struct tci_te {
    uint32_t control, features, filters, data_control, data_filters;
    uint32_t filt[TCI_TE_NFILT][8], comp[TCI_TE_NCOMP][8];   /* te_filter.c */
    uint32_t ext_in, ext_out;
    uint64_t ext_out_count;
    bool data_impl;
    tci_ts ts;
} tci_te;
void tci_te_reset(tci_te *te);
uint32_t tci_te_read(const tci_te *te, const tci_ts *shared, unsigned off);
void tci_te_write(tci_te *te, unsigned off, uint32_t v);
/* trTeInstTracing from 0 to v (trace-on/off by trigger or a write): trTeTrigExtOutEvent0. */
void tci_te_set_tracing(tci_te *te, bool v);
bool tci_te_tracing(const tci_te *te);
bool tci_te_passes(const tci_te *te);     /* active and enabled: its bytes go out */

/* Filter and comparator registers (te_filter.c): whether off is one of
 * them, its value, a write (WARL), and the src/filter configuration they
 * make (false when trTeInstFilters and trTeDataFilters are 0). */
bool tci_te_filter_reg(unsigned off);
uint32_t tci_te_filter_read(const tci_te *te, unsigned off);
void tci_te_filter_write(tci_te *te, unsigned off, uint32_t v);
bool tci_te_filter_cfg(const tci_te *te, rvt_filter_cfg *cfg);

/* ---- Trace Funnel (funnel.c) ---- */
typedef struct tci_funnel {
    uint32_t control, dis_input;
    unsigned ninputs;
    tci_ts ts;
} tci_funnel;
void tci_funnel_reset(tci_funnel *f);
uint32_t tci_funnel_read(const tci_funnel *f, unsigned off);
void tci_funnel_write(tci_funnel *f, unsigned off, uint32_t v);
bool tci_funnel_passes(const tci_funnel *f, unsigned input);

/* ---- Trace RAM Sink (ram_sink.c) ---- */
/* trRamControl: trRamMode, trRamStopOnWrap, trRamAsyncFreq */
#define TCI_RAM_MODE (1u << 4)
#define TCI_RAM_STOP_ON_WRAP (1u << 8)
#define TCI_RAM_ASYNC_LO 12u
typedef struct tci_ram {
    uint32_t control;
    uint64_t start, limit, wp, rp;
    bool wrap;
    uint8_t word[4];           /* the word being filled: trRamEmpty = 0 while it holds bytes */
    unsigned nword;
    uint8_t *sram;
    uint32_t sram_size;
    uint64_t smem_base, smem_size;
    uint8_t idle;
    bool (*mem_write)(void *ctx, uint64_t addr, const uint8_t word[4]);
    void *ctx;
} tci_ram;
void tci_ram_reset(tci_ram *r);
uint32_t tci_ram_read(tci_ram *r, unsigned off);
void tci_ram_write(tci_ram *r, unsigned off, uint32_t v);
/* Bytes in; how many were taken (0 when disabled or stopped on wrap). */
size_t tci_ram_put(tci_ram *r, const uint8_t *b, size_t n);
bool tci_ram_accepts(const tci_ram *r);

/* ---- Trace PIB Sink (pib_sink.c) ---- */
typedef struct tci_pib {
    uint32_t control;
    int (*out)(void *ctx, const uint8_t *bytes, size_t n);
    void *ctx;
} tci_pib;
void tci_pib_reset(tci_pib *p);
uint32_t tci_pib_read(const tci_pib *p, unsigned off);
void tci_pib_write(tci_pib *p, unsigned off, uint32_t v);
size_t tci_pib_put(tci_pib *p, const uint8_t *b, size_t n);
bool tci_pib_accepts(const tci_pib *p);

/* te_etrace.c: end the encoder session now (its final packets go out) */
void tci_te_feeder_stop(rvt_tci_te *e);

struct rvt_tci {
    rvt_tci_cfg cfg;
    rvt_tci_te *feeder[RVT_TCI_MAX_HARTS];   /* the encoder behind each TE (te_etrace.c) */
    tci_te te[RVT_TCI_MAX_HARTS];
    tci_funnel funnel;
    tci_ram ram;
    tci_pib pib;
    uint64_t now;          /* the timestamp clock so far (rvt_tci_clock) */
};

#endif
