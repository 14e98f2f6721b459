/* Robustness: every 16-bit parcel and a pseudo-random sample of 32-bit
 * words decode without crashing on both XLENs, produce in-range fields, and
 * disassemble into a bounded, NUL-terminated string; illegal words keep a
 * length consistent with rvt_isa_length. */
#include "tharness.h"
#include "rvtrace/isa.h"
#include "rvtrace/status.h"

static unsigned bad;

static void one(uint32_t raw, unsigned xlen)
{
    rvt_insn in;
    char buf[48];
    int rc = rvt_isa_decode(raw, xlen, &in);
    unsigned len = rvt_isa_length((uint16_t)raw);
    if ((rc != 0 && rc != RVT_ERR_FORMAT) || in.len != len || in.op >= RVT_OP_COUNT ||
        in.rd > 31 || in.rs1 > 31 || in.rs2 > 31 || in.rs3 > 31 ||
        (rc == 0) == (in.op == RVT_OP_ILLEGAL) || in.jclass > RVT_JC_XRET) {
        if (bad++ < 10)
            TH_FAIL("0x%08x rv%u: rc %d op %u len %u", raw, xlen, rc, in.op, in.len);
        return;
    }
    int n = rvt_isa_disasm(&in, 0x80000000u, buf, sizeof buf, NULL, NULL);
    if (n < 0 || (size_t)n >= sizeof buf || strlen(buf) != (size_t)n) {
        if (bad++ < 10)
            TH_FAIL("0x%08x rv%u: disasm length %d", raw, xlen, n);
    }
}

int main(void)
{
    for (uint32_t w = 0; w < 0x10000; w++) {
        one(w, 32);
        one(w, 64);
    }
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (unsigned i = 0; i < 400000; i++) {
        uint32_t w = (uint32_t)th_xorshift64(&x) | 3u;                  /* 32-bit space */
        one(w, 32);
        one(w, 64);
    }
    CHECK_EQ(bad, 0);
    return TH_DONE();
}
