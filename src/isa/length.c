/* Instruction length from the first 16-bit parcel (unprivileged spec 1.5,
 * "Base Instruction-Length Encoding"). */
#include "rvtrace/isa.h"

unsigned rvt_isa_length(uint16_t lo16)
{
    if ((lo16 & 0x3) != 0x3)
        return 2;                 /* xxxxxxxxxxxxxxaa, aa != 11 */
    if ((lo16 & 0x1c) != 0x1c)
        return 4;                 /* xxxxxxxxxxxbbb11, bbb != 111 */
    if ((lo16 & 0x20) == 0)
        return 6;                 /* xxxxxxxxxx011111 */
    if ((lo16 & 0x40) == 0)
        return 8;                 /* xxxxxxxxx0111111 */
    return 0;                     /* x..xnnnxxxxx1111111: >= 80 bits, reserved */
}
