#include "util/text.h"

#include <gtest/gtest.h>

#include <cmath>

#include <filesystem>

namespace mushroom {

TEST(Text, TrimStripsSpacesTabsAndCarriageReturn) {
  EXPECT_EQ(trim("  OK\r"), "OK");
  EXPECT_EQ(trim("\t\r\n"), "");
}

TEST(Text, SplitWordsDropsRunsOfBlanks) {
  auto words = split_words("  TIME   100\t200 \r");
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(words[0], "TIME");
  EXPECT_EQ(words[2], "200");
}

TEST(Text, ParseIntRejectsJunk) {
  int v = 0;
  EXPECT_TRUE(parse_int("-1", v));
  EXPECT_EQ(v, -1);
  EXPECT_TRUE(parse_int("+7", v));
  EXPECT_EQ(v, 7);
  EXPECT_FALSE(parse_int("12x", v));
  EXPECT_FALSE(parse_int("", v));
  EXPECT_FALSE(parse_int("99999999999", v));
  EXPECT_FALSE(parse_int("+", v));
}

TEST(Text, SplitLinesHandlesCrlfAndFinalNewline) {
  auto lines = split_lines("a\r\nb\n\nc\n");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "a");
  EXPECT_EQ(lines[2], "");
  EXPECT_EQ(lines[3], "c");
}

TEST(Text, AtomicWriteLeavesNoTempFile) {
  const auto dir = std::filesystem::temp_directory_path() / "mushroom_text_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "f.txt").string();
  write_file_atomic(path, "hello\n");
  EXPECT_EQ(read_file(path), "hello\n");
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(dir);
  EXPECT_THROW(read_file(path), std::runtime_error);
}

// Files written together change together (an export's main.cpp and
// data.bin): when one of them cannot be written, none is replaced and no
// temp file is left; otherwise all are, in the order given.
TEST(Text, FilesWrittenTogetherAreReplacedAllOrNone) {
  const auto dir = std::filesystem::temp_directory_path() / "mushroom_text_files_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string data = (dir / "data.bin").string(), source = (dir / "main.cpp").string();
  write_file_atomic(data, "old data");
  write_file_atomic(source, "old source");
  const std::string unwritable = (dir / "no-such-folder" / "main.cpp").string();
  EXPECT_THROW(write_files_atomic({{data, "new data"}, {unwritable, "new source"}}), std::runtime_error);
  EXPECT_EQ(read_file(data), "old data");
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 2);
  write_files_atomic({{data, "new data"}, {source, "new source"}});
  EXPECT_EQ(read_file(data), "new data");
  EXPECT_EQ(read_file(source), "new source");
  files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 2);
  // A rename that fails (a folder where the second file goes) comes after
  // the first one's, in the order given, and leaves no temp file.
  std::filesystem::remove(source);
  std::filesystem::create_directories(std::filesystem::path(source) / "in-the-way");
  EXPECT_THROW(write_files_atomic({{data, "newer data"}, {source, "newer source"}}), std::runtime_error);
  EXPECT_EQ(read_file(data), "newer data");
  files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  std::filesystem::remove_all(dir);
}

TEST(Text, CountOfSaysTheNounInTheRightNumber) {
  EXPECT_EQ(count_of(1, "generation"), "1 generation");
  EXPECT_EQ(count_of(0, "generation"), "0 generations");
  EXPECT_EQ(count_of(3, "match", "matches"), "3 matches");
}

TEST(Text, NearestSpellingFindsSlipsOfTheKeyboardOnly) {
  const std::vector<std::string> options = {"boards", "boards-file", "board-mode", "seed", "log-dir", "parallel"};
  EXPECT_EQ(nearest_spelling("bords", options), "boards");
  EXPECT_EQ(nearest_spelling("boadrs", options), "boards");  // a swap is one edit
  EXPECT_EQ(nearest_spelling("boards-fiel", options), "boards-file");
  EXPECT_EQ(nearest_spelling("logdir", options), "log-dir");
  EXPECT_EQ(nearest_spelling("sed", options), "seed");
  EXPECT_EQ(nearest_spelling("paralel", options), "parallel");
  EXPECT_EQ(nearest_spelling("time", options), "");  // nothing near
  EXPECT_EQ(nearest_spelling("x", {}), "");
}

TEST(Text, NumbersNeverShowANegativeZero) {
  EXPECT_EQ(format_fixed(-0.04, 1), "0.0");
  EXPECT_EQ(format_fixed(-0.0, 2), "0.00");
  EXPECT_EQ(format_fixed(-0.06, 1), "-0.1");
  EXPECT_EQ(format_signed(-0.04, 1), "+0.0");
  EXPECT_EQ(format_signed(12.345, 1), "+12.3");
  EXPECT_EQ(format_signed(-3, 1), "-3.0");
  EXPECT_EQ(format_signed(-INFINITY, 1), "-inf");
}

}  // namespace mushroom
