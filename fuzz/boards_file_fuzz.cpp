// Boards files (arena/boards_file.h): the starting boards of `arena` and
// `ladder --boards-file` and of a run's gate and ladder. What the reader
// accepts is written back by format_boards_file and must read back as the
// same boards.
#include <string>

#include "arena/boards_file.h"
#include "fuzz/fuzz_support.h"

using namespace mushroom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string source = "fuzz-boards.txt";
  BoardsFile file;
  if (!fuzz::read_or_refuse(source, [&] { file = parse_boards_file(fuzz::as_text(data, size), source); })) return 0;
  const std::string written = format_boards_file(file.boards);
  BoardsFile again;
  if (!fuzz::read_or_refuse("written", [&] { again = parse_boards_file(written, "written"); }) ||
      format_boards_file(again.boards) != written)
    fuzz::finding("the boards written do not read back:\n" + written);
  return 0;
}
