/* The tr??Control handshake every component shares (TCI 1.0 "Reset and
 * Discovery"). */
#include "tci/tci_int.h"

tci_ctl_op tci_ctl_op_of(uint32_t old, uint32_t written)
{
    if (!(written & RVT_TCI_ACTIVE))
        return TCI_CTL_RESET;       /* "When component is held in reset ... tr??Enable ... 0 as well" */
    if (!(old & RVT_TCI_ACTIVE))
        return TCI_CTL_RELEASE;     /* "This write will reset most of other enable/mode bits" */
    return TCI_CTL_SET;
}
