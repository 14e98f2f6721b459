/* The RISC-V Trace Control Interface 1.0 as the reference hart's board
 * has it (docs/tci.md): per hart a Trace Encoder (with a Timestamp unit),
 * one Trace Funnel (with a Timestamp unit) merging the encoders' streams,
 * a Trace RAM Sink (SRAM and System Memory modes) and a PIB sink, each a
 * 4 KiB block of 32-bit registers (TCI 1.0 "Trace Component Register
 * Map").  The model holds the registers and carries trace bytes from an
 * encoder's output through the funnel to the sinks; it never prints. */
#ifndef RVTRACE_TCI_H
#define RVTRACE_TCI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rvtrace/status.h"
#include "rvtrace/transport.h"
#include "rvtrace/ingress.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RVT_TCI_MAX_HARTS 16u          /* trFunnelDisInput has 16 inputs */
#define RVT_TCI_COMP 0x1000u           /* one component's register block */
/* Offsets of the components from the TCI window's base. */
#define RVT_TCI_TE(h) ((uint64_t)(h) * RVT_TCI_COMP)          /* hart h's encoder */
#define RVT_TCI_FUNNEL (16u * RVT_TCI_COMP)
#define RVT_TCI_RAM (17u * RVT_TCI_COMP)
#define RVT_TCI_PIB (18u * RVT_TCI_COMP)
#define RVT_TCI_SIZE (19u * RVT_TCI_COMP)

/* trTeControl (TCI 1.0 "Trace Encoder Control Interface") */
#define RVT_TCI_ACTIVE (1u << 0)        /* tr??Active, every component */
#define RVT_TCI_ENABLE (1u << 1)        /* tr??Enable */
#define RVT_TCI_EMPTY (1u << 3)         /* tr??Empty */
#define RVT_TCI_TE_INST_TRACING (1u << 2)
#define RVT_TCI_TE_INST_TRIG_ENABLE (1u << 11)
#define RVT_TCI_TE_STALL_OR_OVERFLOW (1u << 12)

typedef struct rvt_tci rvt_tci;

typedef struct rvt_tci_cfg {
    unsigned nharts;          /* encoders = funnel inputs, 1..16 */
    bool data_trace;          /* trTeDataImplemented */
    uint32_t sram_size;       /* RAM sink SRAM bytes: a power of two, 64..16 MiB; 0 = no SRAM mode */
    uint64_t smem_base;       /* SMEM mode: the system memory the sink may write, */
    uint64_t smem_size;       /* [base, base + size) (trRamStart/Limit stay in it); size 0 = no SMEM mode */
    uint8_t idle_byte;        /* padding a flush appends to fill a word (encap null.idle 0x00; N-Trace 0xFF) */
    /* SMEM mode: one 32-bit word to the system bus at addr; false = bus error (the word is dropped) */
    bool (*mem_write)(void *ctx, uint64_t addr, const uint8_t word[4]);
    /* PIB sink: bytes to the pins (a host file); a negative status counts as an error */
    int (*pib_out)(void *ctx, const uint8_t *bytes, size_t n);
    void *ctx;
} rvt_tci_cfg;

/* A model at power-up (every tr??Active and tr??Enable 0).  NULL with
 * *status (RVT_ERR_INVAL: nharts, sram_size or the SMEM range). */
rvt_tci *rvt_tci_new(const rvt_tci_cfg *cfg, int *status);
void rvt_tci_free(rvt_tci *t);
/* cfg.nharts (0 for NULL). */
unsigned rvt_tci_nharts(const rvt_tci *t);

/* A 32-bit register access at offset off of the window (4-byte aligned;
 * false otherwise or beyond RVT_TCI_SIZE: an access fault).  Reserved and
 * unimplemented registers read 0 and ignore writes; WARL fields take the
 * legal value nearest to what was written or keep their value (docs/tci.md). */
bool rvt_tci_read(rvt_tci *t, uint64_t off, uint32_t *v);
bool rvt_tci_write(rvt_tci *t, uint64_t off, uint32_t v);

/* Whether hart h's encoder is producing instruction trace now:
 * trTeActive, trTeEnable and trTeInstTracing set, trTeInstMode not 0. */
bool rvt_tci_tracing(const rvt_tci *t, unsigned h);

/* Bytes from hart h's encoder: through the funnel (when active, enabled
 * and its input not disabled) to the enabled sinks.  Bytes no sink takes
 * are lost: the encoder's trTeInstStallOrOverflow is set.  Returns the
 * bytes a sink took (0..n). */
size_t rvt_tci_put(rvt_tci *t, unsigned h, const uint8_t *bytes, size_t n);

/* Trigger actions (TCI 1.0 "Trace Encoder Triggers"; debug spec mcontrol
 * action 2 trace-on, 3 trace-off, 4 trace-notify) asserted in one ingress
 * cycle of hart h, from the debug trigger module or an external input.
 * "Triggers Precedence": tracing starts from the oldest instruction
 * retired in the cycle trace-on is asserted and stops after the newest one
 * of the cycle trace-off is asserted; so with both in one cycle the cycle
 * is traced and tracing is off after it.  Returns whether the cycle's
 * instructions are traced; *notify (may be NULL) whether a notify packet
 * is due.  Only with trTeInstTrigEnable (for instruction trace). */
enum { RVT_TCI_TRIG_ON = 1, RVT_TCI_TRIG_OFF = 2, RVT_TCI_TRIG_NOTIFY = 4 };
bool rvt_tci_triggers(rvt_tci *t, unsigned h, unsigned actions, bool *notify);
/* External trigger input `in` (0..RVT_TCI_EXT_INPUTS-1) of hart h's
 * encoder fired: its trTeTrigExtInAction as a trigger action this cycle. */
#define RVT_TCI_EXT_INPUTS 2u
bool rvt_tci_ext_trigger(rvt_tci *t, unsigned h, unsigned in, bool *notify);
/* How many times external trigger output 0 of hart h fired (trTeTrigExtOutEvent0). */
uint64_t rvt_tci_ext_out_count(const rvt_tci *t, unsigned h);

/* Time passes (ticks of the timestamp clock): the counters of active,
 * counting timestamp units advance by ticks / 4^trTsPrescale. */
void rvt_tci_tick(rvt_tci *t, uint64_t ticks);
/* The timestamp clock reached `now` (ticks since power-up; the board's
 * clock is the hart's cycle count, rvt_irec.time): ticks the difference
 * when later than where it was, else nothing. */
void rvt_tci_clock(rvt_tci *t, uint64_t now);

/* The RAM sink's buffer and state as rvt_sink_order takes them: *s the
 * registers (trRamStart, Limit, WP, Wrap, StopOnWrap), and for SRAM mode
 * *sram its SRAM (NULL in SMEM mode: the buffer is in system memory).
 * RVT_ERR_STATE when the sink was never given a buffer (limit < start). */
int rvt_tci_ram_state(const rvt_tci *t, rvt_sink_state *s, const uint8_t **sram);
/* Whether the sink is in SMEM mode (trRamMode = 1). */
bool rvt_tci_ram_smem(const rvt_tci *t);
/* Bytes between synchronisation sequences the sink's trRamAsyncFreq asks
 * of the encapsulation (0: off): 2^(7 + n) for n = 1..7 (docs/tci.md). */
uint64_t rvt_tci_async_interval(const rvt_tci *t);

/* ---- the E-Trace encoder behind hart h's Trace Encoder (te_etrace.c) ----
 * An ingress-record sink for the hart: records are encoded only while
 * rvt_tci_tracing(t, h); each time tracing starts an encoder starts with
 * `base` and the settings the registers hold, and its packets go
 * encapsulated through rvt_tci_put; when tracing stops it ends (final
 * packets).  The model must outlive it. */
typedef struct rvt_tci_te rvt_tci_te;
struct rvt_te_attrs;
rvt_tci_te *rvt_tci_te_new(rvt_tci *t, unsigned h, const struct rvt_te_attrs *base, int *status);
void rvt_tci_te_free(rvt_tci_te *e);
rvt_irec_sink rvt_tci_te_sink(rvt_tci_te *e);
/* The E-Trace attributes and the encapsulation of the last session (a
 * decoder's settings for what the sink holds); the number of sessions. */
const struct rvt_te_attrs *rvt_tci_te_attrs(const rvt_tci_te *e);
const rvt_tp_config *rvt_tci_te_container(const rvt_tci_te *e);
unsigned rvt_tci_te_sessions(const rvt_tci_te *e);
/* When the last session was N-Trace (trTeFormat 1: MSEO messages through
 * funnel and sinks unchanged, no encapsulation), its settings; else NULL. */
struct rvt_nt_cfg;
const struct rvt_nt_cfg *rvt_tci_te_nt_cfg(const rvt_tci_te *e);

#ifdef __cplusplus
}
#endif
#endif
