/* The library's version: the number is set once, by project() in
 * CMakeLists.txt, and reaches here through the generated version.h. */
#include "rvtrace/version.h"

const char *rvt_version(void)
{
    return RVT_VERSION_STRING;
}
