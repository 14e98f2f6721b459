/* N-Trace sync points (index.h): messages with SYNC and F-ADDR whose SYNC
 * restarts the encoder, over the MSEO message splitter (3.1-3.4). */
#include <string.h>
#include "index_int.h"
#include "ntrace/nt_addr.h"
#include "rvtrace/transport.h"

/* Table 25: SYNC 0 (external trigger), 4 (I-CNT overflow) and 6 (trace
 * event) report a point of the running trace; the others restart it, and
 * the encoder's return stack with it (9.2). */
static bool restarts(const rvt_nt_msg *m)
{
    if (!rvt_nt_is_sync(m->tcode) || !rvt_nt_has(m, RVT_NT_F_SYNC) ||
        !rvt_nt_has(m, RVT_NT_F_FADDR))
        return false;
    uint64_t s = m->f[RVT_NT_F_SYNC];
    return s != RVT_NT_SYNC_TRIGGER && s != RVT_NT_SYNC_ICNT && s != RVT_NT_SYNC_EVENT;
}

/* Per source: where its last Ownership message is and what it said. */
typedef struct nt_owner {
    uint64_t at, process;
} nt_owner;

enum { NT_SOURCES = 4096 };   /* table 8: SRC is at most 12 bits */

int idx_scan_nt(rvt_index *x, const rvt_nt_cfg *cfg, const uint8_t *buf, size_t len,
                uint64_t from)
{
    rvt_nt_cfg c = *cfg;
    if (rvt_nt_cfg_check(&c) < 0)
        return RVT_ERR_INVAL;
    uint64_t xmask = c.xlen == 32 ? 0xffffffffull : ~0ull;
    static _Thread_local nt_owner own[NT_SOURCES];
    rvt_nt_reader r;
    rvt_nt_reader_init(&r, buf, len, &c);
    rvt_tp_config tc;
    rvt_tp_config_init(&tc);
    tc.src_bits = rvt_nt_cfg_src_bits(&c);
    r.pos = idx_first_sync("mseo", &tc, buf, len, from);     /* 3.4 */
    rvt_nt_msg m;
    int st;
    x->sources = 0;
    x->src_known = true;      /* none yet: an empty table */
    while ((st = rvt_nt_reader_next(&r, &m)) != 0) {
        idx_progress(x, r.pos);
        if (st < 0)
            continue;                       /* passed over, as the decoder does */
        unsigned src = rvt_nt_has(&m, RVT_NT_F_SRC) ? (unsigned)m.f[RVT_NT_F_SRC] % NT_SOURCES : 0;
        size_t before = x->nsrc;
        if (idx_source_seen(x, (uint16_t)src, m.offset) < 0)
            return RVT_ERR_NOMEM;
        if (x->nsrc != before)
            own[src] = (nt_owner){ RVT_INDEX_NONE, 0 };
        if (m.tcode == RVT_NT_OWNERSHIP) {
            own[src] = (nt_owner){ m.offset, rvt_nt_has(&m, RVT_NT_F_PROCESS) ? m.f[RVT_NT_F_PROCESS] : 0 };
            continue;
        }
        if (!restarts(&m))
            continue;
        rvt_index_point pt = { .offset = m.offset, .pc = nt_faddr_pc(m.f[RVT_NT_F_FADDR], xmask),
                               .insns = RVT_INDEX_NONE, .context = own[src].process,
                               .state = own[src].at, .size = m.len, .src = (uint16_t)src,
                               .kind = m.tcode };
        if (idx_add(x, &pt) < 0)
            return RVT_ERR_NOMEM;
    }
    return 0;
}
