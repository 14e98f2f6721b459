/* Control Transfer Records: the Smctr/Ssctr v0.1.4 draft model (CSRs,
 * entry registers, recording, filtering, RAS emulation, freeze, cycle
 * counts).  The hart owns one rvt_ctr and feeds it every control transfer;
 * tools read the records through rvt_ctr_get().  docs/ctr.md lists every
 * choice made where the draft is open. */
#ifndef RVTRACE_CTR_H
#define RVTRACE_CTR_H

#include <stdbool.h>
#include <stdint.h>
#include "rvtrace/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CTR 2.6: CSR numbers (the *h ones exist on RV32 only). */
enum {
    RVT_CSR_SCTRCONTROL = 0x181, RVT_CSR_SCTRCONTROLH = 0x182, RVT_CSR_SCTRSTATUS = 0x183,
    RVT_CSR_VSCTRCONTROL = 0x281, RVT_CSR_VSCTRCONTROLH = 0x282,
    RVT_CSR_MCTRCONTROL = 0x381, RVT_CSR_MCTRCONTROLH = 0x382, RVT_CSR_MCTRSTATUS = 0x383,
};

/* CTR 3: the *iselect range of the entry registers (logical entries 0..255). */
#define RVT_CTR_ISEL_FIRST 0x200u
#define RVT_CTR_ISEL_LAST 0x2FFu

/* CTR 2.1: mctrcontrol fields. */
#define RVT_CTRCTL_M (1ull << 0)
#define RVT_CTRCTL_S (1ull << 1)
#define RVT_CTRCTL_U (1ull << 2)
#define RVT_CTRCTL_CLR (1ull << 7)
#define RVT_CTRCTL_MTE (1ull << 8)
#define RVT_CTRCTL_STE (1ull << 9)
#define RVT_CTRCTL_RASEMU (1ull << 10)
#define RVT_CTRCTL_BPFRZ (1ull << 11)
#define RVT_CTRCTL_LCOFIFRZ (1ull << 12)
#define RVT_CTRCTL_DEPTH_SHIFT 16
#define RVT_CTRCTL_DEPTH (0xFull << RVT_CTRCTL_DEPTH_SHIFT)
/* CTR 5.2: bit 32 + TYPE inhibits (or, for NTBREN, enables) that type;
 * bit 38 (TYPE 6 is reserved) is ETEN. */
#define RVT_CTRCTL_TYPE_BIT(type) (1ull << (32 + (type)))
#define RVT_CTRCTL_EXCINH RVT_CTRCTL_TYPE_BIT(1)
#define RVT_CTRCTL_INTRINH RVT_CTRCTL_TYPE_BIT(2)
#define RVT_CTRCTL_TRETINH RVT_CTRCTL_TYPE_BIT(3)
#define RVT_CTRCTL_NTBREN RVT_CTRCTL_TYPE_BIT(4)
#define RVT_CTRCTL_TKBRINH RVT_CTRCTL_TYPE_BIT(5)
#define RVT_CTRCTL_ETEN RVT_CTRCTL_TYPE_BIT(6)
#define RVT_CTRCTL_INDCALLINH RVT_CTRCTL_TYPE_BIT(8)
#define RVT_CTRCTL_DIRCALLINH RVT_CTRCTL_TYPE_BIT(9)
#define RVT_CTRCTL_INDJUMPINH RVT_CTRCTL_TYPE_BIT(10)
#define RVT_CTRCTL_DIRJUMPINH RVT_CTRCTL_TYPE_BIT(11)
#define RVT_CTRCTL_CORSWAPINH RVT_CTRCTL_TYPE_BIT(12)
#define RVT_CTRCTL_RETINH RVT_CTRCTL_TYPE_BIT(13)
#define RVT_CTRCTL_INDOJMPINH RVT_CTRCTL_TYPE_BIT(14)
#define RVT_CTRCTL_DIROJMPINH RVT_CTRCTL_TYPE_BIT(15)

/* CTR 2.4: mctrstatus fields. */
#define RVT_CTRSTS_WRPTR 0xFFull
#define RVT_CTRSTS_WRAP (1ull << 14)
#define RVT_CTRSTS_FROZEN (1ull << 15)

/* CTR 3.3: ctrdata fields. */
#define RVT_CTRDATA_TYPE 0xFull
#define RVT_CTRDATA_CCV (1ull << 15)
#define RVT_CTRDATA_CC_SHIFT 16

/* CTR 3.3 ctrdata.TYPE (= E-Trace 4-bit itype, enum rvt_itype). */
enum {
    RVT_CTR_EXCEPTION = 1, RVT_CTR_INTERRUPT = 2, RVT_CTR_TRAP_RETURN = 3,
    RVT_CTR_NT_BRANCH = 4, RVT_CTR_T_BRANCH = 5, RVT_CTR_IND_CALL = 8,
    RVT_CTR_DIR_CALL = 9, RVT_CTR_IND_JUMP = 10, RVT_CTR_DIR_JUMP = 11,
    RVT_CTR_CO_SWAP = 12, RVT_CTR_RETURN = 13, RVT_CTR_OTHER_IND_JUMP = 14,
    RVT_CTR_OTHER_DIR_JUMP = 15,
};

typedef struct rvt_ctr rvt_ctr;

typedef struct rvt_ctr_cfg {
    unsigned mxlen;           /* 32 or 64; 0 = 64 */
    bool no_smode, no_umode;  /* the S / U enable bits then read 0 */
} rvt_ctr_cfg;

/* One entry as the entry registers show it (CTR 3.1-3.3). */
typedef struct rvt_ctr_entry {
    uint64_t source;          /* PC | V (bit 0) */
    uint64_t target;          /* PC | MISP (bit 0: always 0, the hart has no branch predictor to miss) */
    uint64_t data;            /* TYPE, CCV, CC */
} rvt_ctr_entry;

/* One control transfer as the hart saw it.  src/tgt privilege: 0 U, 1 S,
 * 3 M.  For traps `cause` is the exception / interrupt code. */
typedef struct rvt_ctr_xfer {
    uint64_t src, tgt;
    unsigned type;            /* RVT_CTR_* */
    unsigned src_priv, tgt_priv;
    unsigned cause;
} rvt_ctr_xfer;

rvt_ctr *rvt_ctr_new(const rvt_ctr_cfg *cfg);
void rvt_ctr_free(rvt_ctr *c);

/* True when mctrcontrol enables recording in some mode (the hart then runs
 * its observing loop, which reports branches and jumps). */
bool rvt_ctr_active(const rvt_ctr *c);

/* Record (or not) one transfer; `now` is the hart's cycle count, used for
 * the CC field (CTR 5.3).  Traps and trap returns must be reported even
 * when CTR is inactive: they can freeze it (5.5) and they end the
 * privilege mode whose cycles are counted. */
void rvt_ctr_transfer(rvt_ctr *c, const rvt_ctr_xfer *x, uint64_t now);

/* CTR CSRs (2.6) by number, accessed from mode `priv` at cycle `now`.
 * Returns RVT_OK, or RVT_ERR_INVAL when the access raises an illegal
 * instruction exception (no such CSR for this XLEN / no H). */
bool rvt_ctr_is_csr(const rvt_ctr *c, unsigned csr);
int rvt_ctr_csr_read(const rvt_ctr *c, unsigned csr, uint64_t *v);
int rvt_ctr_csr_write(rvt_ctr *c, unsigned csr, uint64_t v, unsigned priv, uint64_t now);

/* Entry registers through *ireg (CTR 3): sel in 0x200..0x2FF, reg 1..6
 * (*ireg .. *ireg6); ireg4..6 read 0.  Logical entries at or above the
 * depth read 0 and ignore writes.  RVT_ERR_INVAL for sel out of range. */
int rvt_ctr_ireg_read(const rvt_ctr *c, unsigned sel, unsigned reg, uint64_t *v);
int rvt_ctr_ireg_write(rvt_ctr *c, unsigned sel, unsigned reg, uint64_t v);

/* Reading the buffer: the selected depth (16..256), and logical entry i
 * (0 = youngest).  rvt_ctr_get returns 1 for a valid entry, 0 for an
 * invalid one, RVT_ERR_INVAL past the depth. */
unsigned rvt_ctr_depth(const rvt_ctr *c);
int rvt_ctr_get(const rvt_ctr *c, unsigned i, rvt_ctr_entry *out);
uint64_t rvt_ctr_control(const rvt_ctr *c);
uint64_t rvt_ctr_status(const rvt_ctr *c);

/* CTR 5.3: the 16-bit CC field (CCE in 15:12, CCM in 11:0) for an elapsed
 * cycle count (saturating at CCE = CCM = all ones), and back. */
unsigned rvt_ctr_cc_encode(uint64_t cycles);
uint64_t rvt_ctr_cc_decode(unsigned cc);

/* Short lower-case name of a ctrdata.TYPE ("taken-branch", "return" ...),
 * "reserved" for 0, 6, 7. */
const char *rvt_ctr_type_name(unsigned type);

#ifdef __cplusplus
}
#endif
#endif
