/* Mnemonics follow the enum spelling (lower case, '_' -> '.'), and the
 * ABI register names of the unprivileged spec table 35.1. */
#include <ctype.h>
#include "tharness.h"
#include "rvtrace/isa.h"

#define NAME(n) #n,
static const char *const upper[] = { RVT_ISA_OPS(NAME) };
static const char *const upper_fp[] = { RVT_ISA_FP_OPS(NAME) };
#undef NAME

static void check_name(unsigned op, const char *up)
{
    char want[32];
    size_t i = 0;
    for (; up[i] && i + 1 < sizeof want; i++)
        want[i] = up[i] == '_' ? '.' : (char)tolower((unsigned char)up[i]);
    want[i] = 0;
    CHECK_STR(rvt_isa_op_name(op), want);
}

int main(void)
{
    for (unsigned op = 0; op < RVT_OP_BASE_COUNT; op++)
        check_name(op, upper[op]);
    for (unsigned op = RVT_OP_FLW; op < RVT_OP_COUNT; op++)
        check_name(op, upper_fp[op - RVT_OP_FLW]);
    CHECK_EQ(RVT_OP_FLW, RVT_OP_BASE_COUNT);
    CHECK_EQ(RVT_OP_FLD - RVT_OP_FLW, RVT_OP_FP_FMT_STRIDE);
    CHECK_EQ(RVT_OP_FCVT_D_S - RVT_OP_FCVT_S_D, RVT_OP_FP_FMT_STRIDE);
    CHECK_STR(rvt_isa_op_name(RVT_OP_COUNT), "illegal");
    CHECK_STR(rvt_isa_reg_name(0), "zero");
    CHECK_STR(rvt_isa_reg_name(1), "ra");
    CHECK_STR(rvt_isa_reg_name(5), "t0");
    CHECK_STR(rvt_isa_reg_name(8), "s0");
    CHECK_STR(rvt_isa_reg_name(18), "s2");
    CHECK_STR(rvt_isa_reg_name(27), "s11");
    CHECK_STR(rvt_isa_reg_name(31), "t6");
    CHECK_STR(rvt_isa_reg_name(32), "?");
    return TH_DONE();
}
