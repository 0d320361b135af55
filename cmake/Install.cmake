# `cmake --install` (and the .deb of cmake/Package.cmake): the binaries in
# bin/, the shipped defaults and the commented configs in share/mushroom/
# (where an installed mushroom finds them: engine/util/data_roots.h), the
# guides in share/doc/mushroom, the man page and the bash completion.
include(GNUInstallDirs)

install(TARGETS mushroom mushroom-bot RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(MUSHROOM_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/mushroom)
install(FILES models/eval.bin models/eval.probcut models/default.h5 models/submission.cpp models/data.bin
              models/README.md
        DESTINATION ${MUSHROOM_SHARE_DIR}/models)
install(DIRECTORY configs/ DESTINATION ${MUSHROOM_SHARE_DIR}/configs
        FILES_MATCHING PATTERN "*.toml" PATTERN "README.md")

install(FILES README.md BENCHMARKS.md cmake/debian/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# Debian wants the changelog compressed, without a time stamp.
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/changelog.gz
  COMMAND gzip -9n -c ${PROJECT_SOURCE_DIR}/cmake/debian/changelog > ${PROJECT_BINARY_DIR}/changelog.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/cmake/debian/changelog)
add_custom_target(mushroom_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})

# mushroom-bot is `mushroom bot` alone: its page is mushroom's (a link, as Debian links a command's other names).
file(CREATE_LINK mushroom.1.gz ${MUSHROOM_REFERENCE_DIR}/mushroom-bot.1.gz SYMBOLIC)
install(FILES ${MUSHROOM_REFERENCE_DIR}/mushroom.1.gz ${MUSHROOM_REFERENCE_DIR}/mushroom-bot.1.gz
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${MUSHROOM_REFERENCE_DIR}/mushroom.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME mushroom)

# From an empty folder, an installed mushroom finds its defaults in its
# prefix, plays, and exports a bot the judge's line builds and that answers
# OK (scripts/install-staging-test.sh).
add_test(NAME InstallStaging COMMAND bash scripts/install-staging-test.sh ${PROJECT_BINARY_DIR}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(InstallStaging PROPERTIES TIMEOUT 600)
