// A match's report in its two forms, from one set of figures: report.txt
// for people (format_report, arena/arena.h) and report.json for programs
// (docs/reports.md, "The arena's report"), so that the two always agree.
#pragma once
#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arena/arena.h"

namespace mushroom {

struct SeatTally {
  int w = 0, d = 0, l = 0;
  void add(int outcome) { (outcome > 0 ? w : outcome < 0 ? l : d)++; }
};

// One sequential test's figures, as the report prints them.
struct TestFigures {
  double lower = 0, upper = 0;  // the LLR's bounds
  SprtVerdict verdict;
  bool stops = false;           // it is the test that stops the match
  // Wald's estimates (MeanSprt::expected_pairs, pairs_at_h1) in games;
  // none when the mean sits where the LLR does not drift.
  std::optional<int> expected_games, games_to_h1;
};

// Every figure of a match's report, from A's side.
struct ArenaFigures {
  int games = 0, pairs = 0, resumed = 0;
  SeatTally a_first, a_second, total;
  double points = 0;        // A's: wins and half the draws
  double score = 0.5;       // points a game (0.5 with no game)
  double mean_margin = 0;   // A's cells minus B's a game, a forfeit a loss by the cap
  MeanInterval paired_margin, capped_margin;
  EloEstimate elo;          // logistic, with its interval and the LOS
  std::array<int, 5> pentanomial{};
  NormalizedElo normalized;
  struct Forfeits {
    int count = 0;
    std::map<std::string, int> by_reason;            // the reason's first words: games
    std::map<std::string, std::string> example;      // the reason's first words: one reason in full
  } forfeits[2];
  std::optional<TestFigures> sprt, margin_sprt;
};

ArenaFigures arena_figures(const ArenaConfig& config, const ArenaReport& report);

// Writes report.json (atomically): the settings, the programs with their
// fingerprints (arena/program_fingerprint.h) and the figures above. Schema
// "mushroom-arena-report", version kArenaReportVersion.
constexpr int kArenaReportVersion = 1;
void write_report_json(const std::string& path, const ArenaConfig& config, const ArenaReport& report);

}  // namespace mushroom
