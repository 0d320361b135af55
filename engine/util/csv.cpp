#include "util/csv.h"

#include <stdexcept>

namespace mushroom {

std::string csv_field(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char ch : text) {
    if (ch == '"') out += '"';
    out += ch;
  }
  return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_field(fields[i]);
  }
  return out;
}

CsvText parse_csv(std::string_view text, const std::string& source) {
  CsvText out;
  CsvRecord record;
  std::string field;
  int line = 1;
  record.line = 1;
  size_t i = 0;
  auto fail = [&](const std::string& why) { throw std::invalid_argument(source + ":" + std::to_string(line) + ": " + why); };
  while (i < text.size()) {
    // One field, quoted or not, then the comma or line end after it.
    if (text[i] == '"') {
      ++i;
      bool closed = false;
      while (i < text.size()) {
        const char ch = text[i++];
        if (ch == '"') {
          if (i < text.size() && text[i] == '"') {
            field += '"';
            ++i;
          } else {
            closed = true;
            break;
          }
        } else {
          if (ch == '\n') ++line;
          field += ch;
        }
      }
      if (!closed) return out;  // the quote is still open: a torn tail
      if (i < text.size() && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r'))
        fail("unexpected '" + std::string(1, text[i]) + "' after a quoted field's closing quote");
    } else {
      while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
        if (text[i] == '"') fail("a double quote inside a field that does not start with one");
        field += text[i++];
      }
    }
    record.fields.push_back(std::move(field));
    field.clear();
    if (i == text.size()) return out;  // no line end yet: a torn tail
    if (text[i] == ',') {
      ++i;
      continue;
    }
    if (text[i] == '\r') {
      if (i + 1 == text.size()) return out;
      if (text[i + 1] != '\n') fail("a CR that does not end a line");
      ++i;
    }
    ++i;  // the LF
    out.records.push_back(std::move(record));
    out.complete_bytes = i;
    record = CsvRecord();
    record.line = ++line;
  }
  return out;
}

std::vector<std::string> split_csv_fields(std::string_view line, const std::string& source) {
  if (line.find_first_of("\r\n") != std::string_view::npos && line.find('"') == std::string_view::npos)
    throw std::invalid_argument(source + ": a line end inside one line");
  const std::string text = std::string(line) + "\n";
  CsvText parsed = parse_csv(text, source);
  if (parsed.records.size() != 1 || parsed.complete_bytes != text.size())
    throw std::invalid_argument(source + ": a quoted field is left open");
  return std::move(parsed.records[0].fields);
}

}  // namespace mushroom
