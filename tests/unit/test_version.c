/* The version API (include/rvtrace/version.h): rvt_version() is the
 * library's "MAJOR.MINOR.PATCH", the same as the macros it was built with,
 * and RVT_VERSION_NUMBER packs the three parts as 0xMMmmpp.
 * tests/e2e/version.sh ties these to project() in CMakeLists.txt. */
#include <stdio.h>
#include "rvtrace/version.h"
#include "tharness.h"

int main(void)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", RVT_VERSION_MAJOR, RVT_VERSION_MINOR,
             RVT_VERSION_PATCH);
    CHECK_STR(rvt_version(), want);
    CHECK_STR(rvt_version(), RVT_VERSION_STRING);
    CHECK_EQ(RVT_VERSION_NUMBER >> 16, RVT_VERSION_MAJOR);
    CHECK_EQ((RVT_VERSION_NUMBER >> 8) & 0xff, RVT_VERSION_MINOR);
    CHECK_EQ(RVT_VERSION_NUMBER & 0xff, RVT_VERSION_PATCH);
#if RVT_VERSION_NUMBER < 0x000100
#error "RVT_VERSION_NUMBER is not usable in #if"
#endif
    return TH_DONE();
}
