// The record of the shipped evaluations (bench/shipped/shipped.toml): every
// evaluation that became models/eval.bin, in the order it shipped, each with
// the real-clock match against the one before it that shipped it. The Elo
// curve (arena/elo_curve.h) chains those matches.
//
// The file is TOML, read strictly: an unknown key, a missing one, a value of
// the wrong type, counts that do not add up, a match against anything but
// the entry before, or a games.csv whose games give other counts is refused
// with the file, the line and the key. docs/matches.md ("The shipped
// evaluations") says how to add an entry.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "arena/games_file.h"

namespace mushroom {

struct WinDrawLoss {
  int wins = 0, draws = 0, losses = 0;
  int games() const { return wins + draws + losses; }
  bool operator==(const WinDrawLoss&) const = default;
};

// A match's counts from A's side (A: the evaluation that shipped).
struct MatchCounts {
  int games = 0;
  WinDrawLoss first, second;         // A moving first, A moving second
  std::array<int, 5> pentanomial{};  // pairs by A's score: LL, LD, DD or WL, WD, WW
  bool operator==(const MatchCounts&) const = default;
};

struct ShippedMatch {
  std::string against;  // the name of the entry before
  MatchCounts counts;
  double sprt_elo0 = 0, sprt_elo1 = 0, sprt_alpha = 0.05, sprt_beta = 0.05;
  std::string verdict;  // "H1", "H0" or "undecided": what the SPRT says on these counts
  std::string command;  // the arena command, as it was run
  // The match's games.csv (the arena's --log-dir), when it was kept: a path
  // from the record's folder as written, and the names A and B have in it.
  std::string games_csv, a_name, b_name;
};

struct ShippedEvaluation {
  std::string name;
  std::string model;                  // the weights file, from the repository's root (not opened)
  std::string date;                   // YYYY-MM-DD, the day it shipped
  std::string commit;                 // the commit that shipped it (7 to 40 hex digits)
  std::string history;                // where its measurement is told, from the repository's root, #anchor allowed
  std::optional<ShippedMatch> match;  // none for the first entry, the anchor
};

// Reads and checks the record; a match's games_csv is read (relative to the
// record's folder) and must give the stated counts. Throws
// std::invalid_argument naming the file, the line and the problem.
std::vector<ShippedEvaluation> read_shipped_record(const std::string& path);

// The counts of a match from its games (a games file's records): A is
// a_name, B b_name; pairs are complete pairs only, as the arena counts them.
// Throws std::invalid_argument naming `where` for a game of other programs.
MatchCounts count_match(const std::vector<GameRecord>& games, const std::string& a_name, const std::string& b_name,
                        const std::string& where);

// A match's counts as the statistics take them: one score per complete pair
// (0, 1/4, 1/2, 3/4 or 1 for A), from the pentanomial counts.
std::vector<double> pair_scores_of(const std::array<int, 5>& pentanomial);

}  // namespace mushroom
