// The record of shipped evaluations: read as written, and refused, by name,
// where a key, a count or a match does not hold.
#include "arena/shipped_record.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

const char* const kFixture = "testdata/shipped/shipped.toml";

// The fixture with `from` replaced by `to`, written beside a copy of its
// games.csv; the error reading it gives ("" when it reads).
std::string error_reading_edited(const std::string& from, const std::string& to) {
  std::string text = read_file(kFixture);
  const size_t at = text.find(from);
  if (at == std::string::npos) return "the fixture has no '" + from + "'";
  text.replace(at, from.size(), to);
  const fs::path dir = test_scratch_dir() / "shipped-record";
  fs::create_directories(dir / "beta");
  fs::copy_file("testdata/shipped/beta/games.csv", dir / "beta/games.csv", fs::copy_options::overwrite_existing);
  write_file_atomic((dir / "shipped.toml").string(), text);
  try {
    read_shipped_record((dir / "shipped.toml").string());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ShippedRecord, ReadsTheFixtureAsWritten) {
  const std::vector<ShippedEvaluation> record = read_shipped_record(kFixture);
  ASSERT_EQ(record.size(), 3u);
  EXPECT_EQ(record[0].name, "alpha");
  EXPECT_FALSE(record[0].match);
  EXPECT_EQ(record[0].date, "2026-01-01");
  ASSERT_TRUE(record[1].match);
  const ShippedMatch& beta = *record[1].match;
  EXPECT_EQ(beta.against, "alpha");
  EXPECT_EQ(beta.counts.games, 21);
  EXPECT_EQ(beta.counts.first, (WinDrawLoss{9, 1, 1}));
  EXPECT_EQ(beta.counts.second, (WinDrawLoss{2, 2, 6}));
  EXPECT_EQ(beta.counts.pentanomial, (std::array<int, 5>{1, 1, 4, 2, 2}));
  EXPECT_EQ(beta.verdict, "undecided");
  EXPECT_EQ(beta.games_csv, "beta/games.csv");
  ASSERT_TRUE(record[2].match);
  EXPECT_EQ(record[2].match->counts.pentanomial, (std::array<int, 5>{4, 17, 206, 20, 16}));
  EXPECT_EQ(record[2].commit, "3333333333333333333333333333333333333333");
}

TEST(ShippedRecord, TheCommittedRecordReads) {
  const std::vector<ShippedEvaluation> record = read_shipped_record("bench/shipped/shipped.toml");
  ASSERT_GE(record.size(), 2u);
  EXPECT_EQ(record[0].name, "eval3-gen11");
  EXPECT_EQ(record[1].name, "eval-2h-norandom-gen2");
}

TEST(ShippedRecord, CountsTheGamesFileAsTheArenaPairsThem) {
  const MatchCounts c = count_match(read_games_file("testdata/shipped/beta/games.csv", false), "beta", "alpha", "x");
  EXPECT_EQ(c.games, 21);
  EXPECT_EQ(c.first, (WinDrawLoss{9, 1, 1}));
  EXPECT_EQ(c.second, (WinDrawLoss{2, 2, 6}));
  // Board 10 has one game: no pair.
  EXPECT_EQ(c.pentanomial, (std::array<int, 5>{1, 1, 4, 2, 2}));
  // Seen from the other side, every pair turns around.
  const MatchCounts b = count_match(read_games_file("testdata/shipped/beta/games.csv", false), "alpha", "beta", "x");
  EXPECT_EQ(b.pentanomial, (std::array<int, 5>{2, 2, 4, 1, 1}));
  EXPECT_EQ(b.second, (WinDrawLoss{1, 1, 9}));
}

TEST(ShippedRecord, AGameOfOtherProgramsIsRefused) {
  std::vector<GameRecord> games = read_games_file("testdata/shipped/beta/games.csv", false);
  games[3].first = "gamma";
  try {
    count_match(games, "beta", "alpha", "beta/games.csv");
    FAIL() << "a game of gamma was counted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("beta/games.csv: board 1 was played by gamma and beta"), std::string::npos)
        << e.what();
  }
}

TEST(ShippedRecord, PairScoresFollowThePentanomialCounts) {
  EXPECT_EQ(pair_scores_of({1, 0, 2, 0, 1}), (std::vector<double>{0, 0.5, 0.5, 1}));
  EXPECT_EQ(pair_scores_of({0, 1, 0, 1, 0}), (std::vector<double>{0.25, 0.75}));
}

TEST(ShippedRecord, CountsThatDisagreeWithTheGamesFileAreRefused) {
  // One draw moved to a win in the second seat: the games sum still holds.
  const std::string e = error_reading_edited("second_wdl = [2, 2, 6]\npentanomial = [1, 1, 4, 2, 2]",
                                             "second_wdl = [3, 1, 6]\npentanomial = [1, 1, 3, 3, 2]");
  EXPECT_NE(e.find("shipped[2].match states 21 games, 9-1-1 first, 3-1-6 second, pentanomial 1 1 3 3 2, but its "
                   "games"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("give 21 games, 9-1-1 first, 2-2-6 second, pentanomial 1 1 4 2 2"), std::string::npos) << e;
}

TEST(ShippedRecord, CountsThatDoNotAddUpAreRefused) {
  std::string e = error_reading_edited("games = 21", "games = 22");
  EXPECT_NE(e.find("shipped[2].match.games and its counts disagree: the W-D-L of the two seats add up to 21 games, "
                   "not the 22 stated"),
            std::string::npos)
      << e;
  e = error_reading_edited("pentanomial = [1, 1, 4, 2, 2]", "pentanomial = [1, 1, 9, 2, 2]");
  EXPECT_NE(e.find("the pentanomial counts hold 15 pairs, 30 games, more than the 21 stated"), std::string::npos) << e;
  e = error_reading_edited("pentanomial = [1, 1, 4, 2, 2]", "pentanomial = [2, 1, 4, 2, 1]");
  EXPECT_NE(e.find("cannot make up the difference"), std::string::npos) << e;
  e = error_reading_edited("pentanomial = [1, 1, 4, 2, 2]", "pentanomial = [1, 1, 4, 2]");
  EXPECT_NE(e.find("shipped[2].match.pentanomial must be five counts"), std::string::npos) << e;
}

TEST(ShippedRecord, UnknownKeysAreRefusedByName) {
  std::string e = error_reading_edited("pentanomial = [1, 1, 4, 2, 2]", "pentanomail = [1, 1, 4, 2, 2]");
  EXPECT_NE(e.find("shipped.toml:25: unknown key 'shipped[2].match.pentanomail' (did you mean 'pentanomial'?)"),
            std::string::npos)
      << e;
  e = error_reading_edited("commit = \"2222222\"", "commit = \"2222222\"\nsha = \"x\"");
  EXPECT_NE(e.find("unknown key 'shipped[2].sha'"), std::string::npos) << e;
}

TEST(ShippedRecord, AMatchAgainstAnyButTheEntryBeforeIsRefused) {
  const std::string e = error_reading_edited("against = \"beta\"", "against = \"alpha\"");
  EXPECT_NE(e.find("shipped[3].match.against is 'alpha', but the entry before gamma is 'beta'"), std::string::npos)
      << e;
}

TEST(ShippedRecord, AVerdictTheCountsDoNotReachIsRefused) {
  const std::string e = error_reading_edited("verdict = \"H1\"", "verdict = \"undecided\"");
  EXPECT_NE(e.find("shipped[3].match.verdict is undecided, but the stated counts give LLR 3.11 against the bounds "
                   "[-2.94, 2.94]: H1"),
            std::string::npos)
      << e;
}

// The SPRT's error rates (sprt_alpha, sprt_beta; 0.05 each when absent)
// move the bounds the verdict is checked against: gamma's LLR 3.11 reaches
// H1 with alpha 0.2 and beta 0.01 (upper bound 1.60), not with alpha 0.01
// (4.55). Rates out of (0, 0.5) and elo0 not below elo1 are refused by name.
TEST(ShippedRecord, TheSprtsErrorRatesSetTheBoundsTheVerdictIsCheckedAgainst) {
  const std::string gamma = "sprt = [0, 15]\nverdict = \"H1\"";
  const auto with = [&](const std::string& lines) {
    return error_reading_edited(gamma, "sprt = [0, 15]\n" + lines + "verdict = \"H1\"");
  };
  EXPECT_EQ(with("sprt_alpha = 0.2\nsprt_beta = 0.01\n"), "");
  std::string e = with("sprt_alpha = 0.01\n");
  EXPECT_NE(e.find("shipped[3].match.verdict is H1, but the stated counts give LLR 3.11 against the bounds "
                   "[-2.99, 4.55]: undecided"),
            std::string::npos)
      << e;
  e = with("sprt_alpha = 0.5\n");
  EXPECT_NE(e.find("sprt_alpha"), std::string::npos) << e;
  EXPECT_NE(e.find("must be above 0 and below 0.5"), std::string::npos) << e;
  e = with("sprt_beta = 0\n");
  EXPECT_NE(e.find("sprt_beta"), std::string::npos) << e;
  EXPECT_NE(e.find("must be above 0 and below 0.5"), std::string::npos) << e;
  e = error_reading_edited(gamma, "sprt = [15, 0]\nverdict = \"H1\"");
  EXPECT_NE(e.find("sprt"), std::string::npos) << e;
  EXPECT_NE(e.find("needs elo0 < elo1"), std::string::npos) << e;
}

TEST(ShippedRecord, MalformedEntriesAreRefusedByName) {
  EXPECT_NE(
      error_reading_edited("date = 2026-01-02", "date = \"2026-01-02\"").find("shipped[2].date must be a TOML date"),
      std::string::npos);
  EXPECT_NE(error_reading_edited("date = 2026-01-02", "date = 2025-12-31").find("is before the entry before it"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("commit = \"2222222\"", "commit = \"main\"")
                .find("shipped[2].commit 'main' is not a commit"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("model = \"models/beta.bin\"\n", "").find("shipped[2].model is missing"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("games = 21", "games = -21").find("shipped[2].match.games must be a whole number"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("name = \"gamma\"", "name = \"beta\"").find("'beta' is the name of an earlier entry"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("history = \"docs/history/README.md\"\n",
                                 "history = \"docs/history/README.md\"\nmatch = { against = \"x\" }\n")
                .find("shipped[1].match is not allowed on the first entry"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("games_csv = \"beta/games.csv\"", "games_csv = \"beta/none.csv\"")
                .find("shipped[2].match.games_csv: no file"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("a_name = \"beta\"\n", "").find("shipped[2].match.a_name is needed with games_csv"),
            std::string::npos);
  EXPECT_NE(error_reading_edited("[[shipped]]\nname = \"alpha\"", "[[shipped]\nname = \"alpha\"").find(": not TOML: "),
            std::string::npos);
}

// A table header that toml++ 3.3 asserts on instead of refusing (issue
// 101's fuzzing of the run config, which reads TOML as this record does) is
// refused as malformed TOML, naming the file.
TEST(ShippedRecord, AHeaderTheTomlParserAssertsOnIsRefusedByName) {
  const std::string e = error_reading_edited("[shipped.match]", "[!shipped.match]");
  EXPECT_NE(e.find("shipped.toml: not TOML: the TOML parser's check '"), std::string::npos) << e;
}

// A character toml++ 3.3 cannot read safely (engine/util/toml.h) is refused
// before toml++ reads the record, naming the place.
TEST(ShippedRecord, ACharacterTheTomlParserMishandlesIsRefusedByName) {
  const std::string e = error_reading_edited("name = \"alpha\"", "name = \"alph\u00e9\"");
  EXPECT_NE(e.find("shipped.toml: not TOML: line 7, column 13: the character U+00E9"), std::string::npos) << e;
}

TEST(ShippedRecord, AMissingFileIsRefusedByName) {
  try {
    read_shipped_record("testdata/shipped/none.toml");
    FAIL() << "a missing record was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no record file testdata/shipped/none.toml");
  }
}

}  // namespace
}  // namespace mushroom
