# The man page and the bash completion, made from the commands' own help
# after each build of `mushroom` (scripts/command_reference.py, with Debian's
# help2man), so that neither can drift from the option tables; cmake/
# Install.cmake installs them.

if(NOT Python3_Interpreter_FOUND)
  mushroom_missing("Python 3 (the man page and the completion are made with it)" python3)
endif()
set(MUSHROOM_REFERENCE_DIR ${PROJECT_BINARY_DIR}/reference)
file(MAKE_DIRECTORY ${MUSHROOM_REFERENCE_DIR})
add_custom_command(
  OUTPUT ${MUSHROOM_REFERENCE_DIR}/mushroom.1 ${MUSHROOM_REFERENCE_DIR}/mushroom.bash
  COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/command_reference.py $<TARGET_FILE:mushroom>
          ${PROJECT_VERSION} ${MUSHROOM_REFERENCE_DIR}
  DEPENDS mushroom ${PROJECT_SOURCE_DIR}/scripts/command_reference.py ${PROJECT_SOURCE_DIR}/scripts/check_cli_help.py
  COMMENT "Making the man page and the bash completion from the commands' help"
  VERBATIM)
# Debian installs man pages compressed, without a time stamp (gzip -n).
add_custom_command(
  OUTPUT ${MUSHROOM_REFERENCE_DIR}/mushroom.1.gz
  COMMAND gzip -9nfk ${MUSHROOM_REFERENCE_DIR}/mushroom.1
  DEPENDS ${MUSHROOM_REFERENCE_DIR}/mushroom.1
  VERBATIM)
add_custom_target(mushroom_reference ALL
  DEPENDS ${MUSHROOM_REFERENCE_DIR}/mushroom.1.gz ${MUSHROOM_REFERENCE_DIR}/mushroom.bash)

# The man page and the completion name every command of `mushroom --help`,
# and the completion offers each command's options.
add_test(NAME ManAndCompletionNameEveryCommand
         COMMAND ${Python3_EXECUTABLE} scripts/check_command_reference.py $<TARGET_FILE:mushroom>
                 ${MUSHROOM_REFERENCE_DIR}/mushroom.1.gz ${MUSHROOM_REFERENCE_DIR}/mushroom.bash
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The checker catches what testdata/command_reference leaves out on purpose
# (a command in the man page, a command and an option in the completion)...
add_test(NAME ManAndCompletionCatchGaps
         COMMAND ${Python3_EXECUTABLE} scripts/check_command_reference.py $<TARGET_FILE:mushroom>
                 testdata/command_reference/mushroom.1 testdata/command_reference/mushroom.bash
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(ManAndCompletionCatchGaps PROPERTIES PASS_REGULAR_EXPRESSION
  "the man page has no section for 'view'.*the completion does not offer the command 'arena'.*the completion of 'export-bot' does not offer --eval")
# ...and fails on it: its exit status, which the test above relies on.
add_test(NAME ManAndCompletionFailOnGaps
         COMMAND ${Python3_EXECUTABLE} scripts/check_command_reference.py $<TARGET_FILE:mushroom>
                 testdata/command_reference/mushroom.1 testdata/command_reference/mushroom.bash
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(ManAndCompletionFailOnGaps PROPERTIES WILL_FAIL TRUE)
