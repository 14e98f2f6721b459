/* CTR 5.3 cycle-count encoding and the names of the transfer types. */
#include "ctr_int.h"

#define CCM_BITS 12
#define CCM_MAX 0xFFFu
#define CCE_MAX 0xFu          /* all 4 exponent bits implemented */

/* CTR 5.3: CCE = 0 holds the count itself; otherwise the count is
 * (2^12 + CCM) << (CCE - 1), so CCE = floor(log2(n)) - 11 and CCM the 12
 * bits below the leading one.  Larger counts saturate. */
unsigned rvt_ctr_cc_encode(uint64_t n)
{
    if (n <= CCM_MAX)
        return (unsigned)n;
    unsigned msb = 63u - (unsigned)__builtin_clzll(n);
    unsigned cce = msb - (CCM_BITS - 1);
    if (cce > CCE_MAX)
        return (CCE_MAX << CCM_BITS) | CCM_MAX;
    unsigned ccm = (unsigned)(n >> (cce - 1)) & CCM_MAX;
    return (cce << CCM_BITS) | ccm;
}

uint64_t rvt_ctr_cc_decode(unsigned cc)
{
    unsigned cce = (cc >> CCM_BITS) & CCE_MAX, ccm = cc & CCM_MAX;
    if (cce == 0)
        return ccm;
    return ((uint64_t)(1u << CCM_BITS) + ccm) << (cce - 1);
}

const char *rvt_ctr_type_name(unsigned type)
{
    static const char *const names[16] = {
        "reserved", "exception", "interrupt", "trap-return", "not-taken-branch",
        "taken-branch", "reserved", "reserved", "indirect-call", "direct-call",
        "indirect-jump", "direct-jump", "co-routine-swap", "return",
        "other-indirect-jump", "other-direct-jump",
    };
    return names[type & 15];
}
