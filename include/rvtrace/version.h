/* rvtrace library version.  include/rvtrace/version.h is GENERATED from
 * version.h.in by CMake (configure_file) with the version of project() in
 * CMakeLists.txt, the one place it is set: edit those, not version.h. */
#ifndef RVTRACE_VERSION_H
#define RVTRACE_VERSION_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version the program is compiled against. */
#define RVT_VERSION_MAJOR 0
#define RVT_VERSION_MINOR 1
#define RVT_VERSION_PATCH 0
#define RVT_VERSION_STRING "0.1.0"
/* One number for #if comparisons: 0xMMmmpp. */
#define RVT_VERSION_NUMBER \
    ((RVT_VERSION_MAJOR << 16) | (RVT_VERSION_MINOR << 8) | RVT_VERSION_PATCH)

/* The version of the library the program runs with, "MAJOR.MINOR.PATCH"
 * (static).  It may differ from RVT_VERSION_STRING when a program built
 * against one librvtrace.so runs with another of the same soname. */
const char *rvt_version(void);

#ifdef __cplusplus
}
#endif
#endif
