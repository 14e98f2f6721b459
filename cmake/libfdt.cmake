# libfdt (Debian libfdt-dev) builds the hart's device tree (src/hart/dtb.c).
# pkg-config first (libfdt >= 1.6.2 ships libfdt.pc); Debian 12's 1.6.1 has
# none, so fall back to the header and library.  Sets LIBFDT_INCLUDE_DIRS,
# LIBFDT_LIBRARIES.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(LIBFDT_PC QUIET libfdt)
endif()
if(LIBFDT_PC_FOUND)
  set(LIBFDT_INCLUDE_DIRS ${LIBFDT_PC_INCLUDE_DIRS})
  set(LIBFDT_LIBRARIES ${LIBFDT_PC_LINK_LIBRARIES})
else()
  find_path(LIBFDT_INCLUDE_DIRS libfdt.h)
  find_library(LIBFDT_LIBRARIES fdt)
endif()
if(NOT LIBFDT_INCLUDE_DIRS OR NOT LIBFDT_LIBRARIES)
  message(FATAL_ERROR "libfdt not found: run scripts/setup.sh (installs libfdt-dev)")
endif()
