# `make install` (cmake --install): the shared and static library, the
# public headers, the rvtrace binary and rvtrace.pc, in GNUInstallDirs
# places under the prefix.  DESTDIR is honoured by cmake --install.
include(GNUInstallDirs)

install(TARGETS rvtrace_shared rvtrace_static rvtrace
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/rvtrace
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

# rvtrace.pc.  libdir/includedir are relative to ${prefix} (when
# GNUInstallDirs made them relative), so --define-variable=prefix works.
# pkg-config --static must bring libelf, libdw (the lcov writer's DWARF), libfdt and libm (the hart's FPU)
# along: Requires.private when they have a .pc (Debian's libelf-dev, libdw-dev), else Libs.private.
foreach(d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(RVT_PC_${d} "${CMAKE_INSTALL_${d}}")
  else()
    set(RVT_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(RVT_LIBELF_PC QUIET libelf libdw)
endif()
# libfdt (the hart's device tree) the same way (cmake/libfdt.cmake).
set(RVT_PC_REQ "")
set(RVT_PC_LIBS "-lm")
if(RVT_LIBELF_PC_FOUND)
  list(APPEND RVT_PC_REQ libelf libdw)
else()
  set(RVT_PC_LIBS "-ldw -lelf ${RVT_PC_LIBS}")
endif()
if(LIBFDT_PC_FOUND)
  list(APPEND RVT_PC_REQ libfdt)
else()
  set(RVT_PC_LIBS "-lfdt ${RVT_PC_LIBS}")
endif()
if(RVT_PC_REQ)
  string(REPLACE ";" " " RVT_PC_REQ "${RVT_PC_REQ}")
  set(RVT_PC_PRIVATE "Requires.private: ${RVT_PC_REQ}\nLibs.private: ${RVT_PC_LIBS}")
else()
  set(RVT_PC_PRIVATE "Libs.private: ${RVT_PC_LIBS}")
endif()
# The prefix is the one in force at install time (cmake --install --prefix
# may differ from CMAKE_INSTALL_PREFIX here): this step leaves
# @CMAKE_INSTALL_PREFIX@ in, and the install step fills it.
set(RVT_PC_PREFIX "@CMAKE_INSTALL_PREFIX@")
configure_file(${CMAKE_SOURCE_DIR}/cmake/rvtrace.pc.in ${CMAKE_BINARY_DIR}/rvtrace.pc.in @ONLY)
install(CODE "configure_file(\"${CMAKE_BINARY_DIR}/rvtrace.pc.in\" \"${CMAKE_BINARY_DIR}/rvtrace.pc\" @ONLY)")
install(FILES ${CMAKE_BINARY_DIR}/rvtrace.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
