# Man pages (issue 18): rvtrace.1 and rvtrace-CMD.1, generated from the
# CLI's help texts by scripts/gen-man.sh into BUILD/man whenever rvtrace
# is rebuilt, installed into share/man/man1 (tests/e2e/man_pages.sh).
include(GNUInstallDirs)
set(RVT_MAN_DIR ${CMAKE_BINARY_DIR}/man)
add_custom_command(
  OUTPUT ${RVT_MAN_DIR}/rvtrace.1
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${RVT_MAN_DIR}
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/gen-man.sh $<TARGET_FILE:rvtrace> ${RVT_MAN_DIR}
  DEPENDS rvtrace ${CMAKE_SOURCE_DIR}/scripts/gen-man.sh ${CMAKE_SOURCE_DIR}/scripts/cli-commands.sh
  COMMENT "Man pages from the help texts"
  VERBATIM)
add_custom_target(man ALL DEPENDS ${RVT_MAN_DIR}/rvtrace.1)
install(DIRECTORY ${RVT_MAN_DIR}/ DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 FILES_MATCHING PATTERN "*.1")
