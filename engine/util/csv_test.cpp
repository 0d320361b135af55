#include "util/csv.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace mushroom {
namespace {

TEST(Csv, PlainFieldsAreWrittenAsTheyAre) {
  EXPECT_EQ(csv_field("crashed before READY"), "crashed before READY");
  EXPECT_EQ(csv_row({"a", "", "b c"}), "a,,b c");
}

TEST(Csv, FieldsWithCommasQuotesOrLineEndsAreQuotedWithQuotesDoubled) {
  EXPECT_EQ(csv_field("x,y"), "\"x,y\"");
  EXPECT_EQ(csv_field("illegal move \"A 1\""), "\"illegal move \"\"A 1\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\r"), "\"cr\r\"");
}

TEST(Csv, WhatIsWrittenIsReadBackExactly) {
  const std::vector<std::string> fields = {"new", "old", "illegal move \"A 1 2\", expected OK", "line\nbreak",
                                           "", "\"", ",", "crlf\r\nend"};
  const std::string text = csv_row(fields) + "\n" + csv_row({"1", "2"}) + "\r\n";
  const CsvText parsed = parse_csv(text, "t.csv");
  ASSERT_EQ(parsed.records.size(), 2u);
  EXPECT_EQ(parsed.records[0].fields, fields);
  EXPECT_EQ(parsed.records[0].line, 1);
  EXPECT_EQ(parsed.records[1].fields, (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(parsed.records[1].line, 4);  // the first record spans lines 1-3
  EXPECT_EQ(parsed.complete_bytes, text.size());
  EXPECT_EQ(split_csv_fields(csv_row(fields)), fields);
}

TEST(Csv, ATornTailIsLeftOutOfTheRecords) {
  const std::string whole = "a,b\n";
  for (const std::string tail : {"c,d", "c,\"open", "c,\"open\nstill", "c,d\r"}) {
    const CsvText parsed = parse_csv(whole + tail, "t.csv");
    ASSERT_EQ(parsed.records.size(), 1u) << tail;
    EXPECT_EQ(parsed.complete_bytes, whole.size()) << tail;
  }
  EXPECT_TRUE(parse_csv("", "t.csv").records.empty());
}

TEST(Csv, MalformedTextIsRefusedWithItsLine) {
  auto message = [](const std::string& text) {
    try {
      parse_csv(text, "games.csv");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("a,b\nx\"y,z\n"), "games.csv:2: a double quote inside a field that does not start with one");
  EXPECT_EQ(message("\"a\"b,c\n"), "games.csv:1: unexpected 'b' after a quoted field's closing quote");
  EXPECT_EQ(message("a\rb\n"), "games.csv:1: a CR that does not end a line");
  EXPECT_THROW(split_csv_fields("a,\"open", "line 3"), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom
