/* Bench: what the encapsulation costs over the plain reference-flow
 * framing of an E-Trace stream (issue #16 "Performance"). */
#ifndef RVT_BENCH_ENCAP_COST_H
#define RVT_BENCH_ENCAP_COST_H

#include <stddef.h>
#include <stdint.h>

typedef struct encap_cost {
    double write_cpu;       /* re-framing refflow -> encap (the encoder's extra work) */
    double unwrap_cpu;      /* encap -> refflow frames (the decoder's extra work) */
    uint64_t plain_bytes, encap_bytes;
    int identical;          /* the unwrapped stream equals the input */
} encap_cost;

/* Measure on a reference-flow stream with srcID 8 bits, no type, a sync
 * sequence every 4 KiB.  0 or a negative status. */
int encap_cost_measure(const uint8_t *refflow, size_t len, encap_cost *out);
/* The reference-flow stream re-framed in encapsulation with settings c
 * (te_inst frames only): *out malloc'ed, the caller frees it. */
struct rvt_tp_config;
/* The settings both benches use: srcID 8 bits, a sync sequence every 4 KiB. */
struct rvt_tp_config encap_cost_config(void);
int encap_cost_wrap(const uint8_t *refflow, size_t len, const struct rvt_tp_config *c,
                    uint8_t **out, size_t *out_len);

#endif
