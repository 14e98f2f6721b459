/* RISC-V trace encoder settings in a perf.data AUXTRACE_INFO record
 * (rvtrace/perfdata.h; layout and reasons: docs/formats.md).  The values
 * are Trace Control Interface 1.0 register fields, as the encoder had them
 * when perf recorded. */
#include "rvtrace/perfdata.h"
#include "perf_fmt.h"

enum { BLOCK_CPU, BLOCK_NPARAMS, BLOCK_VALUES };
enum { P_FORMAT, P_CONTEXT, P_INHIBIT_SRC, P_SRC_BITS, P_SRC_ID, P_FEATURES };
#define MIN_PARAMS 5u                /* the proposed layout's five values */

static uint64_t word(const rvt_perf_record *r, size_t i)
{
    return perf_get(r->priv + 8 * i, 8);
}

static void fill(const rvt_perf_record *r, size_t at, uint64_t nparams, rvt_perf_riscv_te *out)
{
    const size_t v = at + BLOCK_VALUES;
    *out = (rvt_perf_riscv_te){
        .cpu = (uint32_t)word(r, at + BLOCK_CPU),
        .format = (uint32_t)word(r, v + P_FORMAT),
        .context = word(r, v + P_CONTEXT) != 0,
        .inhibit_src = word(r, v + P_INHIBIT_SRC) != 0,
        .src_bits = (unsigned)(word(r, v + P_SRC_BITS) & 0xF),     /* a 4-bit field */
        .src_id = (unsigned)(word(r, v + P_SRC_ID) & 0xFFF),       /* 12 bits */
        .has_features = nparams > P_FEATURES,
        .features = nparams > P_FEATURES ? (uint32_t)word(r, v + P_FEATURES) : 0,
    };
}

int rvt_perf_riscv_te_info(const rvt_perf_record *r, uint32_t cpu, rvt_perf_riscv_te *out)
{
    if (!r || !out)
        return RVT_ERR_INVAL;
    if (r->type != RVT_PERF_RECORD_AUXTRACE_INFO || r->aux_type != RVT_PERF_AUXTRACE_RISCV ||
        !r->npriv)
        return 0;
    uint64_t blocks = word(r, 0) & 0xFFFFFFFFu;
    size_t at = 1;
    for (uint64_t b = 0; b < blocks; b++) {
        if (r->npriv - at < BLOCK_VALUES)
            return RVT_ERR_FORMAT;
        uint64_t nparams = word(r, at + BLOCK_NPARAMS);
        if (nparams < MIN_PARAMS || nparams > r->npriv - at - BLOCK_VALUES)
            return RVT_ERR_FORMAT;
        if (word(r, at + BLOCK_CPU) == cpu) {
            fill(r, at, nparams, out);
            return 1;
        }
        at += BLOCK_VALUES + (size_t)nparams;
    }
    return 0;
}

size_t rvt_perf_riscv_te_priv(uint32_t pmu_type, const rvt_perf_riscv_te *te, size_t n,
                              uint64_t *priv)
{
    size_t k = 0;
    priv[k++] = (uint64_t)pmu_type << 32 | n;
    for (size_t i = 0; i < n; i++) {
        priv[k++] = te[i].cpu;
        priv[k++] = RVT_PERF_RISCV_PARAMS;
        priv[k++] = te[i].format;
        priv[k++] = te[i].context;
        priv[k++] = te[i].inhibit_src;
        priv[k++] = te[i].src_bits;
        priv[k++] = te[i].src_id;
        priv[k++] = te[i].features;
    }
    return k;
}
