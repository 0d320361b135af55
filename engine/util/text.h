// Text helpers shared by the file parsers and the protocol reader.
#pragma once
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace mushroom {

// Removes a trailing '\r' (CRLF files) and surrounding spaces/tabs.
std::string_view trim(std::string_view s);

// Splits on runs of spaces and tabs; empty fields are dropped.
std::vector<std::string_view> split_words(std::string_view s);

// Parses a whole word as a base-10 int; false on any junk or overflow.
bool parse_int(std::string_view word, int& out);
// Parses a whole word as a finite decimal number; false on junk.
bool parse_double(std::string_view word, double& out);
// `value` with `decimals` digits after the point ("0.2500"); never "-0.0".
std::string format_fixed(double value, int decimals);
// The same with its sign always shown: "+12.5", "-3.0", "+0.0", "+inf".
std::string format_signed(double value, int decimals);
// "1 generation", "3 generations": the count and the noun, plural unless 1.
std::string count_of(long long n, const std::string& singular, const std::string& plural = "");

// The candidate closest to `word` in edit distance (insertions, deletions,
// substitutions and swaps of neighbours), when close enough to be a slip
// of the keyboard: at most 1 edit for words up to 4 characters, else at
// most a third of the word. "" when none is.
std::string nearest_spelling(const std::string& word, const std::vector<std::string>& candidates);

// Reads a whole file; throws std::runtime_error naming the path on failure.
std::string read_file(const std::string& path);

// Writes a file atomically: a temp file beside it, then rename.
void write_file_atomic(const std::string& path, std::string_view content);

// Writes files that belong together (an exported bot's main.cpp and its
// data.bin): every temp file is written whole first, and only then are they
// renamed into place, in the order given. A failure before the renames
// changes none of the files; a kill leaves at most the renames' few
// microseconds in which the first files are new and the later ones old.
void write_files_atomic(const std::vector<std::pair<std::string, std::string_view>>& files);

// Splits text into lines (without the terminators; CR stripped).
std::vector<std::string> split_lines(std::string_view text);

}  // namespace mushroom
