// Comma-separated values as RFC 4180 writes them: a field that holds a
// comma, a double quote, a CR or an LF is enclosed in double quotes, with
// each of its double quotes doubled; any other field is written as it is.
// The reader takes back exactly what the writer wrote, so a forfeit reason
// such as `illegal move "A 1 2", expected OK` survives a games file.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mushroom {

std::string csv_field(std::string_view text);
// The fields joined by commas, without a line end.
std::string csv_row(const std::vector<std::string>& fields);

struct CsvRecord {
  std::vector<std::string> fields;
  int line = 0;  // the 1-based line the record starts on
};

struct CsvText {
  std::vector<CsvRecord> records;
  // Bytes of the text up to the end of its last complete record: a record
  // is complete when its line end (LF or CRLF) lies outside quotes. What
  // follows is a torn tail, such as a write cut by a kill.
  size_t complete_bytes = 0;
};

// Every record of `text`. Throws std::invalid_argument naming
// `source:line` for a double quote inside an unquoted field, or anything
// but a comma or a line end after a closing quote.
CsvText parse_csv(std::string_view text, const std::string& source);

// The fields of one line (no line end in it). Throws as parse_csv does, and
// for a quoted field left open.
std::vector<std::string> split_csv_fields(std::string_view line, const std::string& source = "CSV line");

}  // namespace mushroom
